package storage

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

// Events redelivered to puzzles, follows and reviews are applied once,
// and puzzle records changed at once by several answers lose none of
// them.

// savePuzzle writes a user's open puzzle and record as given.
func savePuzzle(s Backend, user, channel, variant string, open *PuzzleState, stats PuzzleStats) error {
	return s.UpdatePuzzle(user, channel, variant, "", t0, func(_ *PuzzleState, st *PuzzleStats) (*PuzzleState, error) {
		*st = stats
		return open, nil
	})
}

func suitePuzzleEventOnce(t *testing.T, open opener) {
	s := open(t)
	// One answer: the puzzle goes on two plies, the streak grows by one.
	step := func(open *PuzzleState, st *PuzzleStats) (*PuzzleState, error) {
		if open == nil {
			open = &PuzzleState{Puzzle: "cube-1", Started: t0}
		} else {
			open.Step += 2
		}
		st.Streak++
		return open, nil
	}
	for _, ev := range []string{"ev-1", "ev-2"} {
		if err := s.UpdatePuzzle("alice", "ch", "cube", ev, t0, step); err != nil {
			t.Fatal(err)
		}
	}
	errs := parallel(4, func(int) error { return s.UpdatePuzzle("alice", "ch", "cube", "ev-2", t0, step) })
	if ok, dup := tally(t, errs, ErrDuplicate); ok != 0 || dup != 4 {
		t.Fatalf("redelivered: %d applied, %d duplicates; want 0 and 4", ok, dup)
	}
	s.Close()
	s = open(t)
	if err := s.UpdatePuzzle("alice", "ch", "cube", "ev-1", t0, step); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("redelivered after reopening: %v", err)
	}
	st, ok, err := s.OpenPuzzle("alice", "ch")
	if !ok || err != nil || st.Step != 2 {
		t.Fatalf("open puzzle %+v %v %v; want step 2", st, ok, err)
	}
	if ps, err := s.PuzzleStats("cube", "alice"); err != nil || ps.Streak != 2 {
		t.Fatalf("streak %d %v; want 2", ps.Streak, err)
	}
	// A refused change writes nothing, its event included.
	errNo := errors.New("refused")
	err = s.UpdatePuzzle("alice", "ch", "cube", "ev-3", t0, func(open *PuzzleState, st *PuzzleStats) (*PuzzleState, error) {
		st.Streak = 100
		return nil, errNo
	})
	if !errors.Is(err, errNo) {
		t.Fatalf("refused change: %v", err)
	}
	if ps, _ := s.PuzzleStats("cube", "alice"); ps.Streak != 2 {
		t.Errorf("a refused change wrote the streak %d", ps.Streak)
	}
	if _, ok, _ := s.OpenPuzzle("alice", "ch"); !ok {
		t.Error("a refused change closed the puzzle")
	}
	if seen, _ := s.SeenEvent("ev-3"); seen {
		t.Error("a refused change recorded its event")
	}
}

// Answers of one user arriving together in several channels each count:
// none reads the record before another's write and overwrites it.
func suiteRacingPuzzleAnswers(t *testing.T, open opener) {
	s := open(t)
	const n = 12
	errs := parallel(n, func(i int) error {
		return s.UpdatePuzzle("alice", fmt.Sprintf("ch%d", i%3), "cube", fmt.Sprintf("ev%d", i), t0, func(_ *PuzzleState, st *PuzzleStats) (*PuzzleState, error) {
			st.Solved++
			st.Streak++
			st.Tried = append(st.Tried, fmt.Sprintf("cube-%d", i))
			return nil, nil
		})
	})
	if ok, _ := tally(t, errs, ErrConflict); ok != n {
		t.Fatalf("%d of %d answers applied", ok, n)
	}
	ps, err := s.PuzzleStats("cube", "alice")
	if err != nil || ps.Solved != n || ps.Streak != n || len(ps.Tried) != n {
		t.Fatalf("after %d answers at once: solved %d, streak %d, %d tried (%v)", n, ps.Solved, ps.Streak, len(ps.Tried), err)
	}
	// Puzzles asked for at once in one channel: one is opened, and only
	// its id is counted as tried.
	errOpen := errors.New("a puzzle is open")
	errs = parallel(8, func(i int) error {
		return s.UpdatePuzzle("bob", "ch", "cube", "", t0, func(open *PuzzleState, st *PuzzleStats) (*PuzzleState, error) {
			if open != nil {
				return nil, errOpen
			}
			st.Tried = append(st.Tried, fmt.Sprintf("cube-%d", i))
			return &PuzzleState{Puzzle: fmt.Sprintf("cube-%d", i), Started: t0}, nil
		})
	})
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, errOpen) && !errors.Is(err, ErrConflict):
			t.Errorf("unexpected error: %v", err)
		}
	}
	st, _, _ := s.OpenPuzzle("bob", "ch")
	ps, _ = s.PuzzleStats("cube", "bob")
	if ok != 1 || !slices.Equal(ps.Tried, []string{st.Puzzle}) {
		t.Fatalf("%d opened; open %q, tried %v", ok, st.Puzzle, ps.Tried)
	}
}

func suiteFollowAndReviewEvents(t *testing.T, open opener) {
	s := open(t)
	f := Follow{Game: "#1", Channel: "discord:b", By: "alice", Since: t0, Plies: 3}
	if err := s.AddFollow(f, "ev-f", t0); err != nil {
		t.Fatal(err)
	}
	f.Plies = 9
	if err := s.AddFollow(f, "ev-f", t0); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("follow redelivered: %v", err)
	}
	if fs, _ := s.Follows("#1"); len(fs) != 1 || fs[0].Plies != 3 {
		t.Fatalf("follows after a redelivery: %+v", fs)
	}
	if found, err := s.RemoveFollow("#1", "discord:b", "ev-u", t0); !found || err != nil {
		t.Fatalf("unfollow: %v %v", found, err)
	}
	// Followed again by a new event, then the old unfollow comes again:
	// the follow stays.
	if err := s.AddFollow(f, "ev-f2", t0); err != nil {
		t.Fatal(err)
	}
	if found, err := s.RemoveFollow("#1", "discord:b", "ev-u", t0); found || !errors.Is(err, ErrDuplicate) {
		t.Fatalf("unfollow redelivered: %v %v", found, err)
	}
	if fs, _ := s.Follows("#1"); len(fs) != 1 || fs[0].Plies != 9 {
		t.Fatalf("follows after a redelivered unfollow: %+v", fs)
	}

	r := &Review{Game: "#1", Plies: 2, Scores: []int{1, 2, 3}, Best: []string{"a", "b", ""}, Created: t0}
	if err := s.SaveReview(r, "ev-r", t0); err != nil {
		t.Fatal(err)
	}
	r2 := &Review{Game: "#1", Plies: 3, Scores: []int{1, 2, 3, 4}, Best: []string{"a", "b", "c", ""}, Created: t0}
	if err := s.SaveReview(r2, "ev-r", t0); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("review redelivered: %v", err)
	}
	if got, err := s.GameReview("#1"); err != nil || got.Plies != 2 {
		t.Fatalf("review after a redelivery: %+v %v", got, err)
	}
}
