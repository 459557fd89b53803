package engine

import "math/bits"

// Noisy moves and mobility from the bits the position keeps (occAll,
// occCol), on every board with the bit path and no switches. Every path
// of a rider's ray tree is a list of runs (countsegs.go); read in the
// tree's order, the first piece on each path is the walk's capture on that
// path, in the walk's order. Listing every move from the bits was tried and dropped: it
// ran more instructions than the walk (see docs/performance.md).

// listTables are the tables of a Geometry for listing and mobility from
// bits (nil where the board has no bit path or has switches).
type listTables struct {
	// raySegs[k][o] are the paths of the ray tree of rider kind k from o,
	// as runs, in the tree's order.
	raySegs [7][][]bitSeg
	// rayFork[k][o]: two paths share their first cells (the tree forks),
	// so a later path must skip the cells an earlier one gave.
	rayFork [7][]bool
	// rayOnce[k][o]: no cell is on the tree twice, so the cells it
	// reaches, as a set, count its nodes.
	rayOnce [7][]bool
	// kingBits are the king's steps as masks; knightOnce and kingOnce:
	// the table holds no cell twice.
	kingBits             [][]bitRay
	knightOnce, kingOnce []bool
	// pawnCapBits[c][d][o] are PawnCap's cells as masks.
	pawnCapBits [2][2][][]bitRay
}

// buildListBits fills listTables on a board with the bit path.
func (g *Geometry) buildListBits() {
	// A board with switches lists its riders and mobility by the walk,
	// which stops at an empty half of a taken switch.
	if !g.bitBoard || g.switches != nil {
		return
	}
	for _, k := range []Kind{Bishop, Rook, Queen} {
		g.raySegs[k] = make([][]bitSeg, g.N)
		g.rayFork[k] = make([]bool, g.N)
		g.rayOnce[k] = make([]bool, g.N)
		for o := 0; o < g.N; o++ {
			paths := g.RayPaths(k, o)
			total := 0
			for _, p := range paths {
				total += len(p)
			}
			g.raySegs[k][o] = segsOf(paths, nil)
			g.rayFork[k][o] = total != len(g.rays[k][o])
			cells := make([]int16, 0, len(g.rays[k][o]))
			for _, n := range g.rays[k][o] {
				cells = append(cells, n.Cell)
			}
			g.rayOnce[k][o] = distinctCells(cells)
		}
	}
	for c := 0; c < 2; c++ {
		for d := 0; d < 2; d++ {
			g.pawnCapBits[c][d] = make([][]bitRay, g.N)
			for o := range g.pawnCapBits[c][d] {
				g.pawnCapBits[c][d][o] = cellBits(g.PawnCap[c][d][o])
			}
		}
	}
	g.kingBits = make([][]bitRay, g.N)
	g.knightOnce = make([]bool, g.N)
	g.kingOnce = make([]bool, g.N)
	for o := 0; o < g.N; o++ {
		g.kingBits[o] = cellBits(g.KingSteps[o])
		g.knightOnce[o] = distinctCells(g.Knight[o])
		g.kingOnce[o] = distinctCells(g.KingSteps[o])
	}
}

func distinctCells(cells []int16) bool {
	for i, c := range cells {
		for _, d := range cells[:i] {
			if c == d {
				return false
			}
		}
	}
	return true
}

// genRiderCapturesBits appends the captures of the rider of colour us and
// kind k on o, as genPieceFIDE's walk of its ray tree lists them: on each
// path its first piece, if it is the enemy's, and a piece several paths
// reach once, where the first of them reaches it.
func (p *Position) genRiderCapturesBits(ms []Move, o int16, k Kind, us Color) []Move {
	g := p.g
	segs := g.raySegs[k][o]
	fork := g.rayFork[k][o]
	var given [8]uint64
	for i := 0; i < len(segs); i++ {
		s := &segs[i]
		w := s.word & 7
		bl := p.occAll[w] & s.mask
		if bl == 0 {
			continue
		}
		i = int(s.next) - 1
		f := s.nearest(bl)
		bit := uint64(1) << uint(f)
		if fork {
			if given[w]&bit != 0 {
				continue
			}
			given[w] |= bit
		}
		t := int16(w)<<6 + int16(f)
		if p.Board[t].Color() != us {
			ms = append(ms, Move{From: o, To: t, Flags: FlagCapture, Mid: -1})
		}
	}
	return ms
}

