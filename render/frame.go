package render

import (
	"math"
	"unicode/utf8"

	"topochess/engine"
)

// Text sizes in board units (a cell is 1×1), with pixel floors so that
// labels stay legible on boards with many small cells.
const (
	labelUnits   = 0.30
	smallUnits   = 0.26 // small labels beside the board
	seamUnits    = 0.19 // small labels on cells
	markUnits    = 0.23
	labelMinPx   = 17
	smallMinPx   = 12
	seamMinPx    = 11
	markMinPx    = 13
	minCellPx    = 40   // below this the pixel budget gives way to Long
	framePad     = 0.3  // units of empty frame around everything drawn
	squareAspect = 1.25 // near-square pictures are widened to this
	maxArea      = 1_000_000
	minLong      = 900
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

// frameFor computes the picture size and the transform. The longest side
// grows with the board's elongation (more pixels for long, thin boards)
// within [minLong, long] and a pixel budget that keeps encoding fast.
func frameFor(l *engine.Layout, long int, flip bool) transform {
	b := contentBox(l)
	fw := b.x1 - b.x0 + 2*framePad
	fh := b.y1 - b.y0 + 2*framePad
	// Chat apps crop square previews (Discord on Android); a landscape
	// frame with the board centred is shown whole.
	if fw < squareAspect*fh && fh < squareAspect*fw {
		fw = squareAspect * fh
	}
	aspect := math.Max(fw, fh) / math.Min(fw, fh)
	L := math.Sqrt(maxArea * aspect)
	if L/math.Max(fw, fh) < minCellPx {
		L = float64(long)
	}
	L = math.Max(float64(minLong), math.Min(float64(long), L))
	if long < minLong {
		L = float64(long)
	}
	scale := math.Floor(L / math.Max(fw, fh))
	if scale < 1 {
		scale = 1
	}
	t := transform{scale: scale}
	if fw >= fh {
		t.w, t.h = int(L), int(math.Ceil(fh*scale))
	} else {
		t.w, t.h = int(math.Ceil(fw*scale)), int(L)
	}
	cx, cy := (b.x0+b.x1)/2, (b.y0+b.y1)/2
	t.sx, t.sy = scale, -scale
	if flip {
		t.sx, t.sy = -scale, scale
	}
	t.ox = math.Round(float64(t.w)/2 - t.sx*cx)
	t.oy = math.Round(float64(t.h)/2 - t.sy*cy)
	return t
}
