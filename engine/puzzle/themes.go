package puzzle

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"topochess/engine"
)

// Theme names.
const (
	ThemeMaterial    = "winning material"
	ThemeSwitchFork  = "switch fork"
	ThemeObservation = "observation trap"
)

// Themes names a puzzle's themes, its kind first ("mate in 2", "winning
// material"), then those of lineThemes.
func Themes(pz Puzzle) []string {
	first := ThemeMaterial
	if pz.MateIn > 0 {
		first = fmt.Sprintf("mate in %d", pz.MateIn)
	}
	return append([]string{first}, lineThemes(pz)...)
}

// lineThemes names what only these boards show in a puzzle's solution:
// the mate's own theme (over a cube edge, across the seam, by phasing),
// a switch fork by any of the solver's moves but a mating one, and an
// observation trap at any of the defender's turns.
func lineThemes(pz Puzzle) []string {
	v, err := engine.GetVariant(pz.Variant)
	if err != nil {
		return nil
	}
	pos, err := v.ParsePosition(pz.Position)
	if err != nil {
		return nil
	}
	var out []string
	add := func(ts ...string) {
		for _, t := range ts {
			if !contains(out, t) {
				out = append(out, t)
			}
		}
	}
	for i, mv := range pz.Line {
		m, err := pos.ParseCanonical(mv)
		if err != nil {
			return out
		}
		last := i == len(pz.Line)-1
		before := pos.Clone()
		pos.Make(m)
		if i%2 == 1 {
			continue
		}
		if last && pz.MateIn > 0 {
			add(themes(before, m)...)
		} else if SwitchFork(pos, m) {
			add(ThemeSwitchFork)
		}
	}
	if v.Observation && ObservationTrap(pz) {
		add(ThemeObservation)
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
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
