package search

import "topochess/engine"

// maxSwap bounds the exchange sequence a static exchange evaluation plays
// out on one cell (more pieces than this never bear on one cell in play).
const maxSwap = 24

// seeUnneeded reports whether a noisy move cannot lose material in the
// exchange it starts: it captures something worth at least the capturing
// piece (the opponent's best is then to recapture once and stop, or not
// at all). Promotions are always evaluated: the new queen may be lost.
func seeUnneeded(pos *engine.Position, m engine.Move) bool {
	if m.Promo != engine.NoKind {
		return false
	}
	return value[pos.Board[m.From].Kind()] <= victimValue(pos, m)
}

// victimValue is the value of what the move captures (0 for none).
func victimValue(pos *engine.Position, m engine.Move) int32 {
	if x := pos.Board[m.To]; x != 0 && x.Color() != pos.Side {
		return value[x.Kind()]
	}
	if m.Flags&engine.FlagEnPassant != 0 {
		return value[engine.Pawn]
	}
	return 0
}

// see is the static exchange evaluation of a noisy move: the material the
// side to move wins when, after m, both sides keep capturing on m.To with
// their least valuable piece and each may stop when going on would cost
// it. The exchange is played out with real legal moves (Make/Unmake), so
// it is exact on every board: phasing recaptures from the twin cell on the
// Möbius strip, switch halves in Chess 66, captures that observation turns
// into a landing on the cell in Heisenberg chess, pinned pieces, and
// every cell where rays turn. Only a capture or a queen promotion makes
// sense as m.
func (s *Searcher) see(m engine.Move) int32 {
	pos := s.pos
	target := m.To
	var gain [maxSwap]int32
	var moves [maxSwap]engine.Move
	var undos [maxSwap]engine.Undo
	gain[0] = victimValue(pos, m)
	onTarget := value[pos.Board[m.From].Kind()]
	if m.Promo != engine.NoKind {
		gain[0] += value[m.Promo] - value[engine.Pawn]
		onTarget = value[m.Promo]
	}
	moves[0], undos[0] = m, pos.Make(m)
	d := 0
	for d+1 < maxSwap {
		r, ok := s.leastCapture(target)
		if !ok {
			break
		}
		d++
		gain[d] = onTarget - gain[d-1]
		onTarget = value[pos.Board[r.From].Kind()]
		if r.Promo != engine.NoKind {
			gain[d] += value[r.Promo] - value[engine.Pawn]
			onTarget = value[r.Promo]
		}
		moves[d], undos[d] = r, pos.Make(r)
	}
	for i := d; i >= 0; i-- {
		pos.Unmake(moves[i], undos[i])
	}
	// Back from the end: each side either stops (keeping what the
	// previous capture left it) or recaptures, whichever is better for it.
	for ; d > 0; d-- {
		gain[d-1] = -max(-gain[d-1], gain[d])
	}
	return gain[0]
}

// leastCapture finds the side to move's legal capture on cell t with its
// least valuable piece (a pawn capturing onto the last rank promotes to a
// queen). Outside Heisenberg chess a cell nobody attacks is answered
// without generating moves: Attacked covers every capture there.
func (s *Searcher) leastCapture(t int16) (engine.Move, bool) {
	pos := s.pos
	if x := pos.Board[t]; x == 0 || x.Color() == pos.Side {
		return engine.Move{}, false
	}
	if !pos.V.Observation && !pos.Attacked(int(t), pos.Side) {
		return engine.Move{}, false
	}
	s.seeBuf = pos.AppendNoisy(s.seeBuf[:0])
	best, found := engine.Move{}, false
	bestVal := int32(0)
	for _, r := range s.seeBuf {
		if r.To != t || r.Promo != engine.NoKind && r.Promo != engine.Queen {
			continue
		}
		v := value[pos.Board[r.From].Kind()]
		if !found || v < bestVal {
			best, bestVal, found = r, v, true
		}
	}
	return best, found
}
