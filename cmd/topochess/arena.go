package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"

	"topochess/engine"
	"topochess/engine/search"
)

// arenaSide is one of the two players of a match: a level, its search
// configuration and its running totals.
type arenaSide struct {
	name                string
	budget              string // for an outside engine; else from cfg
	cfg                 search.Config
	wins, draws, losses int
	illegal, crashes    int
	nodes               int64
	searches, depthSum  int
}

// arenaGame is the outcome of one game.
type arenaGame struct {
	aWhite  bool
	result  engine.Result
	reason  string
	plies   int
	loserBy string // "illegal move" or "crash" when a player forfeited
	loserA  bool
	stats   [2]arenaStats // by player: 0 = A, 1 = B
	detail  string
	moves   []string // the game's moves, openings included
}

type arenaStats struct {
	nodes              int64
	searches, depthSum int
	// score is the mover's own view of the position after its search, in
	// centipawns (mates as ±mateCP); scored is false when there is none.
	score  int
	scored bool
}

// mateCP stands for a found mate in the adjudication's scores.
const mateCP = 100_000

// arenaRules are how a match's games start and end beyond the rule book.
type arenaRules struct {
	maxMoves   int
	openings   int    // random plies before the players take over
	adjudicate int    // centipawns; 0: never
	seed       uint64 // for the openings
}

