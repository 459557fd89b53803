package engine

import "math/bits"

// The counter's bit path, on every board of up to 320 cells: the
// position keeps its occupied cells as bits, and the counter reads from
// them what it would otherwise walk the board for. Where a rider's rays
// each run through cells numbered one way within one 64-cell word and
// share no cell, as standard chess's do, its moves are one mask and a
// popcount per ray; other cells cut their ray and attack trees into such
// runs (countsegs.go). What form a cell gets is read from its trees; where
// a plain board's cell does not fit, the counter walks its tree. On a
// board with switches the empty half of a taken switch counts as taken
// (closeSwitches, applied by Position.bits), which is all the rays and
// pawns need to know of them.

// bitRay is one ray of a rider: its cells as a mask of one word of the
// occupancy bits.
type bitRay struct {
	mask uint64
	word uint8
}

// bitRays are the rays of one rider from one cell, split by the way their
// cell numbers run: the nearest piece on an "up" ray is its lowest bit, on
// a "down" ray its highest.
type bitRays struct {
	up, down []bitRay
}

// occupancy is the board as bits, 64 cells a word (up to 320 cells): every
// piece, and the pieces of the side to move. Words are indexed with &7 so
// that no index needs a bounds check.
type occupancy struct {
	all, own [8]uint64
}

// sideBits are the cells of each colour's pieces, 64 cells a word, as
// read from the board (Position.loadOcc).
type sideBits [2][8]uint64

// load fills s from the board, reading eight cells a step.
func (s *sideBits) load(b []Piece) {
	*s = sideBits{}
	for base := 0; base < len(b) && base < 512; base += 8 {
		present, black := cellBytes(b, base)
		w, sh := base>>6&7, uint(base&63)
		s[White][w] |= gatherTops(present&^black) << sh
		s[Black][w] |= gatherTops(present&black) << sh
	}
}

// gatherTops packs the top bit of each byte of x into the byte's index:
// bit i of the result is bit 8i+7 of x.
func gatherTops(x uint64) uint64 {
	return ((x >> 7) * 0x0102040810204080) >> 56
}

// buildBitRays derives the bit path's tables for a board of up to 320
// cells (the size of the pinned set): attackBits for every cell whose
// attack lines are one run each, knight and step masks, pawnBits, and
// where no phasing move can coincide with a ray's cell bitRays (nil or
// not ok where a cell does not fit); buildSegs covers the rest.
func (g *Geometry) buildBitRays() {
	// On a board with phasing the counter's loop reads the own pieces
	// from occ.own, where closeSwitches would add empty halves: a board
	// with switches and phasing (there is none) keeps the table walk.
	if g.N > 64*len(Position{}.pinBuf) || g.hasPartner && g.Twin != nil {
		return
	}
	g.bitBoard = true
	g.bitWords = (g.N + 63) / 64
	for c, pp := range g.Partner {
		if int(pp) > c {
			w := [2]int16{int16(c), pp}
			g.switches = append(g.switches, w)
			g.switchCells[c>>6&7] |= 1 << uint(c&63)
			g.switchCells[pp>>6&7] |= 1 << uint(pp&63)
		}
	}
	for by := 0; by < 2; by++ {
		g.stepBits[by] = make([][]bitRay, g.N)
		for t := range g.stepBits[by] {
			var cells []int16
			for _, a := range g.stepFrom[by][t] {
				cells = append(cells, a.Cell)
			}
			g.stepBits[by][t] = cellBits(cells)
		}
	}
	g.knightBits = make([][]bitRay, g.N)
	for o := range g.knightBits {
		g.knightBits[o] = cellBits(g.Knight[o])
	}
	for c := 0; c < 2; c++ {
		for d := 0; d < 2; d++ {
			g.pawnBits[c][d] = make([]pawnBits, g.N)
			g.pawnWide[c][d] = make([]pawnWide, g.N)
			for o := range g.pawnBits[c][d] {
				g.pawnBits[c][d][o] = g.pawnBitsOf(Color(c), d, o)
				if !g.pawnBits[c][d][o].ok {
					g.pawnWide[c][d][o] = g.pawnWideOf(Color(c), d, o)
				}
			}
		}
	}
	g.attackBits = make([]*bitLines, g.N)
	for t := range g.attackBits {
		g.attackBits[t] = bitLinesOf(g.attackTrie[t], &g.switchCells)
	}
	// Where a phasing move may coincide with a ray's cell, every rider
	// takes the runs of buildSegs, which count a cell once.
	if g.Twin == nil {
		for _, k := range []Kind{Bishop, Rook, Queen} {
			g.bitRays[k] = make([]*bitRays, g.N)
			for o := 0; o < g.N; o++ {
				g.bitRays[k][o] = bitRaysOf(g.RayPaths(k, o), len(g.rays[k][o]), &g.switchCells)
			}
		}
	}
	g.buildSegs()
	// A king on a switch is attacked when its switch is, and a king's
	// step into a switch closes the other half behind it: those tests
	// walk the board (attackedOcc and legalityOcc fall back to it).
	for _, sw := range g.switches {
		for _, c := range sw {
			g.attackBits[c], g.attackSegs[c] = nil, nil
		}
	}
}

