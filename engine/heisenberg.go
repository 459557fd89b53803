package engine

import "math/bits"

// Heisenberg chess (RULES §5) is played on the 8×8 board only, so cell sets
// fit in a uint64 and Chebyshev rings can be tabled once.

func cellBit(c int16) uint64 { return 1 << uint(c) }

// chebRing[s][d] is the set of cells at Chebyshev distance exactly d from
// s on the 8×8 board (d ≥ 8 is always empty).
var chebRing = func() (r [64][8]uint64) {
	for s := 0; s < 64; s++ {
		for t := 0; t < 64; t++ {
			dx, dy := t%8-s%8, t/8-s/8
			d := max(dx, -dx, dy, -dy)
			r[s][d] |= 1 << uint(t)
		}
	}
	return r
}()

// watch is what the opponent of the side to move sees: for each cell, how
// many of its pieces have it in their capture range, as a binary number
// whose bit i is cell's bit in planes[i] (up to 31 watchers; a side has at
// most 16 pieces), so a piece's range is added to every cell at once.
type watch struct {
	planes [5]uint64
	seen   uint64
	// own and enemy occupancy, and the enemy king, for landing tests.
	own, enemy, enemyKing uint64
}

// captureRange is the set of cells the piece on o could capture on if an
// enemy stood there, the other pieces staying where they are: a ray's first
// occupied cell is included whatever its colour (RULES §5).
func (p *Position) captureRange(o int) uint64 {
	g := p.g
	b := p.Board
	pc := b[o]
	var m uint64
	switch pc.Kind() {
	case Pawn:
		for _, t := range g.PawnCap[pc.Color()][pc.Dir()][o] {
			m |= cellBit(t)
		}
	case Knight:
		for _, t := range g.Knight[o] {
			m |= cellBit(t)
		}
	case King:
		for _, t := range g.KingSteps[o] {
			m |= cellBit(t)
		}
	case Bishop, Rook, Queen:
		nodes := g.rays[pc.Kind()][o]
		for i := 0; i < len(nodes); {
			n := &nodes[i]
			m |= cellBit(n.Cell)
			if b[n.Cell] != 0 {
				i = int(n.Skip)
				continue
			}
			i++
		}
	}
	return m
}

// add counts one more watcher on every cell of r.
func (w *watch) add(r uint64) {
	for i := 0; r != 0 && i < len(w.planes); i++ {
		w.planes[i], r = w.planes[i]^r, w.planes[i]&r
	}
}

// count is how many enemy pieces watch cell s.
func (w *watch) count(s int16) int {
	n := 0
	for i, pl := range w.planes {
		n |= int(pl>>uint(s)&1) << i
	}
	return n
}

// observe fills w for the side to move.
func (p *Position) observe(w *watch) {
	var s sideBits
	s.load(p.Board)
	p.observeBits(w, &s)
}

// observeBits is observe given the cells of each colour as bits. A
// piece's capture range comes from the bit tables where its cell has
// them: a rider's rays up to and including their first piece.
func (p *Position) observeBits(w *watch, s *sideBits) {
	g := p.g
	b := p.Board
	us := p.Side
	them := us.Other()
	w.own, w.enemy = s[us][0], s[them][0]
	all := w.own | w.enemy
	tables := g.bitBoard && g.N <= 64
	for e := w.enemy; e != 0; e &= e - 1 {
		o := bits.TrailingZeros64(e)
		pc := b[o]
		var r uint64
		switch k := pc.Kind(); {
		case k == King:
			w.enemyKing |= 1 << uint(o)
			r = p.captureRange(o)
		case !tables:
			r = p.captureRange(o)
		case k == Knight:
			for _, kb := range g.knightBits[o] {
				r |= kb.mask
			}
		case k == Pawn:
			if pb := &g.pawnBits[them][pc.Dir()][o]; pb.ok {
				r = pb.cap
			} else {
				r = p.captureRange(o)
			}
		default:
			if rs := g.bitRays[k]; rs != nil && rs[o] != nil {
				r = rideRange(rs[o], all)
			} else {
				r = p.captureRange(o)
			}
		}
		w.seen |= r
		w.add(r)
	}
}

