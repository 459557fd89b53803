package search

import (
	"math/rand/v2"
	"testing"

	"topochess/engine"
)

// MobilityAttacks marks the cells Attacked reports, on every board.
func TestMobilityAttacks(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, id := range engine.Variants() {
		v, _ := engine.GetVariant(id)
		n := v.Geo.N
		for _, p := range randomPositions(v, rng, 60, 80) {
			for c := engine.White; c <= engine.Black; c++ {
				att := make([]uint64, (n+63)/64)
				p.MobilityAttacks(c, att)
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
