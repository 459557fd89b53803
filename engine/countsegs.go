package engine

import "math/bits"

// The bit path on boards whose rays wrap, cross words or reach a cell
// twice (torus, Möbius strip, cube): each path of a ray tree or attack
// tree is cut into runs of cells numbered one way within one word, and
// the runs are read in order until the first that holds a piece. The
// cells a rider reaches are the union over its paths, so a cell reached
// twice counts once.

// bitSeg is one run of a path. next is the index of the first run of the
// next path; kinds (attack paths) the rider kinds that attack the target
// from the run's cells.
type bitSeg struct {
	mask  uint64
	next  int16
	word  uint8
	kinds uint8
	down  bool
}

// segsOf cuts paths into runs; kinds[i][j] is the kinds mark of path i's
// cell j (nil for ray paths). A run ends where the word, the direction of
// numbering or the kinds change.
func segsOf(paths [][]int, kinds [][]uint8) []bitSeg {
	var out []bitSeg
	for i, p := range paths {
		for j := 0; j < len(p); {
			s := bitSeg{word: uint8(p[j] >> 6)}
			if kinds != nil {
				s.kinds = kinds[i][j]
			}
			k := j + 1
			if k < len(p) && p[k]>>6 == p[j]>>6 && (kinds == nil || kinds[i][k] == s.kinds) {
				s.down = p[k] < p[j]
			}
			s.mask = 1 << uint(p[j]&63)
			for ; k < len(p); k++ {
				if p[k]>>6 != p[j]>>6 || (p[k] < p[k-1]) != s.down || kinds != nil && kinds[i][k] != s.kinds {
					break
				}
				s.mask |= 1 << uint(p[k]&63)
			}
			out = append(out, s)
			j = k
		}
		for j := range out {
			if out[j].next == 0 {
				out[j].next = int16(len(out))
			}
		}
	}
	return out
}

// attackPaths lists the root-to-leaf paths of an attack tree with the
// kinds mark of each cell.
func attackPaths(nodes []attackNode) (paths [][]int, kinds [][]uint8) {
	var stack []int
	for i := range nodes {
		for len(stack) > 0 && int(nodes[stack[len(stack)-1]].Skip) <= i {
			stack = stack[:len(stack)-1]
		}
		stack = append(stack, i)
		if int(nodes[i].Skip) == i+1 {
			var p []int
			var k []uint8
			for _, x := range stack {
				p = append(p, int(nodes[x].Cell))
				k = append(k, nodes[x].Mask)
			}
			paths, kinds = append(paths, p), append(kinds, k)
		}
	}
	return paths, kinds
}

// buildSegs fills segRays and attackSegs where bitRays and attackBits
// could not be built.
func (g *Geometry) buildSegs() {
	for _, k := range []Kind{Bishop, Rook, Queen} {
		g.segRays[k] = make([][]bitSeg, g.N)
		for o := 0; o < g.N; o++ {
			if g.bitRays[k] == nil || g.bitRays[k][o] == nil {
				g.segRays[k][o] = segsOf(g.RayPaths(k, o), nil)
			}
		}
	}
	g.attackSegs = make([][]bitSeg, g.N)
	for t := range g.attackSegs {
		if g.attackBits[t] == nil {
			g.attackSegs[t] = segsOf(attackPaths(g.attackTrie[t]))
		}
	}
}

// closeSwitches marks the empty half of every taken switch as taken by
// the side to move: nothing may stop on it or pass it (RULES §7), so the
// rays and pawn moves read from all and own stop there and leave it out.
// The counter's loop over its pieces reads the colour bits, not own;
// pinnedSegs tells the half from a piece by the board.
func (o *occupancy) closeSwitches(sw [][2]int16) {
	for _, h := range sw {
		a, b := h[0], h[1]
		ab, bb := uint64(1)<<uint(a&63), uint64(1)<<uint(b&63)
		if o.all[a>>6&7]&ab != 0 {
			o.all[b>>6&7] |= bb
			o.own[b>>6&7] |= bb
		} else if o.all[b>>6&7]&bb != 0 {
			o.all[a>>6&7] |= ab
			o.own[a>>6&7] |= ab
		}
	}
}