// rideRange is the cells of the rays rs up to and including each ray's
// first cell in all.
func rideRange(rs *bitRays, all uint64) uint64 {
	var r uint64
	for _, ray := range rs.up {
		bl := all & ray.mask
		r |= ray.mask & (bl ^ (bl - 1))
	}
	for _, ray := range rs.down {
		bl := all & ray.mask
		r |= ray.mask & -(uint64(1) << 63 >> uint(bits.LeadingZeros64(bl|1)))
	}
	return r
}

// knightForward is the cell one orthogonal step from o along the longer
// leg of the leap o→t (b1-c3: b2; b1-d2: c1).
func knightForward(o, t int16) int16 {
	dx, dy := int(t%8)-int(o%8), int(t/8)-int(o/8)
	if dx == 2 || dx == -2 {
		if dx > 0 {
			return o + 1
		}
		return o - 1
	}
	if dy > 0 {
		return o + 8
	}
	return o - 8
}

// watchedFIDE appends the FIDE moves of the non-king piece on o (en passant
// included, castling excluded) and writes into sOf[i] the first observed
// cell of the path of the i-th appended move, or -1.
func (p *Position) watchedFIDE(ms []Move, o int16, w *watch, sOf *[64]int16) []Move {
	g := p.g
	b := p.Board
	pc := b[o]
	us := pc.Color()
	start := len(ms)
	seen := func(c int16) bool { return w.seen&cellBit(c) != 0 }
	switch pc.Kind() {
	case Bishop, Rook, Queen:
		// firstAt[d]: first observed cell of the path down to depth d.
		var firstAt [16]int16
		firstAt[0] = -1
		nodes := g.rays[pc.Kind()][o]
		for i := 0; i < len(nodes); {
			n := &nodes[i]
			f := firstAt[n.Depth-1]
			if f < 0 && seen(n.Cell) {
				f = n.Cell
			}
			firstAt[n.Depth] = f
			x := b[n.Cell]
			if x != 0 {
				if x.Color() != us {
					sOf[len(ms)-start] = f
					ms = append(ms, Move{From: o, To: n.Cell, Flags: FlagCapture, Mid: -1})
				}
				i = int(n.Skip)
				continue
			}
			sOf[len(ms)-start] = f
			ms = append(ms, Move{From: o, To: n.Cell, Mid: -1})
			i++
		}
	case Knight:
		ms = p.genPieceFIDE(ms, o)
		for i := start; i < len(ms); i++ {
			sOf[i-start] = -1
			if f := knightForward(o, ms[i].To); seen(f) {
				sOf[i-start] = f
			}
		}
	case Pawn:
		ms = p.genPieceFIDE(ms, o)
		if p.EPSkip >= 0 && p.Board[p.EPSkip] == 0 && containsCell(g.KingSteps[p.EPPawn], o) &&
			containsCell(g.PawnCap[us][pc.Dir()][o], p.EPSkip) {
			ms = append(ms, Move{From: o, To: p.EPSkip, Flags: FlagEnPassant | FlagCapture, Mid: -1})
		}
		for i := start; i < len(ms); i++ {
			m := ms[i]
			s := int16(-1)
			if m.Flags&FlagDouble != 0 && seen(m.Mid) {
				s = m.Mid
			} else if seen(m.To) {
				s = m.To
			}
			sOf[i-start] = s
		}
	}
	return ms
}

// speedKind is what a piece continues as after a change of speed
// (Q→R→B→N→P), or NoKind when it cannot change speed.
func speedKind(k Kind) Kind {
	switch k {
	case Queen:
		return Rook
	case Rook:
		return Bishop
	case Bishop:
		return Knight
	case Knight:
		return Pawn
	}
	return NoKind
}

