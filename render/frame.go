package render

import (
	"math"
	"unicode/utf8"

	"topochess/engine"
)

// Text sizes in board units (a cell is 1×1), with pixel floors so that
// labels stay legible on boards with many small cells.
const (
	labelUnits = 0.30
	smallUnits = 0.26 // small labels beside the board
	seamUnits  = 0.19 // small labels on cells
	markUnits  = 0.23
	labelMinPx = 17
	smallMinPx = 12
	seamMinPx  = 11
	markMinPx  = 13
	framePad   = 0.3 // units of empty frame around everything drawn
	maxTall    = 1.8 // the most a picture's height may be, times its width
	squareMax  = 0.94
)

// transform maps layout coordinates to pixels: x_px = ox + sx·x and
// y_px = oy + sy·y, with |sx| = |sy| = scale a whole number of pixels so
// that grid lines fall on pixel boundaries. Black's view is the same
// picture turned half round.
type transform struct {
	scale  float64
	ox, oy float64
	sx, sy float64
	w, h   int
}

func (t transform) px(p engine.Point) (float64, float64) {
	return t.ox + t.sx*p.X, t.oy + t.sy*p.Y
}

// box is an axis-aligned rectangle in layout units.
type box struct{ x0, y0, x1, y1 float64 }

func emptyBox() box { return box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)} }

func (b *box) add(x, y float64) {
	b.x0, b.y0 = math.Min(b.x0, x), math.Min(b.y0, y)
	b.x1, b.y1 = math.Max(b.x1, x), math.Max(b.y1, y)
}

// textBox is a rough extent of a text of height size (units) around its
// centre; DejaVu's average advance is about 0.62 em.
func textHalf(text string, size float64) (hw, hh float64) {
	return 0.31*size*float64(utf8.RuneCountInString(text)) + 0.04, 0.5 * size
}

// markText places a mark's text: along the mark, just outside the board,
// beyond any label standing on that side. ok is false for marks inside
// the board (the Klein seam), whose meaning the small labels carry.
type markPlace struct {
	ok     bool
	at     engine.Point
	dx, dy float64 // unit direction of the mark in layout units
}

func placeMarkText(l *engine.Layout, m engine.Mark) markPlace {
	dx, dy := m.To.X-m.From.X, m.To.Y-m.From.Y
	n := math.Hypot(dx, dy)
	if m.Text == "" || n == 0 {
		return markPlace{}
	}
	dx, dy = dx/n, dy/n
	mid := engine.Point{X: (m.From.X + m.To.X) / 2, Y: (m.From.Y + m.To.Y) / 2}
	for _, side := range []float64{1, -1} {
		nx, ny := -dy*side, dx*side
		probe := engine.Point{X: mid.X + 0.3*nx, Y: mid.Y + 0.3*ny}
		if insideAny(l, probe) {
			continue
		}
		// Step outward past the labels on this side.
		off := 0.22
		for _, lb := range l.Labels {
			rx, ry := lb.At.X-m.From.X, lb.At.Y-m.From.Y
			along := rx*dx + ry*dy
			dist := rx*nx + ry*ny
			if along > -0.3 && along < n+0.3 && dist > 0 && dist < 0.9 && dist+0.36 > off {
				off = dist + 0.36
			}
		}
		return markPlace{ok: true, at: engine.Point{X: mid.X + off*nx, Y: mid.Y + off*ny}, dx: dx, dy: dy}
	}
	return markPlace{}
}

func insideAny(l *engine.Layout, p engine.Point) bool {
	for _, sh := range l.Shapes {
		if inPoly(sh.Poly, p.X, p.Y) {
			return true
		}
	}
	return false
}

func inPoly(poly []engine.Point, x, y float64) bool {
	in := false
	for i, j := 0, len(poly)-1; i < len(poly); j, i = i, i+1 {
		xi, yi, xj, yj := poly[i].X, poly[i].Y, poly[j].X, poly[j].Y
		if (yi > y) != (yj > y) && x < (xj-xi)*(y-yi)/(yj-yi)+xi {
			in = !in
		}
	}
	return in
}

// contentBox is everything the picture must show, in layout units.
func contentBox(l *engine.Layout) box {
	b := emptyBox()
	b.add(l.MinX, l.MinY)
	b.add(l.MaxX, l.MaxY)
	for _, sh := range l.Shapes {
		for _, p := range sh.Poly {
			b.add(p.X, p.Y)
		}
	}
	for _, lb := range l.Labels {
		size := labelUnits
		if lb.Small {
			size = smallUnits
		}
		hw, hh := textHalf(lb.Text, size)
		b.add(lb.At.X-hw, lb.At.Y-hh)
		b.add(lb.At.X+hw, lb.At.Y+hh)
	}
	for _, m := range l.Marks {
		b.add(m.From.X, m.From.Y)
		b.add(m.To.X, m.To.Y)
		if mp := placeMarkText(l, m); mp.ok {
			hw, hh := textHalf(m.Text, markUnits)
			// The text runs along the mark: its extent turns with it.
			ex := math.Abs(mp.dx)*hw + math.Abs(mp.dy)*hh
			ey := math.Abs(mp.dy)*hw + math.Abs(mp.dx)*hh
			b.add(mp.at.X-ex, mp.at.Y-ey)
			b.add(mp.at.X+ex, mp.at.Y+ey)
		}
	}
	return b
}

// frameUnits is the size of everything drawn, frame included, in layout
// units.
func frameUnits(l *engine.Layout) (b box, fw, fh float64) {
	b = contentBox(l)
	return b, b.x1 - b.x0 + 2*framePad, b.y1 - b.y0 + 2*framePad
}

// frameFor computes the picture size and the transform for a picture
// width pixels wide. The height follows the layout, at most maxTall times
// the width; the scale is a whole number of pixels per cell, and what the
// width has left over becomes frame.
func frameFor(l *engine.Layout, width int, flip bool) transform {
	b, fw, fh := frameUnits(l)
	W := float64(width)
	scale := math.Floor(W / fw)
	if fh*scale > maxTall*W {
		scale = math.Floor(maxTall * W / fh)
	}
	// Discord on Android has cropped exactly square pictures: keep a
	// near-square board a little wider than tall.
	if h := fh * scale; h <= W && h > squareMax*W {
		scale = math.Floor(squareMax * W / fh)
	}
	if scale < 1 {
		scale = 1
	}
	t := transform{scale: scale, w: width, h: int(math.Ceil(fh * scale))}
	cx, cy := (b.x0+b.x1)/2, (b.y0+b.y1)/2
	t.sx, t.sy = scale, -scale
	if flip {
		t.sx, t.sy = -scale, scale
	}
	t.ox = math.Round(float64(t.w)/2 - t.sx*cx)
	t.oy = math.Round(float64(t.h)/2 - t.sy*cy)
	return t
}

// widthFor is the picture width of a layout for a renderer: Width when
// set; otherwise Long, the longest side, as older callers ask for it.
func widthFor(l *engine.Layout, width, long int) int {
	if width > 0 {
		return width
	}
	if long <= 0 {
		return DefaultWidth
	}
	_, fw, fh := frameUnits(l)
	if fh > fw {
		// The scale is whole pixels: one more than the exact share keeps
		// the height from falling short of what was asked.
		return max(16, int(float64(long)*fw/fh))
	}
	return long
}
