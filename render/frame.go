package render

import (
	"math"
	"sync"
	"unicode/utf8"

	"topochess/engine"
)

// Text and frame sizes. Labels are sized for the phone: a picture shown
// 400 px wide (phoneWidth) keeps every label at least labelPhonePx tall
// (the em; a digit or capital is about 0.73 em, so 17 px gives 12 px),
// whatever the width it is drawn at.
const (
	labelUnits    = 0.34 // em of coordinate labels in board units, when larger
	labelPhonePx  = 17.0
	maxLabelCells = 1.0 // the largest label, in cells
	phoneWidth    = 400.0
	capHeight     = 0.73 // DejaVu Sans Bold: capital and digit height per em
	labelGap      = 0.08 // units between a label and the nearest cell
	framePad      = 0.2  // units of empty frame around everything drawn
	maxTall       = 1.8  // the most a picture's height may be, times its width
	squareMax     = 0.94
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

// textHalf is a generous extent of a bold text of em size (any unit)
// around its centre.
func textHalf(text string, size float64) (hw, hh float64) {
	return 0.37 * size * float64(utf8.RuneCountInString(text)), 0.42 * size
}

// plan is where everything of an empty board goes for one picture size:
// the transform and the labels and mark texts, moved clear of the cells.
type plan struct {
	t      transform
	em     float64 // label size in pixels
	labels []placed
	marks  []placed // one per layout mark; ok false for none
}

// placed is a text at a place in layout units; ang is the angle of the
// text's baseline in layout units (0 for labels).
type placed struct {
	ok     bool
	at     engine.Point
	text   string
	dx, dy float64
	onCell bool
}

// planFor fits a layout into a picture width pixels wide. The label size
// in board units depends on the scale and the scale on the room labels
// take, so it settles in a few rounds.
func planFor(l *engine.Layout, width int, flip bool) plan {
	W := float64(width)
	lw := l.MaxX - l.MinX
	scale := math.Max(1, math.Floor(W/(lw+2)))
	var p plan
	for round := 0; round < 5; round++ {
		// Labels never outgrow their cells: on a board too crowded for a
		// phone (the cube nets) they shrink with it rather than collide.
		p.em = math.Round(math.Min(math.Max(labelUnits*scale, labelPhonePx*W/phoneWidth), maxLabelCells*scale))
		emU := p.em / scale
		p.labels = placeLabels(l, emU)
		p.marks = placeMarks(l, p.labels, emU)
		b := contentBox(l, p, emU)
		t := fit(b, W, flip)
		if t.scale == scale || round == 4 {
			p.t = t
			break
		}
		scale = t.scale
	}
	return p
}

// fit computes the picture size and the transform for a content box: the
// width is given, the height follows (at most maxTall times the width),
// the scale is a whole number of pixels per cell and what the width has
// left over becomes frame.
func fit(b box, W float64, flip bool) transform {
	fw := b.x1 - b.x0 + 2*framePad
	fh := b.y1 - b.y0 + 2*framePad
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
	t := transform{scale: scale, w: int(W), h: int(math.Ceil(fh * scale))}
	cx, cy := (b.x0+b.x1)/2, (b.y0+b.y1)/2
	t.sx, t.sy = scale, -scale
	if flip {
		t.sx, t.sy = -scale, scale
	}
	t.ox = math.Round(float64(t.w)/2 - t.sx*cx)
	t.oy = math.Round(float64(t.h)/2 - t.sy*cy)
	return t
}

// frameFor is the transform of a picture width pixels wide.
func frameFor(l *engine.Layout, width int, flip bool) transform {
	return planFor(l, width, flip).t
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
	k := longKey{l, long}
	if w, ok := longWidths.Load(k); ok {
		return w.(int)
	}
	w := long
	if t := frameFor(l, long, false); t.h > t.w {
		w = max(16, long*t.w/t.h)
	}
	longWidths.Store(k, w)
	return w
}

// longWidths caches widthFor for Long: fitting a layout places all its
// labels, too slow to repeat for every picture of a replay.
var longWidths sync.Map // longKey → int

type longKey struct {
	l    *engine.Layout
	long int
}

// placeLabels moves every label that stands off the board straight away
// from the nearest cell until its text clears every cell. Labels the
// layout puts on a cell stay (the layout promises that cell holds no
// piece).
func placeLabels(l *engine.Layout, emU float64) []placed {
	out := make([]placed, 0, len(l.Labels))
	for _, lb := range l.Labels {
		pl := placed{ok: true, at: lb.At, text: lb.Text}
		if insideAny(l, lb.At) {
			pl.onCell = true
			out = append(out, pl)
			continue
		}
		hw, hh := textHalf(lb.Text, emU)
		n := nearestOnShapes(l, lb.At)
		dx, dy := lb.At.X-n.X, lb.At.Y-n.Y
		d := math.Hypot(dx, dy)
		if d > 0 {
			dx, dy = dx/d, dy/d
		}
		// Snap to the axis: labels of a grid row or column line up. Away
		// from the nearest cell first; where that runs into other cells
		// (a crowded net), the other ways, and the shortest move wins.
		if math.Abs(dx) > math.Abs(dy) {
			dx, dy = math.Copysign(1, dx), 0
		} else {
			dx, dy = 0, math.Copysign(1, dy)
		}
		at := lb.At
		best := -1
		for k, d := range [][2]float64{{dx, dy}, {-dy, dx}, {dy, -dx}, {-dx, -dy}} {
			p := lb.At
			i := 0
			for ; i < 60 && rectHitsShapes(l, p, hw+labelGap, hh+labelGap); i++ {
				p.X += 0.05 * d[0]
				p.Y += 0.05 * d[1]
			}
			if i < 60 && (best < 0 || i < best) {
				best, at = i, p
			}
			if k == 0 && best >= 0 {
				break
			}
		}
		pl.at = at
		out = append(out, pl)
	}
	return out
}

// placeMarks puts a mark's text along the mark, just outside the board
// and beyond any label standing on that side. Marks inside the board
// carry no text (their meaning is in labels).
func placeMarks(l *engine.Layout, labels []placed, emU float64) []placed {
	out := make([]placed, len(l.Marks))
	for i, m := range l.Marks {
		dx, dy := m.To.X-m.From.X, m.To.Y-m.From.Y
		n := math.Hypot(dx, dy)
		if m.Text == "" || n == 0 {
			continue
		}
		dx, dy = dx/n, dy/n
		hw, th := textHalf(m.Text, emU)
		// The text runs along the mark: its extent turns with it.
		ex := math.Abs(dx)*hw + math.Abs(dy)*th
		ey := math.Abs(dy)*hw + math.Abs(dx)*th
		mid := engine.Point{X: (m.From.X + m.To.X) / 2, Y: (m.From.Y + m.To.Y) / 2}
		var first placed
		for _, side := range []float64{1, -1} {
			nx, ny := -dy*side, dx*side
			probe := engine.Point{X: mid.X + 0.3*nx, Y: mid.Y + 0.3*ny}
			if insideAny(l, probe) {
				continue
			}
			off := th + 2*labelGap
			for _, lb := range labels {
				if lb.onCell {
					continue
				}
				lw, lh := textHalf(lb.text, emU)
				rx, ry := lb.at.X-m.From.X, lb.at.Y-m.From.Y
				along := rx*dx + ry*dy
				dist := rx*nx + ry*ny
				reach := math.Abs(nx)*lw + math.Abs(ny)*lh
				if along > -0.3 && along < n+0.3 && dist > 0 && dist < 2 && dist+reach+th+labelGap > off {
					off = dist + reach + th + labelGap
				}
			}
			pl := placed{ok: true, at: engine.Point{X: mid.X + off*nx, Y: mid.Y + off*ny}, text: m.Text, dx: dx, dy: dy}
			if !first.ok {
				first = pl
			}
			// On a crowded layout (faces of a cube net side by side) the
			// room beside the mark may hold other cells: move out until
			// the text clears them, within reason.
			for i := 0; i < 40 && rectHitsShapes(l, pl.at, ex+labelGap, ey+labelGap); i++ {
				pl.at.X += 0.05 * nx
				pl.at.Y += 0.05 * ny
			}
			if !rectHitsShapes(l, pl.at, ex+labelGap, ey+labelGap) {
				out[i] = pl
				break
			}
		}
		if !out[i].ok {
			out[i] = first
		}
	}
	return out
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

// nearestOnShapes is the point of a cell's border nearest to p.
func nearestOnShapes(l *engine.Layout, p engine.Point) engine.Point {
	best, bd := p, math.Inf(1)
	for _, sh := range l.Shapes {
		for i := range sh.Poly {
			a, b := sh.Poly[i], sh.Poly[(i+1)%len(sh.Poly)]
			q := closestOnSeg(a, b, p)
			if d := math.Hypot(q.X-p.X, q.Y-p.Y); d < bd {
				best, bd = q, d
			}
		}
	}
	return best
}

func closestOnSeg(a, b, p engine.Point) engine.Point {
	dx, dy := b.X-a.X, b.Y-a.Y
	n := dx*dx + dy*dy
	if n == 0 {
		return a
	}
	t := math.Max(0, math.Min(1, ((p.X-a.X)*dx+(p.Y-a.Y)*dy)/n))
	return engine.Point{X: a.X + t*dx, Y: a.Y + t*dy}
}

// rectHitsShapes reports whether the rectangle c±(hw, hh) overlaps a cell.
func rectHitsShapes(l *engine.Layout, c engine.Point, hw, hh float64) bool {
	x0, y0, x1, y1 := c.X-hw, c.Y-hh, c.X+hw, c.Y+hh
	for _, sh := range l.Shapes {
		if polyHitsRect(sh.Poly, x0, y0, x1, y1) {
			return true
		}
	}
	return false
}

// polyHitsRect reports whether a polygon and a rectangle overlap (more
// than touching).
func polyHitsRect(poly []engine.Point, x0, y0, x1, y1 float64) bool {
	const e = 1e-9
	px0, py0, px1, py1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range poly {
		px0, py0 = math.Min(px0, p.X), math.Min(py0, p.Y)
		px1, py1 = math.Max(px1, p.X), math.Max(py1, p.Y)
	}
	if px1 <= x0+e || px0 >= x1-e || py1 <= y0+e || py0 >= y1-e {
		return false
	}
	for _, p := range poly {
		if p.X > x0+e && p.X < x1-e && p.Y > y0+e && p.Y < y1-e {
			return true
		}
	}
	for _, q := range [][2]float64{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}, {(x0 + x1) / 2, (y0 + y1) / 2}} {
		if inPoly(poly, q[0], q[1]) {
			return true
		}
	}
	rect := []engine.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	for i := range poly {
		a, b := poly[i], poly[(i+1)%len(poly)]
		for j := range rect {
			if segsCross(a, b, rect[j], rect[(j+1)%4]) {
				return true
			}
		}
	}
	return false
}

func segsCross(a, b, c, d engine.Point) bool {
	cr := func(o, p, q engine.Point) float64 { return (p.X-o.X)*(q.Y-o.Y) - (p.Y-o.Y)*(q.X-o.X) }
	d1, d2 := cr(c, d, a), cr(c, d, b)
	d3, d4 := cr(a, b, c), cr(a, b, d)
	return d1*d2 < -1e-12 && d3*d4 < -1e-12
}

// contentBox is everything the picture must show, in layout units.
func contentBox(l *engine.Layout, p plan, emU float64) box {
	b := emptyBox()
	b.add(l.MinX, l.MinY)
	b.add(l.MaxX, l.MaxY)
	for _, sh := range l.Shapes {
		for _, q := range sh.Poly {
			b.add(q.X, q.Y)
		}
	}
	for _, lb := range p.labels {
		hw, hh := textHalf(lb.text, emU)
		b.add(lb.at.X-hw, lb.at.Y-hh)
		b.add(lb.at.X+hw, lb.at.Y+hh)
	}
	for i, m := range l.Marks {
		b.add(m.From.X, m.From.Y)
		b.add(m.To.X, m.To.Y)
		if mp := p.marks[i]; mp.ok {
			hw, hh := textHalf(mp.text, emU)
			// The text runs along the mark: its extent turns with it.
			ex := math.Abs(mp.dx)*hw + math.Abs(mp.dy)*hh
			ey := math.Abs(mp.dy)*hw + math.Abs(mp.dx)*hh
			b.add(mp.at.X-ex, mp.at.Y-ey)
			b.add(mp.at.X+ex, mp.at.Y+ey)
		}
	}
	return b
}
