package engine

import "math/bits"

// Attacked reports whether side by has a capture move onto cell t in this
// position (RULES §1: pawns by their capture steps, Möbius pieces also by
// phasing). Attacks are found from the attackers' own tables, so boards
// whose moves are not reversible are handled exactly.
func (p *Position) Attacked(t int, by Color) bool {
	// occAll is read without closeSwitches: a board with switches walks.
	if g := p.g; g.bitBoard && g.switches == nil {
		if ls := g.attackBits[t]; ls != nil {
			return p.attackedByStepCol(t, by) || p.attackedByLines(ls, &p.occAll, by)
		}
		if segs := g.attackSegs[t]; segs != nil {
			return p.attackedByStepCol(t, by) || p.attackedBySegs(segs, &p.occAll, by)
		}
	}
	return p.attackedByStep(t, by) || p.attackedByRider(t, by)
}

// attackedByStep is Attacked for knights, kings, pawns and phasing.
func (p *Position) attackedByStep(t int, by Color) bool {
	return p.attackedByStepOnly(t, by, true)
}

// attackedByStepOnly is attackedByStep; without steps it leaves out the
// knights and pawns, which the caller knows cannot attack t.
func (p *Position) attackedByStepOnly(t int, by Color, steps bool) bool {
	g := p.g
	b := p.Board
	if steps {
		for _, a := range g.stepFrom[by][t] {
			if b[a.Cell] == a.Piece {
				return true
			}
		}
	}
	// Callers may edit Board (a caption recolours pieces), so the king's
	// cell is read from King but its piece checked on the board.
	if k := p.King[by]; k >= 0 && g.kingNear[t].has(int(k)) && b[k] == MakePiece(by, King, false) {
		return true
	}
	if g.Twin != nil {
		if tw := b[g.Twin[t]]; tw != 0 && tw.Color() == by {
			return true
		}
	}
	return false
}