// nearest is the bit of the piece nearest the start of run s among bl
// (not 0).
func (s *bitSeg) nearest(bl uint64) int {
	if s.down {
		return 63 - bits.LeadingZeros64(bl)
	}
	return bits.TrailingZeros64(bl)
}

// reach adds to r the cells the runs reach: each path up to and
// including its first piece.
func (o *occupancy) reach(segs []bitSeg, r *[8]uint64) {
	for i := 0; i < len(segs); {
		s := &segs[i]
		w := s.word & 7
		bl := o.all[w] & s.mask
		if bl == 0 {
			r[w] |= s.mask
			i++
			continue
		}
		if s.down {
			r[w] |= s.mask & -(uint64(1) << 63 >> uint(bits.LeadingZeros64(bl)))
		} else {
			r[w] |= s.mask & (bl ^ (bl - 1))
		}
		i = int(s.next)
	}
}

// countOnceBits is countOnce from the occupancy bits; ok is false where
// the piece's tables have no bit form.
func (p *Position) countOnceBits(o, stop int16, occ *occupancy) (n int, hit, ok bool) {
	g := p.g
	pc := p.Board[o]
	var r [8]uint64
	if pc.Kind() == Knight {
		for _, k := range g.knightBits[o] {
			r[k.word&7] |= k.mask
		}
	} else {
		segs := g.segRays[pc.Kind()][o]
		if segs == nil {
			return 0, false, false
		}
		occ.reach(segs, &r)
	}
	if g.Twin != nil {
		t := g.Twin[o]
		r[t>>6&7] |= 1 << uint(t&63)
	}
	for w := 0; w < g.bitWords; w++ {
		n += bits.OnesCount64(r[w&7] &^ occ.own[w&7])
	}
	if stop >= 0 {
		w := stop >> 6 & 7
		hit = (r[w]&^occ.own[w])>>uint(stop&63)&1 != 0
	}
	return n, hit, true
}

// countPieces is the counter's loop over the pieces own (the side to
// move's, by word) on a board that is not plain and has no phasing: the
// king and the pinned pieces are taken out of the words first, so the
// rest go to countFree without a test each.
func (p *Position) countPieces(own []uint64, l *legality, scratch []Move, occ *occupancy) int {
	n := 0
	k := int(l.king)
	for w, free := range own {
		if w == k>>6 {
			free &^= 1 << uint(k&63)
		}
		if l.anyPin && w < len(l.pin) {
			pinned := free & l.pin[w]
			free &^= pinned
			for ; pinned != 0; pinned &= pinned - 1 {
				n += p.countFrom(w<<6+bits.TrailingZeros64(pinned), l, scratch, nil)
			}
		}
		for ; free != 0; free &= free - 1 {
			n += p.countFree(int16(w<<6+bits.TrailingZeros64(free)), occ)
		}
	}
	return n + p.countKing(l.king, occ, l.mateTwin)
}

// countFree counts the moves of the piece on o, not the king and not
// pinned, the side not in check, on a board without phasing (so with
// bitRays) that is not plain: what countFrom does there, with nothing
// to test and no cell to stop on. A knight's targets as masks and a
// rider's reach count each cell once.
func (p *Position) countFree(o int16, occ *occupancy) int {
	g := p.g
	pc := p.Board[o]
	switch k := pc.Kind(); k {
	case Pawn:
		c, d := pc.Color(), pc.Dir()
		if pb := &g.pawnBits[c][d][o]; pb.ok {
			return occ.countPawn(pb)
		}
		if pw := &g.pawnWide[c][d][o]; pw.ok {
			return occ.countPawnWide(pw)
		}
		n, _ := p.countPiece(o, -1)
		return n
	case Knight:
		return occ.countSteps(g.knightBits[o])
	default:
		if rs := g.bitRays[k][o]; rs != nil {
			return occ.countRider(rs)
		}
		var r [8]uint64
		occ.reach(g.segRays[k][o], &r)
		n := 0
		for w := 0; w < g.bitWords; w++ {
			n += bits.OnesCount64(r[w&7] &^ occ.own[w&7])
		}
		return n
	}
}

