package search

import (
	"math"

	"topochess/engine"
)

// rootMove is a move of the searched position with its fixed noise.
type rootMove struct {
	m     engine.Move
	noise int32
}

type rootMoves struct {
	moves       []rootMove
	bestChanged bool
}

// newRootMoves orders the root moves once (captures first, by most valuable
// victim); later iterations bring each iteration's best to the front.
func newRootMoves(s *Searcher, legal []engine.Move, noise []int32) *rootMoves {
	rs := &rootMoves{}
	sc := make([]int32, len(legal))
	e, ok := s.tt.probe(s.pos.Hash)
	s.scoreMoves(legal, sc, ttMove(e, ok), 0)
	idx := make([]int, len(legal))
	for i := range idx {
		idx[i] = i
	}
	// Insertion sort: stable and the lists are short.
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && sc[idx[j]] > sc[idx[j-1]]; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	for _, i := range idx {
		rs.moves = append(rs.moves, rootMove{m: legal[i], noise: noise[i]})
	}
	return rs
}

func ttMove(e ttEntry, ok bool) engine.Move {
	if !ok || e.from == e.to {
		return engine.Move{From: -1, To: -1}
	}
	return engine.Move{From: e.from, To: e.to, Promo: e.promo}
}

// searchRoot runs one iteration in the window (alpha, beta). It reports
// false when the budget ran out before the iteration finished; moves fully
// searched before that still count (rs.bestChanged). A score at or below
// alpha (no move reached the window: the order is kept) or at or above
// beta (the move that got there is put first) is only a bound. The window
// must be infinite when the root moves carry noise.
func (s *Searcher) searchRoot(rs *rootMoves, depth int, alpha, beta int32) (int32, bool) {
	pos := s.pos
	origAlpha := alpha
	best := int32(-infinity)
	bestIdx := -1
	s.pvLen[0] = 0
	rs.bestChanged = false
	for i, rm := range rs.moves {
		s.played(1, rm.m)
		u := pos.Make(rm.m)
		s.hist = append(s.hist, pos.Hash)
		var v int32
		if i == 0 {
			v = -s.negamax(depth-1, 1, -beta, -alpha, true, false)
		} else {
			// The move must beat alpha after its own noise is added.
			a := alpha - rm.noise
			v = -s.negamax(depth-1, 1, -a-1, -a, true, true)
			if v > a && !s.stopped {
				v = -s.negamax(depth-1, 1, -beta, -a, true, false)
			}
		}
		s.hist = s.hist[:len(s.hist)-1]
		pos.Unmake(rm.m, u)
		if s.stopped {
			break
		}
		if v > -mateBound && v < mateBound {
			v += rm.noise
		}
		best = max(best, v)
		if v > alpha {
			alpha = v
			bestIdx = i
			s.pv[0][0] = rm.m
			copy(s.pv[0][1:], s.pv[1][1:s.pvLen[1]])
			s.pvLen[0] = max(s.pvLen[1], 1)
			if v >= beta {
				break
			}
		}
	}
	if bestIdx >= 0 && (!s.stopped || bestIdx > 0) {
		rs.bestChanged = bestIdx > 0
		bm := rs.moves[bestIdx]
		copy(rs.moves[1:bestIdx+1], rs.moves[:bestIdx])
		rs.moves[0] = bm
		if !s.stopped && best > origAlpha && best < beta {
			s.tt.store(pos.Hash, depth, best, boundExact, bm.m, 0)
		}
	}
	return best, !s.stopped
}

// tick counts a node and checks the budget: the node budget at every node
// (so that it is exact and reproducible), the context every 1024 nodes.
func (s *Searcher) tick() bool {
	s.nodes++
	if s.cfg.Nodes > 0 && s.nodes >= s.cfg.Nodes {
		s.stopped = true
	}
	if s.nodes&1023 == 0 {
		if s.shared {
			s.published.Store(s.nodes)
		}
		if s.ctx.Err() != nil {
			s.stopped = true
		}
	}
	return s.stopped
}