func cmdArena(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("arena", stderr)
	variant := fs.String("variant", "standard", "variant id")
	white := fs.Int("white", 5, "level of player A (White in the first game)")
	black := fs.Int("black", 1, "level of player B (Black in the first game)")
	games := fs.Int("games", 10, "number of games")
	alternate := fs.Bool("alternate", false, "swap colours every game")
	maxMoves := fs.Int("max-moves", 200, "adjudicate a draw after this many moves per side (0: never)")
	nodes := fs.Int64("nodes", 0, "cap every search at this many nodes and drop the clock (0: the level's own budget)")
	movetime := fs.Duration("movetime", 0, "cap every search at this much time, e.g. 200ms (0: the level's own budget)")
	seed := fs.Uint64("seed", 1, "random seed (games are reproducible with a node budget and no time cap)")
	jobs := fs.Int("jobs", 1, "games played at once")
	verbose := fs.Bool("v", false, "print one line per game")
	openings := fs.Int("openings", 0, "start every pair of games with this many random plies (the same for both colours)")
	adjudicate := fs.Int("adjudicate", 0, "end a game as won once both players' scores have agreed on at least this many centipawns for two moves each (0: never)")
	threads := fs.Int("threads", 1, "search threads of player A (levels without noise: 1 and 5; docs/ai.md, Threads)")
	hash := fs.Int("hash", 0, "transposition table of each level player, in MB (0: the bot's own, 8 MB)")
	record := fs.String("record", "", "append every finished game to this file as a JSON line (variant, result, moves), e.g. for tune")
	var ue uciEngineFlags
	ue.register(fs)
	if err := fs.Parse(args); err != nil {
		return parseError(fs, stdout, stderr, err)
	}
	if fs.NArg() > 0 {
		return flagError(stderr, "arena", fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	v, err := engine.GetVariant(*variant)
	if err != nil {
		return flagError(stderr, "arena", fmt.Errorf("%v (known: %s)", err, strings.Join(engine.Variants(), ", ")))
	}
	if *games < 1 || *games > 100000 {
		return flagError(stderr, "arena", errors.New("--games must be between 1 and 100000"))
	}
	if *jobs < 1 || *jobs > 64 {
		return flagError(stderr, "arena", errors.New("--jobs must be between 1 and 64"))
	}
	if *threads < 1 || *threads > 64 {
		return flagError(stderr, "arena", errors.New("--threads must be between 1 and 64"))
	}
	if *hash < 0 || *hash > 4096 {
		return flagError(stderr, "arena", errors.New("--hash must be between 0 and 4096 (MB)"))
	}
	if *maxMoves < 0 || *nodes < 0 || *movetime < 0 || *openings < 0 || *adjudicate < 0 {
		return flagError(stderr, "arena", errors.New("--max-moves, --nodes, --movetime, --openings and --adjudicate cannot be negative"))
	}
	rules := arenaRules{maxMoves: *maxMoves, openings: *openings, adjudicate: *adjudicate, seed: *seed}
	var sides [2]*arenaSide
	levels := []int{*white, *black}
	if ue.cmd != "" {
		levels = levels[:1]
		*alternate = true
	}
	for i, lv := range levels {
		cfg, err := search.Level(lv)
		if err != nil {
			return flagError(stderr, "arena", err)
		}
		// A node cap replaces the clock, so that a match is reproducible
		// whatever else the machine is doing.
		if *nodes > 0 {
			cfg.Nodes = min(cmp.Or(cfg.Nodes, *nodes), *nodes)
			cfg.Time = 0
		}
		if *movetime > 0 {
			cfg.Time = min(cmp.Or(cfg.Time, *movetime), *movetime)
		}
		name := fmt.Sprintf("level %d", lv)
		if i == 0 && *threads > 1 {
			cfg.Threads = *threads
			name += fmt.Sprintf(" (%d threads)", *threads)
		}
		sides[i] = &arenaSide{name: name, cfg: cfg}
	}
	if ue.cmd != "" {
		side, err := ue.check(v, sides[0].cfg, *movetime)
		if err != nil {
			return flagError(stderr, "arena", err)
		}
		sides[1] = side
	} else if *white == *black {
		sides[0].name += " (A)"
		sides[1].name += " (B)"
	}
	newPlayers := func() [2]arenaPlayer {
		var ps [2]arenaPlayer
		for i, s := range sides {
			if i == 1 && ue.cmd != "" {
				ps[i] = &uciPlayer{flags: &ue, v: v}
			} else {
				ps[i] = &levelPlayer{cfg: s.cfg, seed: *seed, index: uint64(i), hashMB: *hash}
			}
		}
		return ps
	}

	var rec *gameRecorder
	if *record != "" {
		r, err := newGameRecorder(*record, v.ID, *openings)
		if err != nil {
			return flagError(stderr, "arena", err)
		}
		defer r.close()
		rec = r
	}
	results := make([]arenaGame, *games)
	var wg sync.WaitGroup
	next := make(chan int)
	var mu sync.Mutex
	for w := 0; w < *jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			players := newPlayers()
			defer func() {
				for _, p := range players {
					p.close()
				}
			}()
			for i := range next {
				aWhite := !*alternate || i%2 == 0
				results[i] = playArenaGame(v, sides, players, aWhite, rules, uint64(i))
				mu.Lock()
				if *verbose {
					fmt.Fprintf(stdout, "game %d: %s\n", i+1, results[i].detail)
				}
				if rec != nil {
					if err := rec.write(results[i]); err != nil {
						fmt.Fprintf(stderr, "arena: recording game %d: %v\n", i+1, err)
					}
				}
				mu.Unlock()
			}
		}()
	}
	for i := range results {
		next <- i
	}
	close(next)
	wg.Wait()

	reasons := map[string]int{}
	for _, g := range results {
		reasons[g.reason]++
		a, b := sides[0], sides[1]
		for i, st := range g.stats {
			sides[i].nodes += st.nodes
			sides[i].searches += st.searches
			sides[i].depthSum += st.depthSum
		}
		if g.loserBy != "" {
			loser := b
			if g.loserA {
				loser = a
			}
			if g.loserBy == "illegal move" {
				loser.illegal++
			} else {
				loser.crashes++
			}
		}
		switch {
		case g.result == engine.Draw:
			a.draws++
			b.draws++
		case (g.result == engine.WhiteWins) == g.aWhite:
			a.wins++
			b.losses++
		default:
			b.wins++
			a.losses++
		}
	}
	printArena(stdout, v, sides, *games, *alternate, rules, reasons)
	return 0
}

func printArena(w io.Writer, v *engine.Variant, sides [2]*arenaSide, games int, alternate bool, rules arenaRules, reasons map[string]int) {
	colours := "player A White every game"
	if alternate {
		colours = "colours alternate"
	}
	extra := ""
	if rules.openings > 0 {
		extra += fmt.Sprintf(", %d random opening plies a pair of games", rules.openings)
	}
	if rules.adjudicate > 0 {
		extra += fmt.Sprintf(", adjudicated at %d cp", rules.adjudicate)
	}
	fmt.Fprintf(w, "%s: %s vs %s, %d games, %s, draw after %d moves each%s\n", v.ID, sides[0].name, sides[1].name, games, colours, rules.maxMoves, extra)
	for _, s := range sides {
		fmt.Fprintf(w, "  %s budget: %s\n", s.name, cmp.Or(s.budget, budgetString(s.cfg)))
	}
	fmt.Fprintf(w, "%-16s %5s %5s %6s %8s %8s %8s %10s %6s\n", "player", "wins", "draws", "losses", "score", "illegal", "crashes", "nodes/move", "depth")
	for _, s := range sides {
		score := 100 * (float64(s.wins) + 0.5*float64(s.draws)) / float64(games)
		npm, depth := "-", "-"
		if s.nodes > 0 {
			npm = fmt.Sprint(s.nodes / int64(s.searches))
			depth = fmt.Sprintf("%.1f", float64(s.depthSum)/float64(s.searches))
		}
		fmt.Fprintf(w, "%-16s %5d %5d %6d %7.1f%% %8d %8d %10s %6s\n", s.name, s.wins, s.draws, s.losses, score, s.illegal, s.crashes, npm, depth)
	}
	var keys []string
	for k := range reasons {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, reasons[k]))
	}
	fmt.Fprintf(w, "endings: %s\n", strings.Join(parts, ", "))
	a := sides[0]
	fmt.Fprintf(w, "result: %s against %s: +%d =%d -%d, %s\n", a.name, sides[1].name, a.wins, a.draws, a.losses, eloString(a.wins, a.draws, a.losses))
}

