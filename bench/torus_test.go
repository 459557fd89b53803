package bench

import (
	"testing"

	"topochess/engine"
)

// torusSuite is perft from the start at depth 4 (shared/rules/perft.md)
// for the 8×14 boards, with standard chess at depth 5 (a similar leaf
// count) in the same run, so the rates compare on one machine and load.
var torusSuite = []struct {
	variant string
	depth   int
	nodes   uint64
}{
	{"standard", 5, 4865609},
	{"toroidal", 4, 2891434},
	{"cylindrical", 4, 2799108},
	{"klein", 4, 2930600},
}

// BenchmarkPerftTorus reports nodes/s of each board; the 8×14 boards
// should reach at least half the standard rate.
func BenchmarkPerftTorus(b *testing.B) {
	for _, tc := range torusSuite {
		b.Run(tc.variant, func(b *testing.B) {
			pos := engine.MustVariant(tc.variant).StartPosition()
			var n uint64
			for i := 0; i < b.N; i++ {
				n = pos.Perft(tc.depth)
			}
			if n != tc.nodes {
				b.Fatalf("perft %d = %d, want %d", tc.depth, n, tc.nodes)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
