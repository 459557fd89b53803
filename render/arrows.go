package render

import (
	"image"
	"math"
	"sync"

	"topochess/engine"
)

// Arrows: the last move, and in check the line from each checking piece to
// the king, drawn along the path the piece really took in the board's own
// geometry. Where a path crosses a glued edge or a seam it leaves the
// picture on one side and comes back on the other; a move through the
// Möbius paper (to the twin cell) is a dashed connector.

// trail is a path of cells a piece went along; phase marks a move to the
// twin cell through the paper.
type trail struct {
	cells []int
	phase bool
	// leap: a knight's move, cells holding the middle of its two king
	// steps only to find the way over a seam.
	leap bool
	// fromPiece: a piece stands on the first cell (a checking piece):
	// the line starts at its edge, leaving it in view.
	fromPiece bool
}

func contains16(s []int16, c int) bool {
	for _, x := range s {
		if int(x) == c {
			return true
		}
	}
	return false
}

// riderPath is the shortest ray of kind k from `from` that reaches `to`
// over empty cells (over any cells when through is set), or nil.
func riderPath(pos *engine.Position, k engine.Kind, from, to int, through bool) []int {
	var best []int
	for _, p := range pos.Geo().RayPaths(k, from) {
		for i, c := range p {
			if c == to {
				if best == nil || i+1 < len(best) {
					best = append([]int{from}, p[:i+1]...)
				}
				break
			}
			if !through && !pos.Board[c].IsEmpty() {
				break
			}
		}
	}
	return best
}

// stepPath is the path of a piece that went from `from` to `to` as a piece
// of kind k moves; ok is false when no such path exists.
func stepPath(pos *engine.Position, k engine.Kind, from, to int) (trail, bool) {
	g := pos.Geo()
	if g.Twin != nil && int(g.Twin[from]) == to {
		return trail{cells: []int{from, to}, phase: true}, true
	}
	if contains16(g.KingSteps[from], to) {
		return trail{cells: []int{from, to}}, true
	}
	switch k {
	case engine.Bishop, engine.Rook, engine.Queen:
		if p := riderPath(pos, k, from, to, false); p != nil {
			return trail{cells: p}, true
		}
		return trail{}, false
	case engine.Knight:
		if !contains16(g.Knight[from], to) {
			return trail{}, false
		}
		// A leap is two king steps; the middle cell shows which way it
		// went over a seam.
		for _, a := range g.KingSteps[from] {
			if contains16(g.KingSteps[a], to) {
				return trail{cells: []int{from, int(a), to}, leap: true}, true
			}
		}
	}
	return trail{}, false
}

// lastTrail is the path of the last move, read from the position after
// it: the piece now on `to` went there as its kind moves, or as a pawn (a
// promotion), or along a row (castling, a pawn's double step).
func lastTrail(pos *engine.Position, from, to int) trail {
	pc := pos.Board[to]
	for _, k := range []engine.Kind{pc.Kind(), engine.Pawn, engine.Knight} {
		if tr, ok := stepPath(pos, k, from, to); ok {
			return tr
		}
	}
	// Castling: the rook now stands on the king's way.
	for _, through := range []bool{false, true} {
		for _, k := range []engine.Kind{engine.Rook, engine.Bishop} {
			if p := riderPath(pos, k, from, to, through); p != nil {
				return trail{cells: p}
			}
		}
	}
	return trail{cells: []int{from, to}}
}

// checkTrails are the lines from every piece giving check to the king on
// cell k.
func checkTrails(pos *engine.Position, k int) []trail {
	g := pos.Geo()
	king := pos.Board[k]
	if king.IsEmpty() {
		return nil
	}
	var out []trail
	for o, pc := range pos.Board {
		if pc.IsEmpty() || pc.Color() == king.Color() || o == k {
			continue
		}
		if pc.Kind() == engine.Pawn {
			d := 0
			if pc.Minus() {
				d = 1
			}
			if contains16(g.PawnCap[pc.Color()][d][o], k) {
				out = append(out, trail{cells: []int{o, k}})
			} else if g.Twin != nil && int(g.Twin[o]) == k {
				out = append(out, trail{cells: []int{o, k}, phase: true})
			}
			continue
		}
		if pc.Kind() == engine.King && !contains16(g.KingSteps[o], k) && (g.Twin == nil || int(g.Twin[o]) != k) {
			continue
		}
		if tr, ok := stepPath(pos, pc.Kind(), o, k); ok {
			out = append(out, tr)
		}
	}
	for i := range out {
		out[i].fromPiece = true
	}
	return out
}