func budgetString(c search.Config) string {
	if c.Random {
		return "random move, captures preferred"
	}
	var parts []string
	if c.Nodes > 0 {
		parts = append(parts, fmt.Sprintf("%d nodes", c.Nodes))
	}
	if c.Time > 0 {
		parts = append(parts, c.Time.String())
	}
	if c.Depth > 0 {
		parts = append(parts, fmt.Sprintf("depth %d", c.Depth))
	}
	if c.Noise > 0 {
		parts = append(parts, fmt.Sprintf("noise ±%d cp", c.Noise))
	}
	return strings.Join(parts, ", ")
}

// playArenaGame plays one game through engine.Game, so that every
// automatic ending of the rule book applies, checking each move against
// the legal moves before playing it.
func playArenaGame(v *engine.Variant, sides [2]*arenaSide, players [2]arenaPlayer, aWhite bool, rules arenaRules, game uint64) (out arenaGame) {
	maxMoves := rules.maxMoves
	out.aWhite = aWhite
	g, err := engine.NewGame(v, "")
	if err != nil {
		out.result, out.reason, out.detail = engine.Draw, "setup error", err.Error()
		return out
	}
	playOpening(g, rules.openings, rules.seed, game/2)
	history, err := search.GameHistory(g)
	if err != nil {
		out.result, out.reason, out.detail = engine.Draw, "setup error", err.Error()
		return out
	}
	history = append(history, g.Position().Hash)
	var adj adjudicator
	forfeit := func(player int, why string) {
		out.loserBy, out.loserA = why, player == 0
		loserColour := engine.White
		if (player == 0) != aWhite {
			loserColour = engine.Black
		}
		g.Resign(loserColour)
		out.reason = why
	}
	for i, p := range players {
		if err := p.newGame(game); err != nil {
			out.detail = fmt.Sprintf("%s could not start game %d: %v", sides[i].name, game+1, err)
			forfeit(i, "crash")
			break
		}
	}
	for !g.Over() {
		pos := g.Position()
		if maxMoves > 0 && len(g.Moves) >= 2*maxMoves {
			g.End(engine.Draw, "move limit")
			break
		}
		mover := pos.Side // pos is the game's own position, changed by Play
		player := 0
		if (mover == engine.White) != aWhite {
			player = 1
		}
		m, st, err := players[player].move(g, history[:len(history)-1])
		var bad *arenaIllegal
		if errors.As(err, &bad) {
			out.detail = fmt.Sprintf("%s played %s after %s", sides[player].name, bad.msg, arenaMoves(g))
			forfeit(player, "illegal move")
			break
		}
		if err != nil {
			out.detail = fmt.Sprintf("%s crashed after %s: %v", sides[player].name, arenaMoves(g), err)
			forfeit(player, "crash")
			break
		}
		out.stats[player].nodes += st.nodes
		out.stats[player].searches += st.searches
		out.stats[player].depthSum += st.depthSum
		legal := false
		for _, l := range pos.LegalMoves() {
			if l.Same(m) {
				legal = true
				break
			}
		}
		if !legal {
			out.detail = fmt.Sprintf("%s played the illegal move %d→%d after %s", sides[player].name, m.From, m.To, arenaMoves(g))
			forfeit(player, "illegal move")
			break
		}
		if err := g.Play(m); err != nil {
			out.detail = fmt.Sprintf("%s: %v", sides[player].name, err)
			forfeit(player, "illegal move")
			break
		}
		history = append(history, g.Position().Hash)
		if w, ok := adj.note(st, mover, rules.adjudicate); ok && !g.Over() {
			r := engine.WhiteWins
			if w == engine.Black {
				r = engine.BlackWins
			}
			g.End(r, "adjudicated")
		}
	}
	out.result = g.Result
	if out.reason == "" {
		out.reason = string(g.Reason)
	}
	out.plies = len(g.Moves)
	out.moves = append([]string(nil), g.Moves...)
	if out.detail == "" {
		white, black := sides[0].name, sides[1].name
		if !aWhite {
			white, black = black, white
		}
		out.detail = fmt.Sprintf("%s (White) vs %s (Black): %s by %s after %d moves", white, black, g.Result, out.reason, (out.plies+1)/2)
	}
	return out
}

