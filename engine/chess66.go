package engine

import "fmt"

func init() {
	register("chess66", newChess66)
}

// Chess 66 (RULES §7) keeps the 64 names of the ordinary board at indices
// 0..63 (a1 = 0, like gridNames) so the orthodox start and castling work
// by name, and adds the transfer cells "4" and "5".
const (
	c66Four = 64
	c66Five = 65
	c66A3   = 2*8 + 0
	c66A4   = 3*8 + 0
	c66H5   = 4*8 + 7
	c66H6   = 5*8 + 7
)

// c66XY is the column X and rank r of RULES §7: the upper half (ranks 5–8)
// sits one column to the left of the lower half.
func c66XY(c int) (x, r int) {
	switch c {
	case c66Four:
		return 0, 4
	case c66Five:
		return 8, 5
	}
	f, r := c%8, c/8+1
	if r <= 4 {
		return f + 1, r
	}
	return f, r
}

// c66At is the cell at column x, rank r, or -1.
func c66At(x, r int) int {
	switch {
	case x == 0 && r == 4:
		return c66Four
	case x == 8 && r == 5:
		return c66Five
	case r < 1 || r > 8:
		return -1
	}
	f := x
	if r <= 4 {
		f = x - 1
	}
	if f < 0 || f > 7 {
		return -1
	}
	return (r-1)*8 + f
}

// c66Special holds the table of RULES §7 for the transfer cells: their
// steps do not follow from the slanted cell's position.
var c66Special = map[int][8]string{
	//          N     NE    E     SE    S     SW    W     NW
	c66Four: {"a5", "b5", "b4", "b3", "a3", "", "", ""},
	c66Five: {"h6", "", "", "", "h4", "g4", "g5", "g6"},
}

// c66Step is the step function of RULES §7. A step that lands on either
// half of a switch forks to both halves, keeping its direction.
func c66Step(g *Geometry) StepFunc {
	special := map[int][8]int{}
	for c, row := range c66Special {
		var t [8]int
		for d, nm := range row {
			t[d] = -1
			if nm != "" {
				t[d] = g.Cell(nm)
			}
		}
		special[c] = t
	}
	return func(c, d int) []Arrival {
		t := -1
		if row, ok := special[c]; ok {
			t = row[d]
		} else {
			switch {
			case c == c66A3 && d == DirNW, c == c66H6 && d == DirSE:
				// These run along the board's slanted edge.
			default:
				x, r := c66XY(c)
				t = c66At(x+DirVec[d][0], r+DirVec[d][1])
			}
		}
		if t < 0 || t == c || int(g.Partner[c]) == t {
			return nil
		}
		if p := int(g.Partner[t]); p >= 0 {
			if p == c {
				return nil
			}
			return []Arrival{{t, d}, {p, d}}
		}
		return []Arrival{{t, d}}
	}
}

// c66Rank is the rank of a cell; the transfer cells lie on ranks 4 and 5.
func c66Rank(c int) int {
	_, r := c66XY(c)
	return r
}

// c66Pawns: direction follows colour; double steps and promotion go by
// rank, so a pawn on 4 or 5 neither double-steps nor promotes.
func c66Pawns() pawnRule {
	r := colourPawns(8, 8)
	r.double = func(c Color, dir int, cell int) bool {
		if dir == 0 {
			return c66Rank(cell) == 2
		}
		return c66Rank(cell) == 7
	}
	r.promotion = func(c Color, dir int, cell int) bool {
		if dir == 0 {
			return c66Rank(cell) == 8
		}
		return c66Rank(cell) == 1
	}
	return r
}

func newChess66Geometry() *Geometry {
	g := newGeometry(append(gridNames(8, 8), "4", "5"))
	g.Partner[c66Four], g.Partner[c66A4] = c66A4, c66Four
	g.Partner[c66Five], g.Partner[c66H5] = c66H5, c66Five
	g.MayDup = true
	// Written forms of the switch cells (docs/rules-notes.md): SAN and
	// move lists say s4 and s5, which no move number can be mistaken for.
	g.written = map[int]string{c66Four: "s4", c66Five: "s5"}
	g.AddAlias("s4", c66Four)
	g.AddAlias("s5", c66Five)
	step := c66Step(g)
	g.buildFromSteps(step)
	g.buildPawns(step, c66Pawns())
	g.Layout = c66Layout()
	g.finish()
	return g
}