// repeated reports whether the current position occurred before, with the
// same side to move, since the last capture or pawn move (in the game or
// along the searched line): the search scores a first repetition as a
// draw, as the opponent can usually repeat again.
func (s *Searcher) repeated() bool {
	n := len(s.hist)
	cur := s.hist[n-1]
	lo := max(0, n-1-s.pos.Halfmove)
	for i := n - 3; i >= lo; i -= 2 {
		if s.hist[i] == cur {
			return true
		}
	}
	return false
}

// negamax searches the current position to depth plies in the window
// (alpha, beta). cutNode marks a node expected to fail high: the null-window
// search of a move after the first, and every second node below it along
// the first moves; late moves are reduced a ply more there.
func (s *Searcher) negamax(depth, ply int, alpha, beta int32, allowNull, cutNode bool) int32 {
	s.pvLen[ply] = ply
	if s.tick() {
		return 0
	}
	pos := s.pos
	if s.repeated() {
		return 0
	}
	if ply >= maxPly {
		return s.evaluate()
	}
	// Mate distance pruning: nothing here can beat a shorter mate.
	alpha = max(alpha, -mateScore+int32(ply))
	beta = min(beta, mateScore-int32(ply+1))
	if alpha >= beta {
		return alpha
	}
	inCheck := pos.InCheck()
	if pos.Halfmove >= 100 {
		// The 100 half-move rule, unless this very move mated.
		if inCheck && len(pos.AppendLegal(s.moves[ply][:0])) == 0 {
			return -mateScore + int32(ply)
		}
		return 0
	}
	if inCheck {
		depth++ // check extension
	}
	if depth <= 0 {
		return s.quiesce(ply, 0, alpha, beta)
	}
	// A singular search (below) looks at this node without one move.
	excluded := s.excluded[ply]
	singular := excluded.From != excluded.To
	e, hit := s.tt.probe(pos.Hash)
	if hit && !singular && int(e.depth) >= depth {
		if v, ok := ttCutoff(e, ply, alpha, beta); ok {
			return v
		}
	}
	pvNode := beta-alpha > 1
	quietWindow := alpha > -mateBound && beta < mateBound

	// The static evaluation, for the pruning decisions below (never in
	// check, where the position is not quiet). The position is improving
	// when it evaluates above the one two plies up: pruning is then
	// bolder and reductions smaller.
	var static, raw int32
	var corr *int32
	improving := false
	s.static[ply] = noStatic
	if !inCheck {
		raw = s.evaluate()
		corr = s.correction()
		static = raw + *corr/corrGrain
		s.static[ply] = static
		improving = ply >= 2 && s.static[ply-2] != noStatic && static > s.static[ply-2]
	}
	if !inCheck && !pvNode && !singular {
		// Razoring: so far below alpha near the horizon that a quiet move
		// is not expected to help; when the captures (the quiescence
		// search) do not either, the node fails low.
		if depth <= razorDepth && quietWindow && static+razorMargin*int32(depth) < alpha {
			v := s.quiesce(ply, 0, alpha, alpha+1)
			if s.stopped {
				return 0
			}
			if v <= alpha {
				return v
			}
		}
		// Reverse futility: so far above beta near the horizon that no
		// quiet reply of the opponent is expected to bring it back.
		margin := rfpMargin * int32(depth)
		if improving {
			margin -= rfpMargin / 2
		}
		if depth <= rfpDepth && quietWindow && static-margin >= beta && hasPieces(pos) {
			return static - margin
		}
	}

	// Null move: if passing still holds beta, a real move will too. Not in
	// check, not in pawn endings (zugzwang) and not near mate scores.
	if allowNull && !singular && !pvNode && !inCheck && depth >= 3 && beta > -mateBound && beta < mateBound && hasPieces(pos) &&
		static >= beta {
		// The further above beta, the shallower the search of the pass.
		r := 3 + depth/3 + int(min((static-beta)/200, 3))
		u := pos.MakeNull()
		s.hist = append(s.hist, pos.Hash)
		s.lastTo[ply+1], s.lastKey[ply+1] = -1, -1
		v := -s.negamax(depth-1-r, ply+1, -beta, -beta+1, false, !cutNode)
		s.hist = s.hist[:len(s.hist)-1]
		pos.UnmakeNull(u)
		if s.stopped {
			return 0
		}
		if v >= beta {
			return beta
		}
	}

	// ProbCut: a capture whose shallow search clears beta by a margin
	// is taken to hold beta at full depth too. Only captures whose
	// exchange alone reaches the margin are tried, first in the
	// quiescence search, and not when the table already says the node
	// stays below it.
	if !pvNode && !singular && !inCheck && depth >= probCutDepth && quietWindow {
		pcBeta := beta + probCutMargin
		if improving {
			pcBeta -= probCutMargin / 4
		}
		if pcBeta < mateBound && !(hit && int(e.depth) >= depth-3 && fromTT(e.score, ply) < pcBeta) {
			ms := pos.AppendNoisy(s.moves[ply][:0])
			s.moves[ply] = ms[:0]
			for _, m := range ms {
				if m.Promo != engine.NoKind && m.Promo != engine.Queen {
					continue
				}
				if !s.seeGE(m, pcBeta-static) {
					continue
				}
				s.played(ply+1, m)
				u := pos.Make(m)
				s.hist = append(s.hist, pos.Hash)
				v := -s.quiesce(ply+1, 0, -pcBeta, -pcBeta+1)
				if v >= pcBeta && !s.stopped {
					v = -s.negamax(depth-4, ply+1, -pcBeta, -pcBeta+1, true, !cutNode)
				}
				s.hist = s.hist[:len(s.hist)-1]
				pos.Unmake(m, u)
				if s.stopped {
					return 0
				}
				if v >= pcBeta {
					s.tt.store(pos.Hash, depth-3, v, boundLower, m, ply)
					return v
				}
			}
		}
	}

	// Singular extension: when the table's move holds a lower bound this
	// deep and no other move comes near it in a shallower search without
	// it, the move is searched a ply deeper; when another move also beats
	// beta there, the node fails high at once (two refutations).
	tm := ttMove(e, hit)
	extend := 0
	if !singular && ply > 0 && depth >= seDepth && hit && tm.From != tm.To &&
		e.bound != boundUpper && int(e.depth) >= depth-3 {
		if tv := fromTT(e.score, ply); tv > -mateBound && tv < mateBound {
			sBeta := tv - seMargin*int32(depth)
			s.excluded[ply] = tm
			v := s.negamax((depth-1)/2, ply, sBeta-1, sBeta, false, cutNode)
			s.excluded[ply] = engine.Move{}
			if s.stopped {
				return 0
			}
			switch {
			case v < sBeta:
				extend = 1
			case sBeta >= beta:
				return sBeta
			}
		}
	}

	ms := pos.AppendLegal(s.moves[ply][:0])
	s.moves[ply] = ms[:0]
	if len(ms) == 0 {
		if inCheck {
			return -mateScore + int32(ply)
		}
		return 0
	}
	sc := s.scoreBuf(ply, len(ms))
	s.scoreMoves(ms, sc, tm, ply)

	origAlpha := alpha
	best := int32(-infinity)
	bestMove := engine.Move{}
	// Quiet moves late in the order of a node near the horizon, or that
	// cannot lift a poor position to alpha, or that leave the moved piece
	// to an exchange losing more than seeQuietMargin·depth², and captures
	// that lose their exchange close to it, are not searched at all
	// (never the first move, so that the node keeps a real score).
	prune := !pvNode && !inCheck && quietWindow && depth <= lmpDepth
	futile := prune && depth <= futilityDepth && static+futilityMargin[depth] <= alpha
	quiets := s.quiets[ply][:0]
	for i := range ms {
		s.pickNext(ms, sc, i)
		m := ms[i]
		if singular && m.Same(excluded) {
			continue
		}
		noisy := pos.IsNoisy(m)
		quiet := !noisy && m.Promo == engine.NoKind
		if i > 0 && prune && depth <= futilityDepth && !quiet && losingKey(sc[i]) {
			// A capture that loses material in its exchange, near the
			// horizon: not searched unless it gives check.
			u := pos.Make(m)
			check := pos.InCheck()
			pos.Unmake(m, u)
			if !check {
				continue
			}
		}
		if i > 0 && prune && quiet && !s.isKiller(m, ply) && (futile || i >= lateMoves[b2i(improving)][depth] ||
			!s.seeGE(m, -seeQuietMargin*int32(depth*depth))) {
			u := pos.Make(m)
			check := pos.InCheck()
			pos.Unmake(m, u)
			if !check {
				continue
			}
		}
		s.played(ply+1, m)
		u := pos.Make(m)
		s.hist = append(s.hist, pos.Hash)
		var v int32
		if i == 0 {
			d := depth - 1
			if m.Same(tm) {
				d += extend
			}
			v = -s.negamax(d, ply+1, -beta, -alpha, true, !pvNode && !cutNode)
		} else {
			// Late move reduction for quiet moves down the order, and for
			// captures that lose their exchange, growing with the depth
			// and the move's rank.
			r := 0
			if depth >= 3 && i >= 2 && !inCheck {
				switch {
				case quiet && !s.isKiller(m, ply) && !pos.InCheck():
					r = lmr[min(depth, 63)][min(i, 63)]
					if pvNode {
						r--
					}
					if !improving {
						r++
					}
					if cutNode {
						r++
					}
					// Less for a move with a good history, more for a bad
					// one (the counter move counts as good).
					if k := sc[i]; k >= orderKiller-2 {
						r--
					} else {
						r -= int(max(-3*historyCap, min(k, 3*historyCap)) / (historyCap * 3 / 4))
					}
				case !quiet && losingKey(sc[i]) && !pos.InCheck():
					r = lmr[min(depth, 63)][min(i, 63)] - b2i(pvNode)
				}
				r = max(0, min(r, depth-2))
			}
			v = -s.negamax(depth-1-r, ply+1, -alpha-1, -alpha, true, true)
			if v > alpha && r > 0 && !s.stopped {
				v = -s.negamax(depth-1, ply+1, -alpha-1, -alpha, true, !cutNode)
			}
			if v > alpha && v < beta && !s.stopped {
				v = -s.negamax(depth-1, ply+1, -beta, -alpha, true, false)
			}
		}
		s.hist = s.hist[:len(s.hist)-1]
		pos.Unmake(m, u)
		if s.stopped {
			return 0
		}
		if v > best {
			best = v
			bestMove = m
			if v > alpha {
				alpha = v
				s.pv[ply][ply] = m
				copy(s.pv[ply][ply+1:], s.pv[ply+1][ply+1:s.pvLen[ply+1]])
				s.pvLen[ply] = max(s.pvLen[ply+1], ply+1)
				if v >= beta {
					if quiet {
						s.rememberQuiet(m, quiets, ply, depth)
					}
					break
				}
			}
		}
		if quiet {
			quiets = append(quiets, m)
		}
	}
	s.quiets[ply] = quiets[:0]
	bound := boundUpper
	switch {
	case best >= beta:
		bound = boundLower
	case best > origAlpha:
		bound = boundExact
	}
	if !singular {
		s.tt.store(pos.Hash, depth, best, bound, bestMove, ply)
		// The correction learns from scores the static evaluation could
		// have known: not after a capture, not from a bound on the wrong
		// side of it, not from mates.
		if !inCheck && (bestMove.From == bestMove.To || !pos.IsNoisy(bestMove)) &&
			!(bound == boundLower && best <= static) && !(bound == boundUpper && best >= static) &&
			best > -mateBound && best < mateBound {
			correct(corr, raw, best, depth)
		}
	}
	return best
}

