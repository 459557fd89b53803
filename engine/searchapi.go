package engine

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
	ms = p.genPseudo(ms)
	w := start
	for i := start; i < len(ms); i++ {
		if m := ms[i]; m.Flags&FlagCapture != 0 || m.Promo == Queen {
			ms[w] = m
			w++
		}
	}
	return p.filterLegal(ms[:w], start)
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
	return p.MobilityAttacks(c, make([]uint64, (p.g.N+63)/64), nil)
}

// MobilityBuckets is the size of the per-piece table MobilityAttacks
// fills: a piece with more destinations counts in the last bucket.
const MobilityBuckets = 32

// MobilityAttacks is Mobility, and also marks in att (a bit set of at
// least (N+63)/64 words, not cleared here) every cell a piece of colour c
// attacks: what Attacked(cell, c) answers, for all cells in one walk.
// When each is not nil, each[kind][m] is incremented for every piece
// (other than a pawn) with m destinations.
func (p *Position) MobilityAttacks(c Color, att []uint64, each *[7][MobilityBuckets]int32) (n [7]int) {
	g := p.g
	b := p.Board
	mark := func(t int16) { att[t>>6] |= 1 << (uint(t) & 63) }
	for o, pc := range b {
		if pc == 0 || pc.Color() != c {
			continue
		}
		k := pc.Kind()
		before := n[k]
		switch k {
		case Pawn:
			for _, t := range g.PawnCap[c][pc.Dir()][o] {
				mark(t)
			}
		case Knight, King:
			tbl := g.Knight[o]
			if k == King {
				tbl = g.KingSteps[o]
			}
			for _, t := range tbl {
				mark(t)
				if x := b[t]; x == 0 && p.free(t) || x != 0 && x.Color() != c {
					n[k]++
				}
			}
		case Bishop, Rook, Queen:
			nodes := g.rays[k][o]
			for i := 0; i < len(nodes); {
				nd := &nodes[i]
				mark(nd.Cell)
				if x := b[nd.Cell]; x != 0 {
					if x.Color() != c {
						n[k]++
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
				n[k]++
				i++
			}
		}
		if g.Twin != nil {
			mark(g.Twin[o])
			if k != Pawn {
				if x := b[g.Twin[o]]; x == 0 || x.Color() != c {
					n[k]++
				}
			}
		}
		if each != nil && k != Pawn {
			each[k][min(n[k]-before, MobilityBuckets-1)]++
		}
	}
	return n
}
