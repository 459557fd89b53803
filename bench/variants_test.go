//go:build unix

package bench

import (
	"sort"
	"syscall"
	"testing"
	"time"

	"topochess/engine"
)

// variantSuite is perft from each variant's start at a depth with a few
// million leaves; counts are shared/rules/perft.md's.
var variantSuite = []struct {
	id    string
	depth int
	nodes uint64
}{
	{"standard", 5, 4865609},
	{"moebius", 4, 7923070},
	{"moebius-nierse", 4, 7779514},
	{"toroidal", 4, 2891434},
	{"cylindrical", 4, 2799108},
	{"klein", 4, 2930600},
	{"heisenberg", 4, 667276},
	{"cube", 4, 6531210},
	{"cube5", 4, 2038871},
	{"chess66", 4, 239073},
}

// BenchmarkPerftVariants reports nodes/s of perft from the start for every
// variant and for standard chess in the same run, so each ratio to the
// ordinary board can be read off directly.
//
// Besides wall-clock nodes/s it reports nodes per second of process CPU
// time: on a shared machine the wall-clock rate swings with the load,
// while the CPU rate (and so the ratio) stays put.
func BenchmarkPerftVariants(b *testing.B) {
	for _, tc := range variantSuite {
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

// BenchmarkPerftVariantsInterleaved runs the same perfts round-robin, one
// round per iteration (run it with -benchtime 5x or more), and reports for
// each variant the median over rounds of its rate divided by standard's
// rate in the same round. A load that comes and goes on a shared machine
// then moves both sides of each ratio alike.
func BenchmarkPerftVariantsInterleaved(b *testing.B) {
	pos := make([]*engine.Position, len(variantSuite))
	for i, tc := range variantSuite {
		pos[i] = engine.MustVariant(tc.id).StartPosition()
	}
	rates := make([][]float64, len(variantSuite))
	for r := 0; r < b.N; r++ {
		for i, tc := range variantSuite {
			cpu0 := cpuTime()
			if n := pos[i].Perft(tc.depth); n != tc.nodes {
				b.Fatalf("%s: perft %d = %d, want %d", tc.id, tc.depth, n, tc.nodes)
			}
			if cpu := cpuTime() - cpu0; cpu > 0 {
				rates[i] = append(rates[i], float64(tc.nodes)/cpu.Seconds())
			}
		}
	}
	for i, tc := range variantSuite {
		if len(rates[i]) != len(rates[0]) || len(rates[0]) == 0 {
			continue // a round too short for the CPU clock
		}
		var ratios []float64
		for r := range rates[i] {
			ratios = append(ratios, rates[i][r]/rates[0][r])
		}
		if i == 0 {
			b.ReportMetric(medianOf(rates[0]), "standard-nodes/cpu-s")
			continue
		}
		b.ReportMetric(medianOf(ratios), tc.id+"/standard")
	}
}

func medianOf(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
