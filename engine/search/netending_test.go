package search

import (
	"context"
	"testing"
)

// TestNetEnding: a network that replaces the weighted terms keeps what
// they know of the endings its games seldom reach. A pawnless ending a
// bishop's worth up scores a draw whatever the network says; with a pawn
// it keeps the network's score; and a side a rook up scores the lone king
// in the corner above the lone king in the middle, so the search drives
// it there.
func TestNetEnding(t *testing.T) {
	v := mustVariant(t, "standard")
	bi := infoFor(v)
	at := func(s string, net int32) int32 {
		t.Helper()
		p, err := v.ParsePosition(s)
		if err != nil {
			t.Fatal(err)
		}
		v, key := netEnding(p, bi, net)
		if key != pawnKey(p) {
			t.Errorf("%s: pawn key %x, want %x", s, key, pawnKey(p))
		}
		return v
	}
	for _, c := range []struct {
		pos       string
		net, want int32
	}{
		{"4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", 200, 0},       // a lone bishop, White to move
		{"4k3/8/8/8/8/8/8/2B1K3 b - - 0 1", -200, 0},      // the same, Black to move
		{"4k3/8/8/8/8/8/8/2R1Kb2 w - - 0 1", 150, 0},      // a rook against a bishop
		{"4k3/4p3/8/8/8/8/4P3/2B1K3 w - - 0 1", 400, 400}, // a bishop up with pawns: the network's
	} {
		if got := at(c.pos, c.net); got != c.want {
			t.Errorf("%s with the network's %d: %d, want %d", c.pos, c.net, got, c.want)
		}
	}
	corner := at("k7/8/8/8/8/8/8/2R1K3 w - - 0 1", 0)
	middle := at("8/8/8/3k4/8/8/8/2R1K3 w - - 0 1", 0)
	if corner <= middle || middle <= 0 {
		t.Errorf("a rook up, the lone king in the corner %d, in the middle %d: want the corner higher, both above 0", corner, middle)
	}
	if got := at("4k3/8/8/8/8/8/8/2Q1K3 w - - 0 1", 900); got <= 900 {
		t.Errorf("a lone queen with the network's 900: %d, want more (the chase)", got)
	}
	if got := at("k7/8/8/8/8/8/8/2R1K3 b - - 0 1", 0); got != -corner {
		t.Errorf("the corner with the lone king to move: %d, want %d", got, -corner)
	}
}

// TestNetAloneLevel: level 5 evaluates with the network that replaces
// the weighted terms and the other levels with the one on top of them,
// and a searcher that plays both keeps no score of one for the other.
func TestNetAloneLevel(t *testing.T) {
	v := mustVariant(t, "standard")
	bi := infoFor(v)
	if bi.alone == nil || bi.alone.OnTerms || bi.net == nil || !bi.net.OnTerms {
		t.Fatal("standard ships a network alone and one on the weighted terms")
	}
	pos, err := v.ParsePosition("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
	if err != nil {
		t.Fatal(err)
	}
	alone, _ := netEnding(pos, bi, bi.alone.Evaluate(pos))
	terms := evaluate(pos, bi) + bi.net.Evaluate(pos)
	if alone == terms {
		t.Fatalf("both networks score %d", alone)
	}
	s := NewSearcher()
	for _, level := range []int{4, 5, 4} {
		cfg, err := Level(level)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Time, cfg.Nodes, cfg.Noise = 0, 3000, 0
		if _, _, err := s.Search(context.Background(), pos, cfg, nil); err != nil {
			t.Fatal(err)
		}
		want := terms
		if level == 5 {
			want = alone
		}
		s.pos = pos.Clone()
		if got := s.evaluate(); got != want {
			t.Errorf("level %d after its search: the start scores %d, want %d", level, got, want)
		}
	}
}
