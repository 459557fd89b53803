package puzzle

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"topochess/engine"
	"topochess/engine/search"
)

// GenConfig bounds a generation run; with the same values it finds the
// same puzzles (node budgets and a seeded generator, no clocks — a
// deadline on the context only stops it sooner).
type GenConfig struct {
	// PerKind is how many puzzles of each kind to find (default 2): mate
	// in 1, in 2, in 3, winning material (in 1 or 2). Games is the most engine
	// games to play looking for them (default 30), each at most MaxPlies
	// long (default 160).
	PerKind, Games, MaxPlies int
	Seed                     uint64
	// ScoutNodes is the engine's budget for spotting a mate in 2 or 3 or a
	// win of material before the exhaustive search decides (default
	// 20000).
	ScoutNodes int64
	// Have are the variant's puzzles already in the stock: they count
	// toward PerKind, their positions are not taken again and new ids
	// follow theirs.
	Have []Puzzle
	// Theme, when set, is a theme wanted PerKind times more: a puzzle
	// showing it is kept whatever its kind's count.
	Theme string
	// Log receives a line per puzzle found (may be nil).
	Log func(string)
}

func (c GenConfig) withDefaults() GenConfig {
	if c.PerKind <= 0 {
		c.PerKind = 2
	}
	if c.Games <= 0 {
		c.Games = 30
	}
	if c.MaxPlies <= 0 {
		c.MaxPlies = 160
	}
	if c.ScoutNodes <= 0 {
		c.ScoutNodes = 20000
	}
	if c.Log == nil {
		c.Log = func(string) {}
	}
	return c
}

// Budgets of the exhaustive searches for one candidate: one that needs
// more is given up.
const (
	mateNodes     = 3_000_000
	materialNodes = 3_000_000
	// materialIn is the length of the longest winning-material puzzles
	// made.
	materialIn = 2
)

// Kind names a puzzle's kind: "mate in 2", "winning material".
func Kind(pz Puzzle) string {
	if pz.MateIn > 0 {
		return fmt.Sprintf("mate in %d", pz.MateIn)
	}
	return ThemeMaterial
}

// Kinds are the kinds Generate looks for.
var Kinds = []string{"mate in 1", "mate in 2", "mate in 3", ThemeMaterial}