// bitRaysOf is the rays paths as bitRays, or nil when the tree forks, two
// rays share a cell, a ray leaves its word or turns back in numbering, or
// it runs through a switch cell.
func bitRaysOf(paths [][]int, nodes int, switches *[8]uint64) *bitRays {
	total := 0
	rs := &bitRays{}
	var cells [8]uint64
	for _, p := range paths {
		total += len(p)
		w := p[0] >> 6
		up := len(p) == 1 || p[1] > p[0]
		r := bitRay{word: uint8(w)}
		for i, c := range p {
			bit := uint64(1) << uint(c&63)
			if c>>6 != w || i > 0 && (c > p[i-1]) != up || (cells[w&7]|switches[w&7])&bit != 0 {
				return nil
			}
			cells[w&7] |= bit
			r.mask |= bit
		}
		if up {
			rs.up = append(rs.up, r)
		} else {
			rs.down = append(rs.down, r)
		}
	}
	if total != nodes {
		return nil // two paths share a cell: the tree forks
	}
	return rs
}

// countRider counts the moves of a rider with the rays rs: on each ray
// the cells up to and including the nearest piece, less that piece if it
// is the mover's own.
func (o *occupancy) countRider(rs *bitRays) int {
	n := 0
	for _, r := range rs.up {
		w := r.word & 7
		bl := o.all[w] & r.mask
		// Up to the lowest set bit; every bit when bl is 0.
		n += bits.OnesCount64(r.mask & (bl ^ (bl - 1)) &^ o.own[w])
	}
	for _, r := range rs.down {
		w := r.word & 7
		bl := o.all[w] & r.mask
		// From the highest set bit; from bit 0 (every bit) when bl is 0.
		hi := uint64(1) << 63 >> uint(bits.LeadingZeros64(bl|1))
		n += bits.OnesCount64(r.mask & -hi &^ o.own[w])
	}
	return n
}

// bitLine is one line of an attack tree: its cells as a mask of one word,
// and the rider kinds (kindBit) that attack the target from any of them.
type bitLine struct {
	mask  uint64
	word  uint8
	kinds uint8
}

// bitLines are the lines toward one target, split as bitRays are.
type bitLines struct {
	up, down []bitLine
}

// bitLinesOf turns an attack tree into lines, or nil when the tree forks,
// a line leaves its word or turns back in numbering, the kinds that
// attack change along a line, or a line runs through a switch cell
// (switches: pinnedSegs knows what an empty half stands for).
func bitLinesOf(nodes []attackNode, switches *[8]uint64) *bitLines {
	ls := &bitLines{}
	for i := 0; i < len(nodes); {
		end := int(nodes[i].Skip)
		first := nodes[i].Cell
		w := first >> 6
		up := end-i == 1 || nodes[i+1].Cell > first
		l := bitLine{word: uint8(w), kinds: nodes[i].Mask}
		for j := i; j < end; j++ {
			n := nodes[j]
			if int(n.Skip) != end || n.Cell>>6 != w || n.Mask != l.kinds || j > i && (n.Cell > nodes[j-1].Cell) != up ||
				switches[w&7]>>uint(n.Cell&63)&1 != 0 {
				return nil
			}
			l.mask |= 1 << uint(n.Cell&63)
		}
		if up {
			ls.up = append(ls.up, l)
		} else {
			ls.down = append(ls.down, l)
		}
		i = end
	}
	return ls
}

// attackedOcc is Attacked with the occupied cells given as bits (all),
// which may differ from the board's where a test lifts a piece; nil
// falls back to Attacked.
func (p *Position) attackedOcc(t int, by Color, all *occupancy) bool {
	if all == nil {
		return p.Attacked(t, by)
	}
	if ls := p.g.attackBits[t]; ls != nil {
		return p.attackedByStepOcc(t, by, all) || p.attackedByLines(ls, &all.all, by)
	}
	if segs := p.g.attackSegs[t]; segs != nil {
		return p.attackedByStepOcc(t, by, all) || p.attackedBySegs(segs, &all.all, by)
	}
	return p.Attacked(t, by)
}

// attackedByStepOcc is attackedByStep, which first asks the bits whether
// any piece of colour by stands where a knight or pawn could attack t
// from.
func (p *Position) attackedByStepOcc(t int, by Color, occ *occupancy) bool {
	for _, s := range p.g.stepBits[by][t] {
		w := s.word & 7
		their := occ.all[w] &^ occ.own[w]
		if by == p.Side {
			their = occ.own[w]
		}
		if s.mask&their != 0 {
			return p.attackedByStep(t, by)
		}
	}
	return p.attackedByStepOnly(t, by, false)
}

