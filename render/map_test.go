package render

import (
	"bytes"
	"image/png"
	"math"
	"testing"

	"topochess/engine"
)

// MapLimits are what a picture must meet to be read on a phone: a picture
// of width Width whose smallest cell is at least MinCell pixels across.
type MapLimits struct {
	Width   int
	MinCell float64
}

// CheckMapInvariants checks the picture r draws of v from side o against
// the phone limits and the cell map against the picture: every cell of
// the variant listed exactly once with one polygon, no two polygons over
// each other, the smallest cell at least lim.MinCell pixels across, the
// height at most 1.8 × the width, every label and mark text at least 12 px
// tall at 400 px wide, clear of every cell a piece can stand on and of
// each other. Every
// variant's layout, the cube's included, can be checked with it.
func CheckMapInvariants(t testing.TB, r *Renderer, v *engine.Variant, o engine.Color, lim MapLimits) {
	t.Helper()
	m := r.CellMap(v, o)
	if m.Width != lim.Width {
		t.Errorf("%s: map %d px wide, want %d", v.ID, m.Width, lim.Width)
	}
	if float64(m.Height) > maxTall*float64(m.Width) {
		t.Errorf("%s: %d×%d is taller than %.1f× the width", v.ID, m.Width, m.Height, maxTall)
	}
	seen := map[string]int{}
	var polys [][][2]float64
	smallest, smallName := math.Inf(1), ""
	for _, c := range m.Cells {
		seen[c.Cell]++
		if len(c.Polygons) != 1 {
			t.Errorf("%s: cell %s has %d polygons, want 1", v.ID, c.Cell, len(c.Polygons))
		}
		for _, p := range c.Polygons {
			polys = append(polys, p)
			if w := polyWidth(p); w < smallest {
				smallest, smallName = w, c.Cell
			}
		}
	}
	for i := 0; i < v.Geo.N; i++ {
		if n := seen[v.Geo.Name(i)]; n != 1 {
			t.Errorf("%s: cell %s listed %d times, want once", v.ID, v.Geo.Name(i), n)
		}
	}
	if len(m.Cells) != v.Geo.N {
		t.Errorf("%s: map lists %d cells, the variant has %d", v.ID, len(m.Cells), v.Geo.N)
	}
	if smallest < lim.MinCell {
		t.Errorf("%s: cell %s is %.1f px across, want at least %.0f", v.ID, smallName, smallest, lim.MinCell)
	}
	// A tap must land on one cell: no polygon covers another's centre.
	for i, p := range polys {
		cx, cy := centroid(p)
		for j, q := range polys {
			if i != j && inPixels(q, cx, cy) {
				t.Errorf("%s: the centre of %s lies inside %s", v.ID, m.Cells[i].Cell, m.Cells[j].Cell)
			}
		}
	}
	minCap := 12 * float64(lim.Width) / phoneWidth
	labels := r.board(v, o).labels
	for i, a := range labels {
		for _, b := range labels[i+1:] {
			// One pixel of antialiasing may touch.
			if a.x0+1 < b.x1-1 && b.x0+1 < a.x1-1 && a.y0+1 < b.y1-1 && b.y0+1 < a.y1-1 {
				t.Errorf("%s: labels %q and %q overlap", v.ID, a.text, b.text)
			}
		}
	}
	for _, lb := range labels {
		if lb.cap < minCap-1e-9 {
			t.Errorf("%s: label %q is %.1f px tall, want at least %.0f", v.ID, lb.text, lb.cap, minCap)
		}
		if lb.onCell {
			t.Errorf("%s: label %q stands on a cell, where a piece may stand", v.ID, lb.text)
			continue
		}
		// One pixel of antialiasing may touch a cell.
		rect := [][2]float64{{lb.x0 + 1, lb.y0 + 1}, {lb.x1 - 1, lb.y0 + 1}, {lb.x1 - 1, lb.y1 - 1}, {lb.x0 + 1, lb.y1 - 1}}
		for k, p := range polys {
			if pixelPolysOverlap(p, rect) {
				t.Errorf("%s: label %q overlaps cell %s", v.ID, lb.text, m.Cells[k].Cell)
			}
		}
	}
}