// speedChange appends the change-of-speed moves of the piece on o seen on
// the empty cell s: it continues from s as speedKind, lifted from o, never
// ending on s, on o or on the enemy king. Destinations already in *done
// are skipped and new ones are added to it.
func (p *Position) speedChange(ms []Move, o, s int16, w *watch, done *uint64) []Move {
	g := p.g
	b := p.Board
	pc := b[o]
	nk := speedKind(pc.Kind())
	if nk == NoKind || b[s] != 0 {
		return ms
	}
	us := pc.Color()
	// blocked: cells a continuation may not end on.
	blocked := *done | w.own | w.enemyKing | cellBit(o) | cellBit(s)
	add := func(t int16) {
		if blocked&cellBit(t) != 0 {
			return
		}
		blocked |= cellBit(t)
		*done |= cellBit(t)
		fl := uint8(0)
		if b[t] != 0 {
			fl = FlagCapture
		}
		ms = append(ms, Move{From: o, To: t, Flags: fl, Mid: -1})
	}
	switch nk {
	case Rook, Bishop:
		nodes := g.rays[nk][s]
		for i := 0; i < len(nodes); {
			n := &nodes[i]
			add(n.Cell)
			if n.Cell != o && b[n.Cell] != 0 {
				i = int(n.Skip)
				continue
			}
			i++
		}
	case Knight:
		for _, t := range g.Knight[s] {
			add(t)
		}
	case Pawn:
		// A's own colour's forward direction; it stays a knight, so no
		// double step, no en passant and no promotion.
		dir := int(us)
		for _, t := range g.PawnPush[us][dir][s] {
			if b[t] == 0 {
				add(t)
			}
		}
		for _, t := range g.PawnCap[us][dir][s] {
			if w.enemy&cellBit(t) != 0 {
				add(t)
			}
		}
	}
	return ms
}

// positionChange appends the change-of-position moves of the piece on o
// seen on s by n pieces: to a cell at Chebyshev distance n from s that is
// not o, not a FIDE destination (fide), not the own side's and not the
// enemy king. A pawn landing on its last rank promotes.
func (p *Position) positionChange(ms []Move, o, s int16, n int, fide uint64, w *watch, done *uint64) []Move {
	if n >= 8 {
		return ms
	}
	pc := p.Board[o]
	cand := chebRing[s][n] &^ (fide | *done | w.own | w.enemyKing | cellBit(o))
	*done |= cand
	for cand != 0 {
		t := int16(bits.TrailingZeros64(cand))
		cand &= cand - 1
		fl := uint8(0)
		if w.enemy&cellBit(t) != 0 {
			fl = FlagCapture
		}
		if pc.Kind() == Pawn {
			ms = addPawnMove(ms, p.g, pc.Color(), pc.Dir(), o, t, fl)
		} else {
			ms = append(ms, Move{From: o, To: t, Flags: fl, Mid: -1})
		}
	}
	return ms
}

// appendHeisenberg generates the legal moves of Heisenberg chess (RULES §5):
// unobserved FIDE moves, and for observed ones the changes of speed and of
// position, as distinct triples that do not leave the own king attacked.
func (p *Position) appendHeisenberg(ms []Move) []Move {
	start := len(ms)
	var w watch
	p.observe(&w)
	var sOf [64]int16
	us := p.Side
	for o, pc := range p.Board {
		if pc == 0 || pc.Color() != us {
			continue
		}
		if pc.Kind() == King {
			ms = p.genPieceFIDE(ms, int16(o))
			continue
		}
		ms = p.pieceMoves(ms, int16(o), &w, &sOf)
	}
	ms = p.genCastling(ms)
	// Wherever a change of speed or position lands, it cannot open a line
	// the origin did not shield, so the ordinary filter (pinned pieces,
	// king moves, en passant, everything when in check) is exact here.
	return p.filterLegal(ms, start)
}

// pieceMoves appends every candidate move of the non-king piece on o.
func (p *Position) pieceMoves(ms []Move, o int16, w *watch, sOf *[64]int16) []Move {
	first := len(ms)
	ms = p.watchedFIDE(ms, o, w, sOf)
	var fide, done, seenAt uint64
	k := first
	for i := first; i < len(ms); i++ {
		m := ms[i]
		fide |= cellBit(m.To)
		if s := sOf[i-first]; s >= 0 {
			seenAt |= cellBit(s)
			continue
		}
		done |= cellBit(m.To)
		ms[k] = m
		k++
	}
	ms = ms[:k]
	for seenAt != 0 {
		s := int16(bits.TrailingZeros64(seenAt))
		seenAt &= seenAt - 1
		ms = p.speedChange(ms, o, s, w, &done)
		ms = p.positionChange(ms, o, s, w.count(s), fide, w, &done)
	}
	return ms
}

// legal plays m and reports whether the mover's king is then safe.
func (p *Position) legal(m Move) bool {
	us := p.Side
	u := p.Make(m)
	ok := p.King[us] < 0 || !p.Attacked(int(p.King[us]), us.Other())
	p.Unmake(m, u)
	return ok
}