// quiesce searches captures and queen promotions until the position is
// quiet, so that the evaluation never looks at a half-finished exchange.
// In check every legal move is searched (a mate is found as a mate).
func (s *Searcher) quiesce(ply, qdepth int, alpha, beta int32) int32 {
	listed := s.qReplies
	s.qReplies = false
	s.pvLen[ply] = ply
	if s.tick() {
		return 0
	}
	pos := s.pos
	if ply >= maxPly {
		return s.evaluate()
	}
	// Evasions are searched near the horizon only: deeper, a check is
	// scored like any quiet position, which keeps long capture-and-check
	// chains on crowded boards (cube5) from exploding.
	evade := qdepth < qEvasionDepth && pos.InCheck()
	var ms []engine.Move
	best := int32(-infinity)
	var stand int32
	// The node's score goes to the table at depth 0 (a bound unless it
	// falls inside the window), with the capture that raised alpha,
	// unless the table already holds the position (from a deeper search)
	// or the node searched evasions.
	qAlpha := alpha
	var qBest engine.Move
	qHit := false
	qStore := func(v int32) {
		if !evade && !qHit && !s.stopped {
			b := boundUpper
			switch {
			case v >= beta:
				b = boundLower
			case v > qAlpha:
				b = boundExact
			}
			s.tt.store(pos.Hash, 0, v, b, qBest, ply)
		}
	}
	if evade {
		ms = pos.AppendLegal(s.moves[ply][:0])
		if len(ms) == 0 {
			return -mateScore + int32(ply)
		}
	} else {
		// Any table entry is at least as deep as this node: its bound
		// settles the node when it falls outside the window.
		if e, hit := s.tt.probe(pos.Hash); hit {
			qHit = true
			if v, ok := ttCutoff(e, ply, alpha, beta); ok {
				return v
			}
		}
		stand = s.corrected()
		if stand >= beta {
			qStore(stand)
			return stand
		}
		alpha = max(alpha, stand)
		best = stand
		if listed {
			ms = append(s.moves[ply][:0], s.seeReplies...)
		} else {
			ms = pos.AppendNoisy(s.moves[ply][:0])
		}
	}
	s.moves[ply] = ms[:0]
	sc := s.scoreBuf(ply, len(ms))
	s.scoreMoves(ms, sc, engine.Move{From: -1, To: -1}, ply)
	for i := range ms {
		pickNext(ms, sc, i)
		m := ms[i]
		s.seeRepliesOK = false
		if !evade && !s.worthCapturing(m, stand, alpha) {
			continue
		}
		// The exchange evaluation of m may have listed the replies to
		// it: the node below takes them instead of generating again.
		replies := s.seeRepliesOK
		s.played(ply+1, m)
		u := pos.Make(m)
		s.hist = append(s.hist, pos.Hash)
		s.qReplies = replies
		v := -s.quiesce(ply+1, qdepth+1, -beta, -alpha)
		s.hist = s.hist[:len(s.hist)-1]
		pos.Unmake(m, u)
		if s.stopped {
			return 0
		}
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				qBest = m
				if v >= beta {
					break
				}
			}
		}
	}
	qStore(best)
	return best
}