// attackedByRider is Attacked for bishops, rooks and queens.
func (p *Position) attackedByRider(t int, by Color) bool {
	g := p.g
	b := p.Board
	nodes := g.attackTrie[t]
	for i := 0; i < len(nodes); {
		n := &nodes[i]
		pc := b[n.Cell]
		if pc != 0 {
			if pc.Color() == by && n.Mask&kindBit(pc.Kind()) != 0 {
				return true
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
	return false
}

// InCheck reports whether the side to move has its king attacked.
func (p *Position) InCheck() bool {
	k := p.King[p.Side]
	return k >= 0 && p.Attacked(int(k), p.Side.Other())
}

// free reports whether a piece may stop on an empty cell: at a switch the
// other half must be empty too.
func (p *Position) free(c int16) bool {
	if p.Board[c] != 0 {
		return false
	}
	if p.g.hasPartner {
		if pp := p.g.Partner[c]; pp >= 0 && p.Board[pp] != 0 {
			return false
		}
	}
	return true
}

func addPawnMove(ms []Move, g *Geometry, us Color, dir int, from, to int16, flags uint8) []Move {
	if g.Promo[us][dir][to] {
		for _, k := range [...]Kind{Queen, Rook, Bishop, Knight} {
			ms = append(ms, Move{From: from, To: to, Promo: k, Flags: flags, Mid: -1})
		}
		return ms
	}
	return append(ms, Move{From: from, To: to, Flags: flags, Mid: -1})
}

// genPieceFIDE appends the ordinary (non-phasing) moves of the piece on
// cell o, castling and en passant excluded.
func (p *Position) genPieceFIDE(ms []Move, o int16) []Move {
	g := p.g
	b := p.Board
	pc := b[o]
	us := pc.Color()
	switch pc.Kind() {
	case Pawn:
		d := pc.Dir()
		for _, t := range g.PawnPush[us][d][o] {
			if p.free(t) {
				ms = addPawnMove(ms, g, us, d, o, t, 0)
			}
		}
		for _, md := range g.PawnDouble[us][d][o] {
			if p.free(md[0]) && p.free(md[1]) {
				ms = append(ms, Move{From: o, To: md[1], Flags: FlagDouble, Mid: md[0]})
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
			x := b[t]
			if x == 0 {
				if p.free(t) {
					ms = append(ms, Move{From: o, To: t, Mid: -1})
				}
			} else if x.Color() != us {
				ms = append(ms, Move{From: o, To: t, Flags: FlagCapture, Mid: -1})
			}
		}
	case Bishop, Rook, Queen:
		nodes := g.rays[pc.Kind()][o]
		for i := 0; i < len(nodes); {
			n := &nodes[i]
			x := b[n.Cell]
			if x != 0 {
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
			ms = append(ms, Move{From: o, To: n.Cell, Mid: -1})
			i++
		}
	}
	return ms
}

// dedupe removes repeated (from, to, promotion) triples from ms[start:],
// which all share one origin.
func dedupe(ms []Move, start int) []Move {
	if len(ms)-start < 2 {
		return ms
	}
	var seen [5]uint64 // up to 320 cells
	w := start
	for i := start; i < len(ms); i++ {
		m := ms[i]
		t := int(m.To)
		if m.Promo != NoKind {
			// Promotions come in groups of four per destination.
			dupe := false
			for j := start; j < w; j++ {
				if ms[j].Same(m) {
					dupe = true
					break
				}
			}
			if !dupe {
				ms[w] = m
				w++
			}
			continue
		}
		if seen[t>>6]&(1<<(uint(t)&63)) != 0 {
			continue
		}
		seen[t>>6] |= 1 << (uint(t) & 63)
		ms[w] = m
		w++
	}
	return ms[:w]
}

// genPseudo appends every pseudo-legal move of the side to move (moves
// that may still leave the own king attacked).
func (p *Position) genPseudo(ms []Move) []Move {
	return p.genCastling(p.genEnPassant(p.genPieces(ms)))
}

// genPieces appends the pseudo-legal moves of every piece of the side to
// move, castling and en passant excluded, in the order of their cells.
func (p *Position) genPieces(ms []Move) []Move {
	if p.g.bitBoard {
		for w, own := range p.occCol[p.Side&1][:p.g.bitWords] {
			for ; own != 0; own &= own - 1 {
				ms = p.genPiece(ms, int16(w<<6+bits.TrailingZeros64(own)))
			}
		}
		return ms
	}
	b := p.Board
	for base := 0; base < len(b); base += 8 {
		for own := ownBytes(b, base, p.Side); own != 0; own &= own - 1 {
			ms = p.genPiece(ms, int16(base+bits.TrailingZeros64(own)>>3))
		}
	}
	return ms
}

// genPiece appends the pseudo-legal moves of the piece on cell o, phasing
// included, castling and en passant excluded, without duplicates.
func (p *Position) genPiece(ms []Move, o int16) []Move {
	g := p.g
	b := p.Board
	pc := b[o]
	us := pc.Color()
	start := len(ms)
	ms = p.genPieceFIDE(ms, o)
	if g.Twin != nil {
		t := g.Twin[o]
		if x := b[t]; x == 0 || x.Color() != us {
			fl := FlagPhase
			if x != 0 {
				fl |= FlagCapture
			}
			if pc.Kind() == Pawn {
				ms = addPawnMove(ms, g, us, pc.FlipDir().Dir(), o, t, fl)
			} else {
				ms = append(ms, Move{From: o, To: t, Flags: fl, Mid: -1})
			}
		}
	}
	if g.MayDup {
		ms = dedupe(ms, start)
	}
	return ms
}

func (p *Position) genEnPassant(ms []Move) []Move {
	if p.EPSkip < 0 {
		return ms
	}
	g := p.g
	us := p.Side
	for _, o := range g.KingSteps[p.EPPawn] {
		pc := p.Board[o]
		if pc.Kind() != Pawn || pc.Color() != us {
			continue
		}
		if containsCell(g.PawnCap[us][pc.Dir()][o], p.EPSkip) && p.Board[p.EPSkip] == 0 {
			ms = append(ms, Move{From: o, To: p.EPSkip, Flags: FlagEnPassant | FlagCapture, Mid: -1})
		}
	}
	return ms
}

func (p *Position) genCastling(ms []Move) []Move {
	us := p.Side
	them := us.Other()
	for i := range p.V.Castling {
		cd := &p.V.Castling[i]
		if cd.Color != us || p.Castle&cd.Right == 0 {
			continue
		}
		if p.Board[cd.KingFrom] != MakePiece(us, King, false) || p.Board[cd.RookFrom] != MakePiece(us, Rook, false) {
			continue
		}
		ok := true
		for _, c := range cd.Empty {
			if p.Board[c] != 0 {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		for _, c := range cd.Safe {
			if p.Attacked(int(c), them) {
				ok = false
				break
			}
		}
		if ok {
			ms = append(ms, Move{From: cd.KingFrom, To: cd.KingTo, Flags: FlagCastle, Mid: -1})
		}
	}
	return ms
}

// LegalMoves returns every legal move of the side to move.
func (p *Position) LegalMoves() []Move {
	return p.AppendLegal(make([]Move, 0, 64))
}

// AppendLegal appends the legal moves to ms.
func (p *Position) AppendLegal(ms []Move) []Move {
	if p.V.Observation {
		return p.appendHeisenberg(ms)
	}
	start := len(ms)
	if p.King[p.Side] < 0 {
		return p.genPseudo(ms)
	}
	l := p.legality()
	if l.inCheck || l.mateTwin >= 0 {
		return p.filterWith(p.genPseudo(ms), start, l)
	}
	// Not in check: castling is decided as the counter decides it, with
	// no king steps known yet.
	ms = p.filterWith(p.genEnPassant(p.genPieces(ms)), start, l)
	p.nSafeSteps = 0
	return p.appendCastling(ms)
}

// legality is what the legal-move filter needs to know about a position:
// whether the side to move is in check, its king, its pinned pieces and,
// on the Möbius strip, the twin of the enemy king's cell (-1 elsewhere).
type legality struct {
	inCheck  bool
	anyPin   bool
	king     int16
	mateTwin int16
	pin      bitset
}

func (p *Position) legality() legality { return p.legalityOcc(p.bits()) }

// legalityOcc is legality given the board as bits (nil: walk the tables).
func (p *Position) legalityOcc(occ *occupancy) legality {
	us := p.Side
	k := p.King[us]
	l := legality{king: k, mateTwin: -1}
	if k < 0 {
		return l
	}
	if occ != nil && p.g.attackBits[k] != nil {
		l.pin, l.anyPin, l.inCheck = p.pinnedBits(p.g.attackBits[k], occ)
	} else if occ != nil && p.g.attackSegs[k] != nil {
		l.pin, l.anyPin, l.inCheck = p.pinnedSegs(p.g.attackSegs[k], occ)
	} else {
		l.pin, l.anyPin, l.inCheck = p.pinned(k, us)
	}
	l.inCheck = l.inCheck || p.attackedByStep(int(k), us.Other())
	if p.V.MateRule != MateRuleNone && p.King[us.Other()] >= 0 {
		l.mateTwin = p.g.Twin[p.King[us.Other()]]
	}
	return l
}

// filterLegal keeps the moves of ms[start:] that are legal: king safety
// (tested for the king, en passant, castling and pinned pieces, or every
// move when in check) and, on the Möbius strip, the mate rules for moves
// that end on the twin of the enemy king's cell.
func (p *Position) filterLegal(ms []Move, start int) []Move {
	if p.King[p.Side] < 0 {
		return ms
	}
	return p.filterWith(ms, start, p.legality())
}

func (p *Position) filterWith(ms []Move, start int, l legality) []Move {
	us := p.Side
	them := us.Other()
	w := start
	for i := start; i < len(ms); i++ {
		m := ms[i]
		need := l.inCheck || m.From == l.king || m.Flags&(FlagEnPassant|FlagCastle) != 0 || l.anyPin && l.pin.has(int(m.From))
		mate := l.mateTwin >= 0 && (m.To == l.mateTwin || m.Flags&FlagCastle != 0)
		if need && !mate && m.Flags&(FlagEnPassant|FlagCastle) == 0 {
			if !p.safeAfter(m, l.king) {
				continue
			}
		} else if need || mate {
			u := p.Make(m)
			ok := true
			if need {
				ok = !p.Attacked(int(p.King[us]), them)
			}
			if ok && mate {
				ok = !p.violatesMateRule(m, u)
			}
			p.Unmake(m, u)
			if !ok {
				continue
			}
		}
		ms[w] = m
		w++
	}
	return ms[:w]
}

// safeAfter reports whether the own king is not attacked once m is played,
// for a move that is neither castling nor en passant. Only the two cells of
// the move change, so they are edited in place instead of making the move:
// what an own piece is (a promotion) does not change what attacks the king.
func (p *Position) safeAfter(m Move, k int16) bool {
	b := p.Board
	mv, cap := b[m.From], b[m.To]
	b[m.To], b[m.From] = mv, 0
	if m.From == k {
		k = m.To
	}
	// The bits change as the board does: the mover leaves From for To.
	if cap != 0 {
		p.flipOcc(m.To, cap)
	}
	p.moveBits(mv.Color(), m.From, m.To)
	ok := !p.Attacked(int(k), p.Side.Other())
	p.moveBits(mv.Color(), m.From, m.To)
	if cap != 0 {
		p.flipOcc(m.To, cap)
	}
	b[m.From], b[m.To] = mv, cap
	return ok
}

// violatesMateRule is called with the move made; the side to move is the
// opponent of the mover.
func (p *Position) violatesMateRule(m Move, u Undo) bool {
	ek := p.King[p.Side]
	if ek < 0 || p.g.Twin == nil {
		return false
	}
	tw := p.g.Twin[ek]
	landed := m.To == tw || (u.rookTo >= 0 && u.rookTo == tw)
	if !landed {
		return false
	}
	if p.V.MateRule == MateRuleNierse {
		return true
	}
	// The piece on the twin gives check by phasing, so only the escape
	// test remains.
	return !p.canEscapeTwinCheck()
}

// pinned returns the cells whose piece may not move freely because it
// shields the king on k from an enemy rider: the first piece on a line
// toward k, with an enemy rider of a matching kind next on that line. An
// empty switch half counts as holding the piece on its other half: that
// piece blocks the line there, and moving it away opens it.
//
// The same walk finds a rider giving check: an enemy rider of a matching
// kind that is the first piece on its line (check).
func (p *Position) pinned(k int16, us Color) (pin bitset, any, check bool) {
	g := p.g
	var out bitset = p.pinBuf[:len(g.pinnable[k])]
	for i := range out {
		out[i] = 0
	}
	nodes := g.attackTrie[k]
	b := p.Board
	blocker, blockEnd := int16(-1), 0
	for i := 0; i < len(nodes); {
		if i >= blockEnd {
			blocker = -1
		}
		n := &nodes[i]
		at := n.Cell
		pc := b[at]
		if pc == 0 && g.hasPartner {
			if pp := g.Partner[at]; pp >= 0 {
				at, pc = pp, b[pp]
			}
		}
		if pc == 0 {
			i++
			continue
		}
		if blocker < 0 && pc.Color() == us {
			// Our first piece on these lines: look behind it.
			blocker, blockEnd = at, int(n.Skip)
			i++
			continue
		}
		// A rider on the other half of a switch only blocks this line.
		if at == n.Cell && pc.Color() != us && n.Mask&kindBit(pc.Kind()) != 0 {
			if blocker >= 0 {
				out.set(int(blocker))
				any = true
			} else {
				check = true
			}
		}
		i = int(n.Skip)
	}
	return out, any, check
}
