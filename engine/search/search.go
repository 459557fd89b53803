// Package search is the computer opponent: an iterative-deepening
// alpha-beta search with an evaluation that works on every topochess
// board, and five playing levels.
//
// The search only uses the engine's public API, so any variant whose
// LegalMoves and Make are right is searched right, whatever its geometry
// or extra rules (Heisenberg observation, Möbius mate rules, switches).
//
// Randomness comes only from the *rand.Rand the caller passes; with a node
// budget and no deadline a search is fully reproducible.
package search

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"

	"topochess/engine"
)

// Config is how one search plays. Level returns the configuration of a
// playing level; callers may then tighten its budget.
type Config struct {
	// Level is informational (1..5), shown in Info.
	Level int
	// Random: play a random legal move, preferring captures (level 1).
	Random bool
	// Nodes stops the search after about this many nodes (0: no limit).
	Nodes int64
	// Time stops the search after this long (0: no limit). A deadline on
	// the context also stops it. The search uses all of it (an iteration
	// cut short still counts the moves it finished) unless SaveTime is set.
	Time time.Duration
	// SaveTime stops the search once half of Time is spent, instead of
	// starting an iteration that will probably not finish: for play on a
	// clock, where time saved now is time for later moves.
	SaveTime bool
	// Depth limits the nominal depth in plies (0: no limit).
	Depth int
	// NetAlone evaluates with the variant's network that replaces the
	// weighted terms, where it ships one (level 5): about twice the nodes
	// a second of the terms with the other network on top of them.
	NetAlone bool
	// Noise adds a random offset of up to ±Noise centipawns to every root
	// move's score, so that weaker levels make human-sized mistakes.
	Noise int
	// History holds the Zobrist hashes (Position.Hash) of the positions
	// before the searched one in the game, oldest first, so that the search
	// sees repetitions of the game's own positions.
	History []uint64
	// Threads is the number of search threads (0 or 1: one, and a search
	// with a node budget and no deadline is reproducible). More threads
	// share the transposition table (Lazy SMP): the extra ones search the
	// same position, some a ply deeper, and leave what they learn in the
	// table; the move is still the first thread's. Nodes then budgets the
	// first thread's nodes only, and Info.Nodes counts all threads'. A
	// search with Noise uses one thread.
	Threads int
	// Progress, when set, is called after every finished iteration with
	// what the search knows so far (Info.Stopped false), on the searching
	// goroutine: a UCI front end prints its "info" lines from it.
	Progress func(Info)
}

// MinLevel and MaxLevel bound the playing levels.
const (
	MinLevel = 1
	MaxLevel = 5
)

// Level returns the configuration of a playing level: 1 plays random moves
// with a taste for captures, 5 searches at full strength for about two
// seconds a move.
func Level(level int) (Config, error) {
	switch level {
	case 1:
		return Config{Level: 1, Random: true}, nil
	case 2:
		return Config{Level: 2, Nodes: 2_000, Depth: 2, Noise: 120}, nil
	case 3:
		return Config{Level: 3, Nodes: 10_000, Depth: 3, Noise: 60}, nil
	case 4:
		return Config{Level: 4, Nodes: 100_000, Time: 500 * time.Millisecond, Noise: 20}, nil
	case 5:
		return Config{Level: 5, Time: 2 * time.Second, NetAlone: true}, nil
	}
	return Config{}, fmt.Errorf("there is no level %d: choose %d (easiest) to %d (strongest)", level, MinLevel, MaxLevel)
}

// Info describes a finished search.
type Info struct {
	Level int
	// Depth is the last fully searched depth in plies (0 for a random or
	// forced move).
	Depth int
	Nodes int64
	// Score is in centipawns for the side to move; Mate is non-zero when a
	// forced mate was found: moves to mate, negative when being mated.
	Score int
	Mate  int
	// PV is the expected line, starting with the chosen move.
	PV []engine.Move
	// Stopped: the budget or the context ended the search.
	Stopped bool
}

// String is a one-line summary: level, depth, nodes and score.
func (in Info) String() string {
	s := fmt.Sprintf("level %d, depth %d, %d nodes, ", in.Level, in.Depth, in.Nodes)
	if in.Mate != 0 {
		s += fmt.Sprintf("mate in %d", in.Mate)
	} else {
		s += fmt.Sprintf("%+.2f", float64(in.Score)/100)
	}
	return s
}

