package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"sort"
	"time"

	"topochess/engine"
)

// GIFOptions shape a replay animation.
type GIFOptions struct {
	Orientation engine.Color
	// Delay is how long each move stays on screen (default 1 s); the
	// start and the final position stay longer.
	Delay time.Duration
	// Long is the picture's longest side in pixels (default GIFLong).
	Long int
}

// GIFLong is the default size of a replay: chat clients show animations
// at about this size, and every pixel is paid for in every frame drawn.
const GIFLong = 640

// gifColors is the size of the animation's palette besides the
// transparent entry: few colours keep LZW codes short, and the board's
// flat colours are a handful.
const gifColors = 127

// gifSamples is how many positions of the game the palette is drawn from.
const gifSamples = 8

// GIF animates a game from its start: one frame per position, the first
// the start, each later one the move played with its cells highlighted.
//
// Like lila-gif, frames after the first hold only the rectangle that
// changed since the previous frame, and pixels in it that did not change
// are transparent, so a move costs a few kilobytes. The palette is fixed
// for the whole animation: the most frequent colours of a few frames of
// this game, so the board's own colours are exact and antialiased edges
// take the nearest entry.
func (r *Renderer) GIF(g *engine.Game, opt GIFOptions) ([]byte, error) {
	if opt.Long <= 0 {
		opt.Long = GIFLong
	}
	r = &Renderer{Long: opt.Long}
	v := g.Variant
	var pos *engine.Position
	if g.Start == "" {
		pos = v.StartPosition()
	} else {
		var err error
		if pos, err = v.ParsePosition(g.Start); err != nil {
			return nil, fmt.Errorf("start position: %w", err)
		}
	}
	// Every frame's position and highlights, decided before drawing so
	// the palette can sample across the whole game.
	type frame struct {
		pos *engine.Position
		opt Options
	}
	frames := make([]frame, 0, len(g.Moves)+1)
	frames = append(frames, frame{pos, r.frameOptions(pos, nil, opt)})
	for i, s := range g.Moves {
		m, err := pos.ParseCanonical(s)
		if err != nil {
			return nil, fmt.Errorf("move %d (%s): %w", i+1, s, err)
		}
		pos = pos.Play(m)
		frames = append(frames, frame{pos, r.frameOptions(pos, []int{int(m.From), int(m.To)}, opt)})
	}

	step := max(1, len(frames)/gifSamples)
	var samples []image.Image
	for i := 0; i < len(frames); i += step {
		samples = append(samples, r.Image(frames[i].pos, frames[i].opt))
	}
	q := newQuantizer(samples)

	delay := opt.Delay
	if delay <= 0 {
		delay = time.Second
	}
	cs := int(delay / (10 * time.Millisecond))
	bounds := samples[0].Bounds()
	anim := &gif.GIF{
		Config: image.Config{ColorModel: q.pal, Width: bounds.Dx(), Height: bounds.Dy()},
	}
	canvas := image.NewPaletted(bounds, q.pal) // what a viewer shows so far
	var prev image.Image
	for i, f := range frames {
		img := samples[0]
		if i > 0 {
			img = r.Image(f.pos, f.opt)
		}
		rect := bounds
		if prev != nil {
			rect = changed(prev, img)
			if rect.Empty() {
				// A GIF frame needs at least one pixel; an unchanged
				// one is transparent.
				rect = image.Rect(bounds.Min.X, bounds.Min.Y, bounds.Min.X+1, bounds.Min.Y+1)
			}
		}
		sub := image.NewPaletted(rect, q.pal)
		for y := rect.Min.Y; y < rect.Max.Y; y++ {
			src := q.row(img, y, rect.Min.X, rect.Max.X)
			dst := sub.Pix[(y-rect.Min.Y)*sub.Stride:]
			cv := canvas.Pix[canvas.PixOffset(rect.Min.X, y):]
			for x, c := range src {
				if prev != nil && cv[x] == c {
					dst[x] = q.transparent
				} else {
					dst[x], cv[x] = c, c
				}
			}
		}
		d := cs
		switch i {
		case 0:
			d = cs * 3 / 2
		case len(frames) - 1:
			d = cs * 4
		}
		anim.Image = append(anim.Image, sub)
		anim.Delay = append(anim.Delay, d)
		anim.Disposal = append(anim.Disposal, gif.DisposalNone)
		prev = img
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, anim); err != nil {
		return nil, fmt.Errorf("encode replay: %w", err)
	}
	return buf.Bytes(), nil
}

// frameOptions highlights the last move and a king in check.
func (r *Renderer) frameOptions(pos *engine.Position, last []int, opt GIFOptions) Options {
	o := Options{Orientation: opt.Orientation, Last: last}
	if pos.InCheck() {
		if k := pos.King[pos.Side]; k >= 0 {
			o.Check = []int{int(k)}
		}
	}
	return o
}

// changed is the smallest rectangle holding every pixel that differs
// between two pictures of the same size.
func changed(a, b image.Image) image.Rectangle {
	r := b.Bounds()
	minX, minY, maxX, maxY := r.Max.X, r.Max.Y, r.Min.X, r.Min.Y
	for y := r.Min.Y; y < r.Max.Y; y++ {
		x0, x1, ok := rowDiff(a, b, y)
		if !ok {
			continue
		}
		minX, maxX = min(minX, x0), max(maxX, x1)
		minY, maxY = min(minY, y), max(maxY, y+1)
	}
	if minX >= maxX {
		return image.Rectangle{}
	}
	return image.Rect(minX, minY, maxX, maxY)
}

