package search

import (
	"context"
	"testing"

	"topochess/engine"
)

// BenchmarkSearch is one fixed-node, single-thread search of the standard
// start position with a fresh table: the speed of the one-thread path.
func BenchmarkSearch(b *testing.B) {
	v, _ := engine.GetVariant("standard")
	pos := v.StartPosition()
	cfg := Config{Level: 5, Nodes: 200_000}
	s := NewSearcher()
	for b.Loop() {
		s.tt.clear()
		if _, _, err := s.Search(context.Background(), pos, cfg, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSearchMiddle is fixed-node, single-thread searches of three
// standard middlegame positions, each with a fresh table: where the
// evaluation costs most.
func BenchmarkSearchMiddle(b *testing.B) {
	v, _ := engine.GetVariant("standard")
	var ps []*engine.Position
	for _, f := range []string{"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 1", "2r1kr2/pp4pp/8/3pN3/3P1n2/8/PP3PPP/4R1K1 w - - 0 1", "r2q1rk1/1pp2ppp/p1np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPP2PPP/R2Q1RK1 w - - 0 1"} {
		p, err := v.ParsePosition(f)
		if err != nil {
			b.Fatal(err)
		}
		ps = append(ps, p)
	}
	cfg := Config{Level: 5, Nodes: 200_000}
	s := NewSearcher()
	for b.Loop() {
		for _, p := range ps {
			s.tt.clear()
			if _, _, err := s.Search(context.Background(), p, cfg, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
}
