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
