package search

import (
	"math/rand/v2"
	"testing"

	"topochess/engine"
)

func BenchmarkEvaluate(b *testing.B) {
	v, _ := engine.GetVariant("standard")
	bi := infoFor(v)
	ps := randomPositions(v, rand.New(rand.NewPCG(1, 2)), 200, 40)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		evaluate(ps[i%len(ps)], bi)
	}
}
