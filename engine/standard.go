package engine

import "fmt"

func init() {
	register("standard", newStandard)
}

// gridNames names a w×h grid a1.. with cell index y*w+x.
func gridNames(w, h int) []string {
	names := make([]string, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			names[y*w+x] = fmt.Sprintf("%c%d", 'a'+x, y+1)
		}
	}
	return names
}

// flatStep is the step function of an ordinary w×h board.
func flatStep(w, h int) StepFunc {
	return func(c, d int) []Arrival {
		x, y := c%w+DirVec[d][0], c/w+DirVec[d][1]
		if x < 0 || x >= w || y < 0 || y >= h {
			return nil
		}
		return []Arrival{{y*w + x, d}}
	}
}

// castleByNames builds a castling definition from cell names.
func castleByNames(g *Geometry, c Color, right uint8, kf, kt, rf, rt string, empty, safe []string) CastleDef {
	cell := func(s string) int16 {
		x := g.Cell(s)
		if x < 0 {
			panic("engine: castling cell " + s)
		}
		return int16(x)
	}
	cd := CastleDef{Color: c, Right: right, KingFrom: cell(kf), KingTo: cell(kt), RookFrom: cell(rf), RookTo: cell(rt)}
	for _, s := range empty {
		cd.Empty = append(cd.Empty, cell(s))
	}
	for _, s := range safe {
		cd.Safe = append(cd.Safe, cell(s))
	}
	return cd
}

// orthodoxCastling is FIDE castling on rank 1 and rank 8 named a..h.
func orthodoxCastling(g *Geometry) []CastleDef {
	return []CastleDef{
		castleByNames(g, White, CastleWK, "e1", "g1", "h1", "f1", []string{"f1", "g1"}, []string{"e1", "f1", "g1"}),
		castleByNames(g, White, CastleWQ, "e1", "c1", "a1", "d1", []string{"b1", "c1", "d1"}, []string{"e1", "d1", "c1"}),
		castleByNames(g, Black, CastleBK, "e8", "g8", "h8", "f8", []string{"f8", "g8"}, []string{"e8", "f8", "g8"}),
		castleByNames(g, Black, CastleBQ, "e8", "c8", "a8", "d8", []string{"b8", "c8", "d8"}, []string{"e8", "d8", "c8"}),
	}
}

// colourPawns is the pawn rule of boards where direction follows colour:
// double steps from rank 2 / rank h-1, promotion on the last rank.
func colourPawns(w, h int) pawnRule {
	return pawnRule{
		forward:  upDownForward,
		captures: upDownCaptures,
		double: func(c Color, dir int, cell int) bool {
			y := cell / w
			if dir == 0 {
				return y == 1
			}
			return y == h-2
		},
		promotion: func(c Color, dir int, cell int) bool {
			y := cell / w
			if dir == 0 {
				return y == h-1
			}
			return y == 0
		},
	}
}

// newEightByEight builds the ordinary board shared by standard and
// Heisenberg chess.
func newEightByEight() *Geometry {
	g := newGeometry(gridNames(8, 8))
	step := flatStep(8, 8)
	g.buildFromSteps(step)
	g.buildPawns(step, colourPawns(8, 8))
	g.Layout = gridLayout(8, 8, func(x, y int) int { return y*8 + x })
	// Coordinates left of and below the board: players type cell names.
	g.Layout.MinX, g.Layout.MinY = -0.6, -0.6
	for i := 0; i < 8; i++ {
		g.Layout.Labels = append(g.Layout.Labels,
			Label{At: Point{float64(i) + 0.5, -0.35}, Text: string(rune('a' + i))},
			Label{At: Point{-0.35, float64(i) + 0.5}, Text: fmt.Sprint(i + 1)})
	}
	g.finish()
	return g
}

const orthodoxStart = "w Ra1,Nb1,Bc1,Qd1,Ke1,Bf1,Ng1,Rh1,Pa2,Pb2,Pc2,Pd2,Pe2,Pf2,Pg2,Ph2," +
	"pa7,pb7,pc7,pd7,pe7,pf7,pg7,ph7,ra8,nb8,bc8,qd8,ke8,bf8,ng8,rh8 KQkq - 0 1"

func newStandard() *Variant {
	g := newEightByEight()
	return &Variant{
		ID:       "standard",
		Name:     "Standard chess",
		Short:    "Ordinary FIDE chess on the 8×8 board.",
		Geo:      g,
		Start:    orthodoxStart,
		Castling: orthodoxCastling(g),
		FEN:      true,
		Rules: "Standard chess: the FIDE rules on the ordinary 8×8 board.\n" +
			"• White moves first; checkmate wins, stalemate is a draw.\n" +
			"• Castling, en passant and promotion (to queen, rook, bishop or knight) as usual.\n" +
			"• Draws are automatic on threefold repetition, after 100 half-moves without a capture or pawn move, and when only the two kings remain. You can always resign or agree a draw.\n" +
			"• Type moves as e2-e4, e2e4, Nf3, exd5, O-O or e8=Q.",
	}
}
