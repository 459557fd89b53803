package engine

import "math/bits"

// countHeisenberg is countLegal for Heisenberg chess. A piece that needs
// no test (not the king, not pinned, no en passant open to a pawn, the side
// not in check) has its changes of position counted from the sets of cells
// they land on instead of being listed, and nothing is filtered.
func (p *Position) countHeisenberg(scratch []Move) int {
	l := p.legality()
	if l.inCheck {
		return len(p.appendHeisenberg(scratch[:0]))
	}
	var w watch
	p.observe(&w)
	var sOf [64]int16
	us := p.Side
	n := 0
	for o, pc := range p.Board {
		if pc == 0 || pc.Color() != us {
			continue
		}
		switch {
		case pc.Kind() == King:
			n += len(p.filterWith(p.genPieceFIDE(scratch[:0], int16(o)), 0, l))
		case l.anyPin && l.pin.has(o), pc.Kind() == Pawn && p.EPSkip >= 0:
			n += len(p.filterWith(p.pieceMoves(scratch[:0], int16(o), &w, &sOf), 0, l))
		default:
			n += p.countPieceMoves(scratch, int16(o), &w, &sOf)
		}
	}
	return n + len(p.filterWith(p.genCastling(scratch[:0]), 0, l))
}

// countPieceMoves is len(pieceMoves(...)) with the changes of position
// counted rather than listed.
func (p *Position) countPieceMoves(scratch []Move, o int16, w *watch, sOf *[64]int16) int {
	ms := p.watchedFIDE(scratch[:0], o, w, sOf)
	var fide, done, seenAt uint64
	n := 0
	for i, m := range ms {
		fide |= cellBit(m.To)
		if s := sOf[i]; s >= 0 {
			seenAt |= cellBit(s)
			continue
		}
		done |= cellBit(m.To)
		n++
	}
	pc := p.Board[o]
	promo := p.g.Promo[pc.Color()][pc.Dir()]
	for seenAt != 0 {
		s := int16(bits.TrailingZeros64(seenAt))
		seenAt &= seenAt - 1
		n += len(p.speedChange(scratch[:0], o, s, w, &done))
		k := int(w.n[s])
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
