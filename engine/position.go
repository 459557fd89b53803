package engine

// Position is a playable state of a variant: pieces on cells, side to move,
// castling rights, en-passant right, clocks and an incrementally kept
// Zobrist hash.
type Position struct {
	V *Variant
	g *Geometry
	// Board is changed by Make and Unmake. A caller that writes it
	// directly must leave the same cells occupied (recolouring a piece is
	// fine): occ keeps which cells hold a piece.
	Board []Piece
	Side  Color
	// Castle holds CastleWK|CastleWQ|CastleBK|CastleBQ bits.
	Castle uint8
	// EPSkip is the cell a double-stepping pawn skipped, EPPawn the cell it
	// landed on; both -1 when there is no en-passant right.
	EPSkip, EPPawn     int16
	Halfmove, Fullmove int
	King               [2]int16
	Hash               uint64
	// pinBuf is scratch space for the pinned set (up to 320 cells).
	pinBuf [5]uint64
	// safeSteps are the empty cells the king of the side to move may step
	// to, as the last count found them; castling reuses them.
	safeSteps  [8]int16
	nSafeSteps int
	// occ is the board as bits (every piece, and the pieces of the side to
	// move), kept by Make, Unmake and MakeNull on boards with the bit path
	// (g.bitBoard), so that attack tests, pins and move lists read masks
	// instead of walking the board. Its own cells are those of occSide,
	// which is Side unless a caller set Side directly.
	occ     occupancy
	occSide Color
}

// Undo is what Unmake needs to restore the position before a move.
type Undo struct {
	Captured Piece
	CapSq    int16
	Moved    Piece
	Castle   uint8
	EPSkip   int16
	EPPawn   int16
	Halfmove int
	Hash     uint64
	rookFrom int16
	rookTo   int16
}

func newPosition(v *Variant) *Position {
	p := &Position{V: v, g: v.Geo, Board: make([]Piece, v.Geo.N), EPSkip: -1, EPPawn: -1, Fullmove: 1}
	p.King = [2]int16{-1, -1}
	return p
}

// Geo is the board of the position.
func (p *Position) Geo() *Geometry { return p.g }

// Clone returns an independent copy.
func (p *Position) Clone() *Position {
	q := *p
	q.Board = append([]Piece(nil), p.Board...)
	return &q
}

// computeHash derives the hash from scratch (used after parsing and by
// tests to check the incremental one).
func (p *Position) computeHash() uint64 {
	var h uint64
	for c, pc := range p.Board {
		if pc != 0 {
			h ^= p.g.zp(pc, c)
		}
	}
	if p.Side == Black {
		h ^= p.g.zSide
	}
	h ^= p.g.zCastle[p.Castle]
	if p.EPSkip >= 0 {
		h ^= p.g.zEP[p.EPSkip]
	}
	return h
}

func (p *Position) castleDef(side Color, kingTo int16) *CastleDef {
	for i := range p.V.Castling {
		cd := &p.V.Castling[i]
		if cd.Color == side && cd.KingTo == kingTo {
			return cd
		}
	}
	return nil
}

func (p *Position) put(c int16, pc Piece) {
	p.Board[c] = pc
	p.Hash ^= p.g.zp(pc, int(c))
	p.flipOcc(c, pc)
}

func (p *Position) remove(c int16) Piece {
	pc := p.Board[c]
	if pc != 0 {
		p.Board[c] = 0
		p.Hash ^= p.g.zp(pc, int(c))
		p.flipOcc(c, pc)
	}
	return pc
}

// flipOcc toggles cell c, which gains or loses the piece pc, in occ.
func (p *Position) flipOcc(c int16, pc Piece) {
	if p.g.bitBoard {
		w, bit := c>>6&7, uint64(1)<<uint(c&63)
		p.occ.all[w] ^= bit
		if pc.Color() == p.occSide {
			p.occ.own[w] ^= bit
		}
	}
}

// flipSide makes occ's own the pieces of the other colour, when the side
// to move changes.
func (p *Position) flipSide() {
	if p.g.bitBoard {
		for w := 0; w < p.g.bitWords; w++ {
			p.occ.own[w&7] = p.occ.all[w&7] &^ p.occ.own[w&7]
		}
		p.occSide = p.occSide.Other()
	}
}

// loadOcc fills occ from the board.
func (p *Position) loadOcc() {
	p.occ, p.occSide = occupancy{}, p.Side
	if !p.g.bitBoard {
		return
	}
	var s sideBits
	s.load(p.Board)
	for w := 0; w < p.g.bitWords; w++ {
		p.occ.all[w&7] = s[0][w&7] | s[1][w&7]
		p.occ.own[w&7] = s[p.Side][w&7]
	}
}

// bits is occ where the board has the bit path, else nil. Side is an
// exported field: where a caller set it directly, own is turned to it.
func (p *Position) bits() *occupancy {
	if !p.g.bitBoard {
		return nil
	}
	if p.occSide != p.Side {
		p.flipSide()
	}
	return &p.occ
}