// countPawnBits is countPawn from the occupancy bits, for a pawn whose
// targets are all different cells and have the bit form pb.
func (p *Position) countPawnBits(o, stop int16, pb *pawnBits, occ *occupancy) (n int, hit bool) {
	w := pb.word & 7
	all := occ.all[w]
	to := pb.push&^all | pb.cap&all&^occ.own[w]
	n = bits.OnesCount64(to)
	if pb.promo {
		n *= 4
	}
	if pb.double != 0 && pb.double&all == 0 {
		n++
		to |= pb.doubleTo
	}
	if stop >= 0 && stop>>6&7 == int16(w) && to>>uint(stop&63)&1 != 0 {
		hit = true
	}
	if g := p.g; g.Twin != nil {
		t := g.Twin[o]
		if x := p.Board[t]; x == 0 || x.Color() != p.Board[o].Color() {
			n++
			if g.Promo[p.Board[o].Color()][p.Board[o].FlipDir().Dir()][t] {
				n += 3
			}
			hit = hit || t == stop
		}
	}
	return n, hit
}

// attackedBySegs reports whether the nearest piece on one of the attack
// paths segs is a rider of colour by of a kind that attacks along it.
func (p *Position) attackedBySegs(segs []bitSeg, all *[8]uint64, by Color) bool {
	b := p.Board
	for i := 0; i < len(segs); {
		s := &segs[i]
		w := s.word & 7
		bl := all[w] & s.mask
		if bl == 0 {
			i++
			continue
		}
		pc := b[int(w)<<6+s.nearest(bl)]
		if pc.Color() == by && s.kinds&kindBit(pc.Kind()) != 0 {
			return true
		}
		i = int(s.next)
	}
	return false
}

// pinnedSegs is pinned for a king whose attack paths are segs: on each
// path the nearest piece, and behind an own one the next.
func (p *Position) pinnedSegs(segs []bitSeg, occ *occupancy) (pin bitset, any, check bool) {
	b := p.Board
	us := p.Side
	pin = p.pinBuf[:]
	pin[0], pin[1], pin[2], pin[3], pin[4] = 0, 0, 0, 0, 0
	for i := 0; i < len(segs); {
		end := int(segs[i].next)
		// The nearest piece: the first run that holds one.
		j := i
		i = end
		var s *bitSeg
		var bl uint64
		for ; j < end; j++ {
			s = &segs[j]
			if bl = occ.all[s.word&7] & s.mask; bl != 0 {
				break
			}
		}
		if bl == 0 {
			continue
		}
		w := s.word & 7
		f := s.nearest(bl)
		c := int(w)<<6 + f
		if occ.own[w]>>uint(f)&1 == 0 {
			check = check || s.kinds&kindBit(b[c].Kind()) != 0
			continue
		}
		first := c
		if b[c] == 0 {
			// The empty half of a taken switch: the piece on the other
			// half blocks the path here, and is pinned if it is ours and
			// an enemy rider stands behind; a rider there neither checks
			// nor pins along this path.
			if pp := int(p.g.Partner[c]); b[pp].Color() == us {
				first = pp
			} else {
				continue
			}
		}
		// The next piece behind it, in the same run or a later one. An
		// empty switch half is taken by the side to move in occ, so it
		// pins nothing.
		bl &^= 1 << uint(f)
		for bl == 0 {
			if j++; j == end {
				break
			}
			s = &segs[j]
			bl = occ.all[s.word&7] & s.mask
		}
		if bl == 0 {
			continue
		}
		w = s.word & 7
		f = s.nearest(bl)
		if occ.own[w]>>uint(f)&1 == 0 && s.kinds&kindBit(b[int(w)<<6+f].Kind()) != 0 {
			pin[first>>6] |= 1 << uint(first&63)
			any = true
		}
	}
	return pin, any, check
}
