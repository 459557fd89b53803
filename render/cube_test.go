package render

import (
	"image"
	"testing"

	"topochess/engine"
)

// TestCubeArrows: the last move over a cube edge follows the piece: over
// a fold (drawn once, both faces side by side) the arrow runs straight
// on; over a cut it leaves at the edge and comes back on the other face,
// with no line over the picture between; a queen through a vertex turns
// there.
func TestCubeArrows(t *testing.T) {
	v := engine.MustVariant("cube")
	for _, c := range []struct {
		start, move, want string
		// cut: the two cells of the path drawn apart, between which the
		// picture must stay as it is; "" for none.
		cutFrom, cutTo string
	}{
		{"w K1e6,k2e4,R1d4 - -", "1d4-2d5", "1d4 1d3 1d2 1d1 2d7 2d6 2d5", "", ""},
		{"w K1e6,k2e4,R4c4 - -", "4c4-6c4", "4c4 4d4 4e4 4f4 4g4 4h4 6b4 6c4", "4h4", "6b4"},
		{"w K1e6,k2e4,R1d5 - -", "1d5-4d4", "1d5 1d6 1d7 1d8 4d2 4d3 4d4", "1d7", "1d8"},
		{"w K1e6,k2e4,Q1c3 - -", "1c3-2a5", "1c3 1b2 1a1 2a7 2a6 2a5", "", ""},
		{"w K1e6,k2e4,Q1c3 - -", "1c3-4h5", "1c3 1d4 1e5 1f6 1g7 1h8 4h2 4h3 4h4 4h5", "1g7", "1h8"},
	} {
		pos, last := play(t, v, c.start, c.move)
		tr := lastTrail(pos, last[0], last[1])
		if got := names(v.Geo, tr.cells); got != c.want {
			t.Errorf("%s: path %q, want %q", c.move, got, c.want)
			continue
		}
		for _, o := range []engine.Color{engine.White, engine.Black} {
			r := &Renderer{Width: 400}
			plain := r.Image(pos, Options{Orientation: o}).(*image.Paletted)
			with := r.Image(pos, Options{Orientation: o, Last: last}).(*image.Paletted)
			b := r.board(v, o)
			changed := func(x, y float64) bool {
				i := int(y)*plain.Stride + int(x)
				return plain.Pix[i] != with.Pix[i]
			}
			centre := func(name string) (float64, float64) {
				si := &b.shapes[b.byCell[v.Geo.Cell(name)][0]]
				return si.ax, si.ay
			}
			// Every cell passed over carries the arrow.
			for _, cell := range tr.cells[1 : len(tr.cells)-1] {
				if x, y := centre(v.Geo.Name(cell)); !changed(x, y) {
					t.Errorf("%s (%s): no arrow over %s", c.move, o, v.Geo.Name(cell))
				}
			}
			if c.cutFrom == "" {
				continue
			}
			// Over a cut, nothing is drawn halfway between the cells on
			// both sides of it.
			x0, y0 := centre(c.cutFrom)
			x1, y1 := centre(c.cutTo)
			if d := (x1-x0)*(x1-x0) + (y1-y0)*(y1-y0); d < 4*b.t.scale*b.t.scale {
				t.Errorf("%s: %s and %s drawn side by side, not over a cut", c.move, c.cutFrom, c.cutTo)
			}
			if changed((x0+x1)/2, (y0+y1)/2) {
				t.Errorf("%s (%s): a line runs over the picture from %s to %s", c.move, o, c.cutFrom, c.cutTo)
			}
		}
	}
}
