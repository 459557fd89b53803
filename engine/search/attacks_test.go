package search

import (
	"math/rand/v2"
	"testing"

	"topochess/engine"
)

// MobilityAttacks marks the cells Attacked reports, on every board, and its
// per-piece table adds up to its counts by kind.
func TestMobilityAttacks(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, id := range engine.Variants() {
		v, _ := engine.GetVariant(id)
		n := v.Geo.N
		for _, p := range randomPositions(v, rng, 60, 80) {
			for c := engine.White; c <= engine.Black; c++ {
				att := make([]uint64, (n+63)/64)
				mob, list := p.MobilityAttacks(c, att, nil)
				var each [7][engine.MobilityBuckets]int32
				for _, m := range list {
					each[m/engine.MobilityBuckets][m%engine.MobilityBuckets]++
				}
				var pieces [7]int32
				for _, pc := range p.Board {
					if pc != 0 && pc.Color() == c {
						pieces[pc.Kind()]++
					}
				}
				for k := engine.Knight; k <= engine.King; k++ {
					var sum, cnt int32
					for m, x := range each[k] {
						sum += int32(m) * x
						cnt += x
					}
					full := each[k][engine.MobilityBuckets-1] != 0 // a capped count
					if cnt != pieces[k] || !full && sum != int32(mob[k]) || full && sum > int32(mob[k]) {
						t.Fatalf("%s %s: %v %v: table %v (%d pieces, %d moves), counts %d moves of %d pieces", id, p.String(), c, k, each[k], cnt, sum, mob[k], pieces[k])
					}
				}
				for cell := 0; cell < n; cell++ {
					got := att[cell>>6]&(1<<(uint(cell)&63)) != 0
					if got != p.Attacked(cell, c) {
						t.Fatalf("%s %s: cell %s attacked by %v: set says %v, Attacked %v", id, p.String(), p.Geo().Name(cell), c, got, !got)
					}
				}
			}
		}
	}
}
