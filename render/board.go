package render

import (
	"image"
	"image/color"
	"math"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"

	"topochess/engine"
)

// board is everything about an empty board that does not depend on the
// position: built once per variant, size and orientation, then only read.
type board struct {
	t      transform
	plan   plan
	labels []textBox // where label and mark texts are drawn
	base   *image.Paletted
	shapes []shapeInfo
	byCell [][]int // shape indices of each cell
}

// textBox is a drawn text's extent in pixels and its cap height.
type textBox struct {
	x0, y0, x1, y1 float64
	cap            float64
	onCell         bool
	text           string
}

// span is a run of pixels [x0, x1) on row y.
type span struct{ y, x0, x1 int32 }

// shapeInfo is one drawn appearance of a cell, in pixels.
type shapeInfo struct {
	cell int
	poly [][2]float64
	fill []span // the pixels where this shape is the topmost one
	band []span // those of them near the shape's border
	// Pieces are drawn centred on (ax, ay) in a size×size box: the largest
	// box that fits the visible part of the shape.
	ax, ay float64
	size   int
	// down: '+' pawns go down the picture on this shape.
	down bool
}

func buildBoard(v *engine.Variant, width int, flip bool) *board {
	l := v.Geo.Layout
	pl := planFor(l, width, flip)
	t := pl.t
	b := &board{t: t, plan: pl, byCell: make([][]int, v.Geo.N)}
	for i, sh := range l.Shapes {
		si := shapeInfo{cell: sh.Cell, down: sh.Down}
		for _, p := range sh.Poly {
			x, y := t.px(p)
			si.poly = append(si.poly, [2]float64{x, y})
		}
		b.shapes = append(b.shapes, si)
		if sh.Cell >= 0 && sh.Cell < len(b.byCell) {
			b.byCell[sh.Cell] = append(b.byCell[sh.Cell], i)
		}
	}
	img, labels := drawBoard(l, pl)
	b.base, b.labels = quantize(img), labels
	b.rasterize()
	return b
}

// cellColor is the flat colour of a shape (or of the Dark half of a Split
// shape when dark is its flag).
func cellColor(dark, tint bool) color.RGBA {
	switch {
	case tint && dark:
		return colTintDark
	case tint:
		return colTintLight
	case dark:
		return colDark
	}
	return colLight
}

func pathPoly(dc *gg.Context, t transform, pts []engine.Point) {
	for i, p := range pts {
		x, y := t.px(p)
		if i == 0 {
			dc.MoveTo(x, y)
		} else {
			dc.LineTo(x, y)
		}
	}
	dc.ClosePath()
}