// stroke is what one arrow covers, in pixels: capsules (thick segments)
// and triangles (heads), filled with one colour.
type stroke struct {
	caps [][5]float64 // x0, y0, x1, y1, half width
	tris [][6]float64
}

func (s *stroke) seg(x0, y0, x1, y1, hw float64) {
	s.caps = append(s.caps, [5]float64{x0, y0, x1, y1, hw})
}

// dashed draws a segment as dashes of length dash with gaps of gap.
func (s *stroke) dashed(x0, y0, x1, y1, hw, dash, gap float64) {
	n := math.Hypot(x1-x0, y1-y0)
	if n == 0 {
		return
	}
	ux, uy := (x1-x0)/n, (y1-y0)/n
	for t := 0.0; t < n; t += dash + gap {
		e := math.Min(n, t+dash)
		s.seg(x0+ux*t, y0+uy*t, x0+ux*e, y0+uy*e, hw)
	}
}

// head draws an arrowhead with its tip at (x, y) pointing along (ux, uy).
func (s *stroke) head(x, y, ux, uy, length, half float64) {
	bx, by := x-ux*length, y-uy*length
	s.tris = append(s.tris, [6]float64{x, y, bx - uy*half, by + ux*half, bx + uy*half, by - ux*half})
}

// trailStroke lays out a trail on a board: straight between cells drawn
// side by side, and across a seam a stub leaving the first cell and one
// entering the next, each in the direction the piece really travels.
func trailStroke(b *board, pos *engine.Position, tr trail) *stroke {
	s := &stroke{}
	sc := b.t.scale
	hw := math.Max(1.5, 0.065*sc)
	centre := func(c int) (float64, float64, bool) {
		if c < 0 || c >= len(b.byCell) || len(b.byCell[c]) == 0 {
			return 0, 0, false
		}
		si := &b.shapes[b.byCell[c][0]]
		return si.ax, si.ay, true
	}
	n := len(tr.cells)
	if n < 2 {
		return nil
	}
	pts := make([][2]float64, n)
	for i, c := range tr.cells {
		x, y, ok := centre(c)
		if !ok {
			return nil
		}
		pts[i] = [2]float64{x, y}
	}
	near := func(i int) bool { // cells i and i+1 are drawn side by side
		return i >= 0 && i+1 < n && math.Hypot(pts[i+1][0]-pts[i][0], pts[i+1][1]-pts[i][1]) <= 1.6*sc
	}
	if tr.leap && near(0) && near(1) {
		// A leap over no seam: straight, as players draw it.
		pts, n = [][2]float64{pts[0], pts[2]}, 2
		tr.cells = []int{tr.cells[0], tr.cells[2]}
		near = func(i int) bool { return i == 0 }
	}
	if tr.fromPiece && !tr.phase && near(0) {
		dx, dy := pts[1][0]-pts[0][0], pts[1][1]-pts[0][1]
		d := math.Hypot(dx, dy)
		pts[0][0] += dx / d * 0.3 * sc
		pts[0][1] += dy / d * 0.3 * sc
	}
	unit := func(ax, ay, bx, by float64) (float64, float64) {
		d := math.Hypot(bx-ax, by-ay)
		if d == 0 {
			return 0, 0
		}
		return (bx - ax) / d, (by - ay) / d
	}
	// The tip stops short of the target's centre, where its piece is.
	tip := func(x0, y0, x1, y1 float64) {
		ux, uy := unit(x0, y0, x1, y1)
		tx, ty := x1-ux*0.2*sc, y1-uy*0.2*sc
		hl := math.Max(6, 0.34*sc)
		s.seg(x0, y0, tx-ux*hl*0.8, ty-uy*hl*0.8, hw)
		s.head(tx, ty, ux, uy, hl, math.Max(4.5, 0.2*sc))
	}
	if tr.phase {
		// Beside the straight line between the twins, so the pieces on
		// the way stay in view.
		x0, y0, x1, y1 := pts[0][0], pts[0][1], pts[1][0], pts[1][1]
		ux, uy := unit(x0, y0, x1, y1)
		px, py := -uy*0.3*sc, ux*0.3*sc
		bx, by := x0+px+ux*0.3*sc, y0+py+uy*0.3*sc
		cx, cy := x1+px-ux*0.45*sc, y1+py-uy*0.45*sc
		s.seg(x0, y0, bx, by, hw)
		s.dashed(bx, by, cx, cy, hw, 0.22*sc, 0.14*sc)
		tip(cx, cy, x1, y1)
		return s
	}
	for i := 0; i+1 < n; i++ {
		x0, y0, x1, y1 := pts[i][0], pts[i][1], pts[i+1][0], pts[i+1][1]
		last := i+2 == n
		if near(i) {
			if last {
				tip(x0, y0, x1, y1)
			} else {
				s.seg(x0, y0, x1, y1, hw)
			}
			continue
		}
		// Across a seam: the way out of cell i and the way into cell i+1.
		ox, oy, ok1 := seamDir(b, pos, tr.cells, pts, i, true, near)
		ix, iy, ok2 := seamDir(b, pos, tr.cells, pts, i, false, near)
		if !ok1 || !ok2 {
			if last {
				tip(x0, y0, x1, y1)
			} else {
				s.seg(x0, y0, x1, y1, hw)
			}
			continue
		}
		out := 0.62 * sc
		s.seg(x0, y0, x0+ox*out, y0+oy*out, hw)
		// A bar where the path leaves and where it comes back.
		s.seg(x0+ox*out-oy*2.2*hw, y0+oy*out+ox*2.2*hw, x0+ox*out+oy*2.2*hw, y0+oy*out-ox*2.2*hw, hw*0.8)
		// The way in starts further out, so its head stands clear of the
		// piece it points at.
		sx, sy := x1-ix*0.85*sc, y1-iy*0.85*sc
		s.seg(sx-iy*2.2*hw, sy+ix*2.2*hw, sx+iy*2.2*hw, sy-ix*2.2*hw, hw*0.8)
		if last {
			tip(sx, sy, x1, y1)
		} else {
			s.seg(sx, sy, x1, y1, hw)
		}
	}
	return s
}

