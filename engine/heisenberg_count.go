package engine

import "math/bits"

// countHeisenberg is countLegal for Heisenberg chess. A piece that needs
// no test (not the king, not pinned, no en passant open to a pawn, the side
// not in check) has its changes of position counted from the sets of cells
// they land on instead of being listed, and nothing is filtered.
func (p *Position) countHeisenberg(scratch []Move) int {
	l := p.legality()
	if l.inCheck {
		return len(p.appendHeisenberg(scratch[:0]))
	}
	var w watch
	p.observe(&w)
	var sOf [64]int16
	us := p.Side
	n := 0
	for o, pc := range p.Board {
		if pc == 0 || pc.Color() != us {
			continue
		}
		switch {
		case pc.Kind() == King:
			n += len(p.filterWith(p.genPieceFIDE(scratch[:0], int16(o)), 0, l))
		case l.anyPin && l.pin.has(o), pc.Kind() == Pawn && p.EPSkip >= 0:
			n += len(p.filterWith(p.pieceMoves(scratch[:0], int16(o), &w, &sOf), 0, l))
		default:
			n += p.countPieceMoves(scratch, int16(o), &w)
		}
	}
	return n + len(p.filterWith(p.genCastling(scratch[:0]), 0, l))
}

// countPieceMoves is len(pieceMoves(...)) with the changes of position
// counted rather than listed.
func (p *Position) countPieceMoves(scratch []Move, o int16, w *watch) int {
	fide, done, seenAt, n := p.countWatchedFIDE(o, w)
	pc := p.Board[o]
	promo := p.g.Promo[pc.Color()][pc.Dir()]
	for seenAt != 0 {
		s := int16(bits.TrailingZeros64(seenAt))
		seenAt &= seenAt - 1
		n += len(p.speedChange(scratch[:0], o, s, w, &done))
		k := int(w.n[s])
		if k >= 8 {
			continue
		}
		// As positionChange: the cells at distance k from s that are not
		// taken yet; a pawn promoting there makes four moves.
		cand := chebRing[s][k] &^ (fide | done | w.own | w.enemyKing | cellBit(o))
		done |= cand
		n += bits.OnesCount64(cand)
		if pc.Kind() == Pawn {
			for ; cand != 0; cand &= cand - 1 {
				if promo[bits.TrailingZeros64(cand)] {
					n += 3
				}
			}
		}
	}
	return n
}

// countWatchedFIDE walks the FIDE moves of the non-king piece on o as
// watchedFIDE lists them (en passant aside: the caller lists pawns when it
// is open) and returns their destinations (fide), the unobserved ones
// (done), the first observed cells on the paths of the others (seenAt)
// and how many moves the unobserved ones make.
func (p *Position) countWatchedFIDE(o int16, w *watch) (fide, done, seenAt uint64, n int) {
	g := p.g
	b := p.Board
	pc := b[o]
	us := pc.Color()
	// add records a destination t whose path was first observed on f (-1:
	// never), making k moves.
	add := func(t, f int16, k int) {
		fide |= cellBit(t)
		if f >= 0 {
			seenAt |= cellBit(f)
			return
		}
		done |= cellBit(t)
		n += k
	}
	seen := func(c int16) bool { return w.seen&cellBit(c) != 0 }
	firstSeen := func(c int16) int16 {
		if seen(c) {
			return c
		}
		return -1
	}
	switch pc.Kind() {
	case Bishop, Rook, Queen:
		var firstAt [16]int16
		firstAt[0] = -1
		nodes := g.rays[pc.Kind()][o]
		for i := 0; i < len(nodes); {
			nd := &nodes[i]
			f := firstAt[nd.Depth-1]
			if f < 0 && seen(nd.Cell) {
				f = nd.Cell
			}
			firstAt[nd.Depth] = f
			x := b[nd.Cell]
			if x != 0 {
				if x.Color() != us {
					add(nd.Cell, f, 1)
				}
				i = int(nd.Skip)
				continue
			}
			add(nd.Cell, f, 1)
			i++
		}
	case Knight:
		for _, t := range g.Knight[o] {
			if x := b[t]; x == 0 || x.Color() != us {
				add(t, firstSeen(knightForward(o, t)), 1)
			}
		}
	case Pawn:
		d := pc.Dir()
		promo := g.Promo[us][d]
		moves := func(t int16) int {
			if promo[t] {
				return 4
			}
			return 1
		}
		for _, t := range g.PawnPush[us][d][o] {
			if b[t] == 0 {
				add(t, firstSeen(t), moves(t))
			}
		}
		for _, md := range g.PawnDouble[us][d][o] {
			if b[md[0]] == 0 && b[md[1]] == 0 {
				f := firstSeen(md[0])
				if f < 0 {
					f = firstSeen(md[1])
				}
				add(md[1], f, 1)
			}
		}
		for _, t := range g.PawnCap[us][d][o] {
			if x := b[t]; x != 0 && x.Color() != us {
				add(t, firstSeen(t), moves(t))
			}
		}
	}
	return fide, done, seenAt, n
}
