package puzzle

import (
	"context"
	"slices"
	"testing"

	"topochess/engine"
)

// solutions is an independent count of the forced mates: written over
// canonical move strings rather than MatingMoves' engine moves, it lists
// the moves of the side to move after which every reply leaves a mate in
// n-1 (n = 1: the move mates).
func solutions(v *engine.Variant, pos string, n int) []string {
	p, err := v.ParsePosition(pos)
	if err != nil {
		return nil
	}
	var out []string
	for _, mv := range p.CanonicalMoves() {
		q := p.Clone()
		m, _ := q.ParseCanonical(mv)
		q.Make(m)
		replies := q.CanonicalMoves()
		if len(replies) == 0 {
			if q.InCheck() {
				out = append(out, mv)
			}
			continue
		}
		if n == 1 {
			continue
		}
		all := true
		for _, rv := range replies {
			r := q.Clone()
			rm, _ := r.ParseCanonical(rv)
			r.Make(rm)
			if len(solutions(v, r.String(), n-1)) == 0 {
				all = false
				break
			}
		}
		if all {
			out = append(out, mv)
		}
	}
	return out
}

// TestStockUniqueEverywhere checks every shipped puzzle of every variant
// with the independent count: one mating move at each of the solver's
// steps, none sooner, and the line ends in mate.
func TestStockUniqueEverywhere(t *testing.T) {
	for _, id := range engine.Variants() {
		ps, err := Stock(id)
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) < 3 {
			t.Errorf("%s: only %d puzzles shipped", id, len(ps))
		}
		v := engine.MustVariant(id)
		for i, pz := range ps {
			if (raceOn || testing.Short()) && (i > 0 || pz.MateIn > 1 && (id == "cube" || id == "cube5")) {
				continue
			}
			p, err := v.ParsePosition(pz.Position)
			if err != nil {
				t.Fatalf("%s: %v", pz.ID, err)
			}
			if pz.MateIn > 1 && len(solutions(v, pz.Position, pz.MateIn-1)) != 0 {
				t.Errorf("%s: a shorter mate exists", pz.ID)
			}
			for i, mv := range pz.Line {
				if i%2 == 0 {
					sol := solutions(v, p.String(), pz.MateIn-i/2)
					if !slices.Equal(sol, []string{mv}) {
						t.Errorf("%s step %d: solutions %v, line says %s", pz.ID, i/2+1, sol, mv)
					}
				}
				m, err := p.ParseCanonical(mv)
				if err != nil {
					t.Fatalf("%s: %s: %v", pz.ID, mv, err)
				}
				p.Make(m)
			}
			if !p.InCheck() || len(p.LegalMoves()) != 0 {
				t.Errorf("%s: the line does not mate", pz.ID)
			}
			if err := Check(pz); err != nil {
				t.Errorf("Check: %v", err)
			}
			if got, ok := Find(pz.ID); !ok || got.Position != pz.Position {
				t.Errorf("Find(%s)", pz.ID)
			}
		}
	}
}

// TestGenerateSmall runs the generator on a small budget: what it finds
// passes Check, and a second run finds the same.
func TestGenerateSmall(t *testing.T) {
	cfg := GenConfig{PerVariant: 2, Games: 6, MaxPlies: 120, Seed: 3}
	a, err := Generate(context.Background(), "standard", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) == 0 {
		t.Fatal("no puzzle found")
	}
	for _, pz := range a {
		if err := Check(pz); err != nil {
			t.Error(err)
		}
	}
	b, _ := Generate(context.Background(), "standard", cfg)
	if len(a) != len(b) || a[0].Position != b[0].Position {
		t.Errorf("two runs differ: %v / %v", a, b)
	}
}

func TestCheckRefusesAWrongLine(t *testing.T) {
	ps, _ := Stock("standard")
	pz := ps[0]
	pz.Line = slices.Clone(pz.Line)
	pz.Line[0] = "a2-a3"
	if Check(pz) == nil {
		t.Error("a wrong first move passed the check")
	}
}
