package engine

import "math/bits"

// Fast internals for the search (engine/search). Everything here is derived
// from the rule code in movegen.go and must agree with it; the search tests
// check AppendNoisy against LegalMoves on random positions of every variant.

// AppendNoisy appends the legal captures (en passant and phasing captures
// included) and queen promotions of the side to move: the moves a
// quiescence search looks at. In Heisenberg chess an intended capture may
// be observed and turn into something else, so there the legal moves are
// filtered instead of generated.
func (p *Position) AppendNoisy(ms []Move) []Move {
	start := len(ms)
	if p.V.Observation {
		ms = p.AppendLegal(ms)
		w := start
		for i := start; i < len(ms); i++ {
			if m := ms[i]; p.IsNoisy(m) {
				ms[w] = m
				w++
			}
		}
		return ms[:w]
	}
	return p.filterLegal(p.genEnPassant(p.genNoisy(ms)), start)
}

// IsNoisy reports whether a legal move of this position captures or
// promotes to a queen. It looks at the board, not at the flags, so it holds
// for every variant's moves.
func (p *Position) IsNoisy(m Move) bool {
	if m.Promo == Queen || m.Flags&FlagEnPassant != 0 {
		return true
	}
	x := p.Board[m.To]
	return x != 0 && x.Color() != p.Side
}

// NullUndo is what UnmakeNull needs.
type NullUndo struct {
	epSkip, epPawn int16
	halfmove       int
	hash           uint64
}

// MakeNull passes the move to the opponent without moving a piece (the
// search's null-move test). The halfmove clock restarts so that a
// repetition is never detected across a null move.
func (p *Position) MakeNull() NullUndo {
	u := NullUndo{epSkip: p.EPSkip, epPawn: p.EPPawn, halfmove: p.Halfmove, hash: p.Hash}
	if p.EPSkip >= 0 {
		p.Hash ^= p.g.zEP[p.EPSkip]
	}
	p.EPSkip, p.EPPawn = -1, -1
	p.Halfmove = 0
	p.Side = p.Side.Other()
	p.Hash ^= p.g.zSide
	return u
}

// UnmakeNull takes back MakeNull.
func (p *Position) UnmakeNull(u NullUndo) {
	p.Side = p.Side.Other()
	p.EPSkip, p.EPPawn, p.Halfmove, p.Hash = u.epSkip, u.epPawn, u.halfmove, u.hash
}

// Mobility counts, per kind, the pseudo-legal destinations of the knights,
// bishops, rooks, queens and kings of colour c (phasing included; castling,
// pawns and duplicate paths are not). It adapts to every board by walking
// the same tables as move generation.
func (p *Position) Mobility(c Color) [7]int {
	n, _ := p.MobilityAttacks(c, make([]uint64, (p.g.N+63)/64), nil)
	return n
}

// MobilityBuckets is the number of destination counts MobilityAttacks
// tells apart per piece: a piece with more destinations counts as the last.
const MobilityBuckets = 32

// MobilityAttacks is Mobility, and also marks in att (a bit set of at
// least (N+63)/64 words, not cleared here) every cell a piece of colour c
// attacks: what Attacked(cell, c) answers, for all cells in one walk.
// For every piece other than a pawn it appends to each its kind and
// destinations as kind*MobilityBuckets + min(destinations,
// MobilityBuckets-1), and returns the longer slice: a list per piece,
// rather than a table by kind and count, so that the evaluation's cost
// grows with the pieces and not with the table.
func (p *Position) MobilityAttacks(c Color, att []uint64, each []uint16) (n [7]int, buckets []uint16) {
	var buf [64]int16
	cells := buf[:0]
	for o, pc := range p.Board {
		if pc != 0 && pc.Color() == c {
			cells = append(cells, int16(o))
		}
	}
	return p.MobilityAttacksOf(c, cells, att, each)
}

// AttacksAs marks in att (not cleared) the cells a knight, bishop, rook or
// queen (k) would attack from cell, as the board stands: where moves are
// symmetric, the cells from which such a piece attacks cell. The piece on
// cell (there must be one, else nothing is marked) counts as a k of its
// own colour for the reckoning.
func (p *Position) AttacksAs(cell int, k Kind, att []uint64) {
	if p.Board[cell] == 0 || k < Knight || k > Queen {
		return
	}
	g := p.g
	if occ := p.bits(); occ != nil && g.switches == nil {
		// The bit path's sets, where the piece's tables have them.
		var r [8]uint64
		switch {
		case k == Knight && g.knightOnce[cell]:
			for _, s := range g.knightBits[cell] {
				r[s.word&7] |= s.mask
			}
		case k >= Bishop && g.bitRays[k] != nil && g.bitRays[k][cell] != nil:
			occ.reachRays(g.bitRays[k][cell], &r)
		case k >= Bishop && g.rayOnce[k][cell]:
			occ.reach(g.raySegs[k][cell], &r)
		default:
			p.attacksBySwap(cell, k, att)
			return
		}
		if g.Twin != nil {
			t := g.Twin[cell]
			r[t>>6&7] |= 1 << uint(t&63)
		}
		for w := 0; w < g.bitWords; w++ {
			att[w] |= r[w&7]
		}
		return
	}
	p.attacksBySwap(cell, k, att)
}