// Line writes the principal variation in canonical notation.
func (in Info) Line(pos *engine.Position) string {
	q := pos.Clone()
	var parts []string
	for _, m := range in.PV {
		parts = append(parts, q.Canonical(m))
		q.Make(m)
	}
	return strings.Join(parts, " ")
}

// ErrNoMoves is returned when the side to move has no legal move (the game
// is over).
var ErrNoMoves = errors.New("no legal move: the game is over")

// Best picks a move for the side to move at a playing level, with a fresh
// searcher. The context cancels the search; cancelling is not an error:
// the best move found so far is returned (at worst the first legal move).
func Best(ctx context.Context, pos *engine.Position, level int, rng *rand.Rand) (engine.Move, Info, error) {
	cfg, err := Level(level)
	if err != nil {
		return engine.Move{}, Info{}, err
	}
	return NewSearcher().Search(ctx, pos, cfg, rng)
}

const (
	maxPly    = 96
	maxDepth  = 64
	infinity  = 32000
	mateScore = 31000
	// Scores beyond mateBound are mates.
	mateBound = mateScore - 2*maxPly
)

// Searcher keeps a transposition table between searches. It is not safe
// for concurrent use: a worker pool keeps one per worker.
type Searcher struct {
	tt      *table
	variant *engine.Variant

	// per search
	ctx     context.Context
	cfg     Config
	pos     *engine.Position
	bi      *boardInfo
	nodes   int64
	stopped bool
	hist    []uint64
	moves   [maxPly + 1][]engine.Move
	scores  [maxPly + 1][]int32
	killers [maxPly + 1][2]engine.Move
	history [2][7][]int32
	// counter is the quiet move that last refuted the opponent's move, by
	// (our colour, the kind that moved there, its destination).
	counter [2][7][]engine.Move
	// lastTo is the destination of the move that led to each ply (-1
	// after a null move or at the root).
	lastTo [maxPly + 1]int16
	// lastKey is the same move as kind·cells+destination, -1 where
	// lastTo is.
	lastKey [maxPly + 1]int32
	// cont is the continuation history: for a move (kind, destination)
	// a row of scores of the quiet moves (kind, destination) played after
	// it, one ply later (the answer) or two (the follow-up); cells is the
	// board's cell count.
	cont  []int16
	cells int
	// static is the static evaluation at each ply of the current line
	// (noStatic in check).
	static [maxPly + 1]int32
	// excluded is the move a singular search leaves out at its ply.
	excluded [maxPly + 1]engine.Move
	// quiets holds, per ply, the quiet moves searched so far at the node.
	quiets [maxPly + 1][]engine.Move
	seeBuf []engine.Move
	// seeListed: leastCapture listed the noisy moves into seeBuf.
	seeListed bool
	// seeReplies are the noisy moves of the position after the last move
	// seeGE evaluated, when seeRepliesOK; qReplies tells the quiescence
	// node entered next that they are its own.
	seeReplies   []engine.Move
	seeRepliesOK bool
	qReplies     bool
	evalCache    []evalSlot
	// pawnTable keeps the pawns' part of the evaluation (made on first
	// use, 2,048 entries of 480 bytes; cleared with evalCache).
	pawnTable []pawnSlot
	// netAcc is the network's running first layer (made on first use);
	// termsOnly leaves the network out (the weights' tuning).
	netAcc    *netAcc
	termsOnly bool
	// net is the network of this search (boardInfo's net or alone); the
	// evaluation cache holds its scores.
	net *Net
	// pawnKey is the pawn key of the last evaluated position; corr the
	// correction history by side to move and pawn key.
	pawnKey uint64
	corr    [2][]int32
	pv      [maxPly + 1][maxPly + 1]engine.Move
	pvLen   [maxPly + 1]int

	// helpers are the extra threads of a search with Threads > 1, kept
	// between searches; they share tt. A helper has shared set: it leaves
	// the table to the searcher that owns it, and publishes its node count
	// in published for the owner's progress reports.
	helpers   []*Searcher
	running   int
	shared    bool
	published atomic.Int64
}

// NewSearcher returns a searcher with an 8 MB transposition table.
func NewSearcher() *Searcher { return newSearcher(19) }

