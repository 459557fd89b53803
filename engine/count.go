package engine

import "math/bits"

// countLegal returns the number of legal moves of the side to move without
// listing them: perft's last ply only needs the count. A piece that needs
// no test (not the king, not pinned, the side not in check) adds its
// destinations as it walks its tables; the rest go through the ordinary
// generate-and-filter path, in scratch.
func (p *Position) countLegal(scratch []Move) int {
	if p.g.bitBoard {
		return p.countLegalWith(scratch)
	}
	if p.King[p.Side] < 0 {
		return len(p.AppendLegal(scratch[:0]))
	}
	return p.countLegalTables(scratch)
}

// countLegalWith is countLegal on a board with the bit path, from the
// bits the position keeps.
func (p *Position) countLegalWith(scratch []Move) int {
	if p.King[p.Side] < 0 {
		return len(p.AppendLegal(scratch[:0]))
	}
	if p.V.Observation {
		sides := sideBits(p.occCol)
		return p.countHeisenberg(scratch, &sides)
	}
	us := p.Side
	// A copy: countKing lifts the king from it while Make, for the mate
	// rule, changes the position's. On a board with switches bits has
	// closed them.
	occ := *p.bits()
	l := p.legalityOcc(&occ)
	if l.inCheck {
		return len(p.filterWith(p.genPseudo(scratch[:0]), 0, l))
	}
	n := 0
	p.nSafeSteps = 0
	if !p.g.plain && p.g.Twin == nil {
		// The colour's own cells, without the empty switch halves
		// closeSwitches added to occ.own.
		own := p.occCol[us&1]
		n = p.countPieces(own[:p.g.bitWords], &l, scratch, &occ)
	} else {
		plain := p.g.plain
		for w, own := range occ.own[:p.g.bitWords] {
			for ; own != 0; own &= own - 1 {
				o := w<<6 + bits.TrailingZeros64(own)
				switch {
				case int16(o) == l.king:
					n += p.countKing(l.king, &occ, l.mateTwin)
				case l.anyPin && l.pin.has(o):
					n += p.countFrom(o, &l, scratch, nil)
				case plain:
					n += p.countPlain(int16(o), &occ)
				default:
					n += p.countFrom(o, &l, scratch, &occ)
				}
			}
		}
	}
	ms := p.genEnPassant(scratch[:0])
	if l.mateTwin >= 0 {
		ms = p.genCastling(ms)
	} else {
		n += p.countCastling(&occ)
	}
	return n + len(p.filterWith(ms, 0, l))
}

// countLegalTables is countLegal on a board without the bit path.
func (p *Position) countLegalTables(scratch []Move) int {
	l := p.legality()
	if l.inCheck {
		return len(p.filterWith(p.genPseudo(scratch[:0]), 0, l))
	}
	us := p.Side
	b := p.Board
	n := 0
	p.nSafeSteps = 0
	plain := p.g.plain
	for base := 0; base < len(b); base += 8 {
		for own := ownBytes(b, base, us); own != 0; own &= own - 1 {
			o := base + bits.TrailingZeros64(own)>>3
			if plain && int16(o) != l.king && !(l.anyPin && l.pin.has(o)) {
				n += p.countPlain(int16(o), nil)
				continue
			}
			n += p.countFrom(o, &l, scratch, nil)
		}
	}
	ms := p.genEnPassant(scratch[:0])
	if l.mateTwin >= 0 {
		ms = p.genCastling(ms)
	} else {
		n += p.countCastling(nil)
	}
	return n + len(p.filterWith(ms, 0, l))
}

// ownBytes marks the cells base..base+7 that hold a piece of colour us:
// the top bit of byte i is set for cell base+i. Reading eight cells at a
// time spares a branch per cell, which the mix of empty cells and both
// colours makes hard to predict. It reads its word itself rather than
// through cellBytes: on the boards that walk their tables (Chess 66,
// Heisenberg) the extra call was part of what the bit path cost them.
func ownBytes(b []Piece, base int, us Color) uint64 {
	var w uint64
	if len(b)-base >= 8 {
		c := b[base : base+8 : base+8]
		w = uint64(c[0]) | uint64(c[1])<<8 | uint64(c[2])<<16 | uint64(c[3])<<24 |
			uint64(c[4])<<32 | uint64(c[5])<<40 | uint64(c[6])<<48 | uint64(c[7])<<56
	} else {
		for i := len(b) - 1; i >= base; i-- {
			w = w<<8 | uint64(b[i])
		}
	}
	present, black := pieceBytes(w)
	if us == Black {
		return present & black
	}
	return present &^ black
}

// cellBytes marks the cells base..base+7 that hold a piece (present) and
// those whose piece is Black, in the top bit of byte i for cell base+i.
func cellBytes(b []Piece, base int) (present, black uint64) {
	var w uint64
	if len(b)-base >= 8 {
		c := b[base : base+8 : base+8]
		w = uint64(c[0]) | uint64(c[1])<<8 | uint64(c[2])<<16 | uint64(c[3])<<24 |
			uint64(c[4])<<32 | uint64(c[5])<<40 | uint64(c[6])<<48 | uint64(c[7])<<56
	} else {
		for i := len(b) - 1; i >= base; i-- {
			w = w<<8 | uint64(b[i])
		}
	}
	return pieceBytes(w)
}