// genNoisy appends, of genPieces's moves, the captures and queen
// promotions, in the same order, without listing the others.
func (p *Position) genNoisy(ms []Move) []Move {
	if p.g.bitBoard {
		for w, own := range p.occCol[p.Side&1][:p.g.bitWords] {
			for ; own != 0; own &= own - 1 {
				ms = p.genNoisyPiece(ms, int16(w<<6+bits.TrailingZeros64(own)))
			}
		}
		return ms
	}
	b := p.Board
	for base := 0; base < len(b); base += 8 {
		for own := ownBytes(b, base, p.Side); own != 0; own &= own - 1 {
			ms = p.genNoisyPiece(ms, int16(base+bits.TrailingZeros64(own)>>3))
		}
	}
	return ms
}

// genNoisyPiece appends the captures and queen promotions among
// genPiece's moves of the piece on o.
func (p *Position) genNoisyPiece(ms []Move, o int16) []Move {
	g := p.g
	b := p.Board
	pc := b[o]
	us := pc.Color()
	start := len(ms)
	switch pc.Kind() {
	case Pawn:
		d := pc.Dir()
		for _, t := range g.PawnPush[us][d][o] {
			if g.Promo[us][d][t] && p.free(t) {
				ms = append(ms, Move{From: o, To: t, Promo: Queen, Mid: -1})
			}
		}
		for _, t := range g.PawnCap[us][d][o] {
			if x := b[t]; x != 0 && x.Color() != us {
				ms = addPawnMove(ms, g, us, d, o, t, FlagCapture)
			}
		}
	case Knight, King:
		tbl := g.Knight[o]
		if pc.Kind() == King {
			tbl = g.KingSteps[o]
		}
		for _, t := range tbl {
			if x := b[t]; x != 0 && x.Color() != us {
				ms = append(ms, Move{From: o, To: t, Flags: FlagCapture, Mid: -1})
			}
		}
	case Bishop, Rook, Queen:
		if g.bitBoard && g.switches == nil {
			ms = p.genRiderCapturesBits(ms, o, pc.Kind(), us)
			break
		}
		nodes := g.rays[pc.Kind()][o]
		for i := 0; i < len(nodes); {
			n := &nodes[i]
			if x := b[n.Cell]; x != 0 {
				if x.Color() != us {
					ms = append(ms, Move{From: o, To: n.Cell, Flags: FlagCapture, Mid: -1})
				}
				i = int(n.Skip)
				continue
			}
			if g.hasPartner {
				if pp := g.Partner[n.Cell]; pp >= 0 && b[pp] != 0 {
					i = int(n.Skip)
					continue
				}
			}
			i++
		}
	}
	if g.Twin != nil {
		t := g.Twin[o]
		if x := b[t]; x != 0 && x.Color() != us {
			if pc.Kind() == Pawn {
				ms = addPawnMove(ms, g, us, pc.FlipDir().Dir(), o, t, FlagPhase|FlagCapture)
			} else {
				ms = append(ms, Move{From: o, To: t, Flags: FlagPhase | FlagCapture, Mid: -1})
			}
		} else if x == 0 && pc.Kind() == Pawn && g.Promo[us][pc.FlipDir().Dir()][t] {
			ms = append(ms, Move{From: o, To: t, Promo: Queen, Flags: FlagPhase, Mid: -1})
		}
	}
	if g.MayDup {
		ms = dedupe(ms, start)
	}
	return ms
}

