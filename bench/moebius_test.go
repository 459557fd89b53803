//go:build unix

package bench

import (
	"syscall"
	"testing"
	"time"

	"topochess/engine"
)

// BenchmarkPerftMoebius reports nodes/s of perft from the start for both
// Möbius rule sets and, in the same run, for standard chess, so the ratio
// to the ordinary board can be read off directly. Depths give a few
// million leaves each; the counts are perft.md's.
//
// Besides wall-clock nodes/s it reports nodes per second of process CPU
// time: on a shared machine the wall-clock rate swings with the load,
// while the CPU rate (and so the ratio) stays put.
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
			cpu0 := cpuTime()
			var n uint64
			for i := 0; i < b.N; i++ {
				n = pos.Perft(tc.depth)
			}
			cpu := cpuTime() - cpu0
			if n != tc.nodes {
				b.Fatalf("perft %d = %d, want %d", tc.depth, n, tc.nodes)
			}
			total := float64(n) * float64(b.N)
			b.ReportMetric(total/b.Elapsed().Seconds(), "nodes/s")
			if cpu > 0 {
				b.ReportMetric(total/cpu.Seconds(), "nodes/cpu-s")
			}
		})
	}
}

// cpuTime is the CPU time (user and system) the process has used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