// NewSearcherMB returns a searcher whose transposition table takes at most
// mb megabytes (the largest power-of-two table that fits; at least 1 MB is
// assumed), for a UCI "Hash" option.
func NewSearcherMB(mb int) *Searcher {
	bytes := uint64(max(mb, 1)) << 20
	bits := 10
	for bits < 34 && uint64(1)<<(bits+1)*uint64(unsafe.Sizeof(ttSlot{})) <= bytes {
		bits++
	}
	return newSearcher(bits)
}

// TableBytes is the size of the transposition table.
func (s *Searcher) TableBytes() int64 {
	return int64(len(s.tt.slots)) * int64(unsafe.Sizeof(ttSlot{}))
}

func newSearcher(bits int) *Searcher {
	s := &Searcher{tt: newTable(bits), evalCache: make([]evalSlot, 1<<evalCacheBits)}
	s.init()
	return s
}

func (s *Searcher) init() {
	for i := range s.moves {
		s.moves[i] = make([]engine.Move, 0, 128)
		s.scores[i] = make([]int32, 0, 128)
		s.quiets[i] = make([]engine.Move, 0, 64)
	}
}

// Search picks a move for the side to move of pos (which it does not
// modify) under cfg, drawing randomness from rng (nil: none).
func (s *Searcher) Search(ctx context.Context, pos *engine.Position, cfg Config, rng *rand.Rand) (engine.Move, Info, error) {
	info := Info{Level: cfg.Level}
	root := pos.Clone()
	legal := root.LegalMoves()
	if len(legal) == 0 {
		return engine.Move{}, info, ErrNoMoves
	}
	if cfg.Random {
		return randomMove(root, legal, rng), info, nil
	}
	if len(legal) == 1 {
		info.PV = legal[:1]
		return legal[0], info, nil
	}
	if cfg.Time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.Time)
		defer cancel()
	}
	start := time.Now()
	s.prepare(ctx, root, cfg)
	var helperNodes func() int64
	if n := cfg.Threads; n > 1 && cfg.Noise == 0 {
		helperNodes = s.startHelpers(ctx, root, cfg, n-1)
	}

	// Noise is drawn once per root move, before searching, so it only
	// depends on rng and the move list.
	noise := make([]int32, len(legal))
	if cfg.Noise > 0 && rng != nil {
		for i := range noise {
			noise[i] = int32(rng.IntN(2*cfg.Noise+1) - cfg.Noise)
		}
	}
	rs := newRootMoves(s, legal, noise)

	best := rs.moves[0].m
	depthLimit := maxDepth
	if cfg.Depth > 0 {
		depthLimit = min(cfg.Depth, maxDepth)
	}
	var score int32
	for depth := 1; depth <= depthLimit; depth++ {
		var ok bool
		score, ok = s.aspire(rs, depth, score, cfg.Noise == 0 && depth >= aspirationDepth)
		if rs.bestChanged || ok {
			best = rs.moves[0].m
		}
		if !ok {
			info.Stopped = true
			break
		}
		info.Depth = depth
		info.Score = int(score)
		info.Mate = mateIn(score)
		info.PV = append([]engine.Move(nil), s.pv[0][:s.pvLen[0]]...)
		if cfg.Progress != nil {
			info.Nodes = s.nodes + s.helperNodes()
			cfg.Progress(info)
		}
		// A found mate will not get shorter by searching deeper than
		// twice its length.
		if info.Mate != 0 && depth >= 2*abs(info.Mate)+1 {
			break
		}
		// Don't start an iteration that cannot finish: each one costs a
		// few times the previous one.
		if cfg.Nodes > 0 && s.nodes > cfg.Nodes/2 {
			break
		}
		if cfg.SaveTime && cfg.Time > 0 && time.Since(start) > cfg.Time/2 {
			break
		}
	}
	info.Nodes = s.nodes
	if helperNodes != nil {
		info.Nodes += helperNodes()
	}
	if len(info.PV) == 0 || !info.PV[0].Same(best) {
		info.PV = []engine.Move{best}
	}
	s.ctx, s.pos = nil, nil
	return best, info, nil
}

// Aspiration windows: from aspirationDepth on, an iteration first searches
// a window of ±aspirationWindow around the previous iteration's score,
// widening it on the side that failed (doubling each time).
const (
	aspirationDepth  = 5
	aspirationWindow = 30
)

