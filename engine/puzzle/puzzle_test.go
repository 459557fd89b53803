package puzzle

import (
	"context"
	"slices"
	"testing"

	"topochess/engine"
)

// TestGenerateSmall runs the generator on a small budget, looking only
// for a mate in 1 (the stock it starts from has the other kinds): what it
// finds passes Check, is numbered after the stock, and a second run finds
// the same.
func TestGenerateSmall(t *testing.T) {
	have := []Puzzle{
		{ID: "standard-7", MateIn: 2}, {ID: "standard-2", MateIn: 3}, {ID: "standard-3", WinIn: 1},
	}
	cfg := GenConfig{PerKind: 1, Games: 40, MaxPlies: 120, Seed: 5, Have: have}
	a, err := Generate(context.Background(), "standard", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 1 || a[0].MateIn != 1 || a[0].ID != "standard-8" {
		t.Fatalf("found %+v, want one mate in 1 numbered standard-8", a)
	}
	if err := Check(a[0]); err != nil {
		t.Error(err)
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

// TestStockThemes: the themes and kinds shipped are what the detectors
// say of each line (a stock made before a detector changed fails here).
func TestStockThemes(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, pz := range all {
		if got := Themes(pz); !slices.Equal(got, pz.Themes) {
			t.Errorf("%s: themes %v, the detectors say %v", pz.ID, pz.Themes, got)
		}
	}
}

// lacking are the kinds a variant's stock has none of, with the reason
// (docs/puzzles.md says the same).
var lacking = map[string]string{}

// TestStockKinds: every variant has a puzzle of every kind, but for the
// gaps listed in lacking.
func TestStockKinds(t *testing.T) {
	for _, id := range engine.Variants() {
		ps, err := Stock(id)
		if err != nil {
			t.Fatal(err)
		}
		n := map[string]int{}
		for _, pz := range ps {
			n[Kind(pz)]++
		}
		for _, k := range Kinds {
			_, gap := lacking[id+": "+k]
			if (n[k] == 0) != gap {
				t.Errorf("%s has %d puzzles of %s; listed as lacking: %v", id, n[k], k, gap)
			}
		}
	}
}
