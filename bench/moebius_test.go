package bench

import (
	"testing"

	"topochess/engine"
)

// BenchmarkPerftMoebius reports nodes/s of perft from the start for both
// Möbius rule sets and, in the same run, for standard chess, so the ratio
// to the ordinary board can be read off directly. Depths give a few
// million leaves each; the counts are perft.md's.
func BenchmarkPerftMoebius(b *testing.B) {
	cases := []struct {
		id    string
		depth int
		nodes uint64
	}{
		{"standard", 5, 4865609},
		{"moebius", 4, 7923070},
		{"moebius-nierse", 4, 7779514},
	}
	for _, tc := range cases {
		b.Run(tc.id, func(b *testing.B) {
			pos := engine.MustVariant(tc.id).StartPosition()
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
