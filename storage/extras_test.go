package storage

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// Follows, reviews and puzzles: the records of following games, game
// reviews and puzzles, in the shared suite.

func suiteFollows(t *testing.T, open opener) {
	s := open(t)
	for _, ch := range []string{"discord:b", "discord:a", "discord:b"} {
		if err := s.AddFollow(Follow{Game: "#1", Channel: ch, By: "alice", Since: t0}, "", t0); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddFollow(Follow{Game: "#2", Channel: "discord:a", By: "bob", Since: t0, Plies: 4}, "", t0); err != nil {
		t.Fatal(err)
	}
	// Following again updates the one follow.
	if err := s.AddFollow(Follow{Game: "#1", Channel: "discord:b", By: "carol", Since: t0, Plies: 7}, "", t0); err != nil {
		t.Fatal(err)
	}
	fs, err := s.Follows("#1")
	if err != nil {
		t.Fatal(err)
	}
	var chans []string
	for _, f := range fs {
		chans = append(chans, f.Channel)
	}
	if !slices.Equal(chans, []string{"discord:a", "discord:b"}) || fs[1].By != "carol" || fs[1].Plies != 7 || !fs[1].Since.Equal(t0) {
		t.Fatalf("follows of #1: %+v", fs)
	}
	if found, err := s.RemoveFollow("#1", "discord:a", "", t0); !found || err != nil {
		t.Errorf("remove: %v %v", found, err)
	}
	if found, err := s.RemoveFollow("#1", "discord:a", "", t0); found || err != nil {
		t.Errorf("removed twice: %v %v", found, err)
	}
	if fs, _ := s.Follows("#1"); len(fs) != 1 || fs[0].Channel != "discord:b" {
		t.Errorf("after removing: %+v", fs)
	}
	if fs, _ := s.Follows("#2"); len(fs) != 1 || fs[0].Plies != 4 {
		t.Errorf("another game's follow: %+v", fs)
	}
	if fs, err := s.Follows("#3"); len(fs) != 0 || err != nil {
		t.Errorf("a game nobody follows: %+v %v", fs, err)
	}
}

func suiteReviews(t *testing.T, open opener) {
	s := open(t)
	if _, err := s.GameReview("#1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("no review yet: %v", err)
	}
	r := &Review{Game: "#1", Plies: 2, Depth: 4, Nodes: 5000, Scores: []int{20, -15, 9990}, Best: []string{"e2-e4", "e7-e5", ""}, Created: t0}
	if err := s.SaveReview(r, "", t0); err != nil {
		t.Fatal(err)
	}
	got, err := s.GameReview("#1")
	if err != nil || got.Plies != 2 || got.Nodes != 5000 || !slices.Equal(got.Scores, r.Scores) || !slices.Equal(got.Best, r.Best) || !got.Created.Equal(t0) {
		t.Fatalf("review: %+v %v", got, err)
	}
	// A later review of the longer game replaces it.
	r2 := &Review{Game: "#1", Plies: 3, Scores: []int{1, 2, 3, 4}, Best: []string{"a", "b", "c", ""}, Created: t0.Add(time.Hour)}
	if err := s.SaveReview(r2, "", t0); err != nil {
		t.Fatal(err)
	}
	if got, err := s.GameReview("#1"); err != nil || got.Plies != 3 || len(got.Scores) != 4 {
		t.Errorf("replaced review: %+v %v", got, err)
	}
	if _, err := s.GameReview("#2"); !errors.Is(err, ErrNotFound) {
		t.Errorf("another game's review: %v", err)
	}
}

func suitePuzzles(t *testing.T, open opener) {
	s := open(t)
	if _, ok, err := s.OpenPuzzle("alice", "ch"); ok || err != nil {
		t.Fatalf("no puzzle yet: %v %v", ok, err)
	}
	if ps, err := s.PuzzleStats("torus", "alice"); err != nil || ps.RD != 0 || ps.Solved != 0 {
		t.Fatalf("no stats yet: %+v %v", ps, err)
	}
	st := &PuzzleState{Puzzle: "torus-17", Step: 2, Started: t0}
	stats := PuzzleStats{R: 1500, RD: 350, Sigma: 0.06, Streak: 1, Best: 1, Solved: 1, Tried: []string{"torus-3", "torus-17"}}
	if err := savePuzzle(s, "alice", "ch", "torus", st, stats); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(t)
	got, ok, err := s.OpenPuzzle("alice", "ch")
	if !ok || err != nil || got.Puzzle != "torus-17" || got.Step != 2 || !got.Started.Equal(t0) {
		t.Fatalf("open puzzle after reopening: %+v %v %v", got, ok, err)
	}
	if _, ok, _ := s.OpenPuzzle("alice", "other"); ok {
		t.Error("a puzzle open in another channel")
	}
	ps, err := s.PuzzleStats("torus", "alice")
	if err != nil || ps.R != 1500 || ps.Streak != 1 || !slices.Equal(ps.Tried, stats.Tried) {
		t.Fatalf("stats: %+v %v", ps, err)
	}
	if ps, _ := s.PuzzleStats("standard", "alice"); ps.Solved != 0 {
		t.Errorf("another variant's stats: %+v", ps)
	}
	// Solved: no puzzle open any more, the record written with it.
	stats.Solved, stats.Streak = 2, 2
	if err := savePuzzle(s, "alice", "ch", "torus", nil, stats); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.OpenPuzzle("alice", "ch"); ok || err != nil {
		t.Errorf("the solved puzzle is still open: %v %v", ok, err)
	}
	if ps, _ := s.PuzzleStats("torus", "alice"); ps.Solved != 2 || ps.Streak != 2 {
		t.Errorf("stats after solving: %+v", ps)
	}
}
