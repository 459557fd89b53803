package engine

// Position is a playable state of a variant: pieces on cells, side to move,
// castling rights, en-passant right, clocks and an incrementally kept
// Zobrist hash.
type Position struct {
	V *Variant
	g *Geometry
	// Board is changed by Make and Unmake. A caller that writes it
	// directly must leave the same cells occupied (recolouring a piece is
	// fine): the bits (occAll) keep which cells hold a piece.
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
	// occAll and occCol are the board as bits, 64 cells a word: the
	// occupied cells and those of each colour, kept by Make and Unmake,
	// so that attack tests, pins and move lists read masks instead of
	// walking the board where it has the bit path (g.bitBoard; elsewhere
	// they are not kept). Words past a board's cells stay 0.
	occAll [8]uint64
	occCol [2][8]uint64
	// view is the occupancy of the side to move, as bits() fills it.
	view occupancy
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

// flipOcc toggles cell c, which gains or loses the piece pc, in the bits.
func (p *Position) flipOcc(c int16, pc Piece) {
	x := uint(uint16(c))
	bit := uint64(1) << (x & 63)
	p.occAll[x>>6&7] ^= bit
	p.occCol[pc.Color()&1][x>>6&7] ^= bit
}

// moveBits moves a piece of colour c from cell from to cell to in the
// bits, or back. Small enough to be inlined into Make and Unmake.
func (p *Position) moveBits(c Color, from, to int16) {
	f, t := uint(uint16(from)), uint(uint16(to))
	fw, tw := f>>6&7, t>>6&7
	fb, tb := uint64(1)<<(f&63), uint64(1)<<(t&63)
	p.occCol[c&1][fw] ^= fb
	p.occCol[c&1][tw] ^= tb
	p.occAll[fw] ^= fb
	p.occAll[tw] ^= tb
}

// loadOcc fills the bits from the board.
func (p *Position) loadOcc() {
	var s sideBits
	s.load(p.Board)
	p.occCol = s
	for w := range p.occAll {
		p.occAll[w] = s[0][w] | s[1][w]
	}
}

// bits is the occupancy of the side to move where the board has the bit
// path, else nil; on a board with switches the empty half of a taken
// switch counts as taken (closeSwitches), as the readers of an occupancy
// need. It is the position's scratch view: valid until the next call, and
// what its holder changes changes no bits of the position.
func (p *Position) bits() *occupancy {
	g := p.g
	if !g.bitBoard {
		return nil
	}
	own := &p.occCol[p.Side&1]
	for w := 0; w < g.bitWords; w++ {
		p.view.all[w&7] = p.occAll[w&7]
		p.view.own[w&7] = own[w&7]
	}
	if g.switches != nil {
		p.view.closeSwitches(g.switches)
	}
	return &p.view
}

// Make plays a move generated for this position and returns what Unmake
// needs to take it back. The hash and the bits are changed in registers
// and written once: a chain of changes to one word in memory waits for
// each write.
func (p *Position) Make(m Move) Undo {
	g := p.g
	b := p.Board
	h := p.Hash
	u := Undo{CapSq: -1, Castle: p.Castle, EPSkip: p.EPSkip, EPPawn: p.EPPawn, Halfmove: p.Halfmove, Hash: h, rookFrom: -1, rookTo: -1}
	us := p.Side
	pc := b[m.From]
	u.Moved = pc
	if p.EPSkip >= 0 {
		h ^= g.zEP[p.EPSkip]
	}
	p.EPSkip, p.EPPawn = -1, -1
	p.Halfmove++
	if m.Flags&FlagCastle != 0 {
		cd := p.castleDef(us, m.To)
		rook := b[cd.RookFrom]
		b[m.From] = 0
		b[cd.RookFrom] = 0
		b[cd.KingTo] = pc
		b[cd.RookTo] = rook
		h ^= g.zp(pc, int(m.From)) ^ g.zp(rook, int(cd.RookFrom)) ^ g.zp(pc, int(cd.KingTo)) ^ g.zp(rook, int(cd.RookTo))
		if g.bitBoard {
			p.moveBits(us, m.From, cd.KingTo)
			p.moveBits(us, cd.RookFrom, cd.RookTo)
		}
		p.King[us] = cd.KingTo
		u.rookFrom, u.rookTo = cd.RookFrom, cd.RookTo
	} else {
		capSq := m.To
		if m.Flags&FlagEnPassant != 0 {
			capSq = u.EPPawn
		}
		if x := b[capSq]; x != 0 {
			b[capSq] = 0
			h ^= g.zp(x, int(capSq))
			u.Captured = x
			u.CapSq = capSq
			p.Halfmove = 0
			if g.bitBoard {
				p.flipOcc(capSq, x)
			}
			if x.Kind() == King {
				p.King[x.Color()] = -1
			}
		}
		if g.bitBoard {
			p.moveBits(us, m.From, m.To)
		}
		b[m.From] = 0
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
		b[m.To] = np
		h ^= g.zp(pc, int(m.From)) ^ g.zp(np, int(m.To))
		if pc.Kind() == King {
			p.King[us] = m.To
		}
		if m.Flags&FlagDouble != 0 {
			p.EPSkip, p.EPPawn = m.Mid, m.To
			h ^= g.zEP[m.Mid]
		}
	}
	nc := p.Castle & p.V.castleMask[m.From] & p.V.castleMask[m.To]
	if nc != p.Castle {
		h ^= g.zCastle[p.Castle] ^ g.zCastle[nc]
		p.Castle = nc
	}
	if us == Black {
		p.Fullmove++
	}
	p.Side = us.Other()
	p.Hash = h ^ g.zSide
	return u
}

// Unmake takes back a move played with Make.
func (p *Position) Unmake(m Move, u Undo) {
	p.Side = p.Side.Other()
	us := p.Side
	if us == Black {
		p.Fullmove--
	}
	b := p.Board
	bitBoard := p.g.bitBoard
	if bitBoard {
		p.moveBits(us, m.From, m.To)
	}
	if u.rookFrom >= 0 {
		if bitBoard {
			p.moveBits(us, u.rookFrom, u.rookTo)
		}
		b[m.To] = 0
		b[u.rookTo] = 0
		b[u.rookFrom] = MakePiece(us, Rook, false)
		b[m.From] = u.Moved
	} else {
		b[m.To] = 0
		b[m.From] = u.Moved
		if u.CapSq >= 0 {
			b[u.CapSq] = u.Captured
			if bitBoard {
				p.flipOcc(u.CapSq, u.Captured)
			}
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

// Play makes a move on a copy and returns the copy.
func (p *Position) Play(m Move) *Position {
	q := p.Clone()
	q.Make(m)
	return q
}
