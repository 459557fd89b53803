package render

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"sync"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"

	"topochess/engine"
)

// sprite is a small picture composited onto a paletted board: opaque
// pixels carry their palette index, partly covered ones their
// premultiplied colour and coverage, blended with what lies below.
type sprite struct {
	n       int // n×n pixels
	idx     []uint8
	a       []uint8
	r, g, b []uint8
}

func newSprite(img *image.RGBA) *sprite {
	p := palette()
	n := img.Rect.Dx()
	s := &sprite{n: n, idx: make([]uint8, n*n), a: make([]uint8, n*n),
		r: make([]uint8, n*n), g: make([]uint8, n*n), b: make([]uint8, n*n)}
	for i := range s.a {
		px := img.Pix[4*i : 4*i+4]
		s.r[i], s.g[i], s.b[i], s.a[i] = px[0], px[1], px[2], px[3]
		if px[3] == 0xff {
			s.idx[i] = p.index(color.RGBA{px[0], px[1], px[2], 0xff})
		}
	}
	return s
}

// draw composites the sprite with its top-left corner at (x0, y0).
func (s *sprite) draw(dst *image.Paletted, x0, y0 int) {
	p := palette()
	r := image.Rect(x0, y0, x0+s.n, y0+s.n).Intersect(dst.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := dst.Pix[(y-dst.Rect.Min.Y)*dst.Stride:]
		si := (y-y0)*s.n + r.Min.X - x0
		for x := r.Min.X; x < r.Max.X; x, si = x+1, si+1 {
			a := s.a[si]
			if a == 0 {
				continue
			}
			d := &row[x-dst.Rect.Min.X]
			if a == 0xff {
				*d = s.idx[si]
				continue
			}
			bg := p.rgba[*d]
			inv := uint32(0xff - a)
			cr := uint32(s.r[si]) + (uint32(bg.R)*inv+127)/255
			cg := uint32(s.g[si]) + (uint32(bg.G)*inv+127)/255
			cb := uint32(s.b[si]) + (uint32(bg.B)*inv+127)/255
			*d = p.lut[(cr>>3)<<10|(cg>>3)<<5|cb>>3]
		}
	}
}

// Sprite kinds besides pieces.
const (
	spriteDot = 100 + iota
	spriteRing
)

// Pawn arrows: which way on the picture a pawn moves.
const (
	arrowNone = iota
	arrowUp
	arrowDown
)

type spriteKey struct {
	what  int // a Piece, or spriteDot / spriteRing
	arrow int
	size  int
}

var sprites sync.Map // spriteKey → *sprite

func getSprite(k spriteKey) *sprite {
	if s, ok := sprites.Load(k); ok {
		return s.(*sprite)
	}
	var img *image.RGBA
	switch k.what {
	case spriteDot, spriteRing:
		img = drawMarker(k.what, k.size)
	default:
		img = drawPiece(engine.Piece(k.what), k.arrow, k.size)
	}
	s, _ := sprites.LoadOrStore(k, newSprite(img))
	return s.(*sprite)
}

func drawMarker(what, n int) *image.RGBA {
	dc := gg.NewContext(n, n)
	o := overlays[hlDot]
	dc.SetColor(color.NRGBA{o.c.R, o.c.G, o.c.B, uint8(o.alpha * 255)})
	c := float64(n) / 2
	if what == spriteDot {
		dc.DrawCircle(c, c, 0.2*float64(n))
		dc.Fill()
	} else {
		// Thick enough to read on the small cells of the cube net too.
		w := math.Max(0.12*float64(n), 3)
		dc.SetLineWidth(w)
		dc.DrawCircle(c, c, c-w/2-0.5)
		dc.Stroke()
	}
	return dc.Image().(*image.RGBA)
}

// Glyph runes: the outlined (white) set from U+2654, the solid set from
// U+265A, in the order K Q R B N P.
var glyphOrder = [...]int{engine.King: 0, engine.Queen: 1, engine.Rook: 2, engine.Bishop: 3, engine.Knight: 4, engine.Pawn: 5}

// Pieces fill this share of their box (the king's height).
const pieceShare = 0.84

