package storage

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Jobs are the bot's background work that must be done by exactly one
// process: a clock's reminder or loss on time, the computer's move,
// challenge expiry. A process claims due jobs and holds each under a lease
// (LockedBy, LockedUntil) that it renews while it works; a job whose lease
// ran out — its process died, even by SIGKILL — is claimed by another.
// The effect of a job is protected by the game's revision check, so a
// job done twice (a lease lost to a stall) changes nothing.
//
// Outbox records are leased the same way: a record is posted by the
// process that wrote it, or, once its lease runs out, by the one that
// claims it (ClaimOutgoing).
//
// On PostgreSQL the leases are columns of the jobs and outbox tables,
// claimed with SELECT … FOR UPDATE SKIP LOCKED. bbolt is one process per
// file: its jobs and leases live in memory, with the same methods, so the
// bot has one code path; what must survive a restart there is rebuilt at
// start from the records (the clock's deadline index, the games where the
// computer is to move).

// Job kinds. Clock jobs follow the games' clocks: saving a game schedules
// (or removes) its clock job in the same transaction, so they are never
// added by hand.
const (
	JobClock   = "clock"      // key: game id; due: the clock's next event
	JobBotMove = "bot"        // key: game id; rev: the game revision to answer
	JobExpiry  = "challenges" // key: ""; challenge expiry, periodic
)

// JobKinds are the kinds JobStats reports, and "outbox".
var JobKinds = []string{JobClock, JobBotMove, JobExpiry, "outbox"}

// DefaultLease is how long a claimed job or a written outbox record stays
// with its process without being renewed.
const DefaultLease = 30 * time.Second

// Job is one piece of background work.
type Job struct {
	Kind string
	Key  string
	// Rev orders versions of a job: a job with a higher Rev replaces one
	// with a lower (AddJob), and ending a job only touches its own Rev.
	Rev         uint64
	Due         time.Time
	LockedBy    string
	LockedUntil time.Time
}

// JobStat is how much work of a kind is waiting: Due jobs whose time has
// come (claimed or not), and the age of the oldest of them (its lag).
// For "outbox": the pending records and the age of the oldest.
type JobStat struct {
	Kind string
	Due  int
	Lag  time.Duration
}

// errClockJob: clock jobs are written with their games.
var errClockJob = errors.New("storage: clock jobs follow the games' clocks and are not added by hand")

// newOwner names this process's leases: host, pid and a random part, so
// two stores opened by one process (tests) are two claimers.
func newOwner() string {
	host, _ := os.Hostname()
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s:%d:%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

type jobKey struct{ kind, key string }

// memJobs is bbolt's in-process job table and lease book.
type memJobs struct {
	mu    sync.Mutex
	owner string
	lease time.Duration
	jobs  map[jobKey]*Job
	// clock holds the leases of clock jobs (the jobs are the due index).
	clock map[string]time.Time
	// outFloor is the outbox's last id at open: records up to it are an
	// earlier run's and may be claimed; later ones were written by this
	// process and are posted by it, unless handed over (released).
	outFloor    uint64
	outReleased map[string]bool
	outClaimed  map[string]time.Time
}

func newMemJobs(db *bolt.DB, lease time.Duration) (*memJobs, error) {
	m := &memJobs{owner: newOwner(), lease: lease, jobs: map[jobKey]*Job{}, clock: map[string]time.Time{},
		outReleased: map[string]bool{}, outClaimed: map[string]time.Time{}}
	err := db.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bOutbox); b != nil {
			m.outFloor = b.Sequence()
		}
		return nil
	})
	return m, err
}

// LeaseOwner is the name this store's leases are held under.
func (s *Store) LeaseOwner() string { return s.jobs.owner }