// safeSearch turns a panic inside the search into an error, so that one
// crash is counted instead of ending the match.
func safeSearch(ctx context.Context, s *search.Searcher, pos *engine.Position, cfg search.Config, rng *rand.Rand) (m engine.Move, info search.Info, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return s.Search(ctx, pos, cfg, rng)
}

// arenaPlayer is one side of a match: a playing level searched in this
// process, or an outside UCI engine (uci_arena.go).
type arenaPlayer interface {
	// newGame prepares game number game (from 0) of the match.
	newGame(game uint64) error
	// move answers the game's current position; history holds the hashes
	// of the positions before it. An *arenaIllegal error forfeits by an
	// illegal move, any other error as a crash.
	move(g *engine.Game, history []uint64) (engine.Move, arenaStats, error)
	close()
}

// arenaIllegal is an answer that is not a legal move.
type arenaIllegal struct{ msg string }

func (e *arenaIllegal) Error() string { return e.msg }

// levelPlayer is a topochess level with a fresh table and a random source
// derived from the seed every game, so that games are reproducible.
type levelPlayer struct {
	cfg         search.Config
	seed, index uint64
	hashMB      int // the table's size (0: NewSearcher's)
	searcher    *search.Searcher
	rng         *rand.Rand
}

func (p *levelPlayer) newGame(game uint64) error {
	p.searcher = search.NewSearcher()
	if p.hashMB > 0 {
		p.searcher = search.NewSearcherMB(p.hashMB)
	}
	p.rng = rand.New(rand.NewPCG(p.seed, game*2+p.index))
	return nil
}

func (p *levelPlayer) move(g *engine.Game, history []uint64) (engine.Move, arenaStats, error) {
	cfg := p.cfg
	cfg.History = history
	m, info, err := safeSearch(context.Background(), p.searcher, g.Position(), cfg, p.rng)
	st := arenaStats{nodes: info.Nodes, searches: 1, depthSum: info.Depth, score: info.Score, scored: !cfg.Random}
	if info.Mate != 0 {
		st.score = mateCP
		if info.Mate < 0 {
			st.score = -mateCP
		}
	}
	return m, st, err
}

// playOpening plays plies random legal moves, drawn from the seed and the
// pair of games, so that the two games of a pair (colours swapped) start
// alike and the pairs differ. A move that would end the game is avoided
// when there is another.
func playOpening(g *engine.Game, plies int, seed, pair uint64) {
	rng := rand.New(rand.NewPCG(seed^0x6f70656e696e6773, pair))
	for range plies {
		legal := g.Position().LegalMoves()
		rng.Shuffle(len(legal), func(i, j int) { legal[i], legal[j] = legal[j], legal[i] })
		for i, m := range legal {
			q := g.Position().Clone()
			q.Make(m)
			if i == len(legal)-1 || len(q.LegalMoves()) > 0 {
				if g.Play(m) != nil {
					return
				}
				break
			}
		}
		if g.Over() || len(legal) == 0 {
			return
		}
	}
}

// adjudicator ends a game once both players have seen the same side ahead
// by the margin for two moves each (four plies in a row), which saves the
// time of playing out a decided game.
type adjudicator struct {
	leader engine.Color
	streak int
}

// note takes the mover's score after its move and reports the winner once
// the game is decided.
func (a *adjudicator) note(st arenaStats, mover engine.Color, margin int) (engine.Color, bool) {
	if margin <= 0 || !st.scored || abs(st.score) < margin {
		a.streak = 0
		return 0, false
	}
	leader := mover
	if st.score < 0 {
		leader = mover.Other()
	}
	if a.streak > 0 && leader != a.leader {
		a.streak = 0
	}
	a.leader = leader
	a.streak++
	return leader, a.streak >= 4
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func (p *levelPlayer) close() {}

// arenaMoves writes the game so far for a forfeit's explanation.
func arenaMoves(g *engine.Game) string {
	if len(g.Moves) == 0 {
		return "the start"
	}
	return strings.Join(g.Moves, " ")
}