// Generate plays noisy engine games in a variant and keeps the positions
// where the side to move has a forced mate in 1 to 3 or a forced win of
// material in 1 or 2 with a single solution at every step (decided
// exhaustively, then again by Check). It returns the new puzzles only,
// numbered after cfg.Have; with a context error it returns those found.
func Generate(ctx context.Context, variant string, cfg GenConfig) ([]Puzzle, error) {
	cfg = cfg.withDefaults()
	v, err := engine.GetVariant(variant)
	if err != nil {
		return nil, err
	}
	count := map[string]int{}
	seen := map[string]bool{}
	next := 1
	for _, pz := range cfg.Have {
		count[Kind(pz)]++
		seen[pz.Position] = true
		if i := strings.LastIndexByte(pz.ID, '-'); i > 0 {
			if n, err := strconv.Atoi(pz.ID[i+1:]); err == nil && n >= next {
				next = n + 1
			}
		}
	}
	themed := 0
	for _, pz := range cfg.Have {
		if cfg.Theme != "" && slices.Contains(pz.Themes, cfg.Theme) {
			themed++
		}
	}
	themeOpen := func() bool { return cfg.Theme != "" && themed < cfg.PerKind }
	want := func(kind string) bool { return count[kind] < cfg.PerKind || themeOpen() }
	done := func() bool {
		for _, k := range Kinds {
			if want(k) {
				return false
			}
		}
		return true
	}
	player, scout := search.NewSearcher(), search.NewSearcher()
	tried := map[uint64]bool{}
	var out []Puzzle
	// keep: a puzzle of a kind no longer wanted is kept for the theme.
	keep := func(pz Puzzle) bool {
		return count[Kind(pz)] < cfg.PerKind || themeOpen() && slices.Contains(pz.Themes, cfg.Theme)
	}
	add := func(pz Puzzle) error {
		if slices.Contains(pz.Themes, cfg.Theme) {
			themed++
		}
		pz.ID = fmt.Sprintf("%s-%d", variant, next)
		if err := CheckContext(ctx, pz); err != nil {
			if ctx.Err() != nil {
				return err
			}
			return fmt.Errorf("generated puzzle fails its check: %w", err)
		}
		next++
		count[Kind(pz)]++
		out = append(out, pz)
		cfg.Log(fmt.Sprintf("%s: %s (%s) %s", pz.ID, Kind(pz), strings.Join(pz.Themes, ", "), pz.Position))
		return nil
	}
	for game := 0; game < cfg.Games && !done(); game++ {
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(game)))
		pos := v.StartPosition()
		var before []*engine.Position // the game's positions, for its end
		found := false
		for ply := 0; ply < cfg.MaxPlies && !found; ply++ {
			if err := ctx.Err(); err != nil {
				return out, err
			}
			if len(pos.LegalMoves()) == 0 {
				break
			}
			if ply >= 4 && !tried[pos.Hash] && !seen[pos.String()] {
				tried[pos.Hash] = true
				if pz, ok := candidate(ctx, scout, pos, cfg.ScoutNodes, want); ok && keep(pz) {
					if err := add(pz); err != nil {
						return out, err
					}
					found = true // one puzzle a game: the next would repeat its idea
					continue
				}
			}
			before = append(before, pos.Clone())
			m, _, err := player.Search(ctx, pos, search.Config{Depth: 2, Nodes: 1500, Noise: 150}, rng)
			if err != nil {
				break
			}
			pos.Make(m)
		}
		if found || !pos.InCheck() || len(pos.LegalMoves()) > 0 {
			continue
		}
		// The game ended in mate and gave no puzzle: the winner's last
		// turns hold mates the scout may have missed on a large board.
		for back := 5; back >= 1; back -= 2 {
			if i := len(before) - back; i >= 4 && !seen[before[i].String()] {
				if pz, ok := endMate(ctx, before[i], want); ok && keep(pz) {
					if err := add(pz); err != nil {
						return out, err
					}
					break
				}
			}
		}
	}
	return out, nil
}

// endMate makes a mate puzzle of a wanted length from a position where
// the side to move is known to mate soon, deciding exhaustively.
func endMate(ctx context.Context, pos *engine.Position, want func(string) bool) (Puzzle, bool) {
	pos = pos.Clone()
	s := newMater(mateNodes)
	s.ctx = ctx
	n := s.shortest(pos, 3)
	if n == 0 || s.over || !want(fmt.Sprintf("mate in %d", n)) {
		return Puzzle{}, false
	}
	return matePuzzle(s, pos, n)
}

// candidate turns a position into a puzzle of a kind still wanted, when
// it holds one.
func candidate(ctx context.Context, scout *search.Searcher, pos *engine.Position, nodes int64, want func(string) bool) (Puzzle, bool) {
	pos = pos.Clone()
	s := newMater(mateNodes)
	s.ctx = ctx
	if s.has(pos, 1) {
		if !want("mate in 1") {
			return Puzzle{}, false
		}
		return matePuzzle(s, pos, 1)
	}
	if !want("mate in 2") && !want("mate in 3") && !want(ThemeMaterial) {
		return Puzzle{}, false
	}
	// The exhaustive searches are costly: only where the engine sees
	// something.
	_, info, err := scout.Search(ctx, pos, search.Config{Depth: 5, Nodes: nodes}, nil)
	if err != nil {
		return Puzzle{}, false
	}
	switch {
	case info.Mate == 2 || info.Mate == 3:
		n := s.shortest(pos, 3)
		if n < 2 || !want(fmt.Sprintf("mate in %d", n)) {
			return Puzzle{}, false
		}
		return matePuzzle(s, pos, n)
	case info.Mate == 0 && want(ThemeMaterial) && info.Score-100*Balance(pos, pos.Side) >= 200:
		return materialPuzzle(ctx, pos, materialIn)
	}
	return Puzzle{}, false
}