// pieceBytes is cellBytes for eight cells read into one word, cell i in
// byte i.
func pieceBytes(w uint64) (present, black uint64) {
	const low3, high = 0x0707070707070707, 0x8080808080808080
	present = ((w & low3) + 0x7F7F7F7F7F7F7F7F) & high // kind bits not all zero
	black = (w << 4) & high                            // colour bit moved to the top
	return present, black
}

// countFrom counts the legal moves of the own piece on o, castling and en
// passant excluded; occ is the board as bits or nil.
func (p *Position) countFrom(o int, l *legality, scratch []Move, occ *occupancy) int {
	if int16(o) == l.king && p.g.Twin == nil {
		return p.countKing(l.king, nil, -1)
	}
	if int16(o) != l.king && !l.pin.has(o) {
		var c int
		var hit bool
		if occ != nil {
			c, hit = p.countPieceBits(int16(o), l.mateTwin, occ)
		} else {
			c, hit = p.countPiece(int16(o), l.mateTwin)
		}
		if !hit {
			return c
		}
		if k := p.Board[o].Kind(); k != Pawn {
			// Only the move onto the twin of the enemy king needs the mate
			// rule; what a knight or rider lands with does not depend on
			// the path it took.
			m := Move{From: int16(o), To: l.mateTwin, Mid: -1}
			u := p.Make(m)
			if p.violatesMateRule(m, u) {
				c--
			}
			p.Unmake(m, u)
			return c
		}
	}
	return len(p.filterWith(p.genPiece(scratch[:0], int16(o)), 0, *l))
}

// countPieceBits is countPiece with the board as bits, where the piece's
// tables have a bit form: on boards with phasing, whose counter loop asks
// for the mate rule's stop cell (countFree counts the other boards' pieces).
func (p *Position) countPieceBits(o, stop int16, occ *occupancy) (n int, hit bool) {
	g := p.g
	if g.plain && stop < 0 {
		return p.countPlain(o, occ), false
	}
	pc := p.Board[o]
	switch pc.Kind() {
	case Pawn:
		// ok implies distinct targets; reading it alone spares a load of
		// the larger pawnAt record.
		if pb := &g.pawnBits[pc.Color()][pc.Dir()][o]; pb.ok {
			return p.countPawnBits(o, stop, pb, occ)
		}
	case King:
	default:
		if c, h, ok := p.countOnceBits(o, stop, occ); ok {
			return c, h
		}
	}
	return p.countPiece(o, stop)
}

// countPiece counts the pseudo-legal moves of the piece on o as genPiece
// lists them (promotions four times, duplicates once). hit reports that
// one of them ends on cell stop, which then needs the full test.
func (p *Position) countPiece(o, stop int16) (n int, hit bool) {
	g := p.g
	if g.plain && stop < 0 {
		return p.countPlain(o, nil), false
	}
	b := p.Board
	pc := b[o]
	us := pc.Color()
	if pc.Kind() != Pawn && pc.Kind() != King {
		return p.countOnce(o, stop)
	}
	if pc.Kind() == Pawn && g.pawnAt[us][pc.Dir()][o].distinct {
		return p.countPawn(o, stop)
	}
	// seen and seenPromo mirror dedupe: plain destinations and promotion
	// groups are told apart separately.
	var seen, seenPromo [5]uint64
	dup := g.MayDup
	add := func(t int16, promo bool) {
		if t == stop {
			hit = true
		}
		k := 1
		set := &seen
		if promo {
			k = 4
			set = &seenPromo
		}
		if dup {
			w, bit := t>>6, uint64(1)<<(uint(t)&63)
			if set[w]&bit != 0 {
				return
			}
			set[w] |= bit
		}
		n += k
	}
	switch pc.Kind() {
	case Pawn:
		d := pc.Dir()
		promo := g.Promo[us][d]
		for _, t := range g.PawnPush[us][d][o] {
			if p.free(t) {
				add(t, promo[t])
			}
		}
		for _, md := range g.PawnDouble[us][d][o] {
			if p.free(md[0]) && p.free(md[1]) {
				add(md[1], false)
			}
		}
		for _, t := range g.PawnCap[us][d][o] {
			if x := b[t]; x != 0 && x.Color() != us {
				add(t, promo[t])
			}
		}
	case Knight, King:
		tbl := g.Knight[o]
		if pc.Kind() == King {
			tbl = g.KingSteps[o]
		}
		for _, t := range tbl {
			x := b[t]
			if x == 0 {
				if p.free(t) {
					add(t, false)
				}
			} else if x.Color() != us {
				add(t, false)
			}
		}
	case Bishop, Rook, Queen:
		nodes := g.rays[pc.Kind()][o]
		for i := 0; i < len(nodes); {
			nd := &nodes[i]
			x := b[nd.Cell]
			if x != 0 {
				if x.Color() != us {
					add(nd.Cell, false)
				}
				i = int(nd.Skip)
				continue
			}
			if g.hasPartner {
				if pp := g.Partner[nd.Cell]; pp >= 0 && b[pp] != 0 {
					i = int(nd.Skip)
					continue
				}
			}
			add(nd.Cell, false)
			i++
		}
	}
	if g.Twin != nil {
		t := g.Twin[o]
		if x := b[t]; x == 0 || x.Color() != us {
			add(t, pc.Kind() == Pawn && g.Promo[us][pc.FlipDir().Dir()][t])
		}
	}
	return n, hit
}

