package bench

import (
	"testing"

	"topochess/engine"
)

// BenchmarkPerftChess66 reports nodes/s for Chess 66 and for standard chess
// from their start positions in the same run, so the two rates compare on
// the same machine and load. Depths give a few million leaves each; the
// counts are the perft.md values where it has them.
func BenchmarkPerftChess66(b *testing.B) {
	cases := []struct {
		name, variant string
		depth         int
		nodes         uint64 // 0: not published, only measured
	}{
		{"chess66/d4", "chess66", 4, 239073},
		{"chess66/d5", "chess66", 5, 0},
		{"standard/d4", "standard", 4, 197281},
		{"standard/d5", "standard", 5, 4865609},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			pos := engine.MustVariant(tc.variant).StartPosition()
			var n uint64
			for i := 0; i < b.N; i++ {
				n = pos.Perft(tc.depth)
			}
			if tc.nodes != 0 && n != tc.nodes {
				b.Fatalf("perft %d = %d, want %d", tc.depth, n, tc.nodes)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