// c66Layout draws every cell as a unit square at (X, r−1). The transfer
// cells get squares of their own beside their partners: 4 left of a4
// (below a5) and 5 right of h5 (above h4), so a piece in a switch is drawn
// at full size, and each switch is outlined as one block of two halves.
func c66Layout() *Layout {
	l := &Layout{MinX: 0, MinY: 0, MaxX: 9, MaxY: 8}
	for c := 0; c < 66; c++ {
		x, r := c66XY(c)
		fx, fy := float64(x), float64(r-1)
		l.Shapes = append(l.Shapes, CellShape{
			Cell: c,
			Poly: []Point{{fx, fy}, {fx + 1, fy}, {fx + 1, fy + 1}, {fx, fy + 1}},
			Dark: (x+r)%2 == 0,
		})
	}
	outline := func(text string, pts ...Point) {
		for i := range pts {
			m := Mark{From: pts[i], To: pts[(i+1)%len(pts)], Kind: "switch"}
			if i == 0 {
				m.Text = text
			}
			l.Marks = append(l.Marks, m)
		}
	}
	outline("switch 4 · a4", Point{0, 4}, Point{0, 3}, Point{2, 3}, Point{2, 4})
	outline("switch h5 · 5", Point{9, 4}, Point{9, 5}, Point{7, 5}, Point{7, 4})
	// The transfer cells' names in the notches beside them (no cell is
	// there): the file letters above and below belong to the halves.
	l.Labels = append(l.Labels,
		Label{At: Point{0.5, 2.6}, Text: "4"},
		Label{At: Point{8.5, 5.4}, Text: "5"})
	for f := 0; f < 8; f++ {
		name := string(rune('a' + f))
		l.Labels = append(l.Labels,
			Label{At: Point{float64(f) + 1.5, -0.3}, Text: name},
			Label{At: Point{float64(f) + 0.5, 8.3}, Text: name})
	}
	for r := 1; r <= 8; r++ {
		l.Labels = append(l.Labels,
			Label{At: Point{-0.3, float64(r) - 0.5}, Text: fmt.Sprint(r)},
			Label{At: Point{9.3, float64(r) - 0.5}, Text: fmt.Sprint(r)})
	}
	return l
}

func newChess66() *Variant {
	g := newChess66Geometry()
	return &Variant{
		ID:       "chess66",
		Name:     "Chess 66",
		Short:    "A board cut in half and shifted by one file, with two switches: 66 cells.",
		Geo:      g,
		Start:    orthodoxStart,
		Castling: orthodoxCastling(g),
		Rules: "Chess 66: the board is cut between ranks 4 and 5 and the upper half is shifted one file to the left, so e5 stands straight above d4 and the diagonal from d4 runs to f5. Two extra cells, 4 (left of a4) and 5 (right of h5), make 66.\n" +
			"• Switches: 4 with a4, and 5 with h5. A switch holds one piece. A move that enters an empty switch may stop on either half, and a rook, bishop or queen may run on through either half, so from a1 a rook reaches 4, a4, a5–a8 (through 4) and b5–b8 (through a4).\n" +
			"• An occupied switch blocks both halves: a piece on 4 stops a1-b8. A capture in a switch lands on the half the captured piece stood on. No move goes from one half of a switch to the other, and a king in a switch is in check when the switch is attacked.\n" +
			"• Bishops can change colour through 4 and 5 (d1 to 4, then on to e8). A knight goes to the cells a king reaches in two steps that are not on one line with its start: from 5 it reaches g7, f6, f4, g3 and e4.\n" +
			"• Otherwise FIDE rules: the usual start, castling, en passant and promotion on the last rank. A pawn's double step from a2 may end on 4 or a4, from h7 on h5 or 5. Draws are automatic on threefold repetition, 100 half-moves without capture or pawn move, and bare kings.\n" +
			"• Type moves as from-to, e.g. e2-e4, a2-4, a1-b8. Move lists write the cells 4 and 5 as s4 and s5 (Rs4, s4xb5), so they never look like move numbers; both forms can be typed.",
	}
}