// aspire runs one iteration, in a narrow window around prev when narrow
// is set (never with root noise, whose per-move offsets need the full
// window, nor around a mate score), re-searching until the score lies
// inside the window.
func (s *Searcher) aspire(rs *rootMoves, depth int, prev int32, narrow bool) (int32, bool) {
	alpha, beta := int32(-infinity), int32(infinity)
	delta := int32(aspirationWindow)
	if narrow && prev > -mateBound && prev < mateBound {
		alpha, beta = prev-delta, prev+delta
	}
	// A move that failed high stays first through the re-searches, so the
	// caller must hear of it even when the last one is cut short.
	changed := false
	for {
		score, ok := s.searchRoot(rs, depth, alpha, beta)
		changed = changed || rs.bestChanged
		rs.bestChanged = changed
		if !ok {
			return score, false
		}
		switch {
		case score <= alpha && alpha > -infinity:
			alpha = max(score-delta, -infinity)
		case score >= beta && beta < infinity:
			beta = min(score+delta, infinity)
		default:
			return score, true
		}
		delta *= 2
		if delta > 500 {
			alpha, beta = -infinity, infinity
		}
	}
}

// prepare resets the per-search state.
func (s *Searcher) prepare(ctx context.Context, root *engine.Position, cfg Config) {
	if s.variant != root.V {
		if !s.shared {
			s.tt.clear()
		}
		clear(s.evalCache)
		clear(s.pawnTable)
		s.variant = root.V
		n := root.Geo().N
		for c := range s.history {
			for k := range s.history[c] {
				s.history[c][k] = make([]int32, n)
				s.counter[c][k] = make([]engine.Move, n)
			}
		}
		s.cells = n
		s.cont = make([]int16, 7*n*7*n)
		for c := range s.corr {
			s.corr[c] = make([]int32, 1<<corrBits)
		}
	}
	for c := range s.history {
		for k := range s.history[c] {
			for i := range s.history[c][k] {
				s.history[c][k][i] /= 8
			}
		}
	}
	for i := range s.cont {
		s.cont[i] /= 8
	}
	if !s.shared {
		s.tt.newSearch()
	}
	s.killers = [maxPly + 1][2]engine.Move{}
	s.lastTo[0], s.lastKey[0] = -1, -1
	s.static[0] = noStatic
	s.ctx, s.cfg, s.pos = ctx, cfg, root
	s.bi = infoFor(root.V)
	net := s.bi.net
	if cfg.NetAlone && s.bi.alone != nil {
		net = s.bi.alone
	}
	if net != s.net {
		clear(s.evalCache)
		s.net = net
	}
	s.nodes = 0
	s.stopped = false
	s.hist = append(append(s.hist[:0], cfg.History...), root.Hash)
}

func mateIn(score int32) int {
	switch {
	case score > mateBound:
		return int(mateScore-score+1) / 2
	case score < -mateBound:
		return -int(mateScore+score+1) / 2
	}
	return 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// randomMove is level 1: a random legal move, a capture three times in four
// when there is one.
func randomMove(p *engine.Position, legal []engine.Move, rng *rand.Rand) engine.Move {
	var caps []engine.Move
	for _, m := range legal {
		if p.IsNoisy(m) {
			caps = append(caps, m)
		}
	}
	if rng == nil {
		if len(caps) > 0 {
			return caps[0]
		}
		return legal[0]
	}
	if len(caps) > 0 && rng.IntN(4) != 0 {
		return caps[rng.IntN(len(caps))]
	}
	return legal[rng.IntN(len(legal))]
}

// GameHistory returns the hashes of a game's positions before its current
// one, oldest first: Config.History for a move in that game.
func GameHistory(g *engine.Game) ([]uint64, error) {
	var pos *engine.Position
	if g.Start == "" {
		pos = g.Variant.StartPosition()
	} else {
		var err error
		if pos, err = g.Variant.ParsePosition(g.Start); err != nil {
			return nil, err
		}
	}
	out := make([]uint64, 0, len(g.Moves))
	for i, s := range g.Moves {
		out = append(out, pos.Hash)
		m, err := pos.ParseCanonical(s)
		if err != nil {
			return nil, fmt.Errorf("move %d (%s): %w", i+1, s, err)
		}
		pos.Make(m)
	}
	return out, nil
}
