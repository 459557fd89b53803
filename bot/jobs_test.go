package bot

import (
	"testing"
	"time"

	"topochess/storage"
)

func queueOf(t *testing.T, h *harness, kind string) storage.JobStat {
	t.Helper()
	qs, err := h.svc.JobQueues()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		if q.Kind == kind {
			return q
		}
	}
	t.Fatalf("no %s queue in %+v", kind, qs)
	return storage.JobStat{}
}

// The job queues the metrics show: a clock whose reminder is overdue is
// one job, as late as it is overdue, until a tick does it; a tick that
// could not claim it (another process holds it) leaves it.
func TestJobQueuesShowOverdueClock(t *testing.T) {
	h := newHarness(t, Limits{})
	h.timedGame("time:1d")
	if q := queueOf(t, h, storage.JobClock); q.Due != 0 {
		t.Fatalf("a clock due at the start: %+v", q)
	}
	h.advance(13 * time.Hour) // the half-day reminder was due an hour ago
	if q := queueOf(t, h, storage.JobClock); q.Due != 1 || q.Lag < time.Hour-time.Minute || q.Lag > time.Hour+time.Minute {
		t.Fatalf("overdue reminder: %+v", q)
	}
	held, err := h.store.ClaimJobs(storage.JobClock, h.clock(), 10)
	if err != nil || len(held) != 1 {
		t.Fatalf("claim: %+v %v", held, err)
	}
	if rs := h.tick(); len(rs) != 0 {
		t.Fatalf("a tick did a clock job held elsewhere: %s", dump(rs))
	}
	if err := h.store.EndJob(held[0], false); err != nil {
		t.Fatal(err)
	}
	if rs := h.tick(); len(rs) != 1 {
		t.Fatalf("the reminder once released: %s", dump(rs))
	}
	if q := queueOf(t, h, storage.JobClock); q.Due != 0 || q.Lag != 0 {
		t.Fatalf("after the reminder: %+v", q)
	}
}

// Challenge expiry is a periodic job: due at the first round, then every
// ExpiryEvery; a round in between leaves an expired challenge alone.
func TestChallengeExpiryJob(t *testing.T) {
	h := newHarness(t, Limits{ChallengeTTL: time.Hour})
	gone := func(id string) bool {
		_, err := h.store.Challenge(id)
		return err != nil
	}
	h.ok("alice", "/challenge @bob")
	h.advance(2 * time.Hour)
	h.svc.Maintain()
	if !gone("c1") {
		t.Fatal("an expired challenge is kept after the first round")
	}
	h.ok("alice", "/challenge @carol")
	h.advance(2 * time.Hour)
	h.svc.Maintain()
	if !gone("c2") {
		t.Fatal("the next round, an expiry interval on, kept an expired challenge")
	}
	h.ok("alice", "/challenge @dave")
	h.advance(time.Hour - 2*time.Second)
	h.svc.runJobs(h.clock()) // a round: c3 has two seconds left
	if gone("c3") {
		t.Fatal("a challenge deleted before it expired")
	}
	h.advance(ExpiryEvery / 2)
	h.svc.runJobs(h.clock())
	if gone("c3") {
		t.Fatal("expired challenges deleted before the job was due")
	}
	h.advance(ExpiryEvery)
	h.svc.runJobs(h.clock())
	if !gone("c3") {
		t.Fatal("the expiry job did not run when due")
	}
}

// A restart with more games waiting for the computer than its workers'
// share of jobs answers them all, without the job loop (the console runs
// none): a worker about to be free claims the next.
func TestRestartAnswersMoreGamesThanWorkers(t *testing.T) {
	bh := newBotHarness(t, BotConfig{Level: endlessLevels, Seed: 1, Workers: 1})
	var ids []string
	for _, user := range []string{"alice", "bob", "carol", "dave", "erin"} {
		id := bh.startBotGame(user, "white level:3")
		bh.ok(user, "/move d2d4 game:"+id)
		ids = append(ids, id)
	}
	bh.waitRunning(1)
	bh.shutdown()
	bh.restart(BotConfig{Level: budgetLevels, Seed: 1, Workers: 1})
	rs := bh.settle()
	for _, id := range ids {
		if rec := bh.game(id); len(rec.Moves) != 2 {
			t.Errorf("game %s after the restart: moves %v", id, rec.Moves)
		}
	}
	if len(rs) != len(ids) {
		t.Errorf("%d replies for %d games:%s", len(rs), len(ids), dump(rs))
	}
}
