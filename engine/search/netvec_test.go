package search

import (
	"math"
	"math/rand/v2"
	"testing"

	"topochess/engine"
)

// TestNetVector: the network's inner loops give, on this machine's path
// (vector instructions where the CPU has them), the bits the Go code
// gives, and the sums they stand for: rows added and taken away element
// by element, and the clipped units' weighted sum within rounding of a
// sum in float64.
func TestNetVector(t *testing.T) {
	t.Logf("vector instructions: %v", netVector)
	rng := rand.New(rand.NewPCG(5, 6))
	value := func() float32 {
		switch rng.IntN(8) {
		case 0:
			return 0
		case 1:
			return 1
		case 2:
			return float32(math.Copysign(0, -1))
		}
		return float32(rng.Float64()*4 - 1.5)
	}
	fill := func(n int) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = value()
		}
		return x
	}
	lengths := []int{0, 1, 7, 8, 9, 15, 16, 17, 33, 64, 65, 128, 129, 256, 257}
	for k := 0; k < 20; k++ {
		lengths = append(lengths, rng.IntN(300))
	}
	for _, n := range lengths {
		sum, row := fill(n), fill(n+rng.IntN(3))
		want := make([]float32, n)
		for j := range want {
			want[j] = sum[j] + row[j]
		}
		got := append([]float32(nil), sum...)
		addRow(got, row)
		for j := range want {
			if math.Float32bits(got[j]) != math.Float32bits(want[j]) {
				t.Fatalf("n=%d: addRow gives %v at %d, want %v", n, got[j], j, want[j])
			}
		}
		for j := range want {
			want[j] = sum[j] - row[j]
		}
		got = append(got[:0], sum...)
		subRow(got, row)
		for j := range want {
			if math.Float32bits(got[j]) != math.Float32bits(want[j]) {
				t.Fatalf("n=%d: subRow gives %v at %d, want %v", n, got[j], j, want[j])
			}
		}

		x, w := fill(n), fill(n+rng.IntN(3))
		if m := n &^ 7; m > 0 {
			if a, b := clipDot8(x[:m], w[:m]), clipDot8Go(x[:m], w[:m]); math.Float32bits(a) != math.Float32bits(b) {
				t.Fatalf("n=%d: clipDot8 gives %v, the Go code %v", n, a, b)
			}
		}
		var exact, size float64
		for j := range x {
			c := math.Min(math.Max(float64(x[j]), 0), 1)
			exact += float64(w[j]) * c
			size += math.Abs(float64(w[j]) * c)
		}
		if got := float64(clipDot(x, w)); math.Abs(got-exact) > 1e-6*(size+1) {
			t.Fatalf("n=%d: clipDot gives %v, the sum is %v", n, got, exact)
		}
	}
}

// BenchmarkNetUpdate is the running sums of the shipped standard net
// brought from one position to the next and the output read, along
// random games: the network's share of an evaluation.
func BenchmarkNetUpdate(b *testing.B) {
	v, _ := engine.GetVariant("standard")
	n := netFor(v)
	if n == nil {
		b.Skip("no network for standard")
	}
	ps := randomPositions(v, rand.New(rand.NewPCG(1, 2)), 200, 40)
	a := newNetAcc(n)
	for i := 0; b.Loop(); i++ {
		p := ps[i%len(ps)]
		a.update(p)
		a.output(p.Side)
	}
}