// Pruning near the horizon, by remaining depth (index 0 unused).
const (
	rfpDepth      = 6
	rfpMargin     = 90
	futilityDepth = 3
	// Late-move pruning from this depth down.
	lmpDepth = 6
	// Singular extensions from this depth on, with a margin per ply.
	seDepth  = 6
	seMargin = 2
	// ProbCut from this depth on, a capture's shallow search (4 plies
	// less) clearing beta by this margin (a quarter less when improving).
	probCutDepth  = 5
	probCutMargin = 200
	// Razoring within razorDepth plies, below alpha by razorMargin a ply.
	razorDepth  = 3
	razorMargin = 250
	// A quiet move whose exchange loses more than seeQuietMargin·depth²
	// is pruned like a late one.
	seeQuietMargin = 20
)

var (
	futilityMargin = [futilityDepth + 1]int32{0, 150, 300, 450}
	// lateMoves is the late-move pruning count, when the position is not
	// improving and when it is.
	lateMoves = [2][lmpDepth + 1]int{{0, 4, 7, 12, 19, 28, 39}, {0, 6, 10, 18, 28, 42, 58}}
	// lmr is the late-move reduction by depth and move number.
	lmr [64][64]int
)

func init() {
	for d := 1; d < 64; d++ {
		for i := 1; i < 64; i++ {
			lmr[d][i] = int(0.75 + math.Log(float64(d))*math.Log(float64(i))/2.25)
		}
	}
}