// countKing counts the legal steps of the king on k (the side to move not
// in check), phasing included: each target is tested with the king lifted
// from k and standing on the target, and a target on stop (the twin of
// the enemy king) by playing the move for the mate rule. occ, when not
// nil, is the board as bits.
func (p *Position) countKing(k int16, occ *occupancy, stop int16) int {
	if occ != nil && p.g.switches != nil && p.g.Partner[k] >= 0 {
		occ = nil // lifting the king opens its switch's other half too
	}
	if occ != nil {
		// The king's cell is empty while its steps are tested; a target
		// lies on none of its own lines, so it needs no bit.
		kw, kb := k>>6&7, uint64(1)<<uint(k&63)
		occ.all[kw] &^= kb
		n := p.countKingSteps(k, occ, stop)
		occ.all[kw] |= kb
		return n
	}
	return p.countKingSteps(k, nil, stop)
}

// countKingSteps is countKing once the king is lifted from occ.
func (p *Position) countKingSteps(k int16, occ *occupancy, stop int16) int {
	b := p.Board
	king := b[k]
	us := king.Color()
	them := us.Other()
	n := 0
	for _, t := range p.g.kingTargets[k] {
		x := b[t]
		if x != 0 {
			if x.Color() == us {
				continue
			}
		} else if !p.free(t) {
			continue
		}
		if t == stop {
			m := Move{From: k, To: t, Mid: -1}
			u := p.Make(m)
			if !p.Attacked(int(t), them) && !p.violatesMateRule(m, u) {
				n++
			}
			p.Unmake(m, u)
			continue
		}
		b[k], b[t] = 0, king
		if !p.attackedOcc(int(t), them, occ) {
			n++
			if x == 0 && p.nSafeSteps < len(p.safeSteps) && !p.g.hasPartner {
				p.safeSteps[p.nSafeSteps] = t
				p.nSafeSteps++
			}
		}
		b[k], b[t] = king, x
	}
	return n
}

// countOnce counts the destinations of the knight or rider on o, each
// once however many of its paths reach it (phasing included); hit reports
// that one of them is stop. At a switch, an empty half whose other half
// is taken stops the piece before it, as in genPieceFIDE.
func (p *Position) countOnce(o, stop int16) (n int, hit bool) {
	g := p.g
	b := p.Board
	pc := b[o]
	us := pc.Color()
	var seen [5]uint64
	mark := func(c uint) {
		n += int(^seen[c>>6]>>(c&63)) & 1
		seen[c>>6] |= 1 << (c & 63)
	}
	if pc.Kind() == Knight {
		for _, t := range g.Knight[o] {
			if x := b[t]; x == 0 && p.free(t) || x != 0 && x.Color() != us {
				mark(uint(t))
			}
		}
	} else {
		nodes := g.rays[pc.Kind()][o]
		for i := 0; i < len(nodes); {
			nd := &nodes[i]
			c := uint(nd.Cell)
			x := b[c]
			if x != 0 {
				i = int(nd.Skip)
				if x.Color() == us {
					continue
				}
			} else if g.hasPartner && !p.free(nd.Cell) {
				i = int(nd.Skip)
				continue
			} else {
				i++
			}
			mark(c)
		}
	}
	if g.Twin != nil {
		t := g.Twin[o]
		if x := b[t]; x == 0 || x.Color() != us {
			mark(uint(t))
		}
	}
	if stop >= 0 && seen[stop>>6]>>(uint(stop)&63)&1 != 0 {
		hit = true
	}
	return n, hit
}

// countPawn counts the moves of the pawn on o when its targets are all
// different cells (pawnCell.distinct); hit reports a target on stop.
func (p *Position) countPawn(o, stop int16) (n int, hit bool) {
	g := p.g
	b := p.Board
	pc := b[o]
	us := pc.Color()
	pt := &g.pawnAt[us][pc.Dir()][o]
	add := func(t int16, promo bool) {
		n++
		if promo {
			n += 3
		}
		if t == stop {
			hit = true
		}
	}
	for i, t := range pt.push {
		if p.free(t) {
			add(t, pt.promo[i])
		}
	}
	for _, md := range pt.double {
		if p.free(md[0]) && p.free(md[1]) {
			add(md[1], false)
		}
	}
	for i, t := range pt.cap {
		if x := b[t]; x != 0 && x.Color() != us {
			add(t, pt.promoCap[i])
		}
	}
	if g.Twin != nil {
		t := g.Twin[o]
		if x := b[t]; x == 0 || x.Color() != us {
			add(t, g.Promo[us][pc.FlipDir().Dir()][t])
		}
	}
	return n, hit
}
