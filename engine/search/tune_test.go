package search

import (
	"io/fs"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"topochess/engine"
)

// The tuner's linear model of a position must be the evaluation itself:
// with random weights, the weighted sum of a position's features equals
// evaluate up to the rounding of its integer divisions.
func TestFeaturesMatchEvaluate(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, id := range engine.Variants() {
		v, _ := engine.GetVariant(id)
		base := infoFor(v)
		bi := *base
		bi.w = make([]int32, weightCount(bi.n))
		for i := range bi.w {
			bi.w[i] = int32(rng.IntN(201) - 100)
		}
		wf := toFloat(bi.w)
		checked := 0
		for _, p := range randomPositions(v, rng, 80, 60) {
			var idx []int
			var val []float32
			ph, fixed := features(p, &bi, func(i int, x float32) {
				idx = append(idx, i)
				val = append(val, x)
			})
			e := float64(fixed)
			for j, i := range idx {
				e += float64(val[j]) * (wf[i]*float64(ph) + wf[i+1]*(1-float64(ph)))
			}
			got := float64(evaluate(p, &bi))
			if p.Side == engine.Black {
				got = -got
			}
			if math.Abs(got-e) > 6 {
				t.Fatalf("%s: evaluate %v, features give %.1f on %s", id, got, e, p.String())
			}
			checked++
		}
		if checked < 50 {
			t.Fatalf("%s: only %d positions", id, checked)
		}
	}
}

// Every shipped weight file loads for its variant.
func TestWeightFiles(t *testing.T) {
	names, err := fs.Glob(weightFiles, "weights/*.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		id := strings.TrimSuffix(strings.TrimPrefix(name, "weights/"), ".json")
		v, err := engine.GetVariant(id)
		if err != nil {
			t.Fatalf("%s: no such variant", name)
		}
		data, _ := weightFiles.ReadFile(name)
		if _, err := parseWeights(data, v); err != nil {
			t.Fatal(err)
		}
	}
}

// Fitting on games whose results follow a known rule moves the weights
// that way: positions where White has an extra knight are won by White, so
// the knight's value goes up from a deliberately low start.
func TestFitLearns(t *testing.T) {
	v, _ := engine.GetVariant("standard")
	d := NewDataset(v)
	rng := rand.New(rand.NewPCG(7, 8))
	for _, p := range randomPositions(v, rng, 2000, 30) {
		var knights [2]int
		for _, pc := range p.Board {
			if pc.Kind() == engine.Knight {
				knights[pc.Color()]++
			}
		}
		r := 0.5
		switch {
		case knights[0] > knights[1]:
			r = 1
		case knights[0] < knights[1]:
			r = 0
		}
		d.Add(p, r)
	}
	if d.Len() < 100 {
		t.Fatalf("only %d quiet samples", d.Len())
	}
	w0 := DefaultWeights(v)
	w0[wMaterial+2*int(engine.Knight)] = 50
	w0[wMaterial+2*int(engine.Knight)+1] = 50
	before := d.Loss(toFloat(w0), 1, nil)
	w := d.Fit(w0, 1, nil, TuneOptions{Iterations: 200, Rate: 5})
	after := d.Loss(toFloat(w), 1, nil)
	if after >= before {
		t.Fatalf("loss went from %.4f to %.4f", before, after)
	}
	if kn := w[wMaterial+2*int(engine.Knight)]; kn <= 50 {
		t.Fatalf("knight's middlegame value %d, want above the start of 50", kn)
	}
}