// qEvasionDepth is how many quiescence plies search every evasion from
// check.
const qEvasionDepth = 2

// deltaMargin: a capture that cannot lift the score to alpha even with this
// much positional gain is not searched.
const deltaMargin = 200

// worthCapturing prunes the quiescence search: under-promotions, captures
// that cannot reach alpha (delta pruning), and captures and promotions
// that lose material in the exchange they start.
func (s *Searcher) worthCapturing(m engine.Move, stand, alpha int32) bool {
	pos := s.pos
	if m.Promo != engine.NoKind && m.Promo != engine.Queen {
		return false
	}
	victim := value[engine.Pawn] // en passant
	if x := pos.Board[m.To]; x != 0 {
		victim = value[x.Kind()]
	} else if m.Flags&engine.FlagEnPassant == 0 {
		victim = 0
	}
	gain := victim
	if m.Promo == engine.Queen {
		gain += value[engine.Queen] - value[engine.Pawn]
	}
	if stand+gain+deltaMargin < alpha {
		return false
	}
	return seeUnneeded(pos, m) || s.seeGE(m, 0)
}

// hasPieces: the side to move has a piece other than king and pawns, so a
// null move is not refuted by zugzwang.
func hasPieces(p *engine.Position) bool {
	for _, pc := range p.Board {
		if pc != 0 && pc.Color() == p.Side {
			if k := pc.Kind(); k != engine.Pawn && k != engine.King {
				return true
			}
		}
	}
	return false
}

