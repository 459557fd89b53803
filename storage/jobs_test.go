package storage

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// Jobs and leases (jobs.go), in the suite: every case runs on bbolt and
// PostgreSQL. With PostgreSQL the two claimers are two handles (two
// connection pools, as two processes have); bbolt is one process per
// file, so there the second claimer is the same store.

// twoClaimers opens the case's store and a second claimer on it.
func twoClaimers(t *testing.T, open opener) (a, b Backend) {
	a = open(t)
	if _, bolt := a.(*Store); bolt {
		return a, a
	}
	return a, open(t)
}

func addJobs(t *testing.T, s Backend, kind string, n int, due time.Time) []string {
	t.Helper()
	var keys []string
	for i := range n {
		k := fmt.Sprintf("g%02d", i)
		if added, err := s.AddJob(Job{Kind: kind, Key: k, Rev: 1, Due: due.Add(time.Duration(i-n) * time.Millisecond)}, false); err != nil || !added {
			t.Fatalf("add %s: %v %v", k, added, err)
		}
		keys = append(keys, k)
	}
	return keys
}

// Two claimers racing over the same due jobs: every job is handed out,
// none twice.
func suiteJobsClaimedOnce(t *testing.T, open opener) {
	a, b := twoClaimers(t, open)
	want := addJobs(t, a, JobBotMove, 40, t0)
	now := t0.Add(time.Minute)
	var mu sync.Mutex
	var got []string
	var wg sync.WaitGroup
	for _, s := range []Backend{a, b, a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				js, err := s.ClaimJobs(JobBotMove, now, 3)
				if err != nil {
					t.Error(err)
					return
				}
				if len(js) == 0 {
					return
				}
				mu.Lock()
				if len(got) > 2*len(want) {
					mu.Unlock()
					return // handed out again and again: the check below fails
				}
				for _, j := range js {
					if j.LockedBy != s.LeaseOwner() || !j.LockedUntil.After(now) {
						t.Errorf("claimed %+v, owner %s", j, s.LeaseOwner())
					}
					got = append(got, j.Key)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("claimed %d jobs %v, want each of %d once", len(got), got, len(want))
	}
	// Not yet due: not claimed.
	if _, err := a.AddJob(Job{Kind: JobBotMove, Key: "later", Rev: 1, Due: now.Add(time.Hour)}, false); err != nil {
		t.Fatal(err)
	}
	if js, _ := b.ClaimJobs(JobBotMove, now, 10); len(js) != 0 {
		t.Fatalf("claimed while leased or not due: %+v", js)
	}
}

// A lease that runs out (its process died) is taken over; one renewed
// is not; an old holder's release does not free the new holder's lease.
func suiteExpiredLeaseTakenOver(t *testing.T, open opener) {
	a, b := twoClaimers(t, open)
	addJobs(t, a, JobBotMove, 2, t0)
	js, err := a.ClaimJobs(JobBotMove, t0, 10)
	if err != nil || len(js) != 2 || js[0].Key != "g00" || js[1].Key != "g01" {
		t.Fatalf("first claim: %+v %v", js, err)
	}
	if got, _ := b.ClaimJobs(JobBotMove, t0.Add(DefaultLease-time.Second), 10); len(got) != 0 {
		t.Fatalf("claimed under a live lease: %+v", got)
	}
	// The holder renews (it is alive), then stops renewing (it died).
	if n, err := a.RenewLeases(t0.Add(DefaultLease - time.Second)); err != nil || n < 2 {
		t.Fatalf("renewed %d leases: %v", n, err)
	}
	if got, _ := b.ClaimJobs(JobBotMove, t0.Add(DefaultLease+time.Second), 10); len(got) != 0 {
		t.Fatalf("claimed under a renewed lease: %+v", got)
	}
	later := t0.Add(2*DefaultLease + time.Second)
	taken, err := b.ClaimJobs(JobBotMove, later, 10)
	if err != nil || len(taken) != 2 || taken[0].LockedBy != b.LeaseOwner() {
		t.Fatalf("taking over: %+v %v", taken, err)
	}
	if a != b {
		// The old holder wakes up and releases what it thinks it holds.
		if err := a.EndJob(js[0], false); err != nil {
			t.Fatal(err)
		}
		if got, _ := a.ClaimJobs(JobBotMove, later, 10); len(got) != 0 {
			t.Fatalf("an old holder's release freed the new holder's lease: %+v", got)
		}
	}
}

// A released lease is claimable at once, by EndJob or ReleaseLeases.
func suiteReleasedLeaseClaimable(t *testing.T, open opener) {
	a, b := twoClaimers(t, open)
	addJobs(t, a, JobBotMove, 3, t0)
	js, err := a.ClaimJobs(JobBotMove, t0, 10)
	if err != nil || len(js) != 3 {
		t.Fatalf("claim: %+v %v", js, err)
	}
	if err := a.EndJob(js[0], false); err != nil {
		t.Fatal(err)
	}
	if got, _ := b.ClaimJobs(JobBotMove, t0, 10); len(got) != 1 || got[0].Key != "g00" {
		t.Fatalf("after EndJob: %+v", got)
	}
	if err := a.ReleaseLeases(); err != nil {
		t.Fatal(err)
	}
	if a != b {
		// b's own lease on g00 is not a's to release.
		if got, _ := b.ClaimJobs(JobBotMove, t0, 10); len(got) != 2 || got[0].Key != "g01" {
			t.Fatalf("after ReleaseLeases: %+v", got)
		}
	} else if got, _ := b.ClaimJobs(JobBotMove, t0, 10); len(got) != 3 {
		t.Fatalf("after ReleaseLeases: %+v", got)
	}
	// Done: gone for everyone.
	if err := b.EndJob(Job{Kind: JobBotMove, Key: "g01", Rev: 1}, true); err != nil {
		t.Fatal(err)
	}
	if err := b.ReleaseLeases(); err != nil {
		t.Fatal(err)
	}
	got, _ := a.ClaimJobs(JobBotMove, t0, 10)
	keys := []string{}
	for _, j := range got {
		keys = append(keys, j.Key)
	}
	if !slices.Equal(keys, []string{"g00", "g02"}) {
		t.Fatalf("after done: %v", keys)
	}
}

// A job's revisions: a newer one replaces an older (lease and all), an
// older one is refused, an equal one too unless its adder claims it and
// no other process holds it; ending an old revision leaves the newer job
// alone.
func suiteJobRevisions(t *testing.T, open opener) {
	s, other := twoClaimers(t, open)
	add := func(s Backend, rev uint64, claim bool, want bool) {
		t.Helper()
		j := Job{Kind: JobBotMove, Key: "g1", Rev: rev, Due: t0}
		if added, err := s.AddJob(j, claim); err != nil || added != want {
			t.Fatalf("add rev %d: %v %v, want %v", rev, added, err, want)
		}
	}
	add(s, 2, false, true)
	add(s, 2, false, false)
	add(s, 1, false, false)
	add(s, 1, true, false)
	add(s, 2, true, true) // nobody held it
	add(s, 3, true, true) // taken by its adder
	add(s, 3, true, true) // its own
	// Another process adding the same job finds it held: the search is the
	// holder's. (bbolt has one process: there the adder is the holder.)
	add(other, 3, true, s == other)
	if got, _ := s.ClaimJobs(JobBotMove, t0, 10); len(got) != 0 {
		t.Fatalf("claimed a job its adder holds: %+v", got)
	}
	if err := s.EndJob(Job{Kind: JobBotMove, Key: "g1", Rev: 2}, true); err != nil {
		t.Fatal(err)
	}
	if err := s.EndJob(Job{Kind: JobBotMove, Key: "g1", Rev: 2}, false); err != nil {
		t.Fatal(err)
	}
	got, _ := s.ClaimJobs(JobBotMove, t0.Add(DefaultLease+time.Second), 10)
	if len(got) != 1 || got[0].Rev != 3 {
		t.Fatalf("the newer job after ending an older: %+v", got)
	}
	// A change that makes the job void ends it whatever revision it had.
	if err := s.EndJob(Job{Kind: JobBotMove, Key: "g1", Rev: 4}, true); err != nil {
		t.Fatal(err)
	}
	if st := jobStat(t, s, JobBotMove, t0.Add(3*time.Hour)); st.Due != 0 {
		t.Fatalf("a void job is left: %+v", st)
	}
	if _, err := s.AddJob(Job{Kind: JobClock, Key: "g1", Due: t0}, false); !errors.Is(err, errClockJob) {
		t.Fatalf("adding a clock job by hand: %v", err)
	}
}

func jobStat(t *testing.T, s Backend, kind string, now time.Time) JobStat {
	t.Helper()
	st, err := s.JobStats(now)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range st {
		if x.Kind == kind {
			return x
		}
	}
	t.Fatalf("no stat for %s in %+v", kind, st)
	return JobStat{}
}

// Clock jobs follow the games' deadlines: written with the game, moved
// by a save, gone when the game ends or is forgotten; the lease of a
// game whose deadline moved holds until released.
func suiteClockJobs(t *testing.T, open opener) {
	a, b := twoClaimers(t, open)
	mk := func(due time.Duration) *Game {
		g := &Game{Variant: "standard", Channel: "c", White: Player{ID: "a"}, Black: Player{ID: "b"}, Clock: &Clock{Control: "1d", Due: t0.Add(due)}}
		if err := a.CreateGame(g, "", t0); err != nil {
			t.Fatal(err)
		}
		return g
	}
	g1, g2 := mk(time.Hour), mk(2*time.Hour)
	if st := jobStat(t, a, JobClock, t0.Add(3*time.Hour)); st.Due != 2 || st.Lag != 2*time.Hour {
		t.Fatalf("clock stats: %+v", st)
	}
	claim := func(s Backend, at time.Duration, want ...string) []Job {
		t.Helper()
		js, err := s.ClaimJobs(JobClock, t0.Add(at), 10)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, j := range js {
			keys = append(keys, j.Key)
		}
		if !slices.Equal(keys, want) {
			t.Fatalf("clock claim at +%v: %v, want %v", at, keys, want)
		}
		return js
	}
	claim(a, 0)
	held := claim(a, 90*time.Minute, g1.ID)
	claim(b, 90*time.Minute)
	// The job's work: the game saved with its next deadline, then released.
	g1.Clock.Due = t0.Add(4 * time.Hour)
	if err := a.SaveGame(g1, "", t0.Add(90*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := a.EndJob(held[0], false); err != nil {
		t.Fatal(err)
	}
	claim(b, 3*time.Hour, g2.ID)
	g2.Result = "1-0"
	if err := b.SaveGame(g2, "", t0.Add(3*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := a.ForgetDue(g1.ID); err != nil {
		t.Fatal(err)
	}
	claim(a, 10*time.Hour)
	claim(b, 10*time.Hour)
}

// Outbox records are posted by the process that wrote them: another
// claims them only when the writer's lease ran out or the writer handed
// them over.
func suiteOutboxClaimed(t *testing.T, open opener) {
	a, b := twoClaimers(t, open)
	g := newGame("a", "b", "tg:1")
	if err := a.CreateGame(g, "", t0, &Outgoing{Channel: "tg:1", Caption: "start"}); err != nil {
		t.Fatal(err)
	}
	claim := func(s Backend, at time.Time, want int) []*Outgoing {
		t.Helper()
		got, err := s.ClaimOutgoing("tg:", at)
		if err != nil || len(got) != want {
			t.Fatalf("claimed %d records, want %d: %v", len(got), want, err)
		}
		return got
	}
	claim(b, t0, 0)
	if err := a.ReplaceOutgoing(nil, t0, &Outgoing{Channel: "tg:1", Reply: []byte(`{"text":"kept"}`)}); err != nil {
		t.Fatal(err)
	}
	if got := claim(b, t0, 1); string(got[0].Reply) != `{"text":"kept"}` {
		t.Fatalf("claimed %+v, want the handed-over record", got[0])
	}
	claim(a, t0, 0) // now b's
	later := t0.Add(DefaultLease + time.Second)
	if st := jobStat(t, a, "outbox", later); st.Due != 2 || st.Lag != later.Sub(t0) {
		t.Fatalf("outbox stats: %+v", st)
	}
	if _, bolt := a.(*Store); bolt {
		// One process per file: the writer's records are an earlier run's
		// after a restart.
		a.Close()
		c := open(t)
		claim(c, t0, 2)
		return
	}
	if got := claim(b, later, 2); got[0].Caption != "start" {
		t.Fatalf("oldest first: %+v", got)
	}
}
