package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"math"
	"strings"
	"time"

	"topochess/engine"
	"topochess/engine/search"
)

// uciEngineFlags are arena's flags for a match against an outside engine.
type uciEngineFlags struct {
	cmd      string
	options  [][2]string
	movetime time.Duration
	nodes    int64
	depth    int
	goArgs   string
	timeout  time.Duration
}

func (u *uciEngineFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&u.cmd, "uci", "", `play level --white against this UCI engine, e.g. stockfish or "topochess uci" (colours alternate)`)
	fs.Func("uci-option", "NAME=VALUE set on the UCI engine before every game (repeatable)", func(s string) error {
		name, value, ok := strings.Cut(s, "=")
		if !ok || strings.TrimSpace(name) == "" || strings.ContainsAny(s, "\n\r") {
			return fmt.Errorf("--uci-option wants NAME=VALUE, not %q", s)
		}
		u.options = append(u.options, [2]string{strings.TrimSpace(name), strings.TrimSpace(value)})
		return nil
	})
	fs.DurationVar(&u.movetime, "uci-movetime", 0, "the UCI engine's time a move (default: --movetime, else the level's own time, else 1s)")
	fs.Int64Var(&u.nodes, "uci-nodes", 0, "the UCI engine searches this many nodes a move instead of a time")
	fs.IntVar(&u.depth, "uci-depth", 0, "the UCI engine searches to this depth instead of a time")
}

// check settles the engine's limits, starts it once to see that it works
// and plays the variant, and returns its side of the table.
func (u *uciEngineFlags) check(v *engine.Variant, level search.Config, movetime time.Duration) (*arenaSide, error) {
	if u.movetime < 0 || u.nodes < 0 || u.depth < 0 {
		return nil, errors.New("--uci-movetime, --uci-nodes and --uci-depth cannot be negative")
	}
	var budget string
	switch {
	case u.nodes > 0 || u.depth > 0:
		var parts, shown []string
		if u.nodes > 0 {
			parts = append(parts, fmt.Sprintf("nodes %d", u.nodes))
			shown = append(shown, fmt.Sprintf("%d nodes", u.nodes))
		}
		if u.depth > 0 {
			parts = append(parts, fmt.Sprintf("depth %d", u.depth))
			shown = append(shown, fmt.Sprintf("depth %d", u.depth))
		}
		u.goArgs, budget = strings.Join(parts, " "), strings.Join(shown, ", ")
		u.timeout = 5 * time.Minute
	default:
		t := cmp.Or(u.movetime, movetime, level.Time, time.Second)
		u.goArgs, budget = fmt.Sprintf("movetime %d", t.Milliseconds()), t.String()+" a move"
		// A generous allowance for a loaded machine; beyond it the engine
		// is taken to have hung and loses the game.
		u.timeout = 3*t + 10*time.Second
	}
	c, err := startUCIClient(u.cmd)
	if err != nil {
		return nil, err
	}
	defer c.close()
	if err := c.newGame(v, u.options); err != nil {
		return nil, err
	}
	for _, o := range u.options {
		budget += fmt.Sprintf(", %s=%s", o[0], o[1])
	}
	return &arenaSide{name: c.name, budget: "uci " + budget}, nil
}

// uciPlayer is an outside engine; a new process replaces one that crashed
// or hung.
type uciPlayer struct {
	flags  *uciEngineFlags
	v      *engine.Variant
	client *uciClient
}

func (p *uciPlayer) newGame(uint64) error {
	if p.client == nil {
		c, err := startUCIClient(p.flags.cmd)
		if err != nil {
			return err
		}
		p.client = c
	}
	if err := p.client.newGame(p.v, p.flags.options); err != nil {
		p.close()
		return err
	}
	return nil
}

func (p *uciPlayer) move(g *engine.Game, _ []uint64) (engine.Move, arenaStats, error) {
	if p.client == nil {
		return engine.Move{}, arenaStats{}, errors.New("the engine is not running")
	}
	text, depth, nodes, score, err := p.client.bestMove(p.v.StartPosition(), g.Moves, p.flags.goArgs, p.flags.timeout)
	if err != nil {
		p.close()
		return engine.Move{}, arenaStats{}, err
	}
	st := arenaStats{nodes: nodes, searches: 1, depthSum: depth}
	if score != nil {
		st.score, st.scored = *score, true
	}
	m, err := parseUCIMove(g.Position(), text)
	if err != nil {
		return engine.Move{}, st, &arenaIllegal{msg: fmt.Sprintf("the illegal move %q (%v)", text, err)}
	}
	return m, st, nil
}

func (p *uciPlayer) close() {
	if p.client != nil {
		p.client.close()
		p.client = nil
	}
}

// eloString estimates the Elo difference from a match score, with a 95 %
// interval from the spread of the game results (normal approximation: a
// guide for tens of games and more, not for a handful).
func eloString(w, d, l int) string {
	n := float64(w + d + l)
	if n == 0 {
		return "no games"
	}
	s := (float64(w) + 0.5*float64(d)) / n
	variance := (float64(w)*(1-s)*(1-s) + float64(d)*(0.5-s)*(0.5-s) + float64(l)*s*s) / n
	se := math.Sqrt(variance / n)
	lo, hi := eloFromScore(s-1.96*se), eloFromScore(s+1.96*se)
	return fmt.Sprintf("score %.1f%%, Elo difference %s (95%% interval %s to %s, %d games)", 100*s, eloText(eloFromScore(s)), eloText(lo), eloText(hi), w+d+l)
}

// eloFromScore is the rating difference expected to score s (0..1).
func eloFromScore(s float64) float64 {
	switch {
	case s <= 0:
		return math.Inf(-1)
	case s >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/s-1)
}

func eloText(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return fmt.Sprintf("%+.0f", math.Round(x)+0) // +0 turns -0 into 0
}
