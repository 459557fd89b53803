package puzzle

import (
	"context"

	"topochess/engine"
)

// A forced mate within n moves: the side to move has a move that mates at
// once or, with n > 1, after which every reply leaves a forced mate within
// n-1 moves. The answers below come from trying every move and every reply
// (no evaluation, no pruning that could change an answer); only their
// order and a memory of answers already found make them faster.

// mater answers forced-mate questions for one puzzle candidate. Answers
// are remembered by position hash; nodes counts the moves played so that
// a candidate too costly to decide is given up (over) rather than waiting.
type mater struct {
	ctx   context.Context // a cancelled context stops the search as over
	memo  map[mateKey]bool
	nodes int64
	limit int64
	over  bool
}

type mateKey struct {
	hash uint64
	n    int
}

func newMater(limit int64) *mater {
	return &mater{ctx: context.Background(), memo: map[mateKey]bool{}, limit: limit}
}

// spent counts a node and reports whether the budget or the context ran
// out.
func spent(nodes *int64, limit int64, ctx context.Context) bool {
	*nodes++
	return *nodes > limit || *nodes&4095 == 0 && ctx.Err() != nil
}

// has reports whether the side to move mates within n moves.
func (s *mater) has(p *engine.Position, n int) bool {
	if n <= 0 || s.over {
		return false
	}
	k := mateKey{p.Hash, n}
	if v, ok := s.memo[k]; ok {
		return v
	}
	found := false
	for _, m := range checksFirst(p, p.LegalMoves()) {
		if s.forces(p, m, n) {
			found = true
			break
		}
	}
	if !s.over {
		s.memo[k] = found
	}
	return found
}

// forces reports whether m mates at once or, with n > 1, leaves only
// replies after which a mate within n-1 follows.
func (s *mater) forces(p *engine.Position, m engine.Move, n int) bool {
	if s.over || spent(&s.nodes, s.limit, s.ctx) {
		s.over = true
		return false
	}
	u := p.Make(m)
	defer p.Unmake(m, u)
	check := p.InCheck()
	if n <= 1 && !check {
		return false // a mate is a check
	}
	replies := p.LegalMoves()
	if len(replies) == 0 {
		return check
	}
	if n <= 1 {
		return false
	}
	for _, r := range replies {
		ru := p.Make(r)
		ok := s.has(p, n-1)
		p.Unmake(r, ru)
		if !ok {
			return false
		}
	}
	return true
}

// moves lists every move of the side to move that mates within n moves.
func (s *mater) moves(p *engine.Position, n int) []engine.Move {
	var out []engine.Move
	for _, m := range p.LegalMoves() {
		if s.forces(p, m, n) {
			out = append(out, m)
		}
	}
	return out
}

// shortest is the least n ≤ max within which the side to move mates, or 0.
func (s *mater) shortest(p *engine.Position, max int) int {
	for n := 1; n <= max; n++ {
		if s.has(p, n) {
			return n
		}
	}
	return 0
}

// checksFirst puts the checking moves first: mates are found among them
// sooner, and an answer does not depend on the order.
func checksFirst(p *engine.Position, ms []engine.Move) []engine.Move {
	out := make([]engine.Move, 0, len(ms))
	var quiet []engine.Move
	for _, m := range ms {
		u := p.Make(m)
		check := p.InCheck()
		p.Unmake(m, u)
		if check {
			out = append(out, m)
		} else {
			quiet = append(quiet, m)
		}
	}
	return append(out, quiet...)
}

// MatingMoves returns every move of the side to move that mates in at
// most n of its moves whatever the opponent replies.
func MatingMoves(p *engine.Position, n int) []engine.Move {
	return newMater(1<<62).moves(p.Clone(), n)
}