// attacksBySwap is AttacksAs by MobilityAttacksOf, with the piece on cell
// made a k of its colour for the call.
func (p *Position) attacksBySwap(cell int, k Kind, att []uint64) {
	pc := p.Board[cell]
	p.Board[cell] = pc&^7 | Piece(k) // the kind's bits (Piece.Kind)
	one := [1]int16{int16(cell)}
	p.MobilityAttacksOf(pc.Color(), one[:], att, nil)
	p.Board[cell] = pc
}

// Occupied is the set of occupied cells, 64 cells a word, where the
// board keeps it (the bit path), else nil. The caller must not change it.
func (p *Position) Occupied() []uint64 {
	if !p.g.bitBoard {
		return nil
	}
	return p.occAll[:p.g.bitWords]
}

// MobilityAttacksByKind is MobilityAttacksOf that also marks in kinds[k]
// (not cleared here) the cells c's pieces of kind k attack. With avoid,
// it also appends to safe, for every piece other than a pawn, its kind and
// its safe destinations as kind*MobilityBuckets + min(count,
// MobilityBuckets-1): the cells it attacks, counted as a set, that hold no
// piece of c and are not in avoid (the evaluation's avoid: the cells
// enemy pawns attack). Boards have at most 512 cells here.
func (p *Position) MobilityAttacksByKind(c Color, cells []int16, att []uint64, kinds *[7][8]uint64, each []uint16, avoid *[8]uint64, safe []uint16) (n [7]int, buckets, safeBuckets []uint16) {
	if occ := p.bits(); occ != nil && p.g.switches == nil {
		return p.mobilityBits(c, cells, att, each, occ, kinds, avoid, safe)
	}
	// The other boards, piece by piece.
	words := (p.g.N + 63) / 64
	for i, o := range cells {
		pc := p.Board[o]
		if pc == 0 || pc.Color() != c {
			continue
		}
		var one [8]uint64
		m, more := p.MobilityAttacksOf(c, cells[i:i+1], one[:words], each)
		each = more
		for k, x := range m {
			n[k] += x
		}
		for w := 0; w < words; w++ {
			kinds[pc.Kind()][w] |= one[w]
			att[w] |= one[w]
		}
		if avoid != nil && pc.Kind() != Pawn {
			cnt := 0
			for w := 0; w < words; w++ {
				for x := one[w] &^ avoid[w]; x != 0; x &= x - 1 {
					if t := p.Board[w*64+bits.TrailingZeros64(x)]; t == 0 || t.Color() != c {
						cnt++
					}
				}
			}
			safe = append(safe, uint16(int(pc.Kind())*MobilityBuckets+min(cnt, MobilityBuckets-1)))
		}
	}
	return n, each, safe
}

// MobilityAttacksOf is MobilityAttacks for the pieces of colour c on the
// given cells (all of c's pieces, for the same answer): a caller that has
// already walked the board spares the walk.
func (p *Position) MobilityAttacksOf(c Color, cells []int16, att []uint64, each []uint16) (n [7]int, buckets []uint16) {
	if occ := p.bits(); occ != nil && p.g.switches == nil {
		n, buckets, _ = p.mobilityBits(c, cells, att, each, occ, nil, nil, nil)
		return n, buckets
	}
	g := p.g
	b := p.Board
	// The first 64 cells (all of them on an 8x8 board) are marked in a
	// register: marking them in memory makes every mark wait for the last.
	var low uint64
	mark := func(t int16) {
		if t < 64 {
			low |= 1 << (uint(t) & 63)
		} else {
			att[t>>6] |= 1 << (uint(t) & 63)
		}
	}
	partner := g.hasPartner
	own := Piece(c) << 3 // the colour bit of c's pieces
	for _, o := range cells {
		pc := b[o]
		if pc == 0 || pc&colorBit != own {
			continue
		}
		k := pc.Kind()
		if k == Pawn {
			for _, t := range g.PawnCap[c][pc.Dir()][o] {
				mark(t)
			}
			if g.Twin != nil {
				mark(g.Twin[o])
			}
			continue
		}
		moves := 0
		switch k {
		case Knight, King:
			tbl := g.Knight[o]
			if k == King {
				tbl = g.KingSteps[o]
			}
			for _, t := range tbl {
				mark(t)
				if x := b[t]; x != 0 {
					if x&colorBit != own {
						moves++
					}
				} else if !partner || g.Partner[t] < 0 || b[g.Partner[t]] == 0 {
					moves++
				}
			}
		case Bishop, Rook, Queen:
			nodes := g.rays[k][o]
			for i := 0; i < len(nodes); {
				nd := &nodes[i]
				mark(nd.Cell)
				if x := b[nd.Cell]; x != 0 {
					if x&colorBit != own {
						moves++
					}
					i = int(nd.Skip)
					continue
				}
				if partner {
					if pp := g.Partner[nd.Cell]; pp >= 0 && b[pp] != 0 {
						i = int(nd.Skip)
						continue
					}
				}
				moves++
				i++
			}
		}
		if g.Twin != nil {
			mark(g.Twin[o])
			if x := b[g.Twin[o]]; x == 0 || x&colorBit != own {
				moves++
			}
		}
		n[k] += moves
		each = append(each, uint16(int(k)*MobilityBuckets+min(moves, MobilityBuckets-1)))
	}
	att[0] |= low
	return n, each
}