// seamDir is the unit direction, in pixels, in which the path leaves cell
// i (out) or enters cell i+1 (!out) where the two are not drawn side by
// side. It comes from the geometry: a queen's ray through the two cells
// goes on to a cell drawn beside them; failing that, from the
// neighbouring straight part of the path.
func seamDir(b *board, pos *engine.Position, cells []int, pts [][2]float64, i int, out bool, near func(int) bool) (float64, float64, bool) {
	dir := func(a, c [2]float64) (float64, float64, bool) {
		d := math.Hypot(c[0]-a[0], c[1]-a[1])
		if d == 0 {
			return 0, 0, false
		}
		return (c[0] - a[0]) / d, (c[1] - a[1]) / d, true
	}
	sc := b.t.scale
	beside := func(c1, c2 int) ([2]float64, [2]float64, bool) {
		if len(b.byCell[c1]) == 0 || len(b.byCell[c2]) == 0 {
			return [2]float64{}, [2]float64{}, false
		}
		s1, s2 := &b.shapes[b.byCell[c1][0]], &b.shapes[b.byCell[c2][0]]
		p1, p2 := [2]float64{s1.ax, s1.ay}, [2]float64{s2.ax, s2.ay}
		return p1, p2, math.Hypot(p2[0]-p1[0], p2[1]-p1[1]) <= 1.6*sc
	}
	a, c := cells[i], cells[i+1]
	if out {
		// The ray from c through a goes on to p: the piece left a going
		// away from p.
		for _, r := range pos.Geo().RayPaths(engine.Queen, c) {
			if len(r) >= 2 && r[0] == a {
				if pa, pp, ok := beside(a, r[1]); ok {
					return dir(pp, pa)
				}
			}
		}
		if near(i - 1) {
			return dir(pts[i-1], pts[i])
		}
	} else {
		for _, r := range pos.Geo().RayPaths(engine.Queen, a) {
			if len(r) >= 2 && r[0] == c {
				if pc, pn, ok := beside(c, r[1]); ok {
					return dir(pc, pn)
				}
			}
		}
		if near(i + 1) {
			return dir(pts[i+1], pts[i+2])
		}
	}
	return 0, 0, false
}

