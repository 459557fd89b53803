package bench

import (
	"testing"

	"topochess/engine"
)

// cubeRuns are start-position perfts with their perft.md counts; standard
// runs in the same benchmark so the rates compare on one machine and run.
var cubeRuns = []struct {
	variant string
	depth   int
	nodes   uint64
}{
	{"standard", 5, 4865609},
	{"cube", 4, 6531210},
	{"cube5", 4, 2038871},
}

// BenchmarkPerftCube reports nodes/s of the cube variants next to standard
// chess (the target is at least a quarter of the standard rate).
func BenchmarkPerftCube(b *testing.B) {
	for _, r := range cubeRuns {
		b.Run(r.variant, func(b *testing.B) {
			pos := engine.MustVariant(r.variant).StartPosition()
			var n uint64
			for i := 0; i < b.N; i++ {
				n = pos.Perft(r.depth)
			}
			if n != r.nodes {
				b.Fatalf("perft %d = %d, want %d", r.depth, n, r.nodes)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