// mobilityBits is MobilityAttacksOf from the bits: a knight's or king's
// targets, or a rider's cells up to the first piece on each path, as a
// set, where its table or tree holds no cell twice (then the set counts
// what the walk counts); the walk for the rest.
// With kinds, the cells each kind attacks also go to kinds[kind], and
// with avoid too, the safe destinations to safe (MobilityAttacksByKind).
func (p *Position) mobilityBits(c Color, cells []int16, att []uint64, each []uint16, occ *occupancy, kinds *[7][8]uint64, avoid *[8]uint64, safe []uint16) (n [7]int, out, safeOut []uint16) {
	g := p.g
	b := p.Board
	words := g.bitWords
	var marks, all [8]uint64 // all: the marks flushed to kinds
	mine := &p.occCol[c&1]
	own := Piece(c) << 3 // the colour bit of c's pieces
	for _, o := range cells {
		pc := b[o]
		if pc == 0 || pc&colorBit != own {
			continue
		}
		k := pc.Kind()
		if k == Pawn {
			for _, s := range g.pawnCapBits[c][pc.Dir()][o] {
				marks[s.word&7] |= s.mask
			}
			if g.Twin != nil {
				t := g.Twin[o]
				marks[t>>6&7] |= 1 << uint(t&63)
			}
			if kinds != nil {
				flushMarks(&marks, &kinds[Pawn], &all, words)
			}
			continue
		}
		var r [8]uint64
		moves := 0
		switch {
		case k == Knight && g.knightOnce[o]:
			for _, s := range g.knightBits[o] {
				r[s.word&7] |= s.mask
			}
		case k == King && g.kingOnce[o]:
			for _, s := range g.kingBits[o] {
				r[s.word&7] |= s.mask
			}
		case k >= Bishop && k <= Queen && g.bitRays[k] != nil && g.bitRays[k][o] != nil:
			occ.reachRays(g.bitRays[k][o], &r)
		case k >= Bishop && k <= Queen && g.rayOnce[k][o]:
			occ.reach(g.raySegs[k][o], &r)
		default:
			moves = p.mobilityWalk(o, k, own, &marks)
		}
		for w := 0; w < words; w++ {
			moves += bits.OnesCount64(r[w&7] &^ mine[w&7])
			marks[w&7] |= r[w&7]
		}
		if g.Twin != nil {
			t := g.Twin[o]
			marks[t>>6&7] |= 1 << uint(t&63)
			if x := b[t]; x == 0 || x&colorBit != own {
				moves++
			}
		}
		n[k] += moves
		each = append(each, uint16(int(k)*MobilityBuckets+min(moves, MobilityBuckets-1)))
		if kinds != nil {
			if avoid != nil {
				cnt := 0
				for w := 0; w < words; w++ {
					cnt += bits.OnesCount64(marks[w&7] &^ mine[w&7] &^ avoid[w&7])
				}
				safe = append(safe, uint16(int(k)*MobilityBuckets+min(cnt, MobilityBuckets-1)))
			}
			flushMarks(&marks, &kinds[k], &all, words)
		}
	}
	for w := 0; w < words; w++ {
		att[w] |= marks[w&7] | all[w&7]
	}
	return n, each, safe
}

// flushMarks moves one piece's marks to its kind's set and to all.
func flushMarks(marks, kind, all *[8]uint64, words int) {
	for w := 0; w < words; w++ {
		kind[w&7] |= marks[w&7]
		all[w&7] |= marks[w&7]
		marks[w&7] = 0
	}
}

// mobilityWalk is MobilityAttacksOf's walk for one knight, king or rider
// on a board without switches, phasing left out.
func (p *Position) mobilityWalk(o int16, k Kind, own Piece, marks *[8]uint64) int {
	g := p.g
	b := p.Board
	moves := 0
	switch k {
	case Knight, King:
		tbl := g.Knight[o]
		if k == King {
			tbl = g.KingSteps[o]
		}
		for _, t := range tbl {
			marks[t>>6&7] |= 1 << uint(t&63)
			if x := b[t]; x == 0 || x&colorBit != own {
				moves++
			}
		}
	case Bishop, Rook, Queen:
		nodes := g.rays[k][o]
		for i := 0; i < len(nodes); {
			nd := &nodes[i]
			marks[nd.Cell>>6&7] |= 1 << uint(nd.Cell&63)
			if x := b[nd.Cell]; x != 0 {
				if x&colorBit != own {
					moves++
				}
				i = int(nd.Skip)
				continue
			}
			moves++
			i++
		}
	}
	return moves
}

// reachRays adds to r the cells of the rays rs up to and including the
// first piece on each.
func (o *occupancy) reachRays(rs *bitRays, r *[8]uint64) {
	for _, ray := range rs.up {
		w := ray.word & 7
		bl := o.all[w] & ray.mask
		r[w] |= ray.mask & (bl ^ (bl - 1))
	}
	for _, ray := range rs.down {
		w := ray.word & 7
		bl := o.all[w] & ray.mask
		r[w] |= ray.mask & -(uint64(1) << 63 >> uint(bits.LeadingZeros64(bl|1)))
	}
}

// attackedByStepCol is attackedByStep, which first asks the position's
// bits whether a piece of colour by stands where a knight or pawn could
// attack t from. Bits that claim a piece the board recoloured only cost
// the walk.
func (p *Position) attackedByStepCol(t int, by Color) bool {
	col := &p.occCol[by&1]
	for _, s := range p.g.stepBits[by][t] {
		if s.mask&col[s.word&7] != 0 {
			return p.attackedByStep(t, by)
		}
	}
	return p.attackedByStepOnly(t, by, false)
}
