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
// sense as m. The search itself asks the cheaper seeGE; this full value
// is the reference the tests hold seeGE to.
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

// seeGE reports whether see(m) >= t, generating only the replies that
// can still change the answer. The exchange's value is
// min(g0, max(-g1, min(g2, max(-g3, …)))), where gd is what the side
// making capture d holds if the exchange stops after it; so the scan
// stops as soon as the mover's gain falls below t after one of its own
// captures, or stays at or above t after one of the opponent's. The
// balance of capture d is known before the capture is found, except for
// a promotion's gain: on a cell where some pawn promotes every capture is
// found first.
//
// When it had to list the replies to m, it keeps them (seeReplies,
// seeRepliesOK): they are the noisy moves of the position after m, which
// the quiescence search needs next if it plays m.
func (s *Searcher) seeGE(m engine.Move, t int32) bool {
	s.seeRepliesOK = false
	pos := s.pos
	target := m.To
	g := victimValue(pos, m)
	onTarget := value[pos.Board[m.From].Kind()]
	if m.Promo != engine.NoKind {
		g += value[m.Promo] - value[engine.Pawn]
		onTarget = value[m.Promo]
	}
	if g < t {
		return false
	}
	geo := pos.Geo()
	promoCell := geo.Promo[0][0][target] || geo.Promo[0][1][target] || geo.Promo[1][0][target] || geo.Promo[1][1][target]
	var moves [maxSwap]engine.Move
	var undos [maxSwap]engine.Undo
	moves[0], undos[0] = m, pos.Make(m)
	made := 1
	res := false
	for d := 1; ; d++ {
		ours := d%2 == 0
		g = onTarget - g
		if !promoCell && (ours && g < t || !ours && -g >= t) {
			res = !ours
			break
		}
		var r engine.Move
		ok := false
		if made < maxSwap {
			s.seeListed = false
			r, ok = s.leastCapture(target)
			if made == 1 && s.seeListed {
				s.seeReplies = append(s.seeReplies[:0], s.seeBuf...)
				s.seeRepliesOK = true
			}
		}
		if !ok {
			// The previous capture stands: the answer is whether its
			// side was ours.
			res = !ours
			break
		}
		onTarget = value[pos.Board[r.From].Kind()]
		if r.Promo != engine.NoKind {
			g += value[r.Promo] - value[engine.Pawn]
			onTarget = value[r.Promo]
		}
		if ours && g < t || !ours && -g >= t {
			res = !ours
			break
		}
		moves[made], undos[made] = r, pos.Make(r)
		made++
	}
	for i := made - 1; i >= 0; i-- {
		pos.Unmake(moves[i], undos[i])
	}
	return res
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
	s.seeListed = true
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
