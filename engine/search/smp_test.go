package search

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"topochess/engine"
)

// TestThreadsLegal runs multi-thread searches (run it with -race) on
// positions of several boards with one searcher, so the helpers are reused
// across boards, and checks that the moves are legal, the position is left
// alone and the helpers searched and were counted.
func TestThreadsLegal(t *testing.T) {
	s := NewSearcherMB(1)
	for _, id := range []string{"standard", "toroidal", "moebius", "cube"} {
		v := engine.MustVariant(id)
		ps := randomPositions(v, rand.New(rand.NewPCG(3, 4)), 3, 30)
		for i, pos := range ps {
			threads := 2 + 2*(i%2)
			before := pos.String()
			var reported int64
			cfg := Config{Level: 5, Time: 150 * time.Millisecond, Threads: threads,
				Progress: func(in Info) { reported = in.Nodes }}
			m, info, err := s.Search(context.Background(), pos, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			if pos.String() != before {
				t.Fatalf("%s: the search changed its position", id)
			}
			if !isLegal(pos, m) {
				t.Fatalf("%s %s: illegal move %v", id, pos, m)
			}
			var helpers int64
			for _, h := range s.helpers[:threads-1] {
				if h.nodes == 0 {
					t.Errorf("%s: a helper searched no node in 150 ms", id)
				}
				helpers += h.nodes
			}
			if info.Nodes != s.nodes+helpers {
				t.Errorf("%s: %d nodes reported, the threads searched %d + %d", id, info.Nodes, s.nodes, helpers)
			}
			if reported > info.Nodes {
				t.Errorf("%s: progress reported %d nodes, more than the final %d", id, reported, info.Nodes)
			}
			t.Logf("%s, %d threads: %s, %s", id, threads, pos.Canonical(m), info)
		}
	}
	if len(s.helpers) != 3 {
		t.Errorf("%d helpers kept, want 3 (reused between searches)", len(s.helpers))
	}
}

// TestThreadsFindMates solves the mate puzzles with four threads; the
// node budget bounds the first thread, so the same budget must do.
func TestThreadsFindMates(t *testing.T) {
	s := NewSearcher()
	for _, tc := range mateCases {
		t.Run(tc.name, func(t *testing.T) {
			pos, err := engine.MustVariant(tc.variant).ParsePosition(tc.pos)
			if err != nil {
				t.Fatal(err)
			}
			checkMatePuzzleThreads(t, s, pos, tc.n, 4)
		})
	}
	for _, id := range []string{"standard", "toroidal", "moebius", "cube", "cube5"} {
		t.Run("smothered "+id, func(t *testing.T) {
			checkMatePuzzleThreads(t, s, smothered(engine.MustVariant(id)), 1, 2)
		})
	}
}

// TestThreadsStopWithContext: a cancelled multi-thread search returns
// promptly with a legal move, helpers included.
func TestThreadsStopWithContext(t *testing.T) {
	pos := engine.MustVariant("standard").StartPosition()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	m, _, err := NewSearcher().Search(ctx, pos, Config{Level: 5, Threads: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("the search took %v after a 100 ms deadline", el)
	}
	if !isLegal(pos, m) {
		t.Errorf("illegal move %v", m)
	}
}

// TestOneThreadUnchanged: Threads 0 and 1 are the same reproducible
// search, node for node.
func TestOneThreadUnchanged(t *testing.T) {
	pos := engine.MustVariant("toroidal").StartPosition()
	var infos []Info
	for _, th := range []int{0, 1} {
		_, info, err := NewSearcher().Search(context.Background(), pos, Config{Level: 5, Nodes: 20_000, Threads: th}, nil)
		if err != nil {
			t.Fatal(err)
		}
		infos = append(infos, info)
	}
	if infos[0].Nodes != infos[1].Nodes || infos[0].Score != infos[1].Score || !infos[0].PV[0].Same(infos[1].PV[0]) {
		t.Errorf("Threads 0: %v; Threads 1: %v", infos[0], infos[1])
	}
}