func (s *Searcher) scoreBuf(ply, n int) []int32 {
	if cap(s.scores[ply]) < n {
		s.scores[ply] = make([]int32, n)
	}
	return s.scores[ply][:n]
}

// Ordering keys: hash move, then captures and queen promotions by most
// valuable victim and least valuable attacker, then killers and the
// counter move, then quiet moves by history, then captures that lose
// material in the exchange (by victim and attacker), under-promotions
// last.
const (
	orderHash   = 1 << 30
	orderNoisy  = 1 << 24
	orderKiller = 1 << 22
	orderLosing = -(1 << 21)
	historyCap  = 1 << 14
)

func (s *Searcher) scoreMoves(ms []engine.Move, sc []int32, tm engine.Move, ply int) {
	pos := s.pos
	b := pos.Board
	us := pos.Side
	counter := engine.Move{From: -1, To: -1}
	if t := s.lastTo[ply]; t >= 0 {
		counter = s.counter[us][b[t].Kind()][t]
	}
	c1, c2 := s.contRows(ply)
	for i, m := range ms {
		if m.Same(tm) {
			sc[i] = orderHash
			continue
		}
		mover := b[m.From].Kind()
		var key int32
		noisy := false
		if x := b[m.To]; x != 0 && x.Color() != us {
			key = orderNoisy + value[x.Kind()]*16 - int32(mover)
			noisy = true
		} else if m.Flags&engine.FlagEnPassant != 0 {
			key = orderNoisy + value[engine.Pawn]*16 - int32(mover)
			noisy = true
		}
		switch {
		case m.Promo == engine.Queen:
			key += orderNoisy + value[engine.Queen]*16
		case m.Promo != engine.NoKind:
			key = -orderNoisy
		case noisy:
		case m.Same(s.killers[ply][0]):
			key = orderKiller
		case m.Same(s.killers[ply][1]):
			key = orderKiller - 1
		case m.Same(counter):
			key = orderKiller - 2
		default:
			key = s.orderQuiet(us, mover, m.To, c1, c2)
		}
		sc[i] = key
	}
}

// pickNext is pickNext for the main search: a capture or promotion
// reached in the winning band that loses material in its exchange is sent
// down among the losing captures, and the next best is picked instead.
// The exchange is only evaluated for moves about to be searched.
func (s *Searcher) pickNext(ms []engine.Move, sc []int32, i int) {
	for {
		pickNext(ms, sc, i)
		if sc[i] < orderNoisy || sc[i] >= orderHash || seeUnneeded(s.pos, ms[i]) {
			return
		}
		if s.seeGE(ms[i], 0) {
			return
		}
		m := ms[i]
		sc[i] = orderLosing + victimValue(s.pos, m)*16 - int32(s.pos.Board[m.From].Kind())
	}
}