// rowDiff finds the span [x0, x1) of a row where the pictures differ.
func rowDiff(a, b image.Image, y int) (x0, x1 int, ok bool) {
	r := b.Bounds()
	// Raw rows of the same format compare as bytes: most rows of a
	// replay frame are identical to the previous frame's.
	var ra, rb []byte
	px := 1
	switch pa := a.(type) {
	case *image.Paletted:
		if pb, k := b.(*image.Paletted); k && samePalette(pa.Palette, pb.Palette) {
			ra, rb = pa.Pix[pa.PixOffset(r.Min.X, y):][:r.Dx()], pb.Pix[pb.PixOffset(r.Min.X, y):][:r.Dx()]
		}
	case *image.RGBA:
		if pb, k := b.(*image.RGBA); k {
			ra, rb, px = pa.Pix[pa.PixOffset(r.Min.X, y):][:4*r.Dx()], pb.Pix[pb.PixOffset(r.Min.X, y):][:4*r.Dx()], 4
		}
	}
	if ra != nil {
		if bytes.Equal(ra, rb) {
			return 0, 0, false
		}
		i := 0
		for ra[i] == rb[i] {
			i++
		}
		j := len(ra) - 1
		for ra[j] == rb[j] {
			j--
		}
		return r.Min.X + i/px, r.Min.X + j/px + 1, true
	}
	same := func(x int) bool { return rgbaOf(a.At(x, y)) == rgbaOf(b.At(x, y)) }
	x0 = r.Min.X
	for x0 < r.Max.X && same(x0) {
		x0++
	}
	if x0 == r.Max.X {
		return 0, 0, false
	}
	x1 = r.Max.X
	for same(x1 - 1) {
		x1--
	}
	return x0, x1, true
}

func samePalette(a, b color.Palette) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// quantizer maps the renderer's colours to the animation's palette.
type quantizer struct {
	pal         color.Palette // opaque colours, then the transparent entry
	opaque      color.Palette
	transparent uint8
	cache       map[color.RGBA]uint8
	buf         []uint8
}

func newQuantizer(samples []image.Image) *quantizer {
	count := map[color.RGBA]int{}
	for _, img := range samples {
		b := img.Bounds()
		// Every second pixel of every second row is plenty to rank colours.
		for y := b.Min.Y; y < b.Max.Y; y += 2 {
			for x := b.Min.X; x < b.Max.X; x += 2 {
				count[rgbaOf(img.At(x, y))]++
			}
		}
	}
	cols := make([]color.RGBA, 0, len(count))
	for c := range count {
		cols = append(cols, c)
	}
	sort.Slice(cols, func(i, j int) bool {
		if count[cols[i]] != count[cols[j]] {
			return count[cols[i]] > count[cols[j]]
		}
		a, b := cols[i], cols[j]
		return uint32(a.R)<<16|uint32(a.G)<<8|uint32(a.B) < uint32(b.R)<<16|uint32(b.G)<<8|uint32(b.B)
	})
	if len(cols) > gifColors {
		cols = cols[:gifColors]
	}
	q := &quantizer{cache: map[color.RGBA]uint8{}}
	for _, c := range cols {
		q.opaque = append(q.opaque, c)
	}
	q.pal = append(append(color.Palette{}, q.opaque...), color.RGBA{})
	q.transparent = uint8(len(q.opaque))
	return q
}

func rgbaOf(c color.Color) color.RGBA {
	r, g, b, _ := c.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0xff}
}

// index is the palette entry nearest to c.
func (q *quantizer) index(c color.RGBA) uint8 {
	if i, ok := q.cache[c]; ok {
		return i
	}
	i := uint8(q.opaque.Index(c))
	q.cache[c] = i
	return i
}

// row quantizes pixels [x0, x1) of row y; the slice is reused.
func (q *quantizer) row(img image.Image, y, x0, x1 int) []uint8 {
	q.buf = q.buf[:0]
	switch p := img.(type) {
	case *image.Paletted:
		var table [256]uint8
		var done [256]bool
		for _, ci := range p.Pix[p.PixOffset(x0, y):][:x1-x0] {
			if !done[ci] {
				table[ci], done[ci] = q.index(rgbaOf(p.Palette[ci])), true
			}
			q.buf = append(q.buf, table[ci])
		}
	case *image.RGBA:
		s := p.Pix[p.PixOffset(x0, y):][:4*(x1-x0)]
		// Runs of one colour are the rule; skip the map for them.
		var last color.RGBA
		var li uint8
		have := false
		for i := 0; i < len(s); i += 4 {
			c := color.RGBA{s[i], s[i+1], s[i+2], 0xff}
			if !have || c != last {
				last, li, have = c, q.index(c), true
			}
			q.buf = append(q.buf, li)
		}
	default:
		for x := x0; x < x1; x++ {
			q.buf = append(q.buf, q.index(rgbaOf(img.At(x, y))))
		}
	}
	return q.buf
}