// matePuzzle builds the line of a mate in n with a unique solution at
// every step, the defender playing a longest defence (the first in
// canonical order after which the solver's move is unique again).
func matePuzzle(s *mater, pos *engine.Position, n int) (Puzzle, bool) {
	line, ok := mateLine(s, pos.Clone(), n)
	if !ok || s.over {
		return Puzzle{}, false
	}
	pz := Puzzle{Variant: pos.V.ID, Position: pos.String(), Line: line, MateIn: n, Rating: 900 + 400*float64(n)}
	pz.Themes = Themes(pz)
	return pz, true
}

func mateLine(s *mater, pos *engine.Position, n int) ([]string, bool) {
	ms := s.moves(pos, n)
	if len(ms) != 1 || s.over {
		return nil, false
	}
	return lineAfter(pos, ms[0], n == 1,
		func() bool { return !s.has(pos, n-2) },
		func() ([]string, bool) { return mateLine(s, pos, n-1) })
}

// lineAfter is the line that starts with the solver's move key: key
// alone when it is the last, otherwise key, then the first defence in
// canonical order after which the solver's task still holds, then the
// rest of the line from there (next). Both holds and next are asked with
// key and the defence made on pos.
func lineAfter(pos *engine.Position, key engine.Move, last bool, holds func() bool, next func() ([]string, bool)) ([]string, bool) {
	line := []string{pos.Canonical(key)}
	if last {
		return line, true
	}
	u := pos.Make(key)
	defer pos.Unmake(key, u)
	for _, r := range sortedMoves(pos) {
		ru := pos.Make(r)
		var rest []string
		ok := holds()
		if ok {
			rest, ok = next()
		}
		pos.Unmake(r, ru)
		if ok {
			return append(append(line, pos.Canonical(r)), rest...), true
		}
	}
	return nil, false
}

// sortedMoves lists the legal moves in canonical order, so that lines do
// not depend on the order of generation.
func sortedMoves(p *engine.Position) []engine.Move {
	ms := p.LegalMoves()
	slices.SortFunc(ms, func(a, b engine.Move) int { return strings.Compare(p.Canonical(a), p.Canonical(b)) })
	return ms
}

// materialPuzzle builds a winning-material puzzle of the fewest moves up
// to most, as defined in material.go, when pos holds one.
func materialPuzzle(ctx context.Context, pos *engine.Position, most int) (Puzzle, bool) {
	pos = pos.Clone()
	s := newMaterialist(pos, materialNodes)
	s.ctx = ctx
	gain, n := 0, 0
	for left := 0; left <= most && gain < WinMin && !s.over; left++ {
		gain, n = s.value(pos, left, -MateValue-1, MateValue+1)-s.start, left
	}
	if s.over || n == 0 || gain < WinMin || gain >= MateValue/2 {
		return Puzzle{}, false
	}
	line, ok := materialLine(s, pos, n, gain)
	if !ok || s.over {
		return Puzzle{}, false
	}
	pz := Puzzle{Variant: pos.V.ID, Position: pos.String(), Line: line, WinIn: n, Gain: gain, Rating: 1100 + 400*float64(n)}
	pz.Themes = Themes(pz)
	return pz, true
}

// materialLine finds the solver's only move reaching gain with left moves
// (every other reaching at most OtherMax), then a best defence after which
// the same holds, down to the last move.
func materialLine(s *materialist, pos *engine.Position, left, gain int) ([]string, bool) {
	var key engine.Move
	found := 0
	for _, m := range pos.LegalMoves() {
		u := pos.Make(m)
		// Only whether the gain passes OtherMax matters here.
		over := s.value(pos, left-1, s.start+OtherMax, s.start+OtherMax+1) > s.start+OtherMax
		pos.Unmake(m, u)
		if over {
			key = m
			if found++; found > 1 {
				return nil, false
			}
		}
	}
	if found != 1 || s.gainOf(pos, key, left) != gain {
		return nil, false
	}
	return lineAfter(pos, key, left == 1,
		func() bool { return s.value(pos, left-1, s.start+gain, s.start+gain+1) <= s.start+gain },
		func() ([]string, bool) { return materialLine(s, pos, left-1, gain) })
}

// Sorted orders puzzles for shipping: by variant, then by rating.
func Sorted(ps []Puzzle) []Puzzle {
	out := slices.Clone(ps)
	sortPuzzles(out)
	return out
}
