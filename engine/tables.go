package engine

// Tables derived from the geometry for the move counter and the attack
// test: each gathers what one question reads, so a lookup touches one
// record instead of several tables.

// countTables are the tables of a Geometry that only the move counter and
// the attack test read.
type countTables struct {
	// pawnAt[c][d][cell] gathers the pawn tables of one cell.
	pawnAt [2][2][]pawnCell
	// stepFrom[by][t] lists every cell from which a knight or pawn of
	// colour by would capture on t, with that piece: one loop answers "is
	// t attacked by a step". The king is found by its cell in kingNear[t],
	// the cells a king attacks t from.
	stepFrom [2][][]stepAttacker
	// kingTargets[k] are the king's steps from k and, on the Möbius
	// strip, its phasing move, each once.
	kingTargets [][]int16
	kingNear    []bitset
	// plain: no duplicates, switches or phasing, so the counter needs
	// none of their checks.
	plain bool
	// bitRays[k][cell]: the rays of rider kind k as occupancy bits, on a
	// plain board (nil for a cell whose rays do not allow it).
	bitRays [7][]*bitRays
	// attackBits[t]: the lines of attackTrie[t] as occupancy bits (nil
	// for a cell whose lines do not allow it). bitBoard: the counter
	// takes the bit path (a plain board of up to 320 cells).
	attackBits []*bitLines
	bitBoard   bool
	bitWords   int
	// knightBits and pawnBits are the knight and pawn tables as masks
	// for the bit path.
	knightBits [][]bitRay
	// stepBits[by][t] are the cells of stepFrom[by][t] as masks.
	stepBits [2][][]bitRay
	pawnBits [2][2][]pawnBits
	// pawnWide: pawns whose targets pawnBits cannot hold (countsegs.go).
	pawnWide [2][2][]pawnWide
	// segRays and attackSegs are rays and attack trees as runs of bits
	// where bitRays and attackBits have none (countsegs.go).
	segRays    [7][][]bitSeg
	attackSegs [][]bitSeg
	// switches are the two halves of each switch (Chess 66), and
	// switchCells all of them as bits.
	switches    [][2]int16
	switchCells [8]uint64
}

// pawnCell is what a pawn of one colour and direction does from one cell.
type pawnCell struct {
	push   []int16
	cap    []int16
	double [][2]int16
	// promo[i] tells whether push[i] promotes, promoCap[i] cap[i].
	promo, promoCap []bool
	// distinct: no two of the pawn's targets (pushes, captures, double
	// steps and the phasing twin) are the same cell, so counting needs no
	// set of cells seen.
	distinct bool
}

// stepAttacker is a cell and the piece that attacks from it.
type stepAttacker struct {
	Cell  int16
	Piece Piece
}

// buildStepTables fills pawnAt, stepFrom and kingNear from the pawn,
// knight and king tables.
func (g *Geometry) buildStepTables() {
	n := g.N
	for c := 0; c < 2; c++ {
		for d := 0; d < 2; d++ {
			at := make([]pawnCell, n)
			for o := range at {
				pc := pawnCell{push: g.PawnPush[c][d][o], cap: g.PawnCap[c][d][o], double: g.PawnDouble[c][d][o]}
				for _, t := range pc.push {
					pc.promo = append(pc.promo, g.Promo[c][d][t])
				}
				for _, t := range pc.cap {
					pc.promoCap = append(pc.promoCap, g.Promo[c][d][t])
				}
				all := append(append([]int16(nil), pc.push...), pc.cap...)
				for _, md := range pc.double {
					all = append(all, md[1])
				}
				if g.Twin != nil {
					all = append(all, g.Twin[o])
				}
				pc.distinct = true
				for i, t := range all {
					if containsCell(all[i+1:], t) {
						pc.distinct = false
					}
				}
				at[o] = pc
			}
			g.pawnAt[c][d] = at
		}
	}
	for by := Color(0); by < 2; by++ {
		g.stepFrom[by] = make([][]stepAttacker, n)
		for t := 0; t < n; t++ {
			var s []stepAttacker
			add := func(cells []int16, pc Piece) {
				for _, o := range cells {
					s = append(s, stepAttacker{o, pc})
				}
			}
			// Where pawns carry no direction of their own, White's go '+'
			// and Black's '-' (position strings and moves keep it so).
			for d := 0; d < 2; d++ {
				if g.PawnDirs || d == int(by) {
					add(g.pawnCapFrom[by][d][t], MakePiece(by, Pawn, d == 1))
				}
			}
			add(g.knightFrom[t], MakePiece(by, Knight, false))
			g.stepFrom[by][t] = s
		}
	}
	g.kingTargets = make([][]int16, n)
	for k := range g.kingTargets {
		ts := append([]int16(nil), g.KingSteps[k]...)
		if g.Twin != nil && !containsCell(ts, g.Twin[k]) {
			ts = append(ts, g.Twin[k])
		}
		g.kingTargets[k] = ts
	}
	g.kingNear = make([]bitset, n)
	for t := range g.kingNear {
		g.kingNear[t] = newBitset(n)
		for _, o := range g.kingFrom[t] {
			g.kingNear[t].set(int(o))
		}
	}
}