// drawBoard paints the empty board: frame, cells, marks, labels.
func drawBoard(l *engine.Layout, pl plan) (*image.RGBA, []textBox) {
	t := pl.t
	var boxes []textBox
	dc := gg.NewContext(t.w, t.h)
	dc.SetColor(colFrame)
	dc.Clear()
	s := t.scale
	for _, sh := range l.Shapes {
		n := len(sh.Poly)
		if sh.Split && n >= 3 {
			// The diagonal from Poly[1] to Poly[k] divides the colours: the
			// part holding Poly[0] takes the shape's own, the rest the other.
			k := 1 + n/2
			first := append(append([]engine.Point{}, sh.Poly[k:]...), sh.Poly[0], sh.Poly[1])
			pathPoly(dc, t, first)
			dc.SetColor(cellColor(sh.Dark, sh.Tint))
			dc.Fill()
			pathPoly(dc, t, sh.Poly[1:k+1])
			dc.SetColor(cellColor(!sh.Dark, sh.Tint))
			dc.Fill()
			continue
		}
		pathPoly(dc, t, sh.Poly)
		dc.SetColor(cellColor(sh.Dark, sh.Tint))
		dc.Fill()
	}
	// Two-coloured cells overlap their neighbours' colours: outline them
	// so each cell reads as one.
	for _, sh := range l.Shapes {
		if sh.Split {
			pathPoly(dc, t, sh.Poly)
			dc.SetColor(colEdge)
			dc.SetLineWidth(math.Max(1.5, 0.025*s))
			dc.Stroke()
		}
	}
	faces := newFaces()
	face := faces.bold(pl.em)
	dc.SetFontFace(face)
	glue := 0
	for k, m := range l.Marks {
		x0, y0 := t.px(m.From)
		x1, y1 := t.px(m.To)
		var c color.RGBA
		switch m.Kind {
		case "glue":
			c = colGlue[(glue/2)%len(colGlue)]
			glue++
			drawGlue(dc, c, x0, y0, x1, y1, s)
		case "seam":
			c = colSeam
			dc.SetColor(c)
			dc.SetLineWidth(math.Max(3, 0.07*s))
			dc.SetDash(0.25*s, 0.12*s)
			dc.DrawLine(x0, y0, x1, y1)
			dc.Stroke()
			dc.SetDash()
		default: // "switch" and anything new: a plain outline
			c = colSwitch
			dc.SetColor(c)
			dc.SetLineWidth(math.Max(3, 0.07*s))
			dc.SetLineCap(gg.LineCapRound)
			dc.DrawLine(x0, y0, x1, y1)
			dc.Stroke()
		}
		if mp := pl.marks[k]; mp.ok {
			x, y := t.px(mp.at)
			dx, dy := mp.dx*t.sx, mp.dy*t.sy
			ang := math.Atan2(dy, dx)
			// Keep text upright: vertical text reads bottom to top.
			if ang > math.Pi/2+1e-9 || ang <= -math.Pi/2+1e-9 {
				ang += math.Pi
			}
			if math.Abs(math.Abs(ang)-math.Pi/2) < 1e-6 {
				ang = -math.Pi / 2
			}
			dc.Push()
			dc.RotateAbout(ang, x, y)
			dc.SetColor(mix(c, colLabel, 0.35))
			bx := drawText(dc, mp.text, x, y, pl.em)
			dc.Pop()
			if math.Abs(math.Sin(ang)) > 0.5 {
				// Turned a quarter: width and height swap about the centre.
				hw, hh := (bx.x1-bx.x0)/2, (bx.y1-bx.y0)/2
				bx.x0, bx.x1, bx.y0, bx.y1 = x-hh, x+hh, y-hw, y+hw
			}
			boxes = append(boxes, bx)
		}
	}
	for _, lb := range pl.labels {
		x, y := t.px(lb.at)
		if lb.onCell {
			// On a cell that holds no piece: dark text on a light halo.
			bx := haloText(dc, lb.text, x, y, pl.em)
			bx.onCell = true
			boxes = append(boxes, bx)
			continue
		}
		dc.SetColor(colLabel)
		boxes = append(boxes, drawText(dc, lb.text, x, y, pl.em))
	}
	return dc.Image().(*image.RGBA), boxes
}

func haloText(dc *gg.Context, text string, x, y, em float64) textBox {
	r := math.Max(1, em/9)
	dc.SetColor(colHalo)
	for a := 0; a < 8; a++ {
		th := float64(a) * math.Pi / 4
		drawText(dc, text, x+r*math.Cos(th), y+r*math.Sin(th), em)
	}
	dc.SetColor(colSmall)
	return drawText(dc, text, x, y, em)
}

// drawText draws a text centred on (x, y) with its capitals centred
// vertically, and returns the box its ink may cover.
func drawText(dc *gg.Context, text string, x, y, em float64) textBox {
	w, _ := dc.MeasureString(text)
	base := y + capHeight*em/2
	dc.DrawString(text, x-w/2, base)
	return textBox{x0: x - w/2, x1: x + w/2, y0: base - 0.77*em, y1: base + 0.24*em, cap: capHeight * em, text: text}
}

