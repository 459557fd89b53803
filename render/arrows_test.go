package render

import (
	"image"
	"strings"
	"testing"

	"topochess/engine"
)

func names(g *engine.Geometry, cs []int) string {
	var out []string
	for _, c := range cs {
		out = append(out, g.Name(c))
	}
	return strings.Join(out, " ")
}

// The last move's path is the one the piece really took in the board's
// geometry: round glued edges, through the Klein mirror, through a Chess
// 66 switch, a knight's leap as two king steps, through the Möbius paper.
func TestLastTrail(t *testing.T) {
	for _, c := range []struct {
		id, start, move, want string
		phase                 bool
	}{
		{"standard", "", "e2-e4", "e2 e3 e4", false},
		{"standard", "", "g1-f3", "g1 g2 f3", false},
		{"klein", "w Ke1,Bc11,Rh3,ke8 - - 0 1", "c11-h8", "c11 b10 a9 h8", false},
		{"klein", "w Ke1,Rd10,kb5 - - 0 1", "d10-e13", "d10 d11 e12 e13", false},
		{"moebius", "w Ke1,Rh1,ke8 - - 0 1", "h1-c8'", "h1 a8' b8' c8'", false},
		{"moebius", "w Ke1,Rh3,kb8 - - 0 1", "h3-h3'", "h3 h3'", true},
		{"chess66", "w Ke1,Bd1,kh8 - - 0 1", "d1-4", "d1 c2 b3 4", false},
		{"toroidal", "w Ke1,Rh1,kb8 - - 0 1", "h1-b1", "h1 a1 b1", false},
		{"standard", "w Ke1,Rh1,ke8 K - 0 1", "e1-g1", "e1 f1 g1", false},
	} {
		v := engine.MustVariant(c.id)
		pos, last := play(t, v, c.start, c.move)
		tr := lastTrail(pos, last[0], last[1])
		if got := names(v.Geo, tr.cells); got != c.want || tr.phase != c.phase {
			t.Errorf("%s %s: path %q (phase %v), want %q (phase %v)", c.id, c.move, got, tr.phase, c.want, c.phase)
		}
	}
}

// In check, a line runs from every checking piece along its path to the
// king, also through the paper.
func TestCheckTrails(t *testing.T) {
	for _, c := range []struct {
		id, start, move string
		want            []string
	}{
		{"standard", "", "e2-e4,f7-f6,d1-h5", []string{"h5 g6 f7 e8"}},
		{"moebius", "w Ke1,Ra8',ke8 - - 0 1", "a8'-e8'", []string{"e8' e8"}},
		{"standard", "w Ke1,Rd1,Nd5,kd8 - - 0 1", "d5-b6", []string{"d1 d2 d3 d4 d5 d6 d7 d8"}},
		{"standard", "w Ke1,Rd1,Nd5,kh8 - - 0 1", "d5-b6", nil},
		{"standard", "w Ke1,Rd2,Nf5,ke8 - - 0 1", "f5-d6", []string{"d6 d7 e8"}},
	} {
		v := engine.MustVariant(c.id)
		pos, _ := play(t, v, c.start, strings.Split(c.move, ",")...)
		var got []string
		for _, tr := range checkTrails(pos, int(pos.King[pos.Side])) {
			got = append(got, names(v.Geo, tr.cells))
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s %s: check lines %q, want %q", c.id, c.move, got, c.want)
		}
	}
}

// The arrow is drawn: pixels along the path change colour, also in the
// cells a rook passed over, and only when there is a last move.
func TestArrowDrawn(t *testing.T) {
	v := engine.MustVariant("moebius")
	pos, last := play(t, v, "w Ke1,Rh1,ke8 - - 0 1", "h1-c8'")
	r := &Renderer{Width: 400}
	plain := r.Image(pos, Options{}).(*image.Paletted)
	with := r.Image(pos, Options{Last: last}).(*image.Paletted)
	b := r.board(v, engine.White)
	si := &b.shapes[b.byCell[v.Geo.Cell("a8'")][0]] // passed over, empty
	x, y := int(si.ax), int(si.ay)
	if plain.Pix[y*plain.Stride+x] == with.Pix[y*with.Stride+x] {
		t.Error("no arrow over a8', which the rook passed")
	}
	// The twins of a selected piece's cell and of a king in check are
	// marked on the Möbius strip.
	sel := r.Image(pos, Options{Selected: cells(v.Geo, "c8'")}).(*image.Paletted)
	tw := &b.shapes[b.byCell[v.Geo.Cell("c8")][0]]
	changed := 0
	for _, sp := range tw.band {
		for x := sp.x0; x < sp.x1; x++ {
			if sel.Pix[int(sp.y)*sel.Stride+int(x)] != plain.Pix[int(sp.y)*plain.Stride+int(x)] {
				changed++
			}
		}
	}
	if changed == 0 {
		t.Error("the twin c8 of the selected c8' is not marked")
	}
}
