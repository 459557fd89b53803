// Package puzzle holds the puzzles shipped with topochess: forced mates in
// 1 to 3 and forced wins of material (material.go says exactly what that
// means), found in engine games, each checked by exhaustive search to have
// one solution at every step of the solver's side. Generate makes them
// (the `topochess puzzles` command); Stock reads the shipped ones.
package puzzle

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Puzzle is one position with its forced solution.
type Puzzle struct {
	ID      string `json:"id"` // variant-N, e.g. "cube-3"
	Variant string `json:"variant"`
	// Position is where the puzzle starts, the solver to move.
	Position string `json:"position"`
	// Line is the solution in canonical notation: the solver's moves at
	// even indexes, the opponent's replies between them.
	Line []string `json:"line"`
	// MateIn is the number of the solver's moves, the last one mating;
	// 0 in a winning-material puzzle.
	MateIn int `json:"mate_in,omitempty"`
	// WinIn is the number of the solver's moves of a winning-material
	// puzzle and Gain the material they win against any defence, in pawns
	// (see Material); both 0 in a mate.
	WinIn int `json:"win_in,omitempty"`
	Gain  int `json:"gain,omitempty"`
	// Themes name what the solution shows ("mate in 2", "mate over a cube
	// edge", "switch fork").
	Themes []string `json:"themes"`
	// Rating is the puzzle's strength on the players' rating scale.
	Rating float64 `json:"rating"`
}

//go:embed stock.json
var stockJSON []byte

var (
	stockOnce sync.Once
	stock     map[string][]Puzzle
	stockErr  error
)

// Stock returns the shipped puzzles of a variant, in a fixed order.
func Stock(variant string) ([]Puzzle, error) {
	stockOnce.Do(func() {
		var all []Puzzle
		if stockErr = json.Unmarshal(stockJSON, &all); stockErr != nil {
			stockErr = fmt.Errorf("puzzle stock: %w", stockErr)
			return
		}
		stock = map[string][]Puzzle{}
		for _, p := range all {
			stock[p.Variant] = append(stock[p.Variant], p)
		}
	})
	return stock[variant], stockErr
}

// All returns every shipped puzzle, by variant then rating.
func All() ([]Puzzle, error) {
	var all []Puzzle
	if err := json.Unmarshal(stockJSON, &all); err != nil {
		return nil, fmt.Errorf("puzzle stock: %w", err)
	}
	return all, nil
}

// Find returns a shipped puzzle by id.
func Find(id string) (Puzzle, bool) {
	variant := id
	if i := strings.LastIndexByte(id, '-'); i > 0 {
		variant = id[:i]
	}
	ps, _ := Stock(variant)
	for _, p := range ps {
		if p.ID == id {
			return p, true
		}
	}
	return Puzzle{}, false
}

// Moves is the number of the solver's moves in the solution.
func (pz Puzzle) Moves() int {
	if pz.MateIn > 0 {
		return pz.MateIn
	}
	return pz.WinIn
}

// Task says what is left to do when the solver plays the line's move at
// index step: "mate in 2", "win material in 1".
func (pz Puzzle) Task(step int) string {
	left := pz.Moves() - step/2
	if pz.MateIn > 0 {
		return fmt.Sprintf("mate in %d", left)
	}
	return fmt.Sprintf("win material in %d", left)
}

// sortPuzzles orders puzzles by variant, then by number.
func sortPuzzles(ps []Puzzle) {
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].Variant != ps[j].Variant {
			return ps[i].Variant < ps[j].Variant
		}
		return ps[i].Rating < ps[j].Rating
	})
}