// drawGlue draws a glued edge: a coloured band with arrowheads pointing
// from From to To, so two edges with the same colour and arrows are
// joined point for point.
func drawGlue(dc *gg.Context, c color.RGBA, x0, y0, x1, y1, s float64) {
	dc.SetColor(c)
	dc.SetLineWidth(math.Max(4, 0.1*s))
	dc.SetLineCap(gg.LineCapButt)
	dc.DrawLine(x0, y0, x1, y1)
	dc.Stroke()
	n := math.Hypot(x1-x0, y1-y0)
	if n == 0 {
		return
	}
	ux, uy := (x1-x0)/n, (y1-y0)/n
	a := math.Max(7, 0.22*s)
	arrows := int(math.Max(1, math.Round(n/(4*s))))
	for i := 0; i < arrows; i++ {
		f := (float64(i) + 0.5) / float64(arrows)
		cx, cy := x0+ux*n*f, y0+uy*n*f
		dc.MoveTo(cx+ux*a*0.6, cy+uy*a*0.6)
		dc.LineTo(cx-ux*a*0.5-uy*a*0.55, cy-uy*a*0.5+ux*a*0.55)
		dc.LineTo(cx-ux*a*0.5+uy*a*0.55, cy-uy*a*0.5-ux*a*0.55)
		dc.ClosePath()
		dc.Fill()
	}
}

// quantize maps a drawn picture onto the shared palette.
func quantize(img *image.RGBA) *image.Paletted {
	p := palette()
	out := image.NewPaletted(img.Rect, p.colors)
	// Most pixels repeat their left neighbour: look up only changes.
	var prev color.RGBA
	var idx uint8
	for i, j := 0, 0; i < len(out.Pix); i, j = i+1, j+4 {
		c := color.RGBA{img.Pix[j], img.Pix[j+1], img.Pix[j+2], 0xff}
		if i == 0 || c != prev {
			prev, idx = c, p.index(c)
		}
		out.Pix[i] = idx
	}
	return out
}

// rasterize decides for every pixel centre which shape is drawn on top
// there (the last one listed, as painted), and from that each shape's
// fill and border band, and where its piece goes.
func (b *board) rasterize() {
	w, h := b.t.w, b.t.h
	owner := make([]int32, w*h)
	for i := range owner {
		owner[i] = -1
	}
	boxes := make([]image.Rectangle, len(b.shapes))
	for i := range b.shapes {
		r := polyBounds(b.shapes[i].poly).Intersect(image.Rect(0, 0, w, h))
		boxes[i] = r
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if inPixels(b.shapes[i].poly, float64(x)+0.5, float64(y)+0.5) {
					owner[y*w+x] = int32(i)
				}
			}
		}
	}
	band := int(math.Max(3, math.Round(0.09*b.t.scale)))
	for i := range b.shapes {
		b.shapes[i].measure(owner, w, boxes[i], int32(i), band)
	}
}

func polyBounds(poly [][2]float64) image.Rectangle {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range poly {
		x0, y0 = math.Min(x0, p[0]), math.Min(y0, p[1])
		x1, y1 = math.Max(x1, p[0]), math.Max(y1, p[1])
	}
	return image.Rect(int(math.Floor(x0)), int(math.Floor(y0)), int(math.Ceil(x1))+1, int(math.Ceil(y1))+1)
}

func inPixels(pts [][2]float64, x, y float64) bool {
	in := false
	for i, j := 0, len(pts)-1; i < len(pts); j, i = i, i+1 {
		xi, yi, xj, yj := pts[i][0], pts[i][1], pts[j][0], pts[j][1]
		if (yi > y) != (yj > y) && x < (xj-xi)*(y-yi)/(yj-yi)+xi {
			in = !in
		}
	}
	return in
}

