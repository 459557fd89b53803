//go:build unix

// Package bench measures topochess against peers in the same run. It is a
// separate module so the product's go.mod stays free of the peers.
package bench

import (
	"testing"

	peer "github.com/corentings/chess/v2"

	"topochess/engine"
)

// suite is the published standard perft suite (shared/rules/perft.md) at
// depths that take about a second each.
var suite = []struct {
	name, fen string
	depth     int
	nodes     uint64
}{
	{"start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5, 4865609},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4, 4085603},
	{"pos3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674624},
	{"pos4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4, 422333},
	{"pos5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4, 2103487},
	{"pos6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 4, 3894594},
}

// BenchmarkPerftStandard reports nodes/s for topochess and for the peer on
// each suite position; compare the two lines of a position for the ratio.
func BenchmarkPerftStandard(b *testing.B) {
	v := engine.MustVariant("standard")
	for _, tc := range suite {
		b.Run(tc.name+"/topochess", func(b *testing.B) {
			pos, err := v.ParsePosition(tc.fen)
			if err != nil {
				b.Fatal(err)
			}
			cpu0 := cpuTime()
			var n uint64
			for i := 0; i < b.N; i++ {
				n = pos.Perft(tc.depth)
			}
			cpu := cpuTime() - cpu0
			if n != tc.nodes {
				b.Fatalf("perft %d = %d, want %d", tc.depth, n, tc.nodes)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(n)*float64(b.N)/cpu.Seconds(), "nodes/cpu-s")
		})
		b.Run(tc.name+"/peer", func(b *testing.B) {
			opt, err := peer.FEN(tc.fen)
			if err != nil {
				b.Fatal(err)
			}
			pos := peer.NewGame(opt).Position()
			depth := tc.depth
			if tc.nodes > 1_000_000 {
				depth-- // the peer is slow; one ply less keeps the run short
			}
			cpu0 := cpuTime()
			var n uint64
			for i := 0; i < b.N; i++ {
				n = peerPerft(pos, depth)
			}
			cpu := cpuTime() - cpu0
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(n)*float64(b.N)/cpu.Seconds(), "nodes/cpu-s")
		})
	}
}

func peerPerft(pos *peer.Position, depth int) uint64 {
	moves := pos.ValidMoves()
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for i := range moves {
		n += peerPerft(pos.Update(&moves[i]), depth-1)
	}
	return n
}