// attackedByLines reports whether the nearest piece on one of the lines
// is a rider of colour by of a kind that attacks along it.
func (p *Position) attackedByLines(ls *bitLines, all *[8]uint64, by Color) bool {
	b := p.Board
	for _, l := range ls.up {
		w := l.word & 7
		if bl := all[w] & l.mask; bl != 0 {
			pc := b[int(w)<<6+bits.TrailingZeros64(bl)]
			if pc.Color() == by && l.kinds&kindBit(pc.Kind()) != 0 {
				return true
			}
		}
	}
	for _, l := range ls.down {
		w := l.word & 7
		if bl := all[w] & l.mask; bl != 0 {
			pc := b[int(w)<<6+63-bits.LeadingZeros64(bl)]
			if pc.Color() == by && l.kinds&kindBit(pc.Kind()) != 0 {
				return true
			}
		}
	}
	return false
}

// pinnedBits is pinned for a king whose lines are ls, with the board as
// bits: on each line the nearest piece, and behind an own one the next.
func (p *Position) pinnedBits(ls *bitLines, occ *occupancy) (pin bitset, any, check bool) {
	b := p.Board
	pin = p.pinBuf[:]
	pin[0], pin[1], pin[2], pin[3], pin[4] = 0, 0, 0, 0, 0
	for _, l := range ls.up {
		w := l.word & 7
		bl := occ.all[w] & l.mask
		if bl == 0 {
			continue
		}
		f := bits.TrailingZeros64(bl)
		if occ.own[w]>>uint(f)&1 == 0 {
			check = check || l.kinds&kindBit(b[int(w)<<6+f].Kind()) != 0
			continue
		}
		if bl &= bl - 1; bl != 0 {
			f2 := bits.TrailingZeros64(bl)
			if occ.own[w]>>uint(f2)&1 == 0 && l.kinds&kindBit(b[int(w)<<6+f2].Kind()) != 0 {
				pin[w] |= 1 << uint(f)
				any = true
			}
		}
	}
	for _, l := range ls.down {
		w := l.word & 7
		bl := occ.all[w] & l.mask
		if bl == 0 {
			continue
		}
		f := 63 - bits.LeadingZeros64(bl)
		if occ.own[w]>>uint(f)&1 == 0 {
			check = check || l.kinds&kindBit(b[int(w)<<6+f].Kind()) != 0
			continue
		}
		if bl &^= 1 << uint(f); bl != 0 {
			f2 := 63 - bits.LeadingZeros64(bl)
			if occ.own[w]>>uint(f2)&1 == 0 && l.kinds&kindBit(b[int(w)<<6+f2].Kind()) != 0 {
				pin[w] |= 1 << uint(f)
				any = true
			}
		}
	}
	return pin, any, check
}

// cellBits groups cells into one mask per word.
func cellBits(cells []int16) []bitRay {
	var out []bitRay
	for _, t := range cells {
		w, bit := uint8(t>>6), uint64(1)<<uint(t&63)
		found := false
		for i := range out {
			if out[i].word == w {
				out[i].mask |= bit
				found = true
			}
		}
		if !found {
			out = append(out, bitRay{mask: bit, word: w})
		}
	}
	return out
}

// countSteps counts the moves of a knight with the targets ks.
func (o *occupancy) countSteps(ks []bitRay) int {
	n := 0
	for _, k := range ks {
		n += bits.OnesCount64(k.mask &^ o.own[k.word&7])
	}
	return n
}

// countPlain is countPiece on a board where every destination is reached
// once, with no switches and no phasing. occ, when not nil, is the board as
// bits, for riders whose rays have bitRays.
func (p *Position) countPlain(o int16, occ *occupancy) int {
	g := p.g
	b := p.Board
	pc := b[o]
	us := pc.Color()
	n := 0
	switch pc.Kind() {
	case Pawn:
		if occ != nil {
			if pb := &g.pawnBits[us][pc.Dir()][o]; pb.ok {
				return occ.countPawn(pb)
			}
		}
		pt := &g.pawnAt[us][pc.Dir()][o]
		for i, t := range pt.push {
			if b[t] == 0 {
				n++
				if pt.promo[i] {
					n += 3
				}
			}
		}
		for _, md := range pt.double {
			if b[md[0]] == 0 && b[md[1]] == 0 {
				n++
			}
		}
		for i, t := range pt.cap {
			if x := b[t]; x != 0 && x.Color() != us {
				n++
				if pt.promoCap[i] {
					n += 3
				}
			}
		}
	case Knight, King:
		tbl := g.Knight[o]
		if pc.Kind() == King {
			tbl = g.KingSteps[o]
		} else if occ != nil {
			return occ.countSteps(g.knightBits[o])
		}
		for _, t := range tbl {
			if x := b[t]; x == 0 || x.Color() != us {
				n++
			}
		}
	case Bishop, Rook, Queen:
		if occ != nil {
			if rs := g.bitRays[pc.Kind()][o]; rs != nil {
				return occ.countRider(rs)
			}
		}
		nodes := g.rays[pc.Kind()][o]
		for i := 0; i < len(nodes); {
			nd := &nodes[i]
			x := b[nd.Cell]
			if x != 0 {
				if x.Color() != us {
					n++
				}
				i = int(nd.Skip)
				continue
			}
			n++
			i++
		}
	}
	return n
}