// measure computes a shape's spans and, with a chamfer distance to the
// nearest pixel not its own, its band and the largest piece box it holds.
func (si *shapeInfo) measure(owner []int32, w int, r image.Rectangle, id int32, band int) {
	bw, bh := r.Dx(), r.Dy()
	if bw <= 0 || bh <= 0 {
		return
	}
	const inf = 1 << 20
	dist := make([]int32, bw*bh)
	var sx, sy, cnt float64
	for y := 0; y < bh; y++ {
		for x := 0; x < bw; x++ {
			if owner[(r.Min.Y+y)*w+r.Min.X+x] == id {
				dist[y*bw+x] = inf
				sx += float64(x) + 0.5
				sy += float64(y) + 0.5
				cnt++
			}
		}
	}
	if cnt == 0 {
		return
	}
	// Chamfer 3-4 distance; outside the box counts as not ours.
	at := func(x, y int) int32 {
		if x < 0 || y < 0 || x >= bw || y >= bh {
			return 0
		}
		return dist[y*bw+x]
	}
	for y := 0; y < bh; y++ {
		for x := 0; x < bw; x++ {
			d := dist[y*bw+x]
			if d == 0 {
				continue
			}
			d = min(d, at(x-1, y)+3, at(x, y-1)+3, at(x-1, y-1)+4, at(x+1, y-1)+4)
			dist[y*bw+x] = d
		}
	}
	for y := bh - 1; y >= 0; y-- {
		for x := bw - 1; x >= 0; x-- {
			d := dist[y*bw+x]
			if d == 0 {
				continue
			}
			d = min(d, at(x+1, y)+3, at(x, y+1)+3, at(x+1, y+1)+4, at(x-1, y+1)+4)
			dist[y*bw+x] = d
		}
	}
	for y := 0; y < bh; y++ {
		for x := 0; x < bw; {
			if dist[y*bw+x] == 0 {
				x++
				continue
			}
			x0 := x
			for x < bw && dist[y*bw+x] != 0 {
				x++
			}
			si.fill = append(si.fill, span{int32(r.Min.Y + y), int32(r.Min.X + x0), int32(r.Min.X + x)})
		}
		for x := 0; x < bw; {
			if d := dist[y*bw+x]; d == 0 || d > int32(3*band) {
				x++
				continue
			}
			x0 := x
			for x < bw && dist[y*bw+x] != 0 && dist[y*bw+x] <= int32(3*band) {
				x++
			}
			si.band = append(si.band, span{int32(r.Min.Y + y), int32(r.Min.X + x0), int32(r.Min.X + x)})
		}
	}
	// The piece goes at the centroid of the visible part when a box nearly
	// as large as anywhere else fits there; otherwise at the deepest point.
	var best int32
	bx, by := 0, 0
	cx, cy := sx/cnt, sy/cnt
	for y := 0; y < bh; y++ {
		for x := 0; x < bw; x++ {
			d := dist[y*bw+x]
			if d > best || d == best && sq(float64(x)+0.5-cx)+sq(float64(y)+0.5-cy) < sq(float64(bx)+0.5-cx)+sq(float64(by)+0.5-cy) {
				best, bx, by = d, x, y
			}
		}
	}
	ix, iy := int(cx), int(cy)
	if dc := at(ix, iy); dc*10 >= best*9 {
		si.ax, si.ay = float64(r.Min.X)+cx, float64(r.Min.Y)+cy
		best = dc
	} else {
		si.ax, si.ay = float64(r.Min.X+bx)+0.5, float64(r.Min.Y+by)+0.5
	}
	// best/3 is the distance in pixels from the centre to the border.
	si.size = int(2*float64(best)/3 + 0.5)
}

func sq(x float64) float64 { return x * x }

// faces makes font faces at pixel sizes; faces are not safe for
// concurrent use, so every drawing makes its own.
type faces struct{ cache map[float64]font.Face }

func newFaces() *faces { return &faces{cache: map[float64]font.Face{}} }

func (f *faces) bold(px float64) font.Face {
	px = math.Round(px)
	if fc, ok := f.cache[px]; ok {
		return fc
	}
	fc := newFace(fontBold(), px)
	f.cache[px] = fc
	return fc
}
