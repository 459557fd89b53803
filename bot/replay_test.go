package bot

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"topochess/engine/puzzle"
	"topochess/storage"
)

// Redelivered platform events to /puzzle, /watch and /review are
// applied once, and puzzle answers arriving together all count.

// inChannel is a command as user in another channel of the same server.
func (h *harness) inChannel(channel, user, line string) Command {
	cmd := h.command(user, line)
	cmd.Channel = channel
	return cmd
}

// alreadyDone checks the answer to an event applied before a restart.
func alreadyDone(t *testing.T, what string, rs []Reply) {
	t.Helper()
	if len(rs) != 1 || rs[0].Error || !strings.Contains(rs[0].Text, "Already done") {
		t.Fatalf("%s redelivered: %s", what, dump(rs))
	}
}

func TestPuzzleEventsAppliedOnce(t *testing.T) {
	h := newHarness(t, Limits{CommandsPer10s: 1000})
	// A player rated 1750 is given a mate in 2, so the puzzle has a
	// reply of the opponent between two answers.
	if err := h.store.UpdatePuzzle("test:alice", "test:chan", "cube", "", time.Now(), func(_ *storage.PuzzleState, st *storage.PuzzleStats) (*storage.PuzzleState, error) {
		st.R, st.RD, st.Sigma = 1750, 100, 0.06
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	ask := h.command("alice", "/puzzle cube")
	rs := race(h, ask, ask)
	if len(rs[0]) != 1 || len(rs[1]) != 1 || rs[0][0].Text != rs[1][0].Text || rs[0][0].Error {
		t.Fatalf("puzzle asked for twice at once: %s %s", dump(rs[0]), dump(rs[1]))
	}
	pz, _ := puzzle.Find(strings.Fields(rs[0][0].Text)[1])
	if len(pz.Line) < 3 {
		t.Fatalf("%s: want a puzzle of two moves or more", pz.ID)
	}
	h.restart()
	alreadyDone(t, "/puzzle cube", h.svc.Handle(ask))
	if st, _ := h.store.PuzzleStats("cube", "test:alice"); len(st.Tried) != 1 {
		t.Fatalf("tried %v after a redelivered /puzzle", st.Tried)
	}
	// The first answer, delivered twice at once and once after a restart:
	// the puzzle goes on once.
	first := h.command("alice", "/puzzle "+pz.Line[0])
	rs = race(h, first, first)
	for _, r := range rs {
		if len(r) != 1 || !strings.Contains(r[0].Text, "right. The answer:") {
			t.Fatalf("first answer: %s", dump(r))
		}
	}
	h.restart()
	alreadyDone(t, "the first answer", h.svc.Handle(first))
	if st, _, _ := h.store.OpenPuzzle("test:alice", "test:chan"); st.Step != 2 {
		t.Fatalf("step %d after the first answer; want 2", st.Step)
	}
	// The rest, the last answer redelivered after a restart: the streak
	// counts one puzzle.
	var last Command
	for i := 2; i < len(pz.Line); i += 2 {
		last = h.command("alice", "/puzzle "+pz.Line[i])
		h.svc.Handle(last)
	}
	h.restart()
	alreadyDone(t, "the last answer", h.svc.Handle(last))
	st, err := h.store.PuzzleStats("cube", "test:alice")
	if err != nil || st.Solved != 1 || st.Streak != 1 || st.Failed != 0 {
		t.Fatalf("stats %+v %v; want one solved", st, err)
	}
	if _, open, _ := h.store.OpenPuzzle("test:alice", "test:chan"); open {
		t.Fatal("the puzzle is open again")
	}
	// A new answer event to the finished puzzle is refused, not counted.
	h.refused("alice", "/puzzle "+pz.Line[0], "no open puzzle")
}

// Puzzles of one variant finished at the same moment in several channels
// all count in the rating, the streak and the tally.
func TestPuzzleAnswersAtOnceAllCount(t *testing.T) {
	h := newHarness(t, Limits{CommandsPer10s: 1000})
	const n = 5 // the whole stock of a variant
	var lasts []Command
	for i := range n {
		ch := fmt.Sprintf("test:room%d", i)
		rs := h.svc.Handle(h.inChannel(ch, "alice", "/puzzle moebius"))
		if len(rs) != 1 || rs[0].Error {
			t.Fatalf("puzzle %d: %s", i, dump(rs))
		}
		pz, _ := puzzle.Find(strings.Fields(rs[0].Text)[1])
		for j := 0; j+1 < len(pz.Line); j += 2 {
			h.svc.Handle(h.inChannel(ch, "alice", "/puzzle "+pz.Line[j]))
		}
		lasts = append(lasts, h.inChannel(ch, "alice", "/puzzle "+pz.Line[len(pz.Line)-1]))
	}
	for i, r := range race(h, lasts...) {
		if len(r) != 1 || !strings.Contains(r[0].Text, "solved!") {
			t.Fatalf("answer %d: %s", i, dump(r))
		}
	}
	st, err := h.store.PuzzleStats("moebius", "test:alice")
	if err != nil || st.Solved != n || st.Streak != n || st.Best != n || len(st.Tried) != n {
		t.Fatalf("after %d puzzles solved at once: %+v %v", n, st, err)
	}
}

// The same answer sent twice at once (a double tap, two events): the
// puzzle is solved once, the other answer changes nothing.
func TestTwoPuzzleAnswersAtOnce(t *testing.T) {
	h := newHarness(t, Limits{CommandsPer10s: 1000})
	var pz puzzle.Puzzle
	for range 5 {
		if pz = givenPuzzle(t, h, "bob", "heisenberg"); len(pz.Line) == 1 {
			break
		}
		h.ok("bob", "/puzzle giveup")
	}
	if len(pz.Line) != 1 {
		t.Fatal("no Heisenberg mate in one in the stock")
	}
	before, _ := h.store.PuzzleStats("heisenberg", "test:bob")
	rs := race(h, h.command("bob", "/puzzle "+pz.Line[0]), h.command("bob", "/puzzle "+pz.Line[0]))
	taken := 0
	for _, r := range rs {
		switch {
		case len(r) != 1:
			t.Fatalf("replies %s", dump(r))
		case !r[0].Error && strings.Contains(r[0].Text, "solved!"):
			taken++
		case !strings.Contains(r[0].Text, "nothing was changed") && !strings.Contains(r[0].Text, "no open puzzle"):
			t.Fatalf("the other answer: %s", dump(r))
		}
	}
	st, _ := h.store.PuzzleStats("heisenberg", "test:bob")
	if taken != 1 || st.Solved != before.Solved+1 || st.Streak != 1 {
		t.Fatalf("%d answers taken; stats %+v", taken, st)
	}
}

// reopen restarts the service on the same database, posting as before.
func (fh *followHarness) reopen() {
	cfg := fh.svc.after.reviewCfg
	fh.restart()
	fh.svc.after.reviewCfg = cfg
	fh.svc.Notify("test", func(r Reply) {
		fh.mu.Lock()
		fh.posted = append(fh.posted, r)
		fh.mu.Unlock()
	})
}

func (fh *followHarness) inCmd(channel, server, user, line string) Command {
	cmd := fh.command(user, line)
	cmd.Channel, cmd.Server = channel, server
	return cmd
}

func TestWatchEventsAppliedOnce(t *testing.T) {
	fh := newFollowHarness(t)
	id := fh.startGame("standard")
	watch := fh.inCmd("test:other", "test", "carol", "/watch "+id)
	if rs := fh.svc.Handle(watch); len(rs) != 1 || rs[0].Error {
		t.Fatalf("watch: %s", dump(rs))
	}
	fh.ok("alice", "e2e4")
	fh.takePosted()
	fh.reopen()
	// Applied again, the follow would start over at move 0 and post
	// 1. e4 a second time with the next move.
	alreadyDone(t, "/watch", fh.svc.Handle(watch))
	if fs, _ := fh.store.Follows(id); len(fs) != 1 || fs[0].Plies != 1 {
		t.Fatalf("follows after a redelivered /watch: %+v", fs)
	}
	off := fh.inCmd("test:other", "test", "carol", "/watch "+id+" off")
	if rs := fh.svc.Handle(off); len(rs) != 1 || rs[0].Error {
		t.Fatalf("watch off: %s", dump(rs))
	}
	// Followed again by a new command; the old /watch off comes again
	// after a restart and does not stop it.
	if rs := fh.in("test:other", "test", "carol", "/watch "+id); len(rs) != 1 || rs[0].Error {
		t.Fatalf("watch again: %s", dump(rs))
	}
	fh.reopen()
	alreadyDone(t, "/watch off", fh.svc.Handle(off))
	fh.ok("bob", "e7e5")
	if got := fh.takePosted(); len(got) != 1 || got[0].Channel != "test:other" || !strings.Contains(got[0].Text, "1... e5") {
		t.Fatalf("after a redelivered /watch off, posted %s", dump(got))
	}
}

func TestReviewEventAppliedOnce(t *testing.T) {
	fh := newFollowHarness(t)
	fh.svc.after.reviewCfg = testReview
	foolsMate(t, fh.harness)
	ask := fh.command("alice", "/review")
	if rs := fh.svc.Handle(ask); len(rs) != 1 || !strings.HasPrefix(rs[0].Text, "Reviewing #1") {
		t.Fatalf("review: %s", dump(rs))
	}
	if n := len(fh.takePosted()); n < 3 {
		t.Fatalf("%d replies posted by the review", n)
	}
	first, err := fh.store.GameReview("#1")
	if err != nil {
		t.Fatal(err)
	}
	fh.reopen()
	alreadyDone(t, "/review", fh.svc.Handle(ask))
	if got := fh.takePosted(); len(got) != 0 {
		t.Fatalf("a redelivered /review posted %s", dump(got))
	}
	if again, _ := fh.store.GameReview("#1"); !again.Created.Equal(first.Created) {
		t.Fatal("the review was computed again")
	}
}