// losingKey reports whether an ordering key is that of a capture or
// promotion pickNext found to lose material in its exchange.
func losingKey(k int32) bool { return k > -orderNoisy && k < orderLosing+1<<20 }

// pickNext moves the best-keyed remaining move to index i: ordering is
// lazy because most nodes cut off after a move or two.
func pickNext(ms []engine.Move, sc []int32, i int) {
	bi := i
	for j := i + 1; j < len(ms); j++ {
		if sc[j] > sc[bi] {
			bi = j
		}
	}
	ms[i], ms[bi] = ms[bi], ms[i]
	sc[i], sc[bi] = sc[bi], sc[i]
}

func (s *Searcher) isKiller(m engine.Move, ply int) bool {
	return m.Same(s.killers[ply][0]) || m.Same(s.killers[ply][1])
}

// rememberQuiet records a quiet move that caused a cutoff: killer,
// counter move to the opponent's last move, a history bonus, and a malus
// for the quiet moves searched before it in vain.
func (s *Searcher) rememberQuiet(m engine.Move, tried []engine.Move, ply, depth int) {
	pos := s.pos
	us := pos.Side
	if !m.Same(s.killers[ply][0]) {
		s.killers[ply][1] = s.killers[ply][0]
		s.killers[ply][0] = m
	}
	if t := s.lastTo[ply]; t >= 0 {
		s.counter[us][pos.Board[t].Kind()][t] = m
	}
	bonus := int32(min(16*depth*depth, 1600))
	c1, c2 := s.contRows(ply)
	s.addHistory(us, pos.Board[m.From].Kind(), m.To, bonus, c1, c2)
	for _, q := range tried {
		s.addHistory(us, pos.Board[q.From].Kind(), q.To, -bonus, c1, c2)
	}
}

// addHistory moves a quiet move's history scores (its own and its two
// continuation scores) towards ±historyCap by bonus, less the closer each
// already is (so that scores stay bounded and recent results weigh more).
func (s *Searcher) addHistory(us engine.Color, k engine.Kind, to int16, bonus int32, c1, c2 []int16) {
	h := &s.history[us][k][to]
	*h += bonus - *h*max(bonus, -bonus)/historyCap
	i := int(k)*s.cells + int(to)
	for _, row := range [2][]int16{c1, c2} {
		if row != nil {
			h := int32(row[i])
			row[i] = int16(h + bonus - h*max(bonus, -bonus)/historyCap)
		}
	}
}

// played records the move that leads to ply (its destination and the
// kind that makes it) for the counter-move and continuation histories.
func (s *Searcher) played(ply int, m engine.Move) {
	s.lastTo[ply] = m.To
	s.lastKey[ply] = int32(s.pos.Board[m.From].Kind())*int32(s.cells) + int32(m.To)
}

// contRows are the continuation-history rows of the moves one and two
// plies before ply (nil where there is no such move): how quiet moves
// fared as answers to the opponent's last move and as follow-ups to our
// own previous one.
func (s *Searcher) contRows(ply int) (c1, c2 []int16) {
	n := 7 * s.cells
	if k := s.lastKey[ply]; k >= 0 {
		c1 = s.cont[int(k)*n : int(k+1)*n]
	}
	if ply >= 1 {
		if k := s.lastKey[ply-1]; k >= 0 {
			c2 = s.cont[int(k)*n : int(k+1)*n]
		}
	}
	return c1, c2
}

// orderQuiet orders a quiet move: its history plus its two continuation
// scores.
func (s *Searcher) orderQuiet(us engine.Color, k engine.Kind, to int16, c1, c2 []int16) int32 {
	v := s.history[us][k][to]
	i := int(k)*s.cells + int(to)
	if c1 != nil {
		v += int32(c1[i])
	}
	if c2 != nil {
		v += int32(c2[i])
	}
	return v
}

// noStatic marks a ply without a static evaluation (in check).
const noStatic = -infinity - 1

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
