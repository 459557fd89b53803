package engine

import "math/bits"

// countHeisenberg is countLegal for Heisenberg chess. A piece that needs
// no test (not the king, not pinned, no en passant open to a pawn, the side
// not in check) has its changes of position counted from the sets of cells
// they land on instead of being listed, and nothing is filtered. sides are
// the cells of each colour as bits (nil: read from the board); the board
// has at most 64 cells, so one word holds them.
func (p *Position) countHeisenberg(scratch []Move, sides *sideBits) int {
	var s sideBits
	if sides == nil {
		s.load(p.Board)
		sides = &s
	}
	us := p.Side
	var occ *occupancy // the board as bits for the attack tests, or nil
	if p.g.bitBoard {
		occ = &occupancy{}
		occ.all[0], occ.own[0] = sides[0][0]|sides[1][0], sides[us][0]
	}
	l := p.legalityOcc(occ)
	if l.inCheck {
		return len(p.appendHeisenberg(scratch[:0]))
	}
	p.nSafeSteps = 0
	var w watch
	p.observeBits(&w, sides)
	var sOf [64]int16
	n := 0
	for own := sides[us][0]; own != 0; own &= own - 1 {
		o := bits.TrailingZeros64(own)
		pc := p.Board[o]
		switch {
		case pc.Kind() == King:
			// King moves are never observed (RULES §5): the ordinary
			// count, which also finds the steps castling need not test.
			n += p.countKing(int16(o), occ, -1)
		case l.anyPin && l.pin.has(o), pc.Kind() == Pawn && p.EPSkip >= 0 && containsCell(p.g.KingSteps[p.EPPawn], int16(o)):
			n += len(p.filterWith(p.pieceMoves(scratch[:0], int16(o), &w, &sOf), 0, l))
		default:
			n += p.countPieceMoves(scratch, int16(o), &w)
		}
	}
	return n + p.countCastling(occ)
}

// countPieceMoves is len(pieceMoves(...)) with the changes of speed and
// position counted rather than listed.
func (p *Position) countPieceMoves(scratch []Move, o int16, w *watch) int {
	fide, done, seenAt, n := p.countWatchedFIDE(o, w)
	pc := p.Board[o]
	promo := p.g.Promo[pc.Color()][pc.Dir()]
	for seenAt != 0 {
		s := int16(bits.TrailingZeros64(seenAt))
		seenAt &= seenAt - 1
		n += p.countSpeedChange(scratch, o, s, w, &done)
		k := w.count(s)
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

// countSpeedChange is len(speedChange(...)) from the cells' bits where the
// tables have them: the cells the new kind reaches from s, with o lifted
// (a rider's rays up to and including their first piece), less those it
// may not end on.
func (p *Position) countSpeedChange(scratch []Move, o, s int16, w *watch, done *uint64) int {
	g := p.g
	b := p.Board
	pc := b[o]
	nk := speedKind(pc.Kind())
	if nk == NoKind || b[s] != 0 {
		return 0
	}
	if !g.bitBoard || g.N > 64 {
		return len(p.speedChange(scratch[:0], o, s, w, done))
	}
	var to uint64
	switch nk {
	case Rook, Bishop:
		rs := g.bitRays[nk][s]
		if rs == nil {
			return len(p.speedChange(scratch[:0], o, s, w, done))
		}
		to = rideRange(rs, (w.own|w.enemy)&^cellBit(o))
	case Knight:
		for _, kb := range g.knightBits[s] {
			to |= kb.mask
		}
	case Pawn:
		// One step of its own colour's direction, no double step.
		us := pc.Color()
		pb := &g.pawnBits[us][int(us)][s]
		if !pb.ok {
			return len(p.speedChange(scratch[:0], o, s, w, done))
		}
		to = pb.push&^(w.own|w.enemy) | pb.cap&w.enemy
	}
	to &^= *done | w.own | w.enemyKing | cellBit(o) | cellBit(s)
	*done |= to
	return bits.OnesCount64(to)
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
	tables := g.bitBoard && g.N <= 64
	switch pc.Kind() {
	case Bishop, Rook, Queen:
		if rs := g.bitRays[pc.Kind()]; tables && rs != nil && rs[o] != nil {
			return watchedRays(rs[o], w)
		}
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
		if tables {
			return watchedKnight(o, g.knightBits[o], w)
		}
		for _, t := range g.Knight[o] {
			if x := b[t]; x == 0 || x.Color() != us {
				add(t, firstSeen(knightForward(o, t)), 1)
			}
		}
	case Pawn:
		d := pc.Dir()
		if pb := &g.pawnBits[us][d][o]; tables && pb.ok {
			return watchedPawn(pb, w)
		}
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

// watchedRays is countWatchedFIDE for a rider with the rays rs: on each
// ray its destinations up to its first piece, those before the ray's
// first watched cell unobserved, the rest observed there.
func watchedRays(rs *bitRays, w *watch) (fide, done, seenAt uint64, n int) {
	all := w.own | w.enemy
	for _, r := range rs.up {
		bl := all & r.mask
		reach := r.mask & (bl ^ (bl - 1))
		to := reach &^ w.own
		fide |= to
		free := to
		if sn := reach & w.seen; sn != 0 {
			f := sn & -sn
			free &= f - 1
			if to&^free != 0 {
				seenAt |= f
			}
		}
		done |= free
		n += bits.OnesCount64(free)
	}
	for _, r := range rs.down {
		bl := all & r.mask
		reach := r.mask & -(uint64(1) << 63 >> uint(bits.LeadingZeros64(bl|1)))
		to := reach &^ w.own
		fide |= to
		free := to
		if sn := reach & w.seen; sn != 0 {
			f := uint64(1) << 63 >> uint(bits.LeadingZeros64(sn))
			free &^= f<<1 - 1
			if to&^free != 0 {
				seenAt |= f
			}
		}
		done |= free
		n += bits.OnesCount64(free)
	}
	return fide, done, seenAt, n
}

// watchedKnight is countWatchedFIDE for a knight on o with the targets
// ks: a leap is observed on its forward cell.
func watchedKnight(o int16, ks []bitRay, w *watch) (fide, done, seenAt uint64, n int) {
	for _, k := range ks {
		fide |= k.mask &^ w.own
	}
	for to := fide; to != 0; to &= to - 1 {
		t := int16(bits.TrailingZeros64(to))
		if f := knightForward(o, t); w.seen&cellBit(f) != 0 {
			seenAt |= cellBit(f)
		} else {
			done |= cellBit(t)
			n++
		}
	}
	return fide, done, seenAt, n
}

// watchedPawn is countWatchedFIDE for a pawn with the tables pb (en
// passant aside): a push or capture is observed on its target, a double
// step on the cell it skips, else on its target.
func watchedPawn(pb *pawnBits, w *watch) (fide, done, seenAt uint64, n int) {
	all := w.own | w.enemy
	fide = pb.push&^all | pb.cap&w.enemy
	seenAt = fide & w.seen
	done = fide &^ w.seen
	n = bits.OnesCount64(done)
	if pb.promo {
		n *= 4
	}
	if pb.double != 0 && pb.double&all == 0 {
		to := pb.doubleTo
		fide |= to
		switch skip := pb.double &^ to; {
		case skip&w.seen != 0:
			seenAt |= skip
		case to&w.seen != 0:
			seenAt |= to
		default:
			done |= to
			n++
		}
	}
	return fide, done, seenAt, n
}
