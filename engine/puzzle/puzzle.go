// Package puzzle holds the puzzles shipped with topochess: forced mates
// found in engine games, each checked by exhaustive search to have one
// solution at every step of the solver's side. Generate makes them (the
// `topochess puzzles` command); Stock reads the shipped ones.
package puzzle

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"topochess/engine"
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
	// MateIn is the number of the solver's moves, the last one mating.
	MateIn int `json:"mate_in"`
	// Themes name what the solution shows ("mate in 2", "mate over a cube
	// edge").
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

// isMate reports whether the side to move is checkmated.
func isMate(p *engine.Position) bool {
	return p.InCheck() && len(p.LegalMoves()) == 0
}

// MatingMoves returns every move of the side to move that mates in at
// most n of its moves whatever the opponent replies, found by trying
// every move and every reply (no pruning, no evaluation).
func MatingMoves(p *engine.Position, n int) []engine.Move {
	var out []engine.Move
	for _, m := range p.LegalMoves() {
		if forcesMate(p, m, n) {
			out = append(out, m)
		}
	}
	return out
}

// forcesMate reports whether m mates at once or, with n > 1, leaves the
// opponent only replies after which a mate in n-1 follows.
func forcesMate(p *engine.Position, m engine.Move, n int) bool {
	q := p.Clone()
	q.Make(m)
	replies := q.LegalMoves()
	if len(replies) == 0 {
		return q.InCheck()
	}
	if n <= 1 {
		return false
	}
	for _, r := range replies {
		s := q.Clone()
		s.Make(r)
		if len(MatingMoves(s, n-1)) == 0 {
			return false
		}
	}
	return true
}

// Check verifies a puzzle from scratch: its position reads, the solver
// has exactly one move that mates within the moves left at each of its
// steps (and none mating sooner at the first), the replies are legal, and
// the line ends in mate.
func Check(pz Puzzle) error {
	v, err := engine.GetVariant(pz.Variant)
	if err != nil {
		return err
	}
	pos, err := v.ParsePosition(pz.Position)
	if err != nil {
		return fmt.Errorf("%s: position: %w", pz.ID, err)
	}
	if len(pz.Line) != 2*pz.MateIn-1 {
		return fmt.Errorf("%s: a mate in %d needs %d moves in its line, not %d", pz.ID, pz.MateIn, 2*pz.MateIn-1, len(pz.Line))
	}
	if pz.MateIn > 1 && len(MatingMoves(pos, pz.MateIn-1)) > 0 {
		return fmt.Errorf("%s: there is a shorter mate", pz.ID)
	}
	for i, mv := range pz.Line {
		if i%2 == 0 {
			left := pz.MateIn - i/2
			ms := MatingMoves(pos, left)
			if len(ms) != 1 {
				return fmt.Errorf("%s: step %d has %d mating moves, want exactly 1", pz.ID, i/2+1, len(ms))
			}
			if got := pos.Canonical(ms[0]); got != mv {
				return fmt.Errorf("%s: step %d mates with %s, the line says %s", pz.ID, i/2+1, got, mv)
			}
		}
		m, err := pos.ParseCanonical(mv)
		if err != nil {
			return fmt.Errorf("%s: move %d (%s): %w", pz.ID, i+1, mv, err)
		}
		pos.Make(m)
	}
	if !isMate(pos) {
		return fmt.Errorf("%s: the line does not end in mate", pz.ID)
	}
	return nil
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