// Make plays a move generated for this position and returns what Unmake
// needs to take it back.
func (p *Position) Make(m Move) Undo {
	g := p.g
	u := Undo{CapSq: -1, Castle: p.Castle, EPSkip: p.EPSkip, EPPawn: p.EPPawn, Halfmove: p.Halfmove, Hash: p.Hash, rookFrom: -1, rookTo: -1}
	us := p.Side
	pc := p.Board[m.From]
	u.Moved = pc
	if p.EPSkip >= 0 {
		p.Hash ^= g.zEP[p.EPSkip]
	}
	p.EPSkip, p.EPPawn = -1, -1
	p.Halfmove++
	if m.Flags&FlagCastle != 0 {
		cd := p.castleDef(us, m.To)
		p.remove(m.From)
		rook := p.remove(cd.RookFrom)
		p.put(cd.KingTo, pc)
		p.put(cd.RookTo, rook)
		p.King[us] = cd.KingTo
		u.rookFrom, u.rookTo = cd.RookFrom, cd.RookTo
	} else {
		capSq := m.To
		if m.Flags&FlagEnPassant != 0 {
			capSq = u.EPPawn
		}
		if p.Board[capSq] != 0 {
			u.Captured = p.remove(capSq)
			u.CapSq = capSq
			p.Halfmove = 0
		}
		p.remove(m.From)
		np := pc
		if pc.Kind() == Pawn {
			p.Halfmove = 0
			if m.Flags&FlagPhase != 0 {
				np = np.FlipDir()
			}
		}
		if m.Promo != NoKind {
			np = MakePiece(us, m.Promo, false)
		}
		p.put(m.To, np)
		if pc.Kind() == King {
			p.King[us] = m.To
		}
		if m.Flags&FlagDouble != 0 {
			p.EPSkip, p.EPPawn = m.Mid, m.To
			p.Hash ^= g.zEP[m.Mid]
		}
		if u.Captured.Kind() == King {
			p.King[u.Captured.Color()] = -1
		}
	}
	nc := p.Castle & p.V.castleMask[m.From] & p.V.castleMask[m.To]
	if nc != p.Castle {
		p.Hash ^= g.zCastle[p.Castle] ^ g.zCastle[nc]
		p.Castle = nc
	}
	if us == Black {
		p.Fullmove++
	}
	p.Side = us.Other()
	p.Hash ^= g.zSide
	p.flipSide()
	return u
}

// Unmake takes back a move played with Make.
func (p *Position) Unmake(m Move, u Undo) {
	p.Side = p.Side.Other()
	p.flipSide()
	us := p.Side
	if us == Black {
		p.Fullmove--
	}
	if p.g.bitBoard {
		p.unmakeOcc(m, &u)
	}
	if u.rookFrom >= 0 {
		p.Board[m.To] = 0
		p.Board[u.rookTo] = 0
		p.Board[u.rookFrom] = MakePiece(us, Rook, false)
		p.Board[m.From] = u.Moved
	} else {
		p.Board[m.To] = 0
		p.Board[m.From] = u.Moved
		if u.CapSq >= 0 {
			p.Board[u.CapSq] = u.Captured
			if u.Captured.Kind() == King {
				p.King[u.Captured.Color()] = u.CapSq
			}
		}
	}
	if u.Moved.Kind() == King {
		p.King[us] = m.From
	}
	p.Castle, p.EPSkip, p.EPPawn, p.Halfmove, p.Hash = u.Castle, u.EPSkip, u.EPPawn, u.Halfmove, u.Hash
}

// unmakeOcc takes m back in occ, before Unmake restores the board: the
// cells Make emptied and filled are toggled back, the same set of cells.
func (p *Position) unmakeOcc(m Move, u *Undo) {
	if u.rookFrom >= 0 {
		p.flipOcc(m.To, u.Moved)
		p.flipOcc(u.rookTo, u.Moved)
		p.flipOcc(u.rookFrom, u.Moved)
		p.flipOcc(m.From, u.Moved)
		return
	}
	p.flipOcc(m.To, u.Moved)
	p.flipOcc(m.From, u.Moved)
	if u.CapSq >= 0 {
		p.flipOcc(u.CapSq, u.Captured)
	}
}

// Play makes a move on a copy and returns the copy.
func (p *Position) Play(m Move) *Position {
	q := p.Clone()
	q.Make(m)
	return q
}

// moveOwn empties the own cells a and b and fills c and d with own
// pieces, in that order, as castling does.
func (o *occupancy) moveOwn(a, b, c, d int16) {
	for _, x := range [...]int16{a, b} {
		w, bit := x>>6&7, uint64(1)<<uint(x&63)
		o.all[w] &^= bit
		o.own[w] &^= bit
	}
	for _, x := range [...]int16{c, d} {
		w, bit := x>>6&7, uint64(1)<<uint(x&63)
		o.all[w] |= bit
		o.own[w] |= bit
	}
}
