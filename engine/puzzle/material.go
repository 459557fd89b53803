package puzzle

import (
	"context"

	"topochess/engine"
)

// Winning material, exactly.
//
// Material counts pawn 1, knight 3, bishop 3, rook 5, queen 9 (kings
// nothing); the balance is the solver's material minus the defender's.
//
// The value of a puzzle of k solver moves is the minimax of this game: the
// solver moves, the defender replies, ... until the solver has played k
// moves; then the exchanges are settled: from there, the side to move
// either stops (not when in check) or captures (or promotes; in check, any
// legal move), and so on, each side choosing what is best for it, for at
// most SettlePlies plies, after which the balance counts as it stands.
// A side left without a legal move is mated (value ±MateValue from the
// solver's side) or stalemated (the balance the puzzle started with: a
// draw wins nothing).
//
// Gain is that value minus the balance in the puzzle's position. A
// winning-material puzzle of k moves (WinIn = k) holds when:
//   - its key move reaches a gain of at least WinMin (a minor piece), and
//     the gain it reaches is exactly the puzzle's Gain, below MateValue/2
//     (a forced mate is a mate puzzle);
//   - no win of WinMin is there in k-1 moves, where 0 moves means the
//     exchanges settled from the puzzle's position, the solver to move (a
//     piece left hanging is no puzzle);
//   - unique: at every step of the solver, the line's move reaches Gain
//     against any defence, and every other legal move of the solver
//     reaches at most OtherMax (a pawn), counted from the puzzle's start
//     balance, in the moves left;
//   - each reply in the line is a best defence: after it the solver's best
//     still gains exactly Gain, no more.
const (
	WinMin      = 3
	OtherMax    = 1
	MateValue   = 1000
	SettlePlies = 8
)

var pieceValue = [7]int{engine.Pawn: 1, engine.Knight: 3, engine.Bishop: 3, engine.Rook: 5, engine.Queen: 9}

// Balance is side's material minus its opponent's.
func Balance(p *engine.Position, side engine.Color) int {
	b := 0
	for _, pc := range p.Board {
		if pc == 0 {
			continue
		}
		if pc.Color() == side {
			b += pieceValue[pc.Kind()]
		} else {
			b -= pieceValue[pc.Kind()]
		}
	}
	return b
}

// materialist computes the value of the game above by alpha-beta, which
// gives the same minimax value as trying everything.
type materialist struct {
	ctx    context.Context // a cancelled context stops the search as over
	solver engine.Color
	start  int // the balance at the puzzle's position
	nodes  int64
	limit  int64
	over   bool
}

func newMaterialist(p *engine.Position, limit int64) *materialist {
	return &materialist{ctx: context.Background(), solver: p.Side, start: Balance(p, p.Side), limit: limit}
}

// value is the solver's value of p with left solver moves to play (0: the
// exchanges are settled), within the window (alpha, beta).
func (s *materialist) value(p *engine.Position, left, alpha, beta int) int {
	if left == 0 {
		return s.settle(p, 0, alpha, beta)
	}
	if s.over || spent(&s.nodes, s.limit, s.ctx) {
		s.over = true
		return 0
	}
	ms := p.LegalMoves()
	if len(ms) == 0 {
		return s.stuck(p)
	}
	b := newNode(p.Side == s.solver, alpha, beta)
	for _, m := range ms {
		u := p.Make(m)
		next := left
		if b.solver {
			next--
		}
		v := s.value(p, next, b.alpha, b.beta)
		p.Unmake(m, u)
		if b.add(v) {
			break
		}
	}
	return b.best
}

// node is the minimax state of one position: the best value found so
// far for the side to move (the solver maximises, the defender
// minimises) and the window (alpha, beta) it narrows.
type node struct {
	solver            bool
	best, alpha, beta int
}

func newNode(solver bool, alpha, beta int) node {
	if solver {
		return node{solver, -MateValue - 1, alpha, beta}
	}
	return node{solver, MateValue + 1, alpha, beta}
}

// add takes in the value of one more move and reports a cutoff.
func (n *node) add(v int) bool {
	if n.solver {
		n.best, n.alpha = max(n.best, v), max(n.alpha, v)
	} else {
		n.best, n.beta = min(n.best, v), min(n.beta, v)
	}
	return n.alpha >= n.beta
}

// settle plays out the captures (see the package's definition).
func (s *materialist) settle(p *engine.Position, ply, alpha, beta int) int {
	if s.over || spent(&s.nodes, s.limit, s.ctx) {
		s.over = true
		return 0
	}
	ms := p.LegalMoves()
	if len(ms) == 0 {
		return s.stuck(p)
	}
	stand := Balance(p, s.solver)
	if ply >= SettlePlies {
		return stand
	}
	check := p.InCheck()
	b := newNode(p.Side == s.solver, alpha, beta)
	// Out of check the side to move may stand pat.
	if !check && b.add(stand) {
		return b.best
	}
	for _, m := range ms {
		if !check && !noisy(p, m) {
			continue
		}
		u := p.Make(m)
		v := s.settle(p, ply+1, b.alpha, b.beta)
		p.Unmake(m, u)
		if b.add(v) {
			break
		}
	}
	return b.best
}

// stuck is the value of a position whose side to move has no move.
func (s *materialist) stuck(p *engine.Position) int {
	if !p.InCheck() {
		return s.start
	}
	if p.Side == s.solver {
		return -MateValue
	}
	return MateValue
}

// gainOf is the gain of move m with left solver moves counting m, and
// whether it was decided within the budget.
func (s *materialist) gainOf(p *engine.Position, m engine.Move, left int) int {
	u := p.Make(m)
	v := s.value(p, left-1, -MateValue-1, MateValue+1)
	p.Unmake(m, u)
	return v - s.start
}

// noisy reports whether m changes the material: a capture or a promotion.
func noisy(p *engine.Position, m engine.Move) bool {
	if m.Promo != engine.NoKind || m.Flags&(engine.FlagCapture|engine.FlagEnPassant) != 0 {
		return true
	}
	pc := p.Board[m.To]
	return pc != 0 && pc.Color() != p.Side
}
