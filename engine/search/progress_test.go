package search

import (
	"context"
	"testing"

	"topochess/engine"
)

// TestProgress: the callback sees every finished iteration in order, and
// the last one agrees with the returned Info.
func TestProgress(t *testing.T) {
	pos := engine.MustVariant("standard").StartPosition()
	var seen []Info
	cfg := Config{Level: 5, Depth: 4, Progress: func(in Info) { seen = append(seen, in) }}
	m, info, err := NewSearcher().Search(context.Background(), pos, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 4 {
		t.Fatalf("%d progress calls, want 4 (depths 1-4)", len(seen))
	}
	for i, in := range seen {
		if in.Depth != i+1 || in.Nodes <= 0 || len(in.PV) == 0 || in.Stopped {
			t.Errorf("call %d: %+v", i, in)
		}
		if i > 0 && in.Nodes < seen[i-1].Nodes {
			t.Errorf("nodes went down: %d then %d", seen[i-1].Nodes, in.Nodes)
		}
	}
	last := seen[len(seen)-1]
	if last.Depth != info.Depth || last.Score != info.Score || !last.PV[0].Same(m) {
		t.Errorf("last progress %v / %v, result %v / %v", last, last.PV[0], info, m)
	}
}

func TestNewSearcherMB(t *testing.T) {
	for _, mb := range []int{0, 1, 16, 100} {
		s := NewSearcherMB(mb)
		got := s.TableBytes()
		limit := int64(max(mb, 1)) << 20
		if got > limit || got*2 <= limit {
			t.Errorf("%d MB: table of %d bytes, want at most %d and more than half", mb, got, limit)
		}
	}
}