// covPool holds per-picture coverage buffers, all zero between uses.
var covPool sync.Pool

// fill paints a stroke in colour col with opacity alpha: each pixel once,
// at the largest coverage of any of its parts, so joints do not darken.
func (s *stroke) fill(img *image.Paletted, col [3]float64, alpha float64) {
	if s == nil {
		return
	}
	w, h := img.Rect.Dx(), img.Rect.Dy()
	cp, _ := covPool.Get().(*[]uint8)
	if cp == nil || len(*cp) < w*h {
		buf := make([]uint8, w*h)
		cp = &buf
	}
	cov := *cp
	var boxes []image.Rectangle
	clip := image.Rect(0, 0, w, h)
	for _, c := range s.caps {
		r := image.Rect(int(math.Min(c[0], c[2])-c[4]-1), int(math.Min(c[1], c[3])-c[4]-1),
			int(math.Max(c[0], c[2])+c[4]+2), int(math.Max(c[1], c[3])+c[4]+2)).Intersect(clip)
		boxes = append(boxes, r)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				d := segDist(float64(x)+0.5, float64(y)+0.5, c[0], c[1], c[2], c[3])
				setCov(cov, y*w+x, c[4]+0.5-d)
			}
		}
	}
	for _, t := range s.tris {
		r := image.Rect(int(min(t[0], t[2], t[4])-1), int(min(t[1], t[3], t[5])-1),
			int(max(t[0], t[2], t[4])+2), int(max(t[1], t[3], t[5])+2)).Intersect(clip)
		boxes = append(boxes, r)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				setCov(cov, y*w+x, triDepth(float64(x)+0.5, float64(y)+0.5, t)+0.5)
			}
		}
	}
	p := palette()
	for _, r := range boxes {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			row := img.Pix[y*img.Stride:]
			for x := r.Min.X; x < r.Max.X; x++ {
				a := cov[y*w+x]
				if a == 0 {
					continue
				}
				cov[y*w+x] = 0
				f := alpha * float64(a) / 255
				bg := p.rgba[row[x]]
				cr := uint8(float64(bg.R)*(1-f) + col[0]*f + 0.5)
				cg := uint8(float64(bg.G)*(1-f) + col[1]*f + 0.5)
				cb := uint8(float64(bg.B)*(1-f) + col[2]*f + 0.5)
				row[x] = p.lut[p.key(cr, cg, cb)]
			}
		}
	}
	covPool.Put(cp)
}

func setCov(cov []uint8, i int, c float64) {
	if c <= 0 {
		return
	}
	v := uint8(math.Min(1, c)*254 + 1)
	if v > cov[i] {
		cov[i] = v
	}
}

func segDist(px, py, x0, y0, x1, y1 float64) float64 {
	dx, dy := x1-x0, y1-y0
	n := dx*dx + dy*dy
	t := 0.0
	if n > 0 {
		t = math.Max(0, math.Min(1, ((px-x0)*dx+(py-y0)*dy)/n))
	}
	return math.Hypot(px-x0-t*dx, py-y0-t*dy)
}

// triDepth is how far (px, py) lies inside a triangle: the least signed
// distance to its edges, negative outside.
func triDepth(px, py float64, t [6]float64) float64 {
	area := (t[2]-t[0])*(t[5]-t[1]) - (t[3]-t[1])*(t[4]-t[0])
	sgn := 1.0
	if area < 0 {
		sgn = -1
	}
	d := math.Inf(1)
	for i := 0; i < 3; i++ {
		ax, ay := t[2*i], t[2*i+1]
		bx, by := t[(2*i+2)%6], t[(2*i+3)%6]
		ex, ey := bx-ax, by-ay
		n := math.Hypot(ex, ey)
		if n == 0 {
			continue
		}
		e := sgn * (ex*(py-ay) - ey*(px-ax)) / n
		d = math.Min(d, e)
	}
	return d
}