// AddJob schedules a job unless one of its kind and key with the same or
// a higher Rev exists (added false). With claim the job is leased to this
// store from j.Due (its adder starts on it at once), and a job of the same
// Rev is taken over unless another process holds it under a live lease
// (added false: that process does the work). Without claim, any process
// may claim the job.
func (s *Store) AddJob(j Job, claim bool) (bool, error) {
	if j.Kind == JobClock {
		return false, errClockJob
	}
	m := s.jobs
	m.mu.Lock()
	defer m.mu.Unlock()
	k := jobKey{j.Kind, j.Key}
	if old := m.jobs[k]; old != nil && old.Rev >= j.Rev {
		free := old.LockedBy == "" || old.LockedBy == m.owner || !old.LockedUntil.After(j.Due)
		if !claim || old.Rev > j.Rev || !free {
			return false, nil
		}
	}
	c := j
	c.LockedBy, c.LockedUntil = "", time.Time{}
	if claim {
		c.LockedBy, c.LockedUntil = m.owner, j.Due.Add(m.lease)
	}
	m.jobs[k] = &c
	return true, nil
}

// ClaimJobs leases to this store up to n jobs of a kind that are due at
// now and not held under a live lease, soonest first.
func (s *Store) ClaimJobs(kind string, now time.Time, n int) ([]Job, error) {
	var due []Job
	if kind == JobClock {
		var err error
		if due, err = s.dueJobs(now); err != nil {
			return nil, err
		}
	}
	m := s.jobs
	m.mu.Lock()
	defer m.mu.Unlock()
	if kind != JobClock {
		for _, j := range m.jobs {
			if j.Kind == kind && !j.Due.After(now) {
				due = append(due, *j)
			}
		}
		sortJobs(due)
	}
	until := now.Add(m.lease)
	var out []Job
	for _, j := range due {
		if len(out) >= n {
			break
		}
		if kind == JobClock {
			if held, ok := m.clock[j.Key]; ok && held.After(now) {
				continue
			}
			m.clock[j.Key] = until
		} else {
			stored := m.jobs[jobKey{kind, j.Key}]
			if stored.LockedBy != "" && stored.LockedUntil.After(now) {
				continue
			}
			stored.LockedBy, stored.LockedUntil = m.owner, until
		}
		j.LockedBy, j.LockedUntil = m.owner, until
		out = append(out, j)
	}
	return out, nil
}

// sortJobs orders jobs as they are claimed: soonest first, then by key.
func sortJobs(js []Job) {
	slices.SortFunc(js, func(a, b Job) int {
		if c := a.Due.Compare(b.Due); c != 0 {
			return c
		}
		return cmpString(a.Key, b.Key)
	})
}