// drawPiece draws a piece so that White and Black read at a glance on
// light, dark and highlighted cells alike. White: the outlined glyph in
// near-black with its inside filled white. Black: the solid glyph in
// near-black with its enclosed details filled light and a thin light rim
// that lifts it off dark cells.
func drawPiece(pc engine.Piece, arrow, n int) *image.RGBA {
	dc := gg.NewContext(n, n)
	k := pc.Kind()
	if k < engine.Pawn || k > engine.King {
		return dc.Image().(*image.RGBA)
	}
	// Size the font so the king is pieceShare of the box, and stand every
	// piece on the king's baseline so a row of pieces lines up.
	f := fontRegular()
	probe := 100.0
	kb, _ := font.BoundString(newFace(f, probe), "♚")
	px := probe * pieceShare * float64(n) / (float64(kb.Max.Y-kb.Min.Y) / 64)
	face := newFace(f, px)
	kb, _ = font.BoundString(face, "♚")
	baseline := float64(n)/2 - float64(kb.Min.Y+kb.Max.Y)/128
	glyph := string(rune(0x2654 + glyphOrder[k]))
	fill, line := colWhiteFill, colWhiteLine
	if pc.Color() == engine.Black {
		glyph = string(rune(0x265A + glyphOrder[k]))
		fill, line = colBlackLine, colBlackFill
	}
	gb, _ := font.BoundString(face, glyph)
	gx := float64(n)/2 - float64(gb.Min.X+gb.Max.X)/128

	// Text goes through font.Drawer (gg draws text through a bilinear
	// transform, many times slower).
	ink := func(dst draw.Image, src image.Image, face font.Face, x, y float64) {
		d := font.Drawer{Dst: dst, Src: src, Face: face, Dot: fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6(y * 64)}}
		d.DrawString(glyph)
	}
	// Find the inside at four times the size, where thin strokes have no
	// gaps for the fill to leak through, then average back down.
	const ss = 4
	big := image.NewAlpha(image.Rect(0, 0, ss*n, ss*n))
	ink(big, image.Opaque, newFace(f, ss*px), ss*gx, ss*baseline)
	inside := enclosed(big, ss*n)

	img := dc.Image().(*image.RGBA)
	if pc.Color() == engine.Black {
		glyphMask := image.NewAlpha(image.Rect(0, 0, n, n))
		ink(glyphMask, image.Opaque, face, gx, baseline)
		rim := dilate(glyphMask, math.Max(1.2, float64(n)/40))
		draw.DrawMask(img, img.Rect, image.NewUniform(colBlackLine), image.Point{}, rim, image.Point{}, draw.Over)
	}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			cov := 0
			for j := 0; j < ss*ss; j++ {
				if inside[(ss*y+j/ss)*ss*n+ss*x+j%ss] {
					cov++
				}
			}
			if cov == 0 {
				continue
			}
			// Fill over what is there (the rim), premultiplied.
			a := uint32(cov * 255 / (ss * ss))
			px := img.Pix[4*(y*n+x) : 4*(y*n+x)+4]
			px[0] = uint8((uint32(fill.R)*a + uint32(px[0])*(255-a)) / 255)
			px[1] = uint8((uint32(fill.G)*a + uint32(px[1])*(255-a)) / 255)
			px[2] = uint8((uint32(fill.B)*a + uint32(px[2])*(255-a)) / 255)
			px[3] = uint8(a + uint32(px[3])*(255-a)/255)
		}
	}
	ink(img, image.NewUniform(line), face, gx, baseline)
	if arrow != arrowNone {
		drawArrow(dc, arrow, float64(n), colWhiteFill, colWhiteLine)
	}
	return dc.Image().(*image.RGBA)
}

// dilate grows a mask by r pixels (a round brush).
func dilate(m *image.Alpha, r float64) *image.Alpha {
	n := m.Rect.Dx()
	out := image.NewAlpha(m.Rect)
	k := int(math.Ceil(r))
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			var best uint8
			for dy := -k; dy <= k; dy++ {
				for dx := -k; dx <= k; dx++ {
					xx, yy := x+dx, y+dy
					if xx < 0 || yy < 0 || xx >= n || yy >= n || float64(dx*dx+dy*dy) > r*r+0.5 {
						continue
					}
					best = max(best, m.Pix[yy*n+xx])
				}
			}
			out.Pix[y*n+x] = best
		}
	}
	return out
}

// enclosed marks the pixels a glyph encloses: not ink, and not reachable
// from the box's border without crossing ink.
func enclosed(img *image.Alpha, n int) []bool {
	ink := func(i int) bool { return img.Pix[i] >= 0x80 }
	seen := make([]bool, n*n)
	var stack []int
	push := func(x, y int) {
		if x < 0 || y < 0 || x >= n || y >= n {
			return
		}
		if i := y*n + x; !seen[i] && !ink(i) {
			seen[i] = true
			stack = append(stack, i)
		}
	}
	for i := 0; i < n; i++ {
		push(i, 0)
		push(i, n-1)
		push(0, i)
		push(n-1, i)
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := i%n, i/n
		push(x+1, y)
		push(x-1, y)
		push(x, y+1)
		push(x, y-1)
	}
	in := make([]bool, n*n)
	for i := range in {
		in[i] = !seen[i] && !ink(i)
	}
	return in
}

// drawArrow puts a small triangle beside a pawn pointing the way it moves
// on the picture (the direction variants' + and − pawns).
func drawArrow(dc *gg.Context, arrow int, n float64, fill, line color.RGBA) {
	cx, cy := 0.86*n, 0.27*n
	hw, hh := 0.1*n, 0.12*n
	dir := -1.0 // screen y grows downward
	if arrow == arrowDown {
		dir = 1
	}
	dc.MoveTo(cx, cy+dir*hh)
	dc.LineTo(cx-hw, cy-dir*hh)
	dc.LineTo(cx+hw, cy-dir*hh)
	dc.ClosePath()
	dc.SetColor(fill)
	dc.FillPreserve()
	dc.SetColor(line)
	dc.SetLineWidth(math.Max(1.2, n/45))
	dc.Stroke()
}
