package bench

import (
	"testing"

	"topochess/engine"
)

// heisenbergSuite: the published start counts (shared/rules/perft.md) and
// the seed's rook example, whose depth-3 count is only timed.
var heisenbergSuite = []struct {
	name, pos string
	depth     int
	nodes     uint64 // 0: not published, not checked
}{
	{"start", "", 4, 667276},
	{"seed-rook", "w Rc3,Be3,Kh1,na5,pe7,bf7,kh8 - - 0 1", 4, 0},
}

// BenchmarkPerftHeisenberg reports perft nodes/s of Heisenberg chess.
func BenchmarkPerftHeisenberg(b *testing.B) {
	v := engine.MustVariant("heisenberg")
	for _, tc := range heisenbergSuite {
		b.Run(tc.name, func(b *testing.B) {
			pos := v.StartPosition()
			if tc.pos != "" {
				var err error
				if pos, err = v.ParsePosition(tc.pos); err != nil {
					b.Fatal(err)
				}
			}
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