func sortStats(st []JobStat) {
	slices.SortFunc(st, func(a, b JobStat) int { return cmpString(a.Kind, b.Kind) })
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// dueJobs reads the deadline index as clock jobs.
func (s *Store) dueJobs(now time.Time) ([]Job, error) {
	var out []Job
	err := s.eachDue(now, func(id string, due time.Time) {
		out = append(out, Job{Kind: JobClock, Key: id, Due: due})
	})
	return out, err
}

// EndJob ends this store's work on a job. done: the job is finished and
// deleted, unless a newer one (a higher Rev) replaced it meanwhile;
// whoever holds it, since a job made void by the game's change is void
// for every process. Not done: its lease is released for any process to
// claim again at its due time. A clock job is only released: its due
// time moves with the game.
func (s *Store) EndJob(j Job, done bool) error {
	m := s.jobs
	m.mu.Lock()
	defer m.mu.Unlock()
	if j.Kind == JobClock {
		delete(m.clock, j.Key)
		return nil
	}
	k := jobKey{j.Kind, j.Key}
	stored := m.jobs[k]
	switch {
	case stored == nil || stored.Rev > j.Rev:
	case done:
		delete(m.jobs, k)
	case stored.Rev == j.Rev && stored.LockedBy == m.owner:
		stored.LockedBy, stored.LockedUntil = "", time.Time{}
	}
	return nil
}

// RenewLeases extends every lease this store holds, jobs and outbox
// records, to now plus the lease; the bot calls it well within a lease.
func (s *Store) RenewLeases(now time.Time) (int, error) {
	m := s.jobs
	m.mu.Lock()
	defer m.mu.Unlock()
	until, n := now.Add(m.lease), 0
	for k := range m.clock {
		m.clock[k] = until
		n++
	}
	for _, j := range m.jobs {
		if j.LockedBy == m.owner {
			j.LockedUntil = until
			n++
		}
	}
	for id := range m.outClaimed {
		m.outClaimed[id] = until
		n++
	}
	return n, nil
}

// ReleaseLeases gives up every lease this store holds (a graceful stop):
// another process may claim the work at once instead of after the lease.
func (s *Store) ReleaseLeases() error {
	m := s.jobs
	m.mu.Lock()
	defer m.mu.Unlock()
	clear(m.clock)
	for _, j := range m.jobs {
		if j.LockedBy == m.owner {
			j.LockedBy, j.LockedUntil = "", time.Time{}
		}
	}
	clear(m.outClaimed)
	return nil
}

// JobStats reports per kind (JobKinds) the due jobs and their lag.
func (s *Store) JobStats(now time.Time) ([]JobStat, error) {
	clock, err := s.dueJobs(now)
	if err != nil {
		return nil, err
	}
	stats := map[string]*JobStat{}
	for _, k := range JobKinds {
		stats[k] = &JobStat{Kind: k}
	}
	add := func(kind string, due time.Time) {
		st := stats[kind]
		if st == nil {
			st = &JobStat{Kind: kind}
			stats[kind] = st
		}
		st.Due++
		st.Lag = max(st.Lag, now.Sub(due))
	}
	for _, j := range clock {
		add(JobClock, j.Due)
	}
	s.jobs.mu.Lock()
	for _, j := range s.jobs.jobs {
		if !j.Due.After(now) {
			add(j.Kind, j.Due)
		}
	}
	s.jobs.mu.Unlock()
	// The outbox's keys are its write order: the first record is the
	// oldest, and the rest need only be counted.
	err = s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bOutbox)
		if b == nil {
			return nil
		}
		st := stats["outbox"]
		st.Due = b.Stats().KeyN
		var o Outgoing
		if _, v := b.Cursor().First(); v != nil && decode(v, &o, nil) == nil && !o.Created.IsZero() {
			st.Lag = max(now.Sub(o.Created), 0)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]JobStat, 0, len(stats))
	for _, st := range stats {
		out = append(out, *st)
	}
	sortStats(out)
	return out, nil
}

// ClaimOutgoing leases to this store the outbox records of channels
// starting with prefix that no live process holds, oldest first: an
// earlier run's, those handed over by a stop (ReplaceOutgoing), and those
// whose writer's lease ran out. Records this process wrote are its own
// to post and are not returned.
func (s *Store) ClaimOutgoing(prefix string, now time.Time) ([]*Outgoing, error) {
	recs, err := s.PendingOutgoing(prefix)
	if err != nil {
		return nil, err
	}
	m := s.jobs
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*Outgoing
	for _, o := range recs {
		n, ok := outboxSeq(o.ID)
		if !ok || (uint64(n) > m.outFloor && !m.outReleased[o.ID]) {
			continue
		}
		if until, held := m.outClaimed[o.ID]; held && until.After(now) {
			continue
		}
		m.outClaimed[o.ID] = now.Add(m.lease)
		out = append(out, o)
	}
	return out, nil
}

// outboxDone forgets the leases of records delivered or replaced.
func (s *Store) outboxDone(ids ...string) {
	m := s.jobs
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, id := range ids {
		delete(m.outClaimed, id)
		delete(m.outReleased, id)
	}
}

// outboxReleased marks records written by a stop's hand-over as free
// for any claimer.
func (s *Store) outboxReleased(out []*Outgoing) {
	m := s.jobs
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, o := range out {
		if o != nil && o.ID != "" {
			m.outReleased[o.ID] = true
		}
	}
}