// polyWidth is the smallest distance across a convex polygon: the least
// extent of its projections on the normals of its edges.
func polyWidth(p [][2]float64) float64 {
	best := math.Inf(1)
	for i := range p {
		a, b := p[i], p[(i+1)%len(p)]
		nx, ny := -(b[1] - a[1]), b[0]-a[0]
		n := math.Hypot(nx, ny)
		if n == 0 {
			continue
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, q := range p {
			d := (q[0]*nx + q[1]*ny) / n
			lo, hi = math.Min(lo, d), math.Max(hi, d)
		}
		best = math.Min(best, hi-lo)
	}
	return best
}

func centroid(p [][2]float64) (x, y float64) {
	for _, q := range p {
		x += q[0] / float64(len(p))
		y += q[1] / float64(len(p))
	}
	return x, y
}

func pixelPolysOverlap(a, b [][2]float64) bool {
	toPts := func(p [][2]float64) []engine.Point {
		out := make([]engine.Point, len(p))
		for i, q := range p {
			out[i] = engine.Point{X: q[0], Y: q[1]}
		}
		return out
	}
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, q := range b {
		x0, y0 = math.Min(x0, q[0]), math.Min(y0, q[1])
		x1, y1 = math.Max(x1, q[0]), math.Max(y1, q[1])
	}
	return polyHitsRect(toPts(a), x0, y0, x1, y1)
}

// phoneLimit is the smallest cell a variant's picture may have at 400 px
// wide: 24 px, and 18 px on the cube nets, which show six faces.
func phoneLimit(id string) float64 {
	if id == "cube" || id == "cube5" {
		return 18
	}
	return 24
}

func TestCellMapAt400(t *testing.T) {
	r := &Renderer{Width: 400}
	for _, id := range engine.Variants() {
		v := engine.MustVariant(id)
		mid := v.StartPosition()
		firstMoves(mid, 12)
		for _, o := range []engine.Color{engine.White, engine.Black} {
			CheckMapInvariants(t, r, v, o, MapLimits{Width: 400, MinCell: phoneLimit(id)})
			m := r.CellMap(v, o)
			for _, pos := range []*engine.Position{v.StartPosition(), mid} {
				data, err := r.PNG(pos, Options{Orientation: o})
				if err != nil {
					t.Fatal(err)
				}
				cfg, err := png.DecodeConfig(bytes.NewReader(data))
				if err != nil || cfg.Width != m.Width || cfg.Height != m.Height {
					t.Errorf("%s: picture %d×%d (%v), map %d×%d", id, cfg.Width, cfg.Height, err, m.Width, m.Height)
				}
			}
		}
	}
}

// The chat pictures, twice as wide, hold the same limits scaled.
func TestCellMapAtChatWidth(t *testing.T) {
	r := New()
	for _, id := range engine.Variants() {
		for _, o := range []engine.Color{engine.White, engine.Black} {
			CheckMapInvariants(t, r, engine.MustVariant(id), o, MapLimits{Width: DefaultWidth, MinCell: 2 * phoneLimit(id)})
		}
	}
}

// TestCellMapMatchesPicture: the map is the picture's own geometry, so a
// click at a cell's centre on the map is that cell for CellAt too.
func TestCellMapMatchesPicture(t *testing.T) {
	r := &Renderer{Width: 400}
	for _, id := range engine.Variants() {
		v := engine.MustVariant(id)
		m := r.CellMap(v, engine.Black)
		for _, c := range m.Cells {
			x, y := centroid(c.Polygons[0])
			if got := r.CellAt(v, engine.Black, x, y); got < 0 || v.Geo.Name(got) != c.Cell && int(v.Geo.Partner[v.Geo.Cell(c.Cell)]) != got {
				t.Errorf("%s: the centre of %s on the map is %d in the picture", id, c.Cell, got)
			}
		}
	}
}
