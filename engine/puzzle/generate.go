package puzzle

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"topochess/engine"
	"topochess/engine/search"
)

// GenConfig bounds a generation run; with the same values it finds the
// same puzzles (node budgets, no clocks, a seeded generator).
type GenConfig struct {
	// PerVariant is how many puzzles to find (default 6); Games the most
	// engine games to play looking for them (default 30), each at most
	// MaxPlies long (default 160).
	PerVariant, Games, MaxPlies int
	Seed                        uint64
	// Log receives a line per puzzle found (may be nil).
	Log func(string)
}

func (c GenConfig) withDefaults() GenConfig {
	if c.PerVariant <= 0 {
		c.PerVariant = 6
	}
	if c.Games <= 0 {
		c.Games = 30
	}
	if c.MaxPlies <= 0 {
		c.MaxPlies = 160
	}
	if c.Log == nil {
		c.Log = func(string) {}
	}
	return c
}

// Generate plays noisy engine games in a variant and keeps the positions
// where the side to move has a forced mate in 1 or 2 with a single
// solution at every step (checked exhaustively, then again by Check).
func Generate(ctx context.Context, variant string, cfg GenConfig) ([]Puzzle, error) {
	cfg = cfg.withDefaults()
	v, err := engine.GetVariant(variant)
	if err != nil {
		return nil, err
	}
	player, scout := search.NewSearcher(), search.NewSearcher()
	seen := map[uint64]bool{}
	var out []Puzzle
	for game := 0; game < cfg.Games && len(out) < cfg.PerVariant; game++ {
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(game)))
		pos := v.StartPosition()
		for ply := 0; ply < cfg.MaxPlies && len(out) < cfg.PerVariant; ply++ {
			if err := ctx.Err(); err != nil {
				return out, err
			}
			if len(pos.LegalMoves()) == 0 {
				break
			}
			if ply >= 4 && !seen[pos.Hash] {
				seen[pos.Hash] = true
				if pz, ok := candidate(ctx, scout, pos); ok {
					pz.ID = fmt.Sprintf("%s-%d", variant, len(out)+1)
					if err := Check(pz); err != nil {
						return out, fmt.Errorf("generated puzzle fails its check: %w", err)
					}
					out = append(out, pz)
					cfg.Log(fmt.Sprintf("%s: mate in %d (%s) %s", pz.ID, pz.MateIn, strings.Join(pz.Themes, ", "), pz.Position))
					break // one puzzle a game: the next would repeat its idea
				}
			}
			m, _, err := player.Search(ctx, pos, search.Config{Depth: 2, Nodes: 1500, Noise: 150}, rng)
			if err != nil {
				break
			}
			pos.Make(m)
		}
	}
	return out, nil
}

// candidate turns a position into a puzzle when its side to move has a
// unique forced mate in 1 or 2 and, for a mate in 2, a reply after which
// the mate is unique too.
func candidate(ctx context.Context, scout *search.Searcher, pos *engine.Position) (Puzzle, bool) {
	n := 0
	if ms := MatingMoves(pos, 1); len(ms) > 1 {
		return Puzzle{}, false
	} else if len(ms) == 1 {
		n = 1
	} else {
		// The exhaustive mate-in-2 search is costly: only where the
		// engine sees a mate.
		_, info, err := scout.Search(ctx, pos, search.Config{Depth: 3, Nodes: 3000}, nil)
		if err != nil || info.Mate != 2 {
			return Puzzle{}, false
		}
		n = 2
	}
	ms := MatingMoves(pos, n)
	if len(ms) != 1 {
		return Puzzle{}, false
	}
	line := []string{pos.Canonical(ms[0])}
	final := pos.Clone()
	final.Make(ms[0])
	mover := ms[0]
	before := pos
	if n == 2 {
		var replies []string
		for _, r := range final.LegalMoves() {
			after := final.Clone()
			after.Make(r)
			if len(MatingMoves(after, 1)) == 1 {
				replies = append(replies, final.Canonical(r))
			}
		}
		if len(replies) == 0 {
			return Puzzle{}, false
		}
		slices.Sort(replies)
		r, _ := final.ParseCanonical(replies[0])
		final.Make(r)
		before = final.Clone()
		mover = MatingMoves(final, 1)[0]
		line = append(line, replies[0], final.Canonical(mover))
		final.Make(mover)
	}
	pz := Puzzle{Variant: pos.V.ID, Position: pos.String(), Line: line, MateIn: n, Rating: 900 + 400*float64(n)}
	pz.Themes = append([]string{fmt.Sprintf("mate in %d", n)}, themes(before, mover)...)
	return pz, true
}

// themes names what only these boards have about the mating move m
// played in p.
func themes(p *engine.Position, m engine.Move) []string {
	g := p.Geo()
	from, to := g.Name(int(m.From)), g.Name(int(m.To))
	switch p.V.ID {
	case "cube", "cube5":
		if from[0] != to[0] { // cube cells are named face first: 1a1
			return []string{"mate over a cube edge"}
		}
	case "moebius", "moebius-nierse":
		if strings.TrimSuffix(from, "'") == strings.TrimSuffix(to, "'") {
			return []string{"phasing mate"}
		}
	case "toroidal", "cylindrical", "klein":
		if acrossSeam(p, m) {
			return []string{"mate across the seam"}
		}
	}
	return nil
}

// acrossSeam reports whether a move on a rectangular board with glued
// edges crosses a seam: on the shortest way over empty cells, two cells
// in a row lie more than a step apart in files or ranks.
func acrossSeam(p *engine.Position, m engine.Move) bool {
	g := p.Geo()
	k := p.Board[m.From].Kind()
	path := []int{int(m.From), int(m.To)}
	if k == engine.Bishop || k == engine.Rook || k == engine.Queen {
		var best []int
		for _, ray := range g.RayPaths(k, int(m.From)) {
			for i, c := range ray {
				if c == int(m.To) && (best == nil || i+2 < len(best)) {
					best = append([]int{int(m.From)}, ray[:i+1]...)
				}
				if c != int(m.To) && p.Board[c] != 0 {
					break
				}
			}
		}
		if best != nil {
			path = best
		}
	}
	limit := 1
	if k == engine.Knight {
		limit = 2
	}
	for i := 1; i < len(path); i++ {
		f0, r0 := fileRank(g.Name(path[i-1]))
		f1, r1 := fileRank(g.Name(path[i]))
		if abs(f1-f0) > limit || abs(r1-r0) > limit {
			return true
		}
	}
	return false
}

func fileRank(name string) (int, int) {
	i := strings.IndexFunc(name, unicode.IsDigit)
	if i <= 0 {
		return 0, 0
	}
	r, _ := strconv.Atoi(strings.TrimSuffix(name[i:], "'"))
	return int(name[0] - 'a'), r
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Sorted orders puzzles for shipping: by variant, then by rating.
func Sorted(ps []Puzzle) []Puzzle {
	out := slices.Clone(ps)
	sortPuzzles(out)
	return out
}
