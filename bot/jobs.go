package bot

import (
	"context"
	"errors"
	"time"

	"topochess/storage"
)

// Background work as jobs claimed by one process (storage/jobs.go): the
// clock (Tick), challenge expiry, the computer's moves and outbox records
// left by a process that died. Several serve processes may share one
// PostgreSQL database; each claims due jobs under a lease it renews every
// tick, so a job is worked on by one of them, and one whose process died
// is taken over when its lease runs out. Every job's effect is saved with
// the game's revision check, so a job done twice changes nothing. On
// bbolt the same calls run against the store's in-process table.

const (
	// clockBatch is how many clock jobs one claim takes.
	clockBatch = 64
	// ExpiryEvery is how often expired challenges are deleted.
	ExpiryEvery = time.Minute
	// resumeEvery is how often the games where the computer is to move
	// are checked for a job: the job is added after the human's move is
	// saved, and a process that died between the two left none.
	resumeEvery = time.Minute
)

// runJobs is one round of the job loop at now: renew this process's
// leases, then do what is due.
func (s *Service) runJobs(now time.Time) {
	if _, err := s.store.RenewLeases(now); err != nil {
		s.log.Error("jobs: renew leases", "err", err)
	}
	for _, r := range s.Tick(now) {
		s.post(r)
	}
	s.expireChallenges(now)
	s.sweepOutbox(now)
	if s.ai.active() {
		if now.Sub(s.ai.lastResumed()) >= resumeEvery {
			s.resumeBotGames(now)
		} else {
			s.claimBotJobs(now)
		}
	}
}

// ReleaseJobs gives up this process's leases (a graceful stop, after the
// adapters handed their queues over and the computer's workers stopped):
// another process takes the work over at once rather than after a lease.
func (s *Service) ReleaseJobs() {
	if err := s.store.ReleaseLeases(); err != nil {
		s.log.Error("jobs: release leases", "err", err)
	}
}

// JobQueues is the work waiting per job kind, for the metrics.
func (s *Service) JobQueues() ([]storage.JobStat, error) {
	return s.store.JobStats(s.now())
}

// expireChallenges deletes expired challenges when the periodic expiry
// job is due and this process claims it, and schedules the next.
func (s *Service) expireChallenges(now time.Time) {
	// The first process to start makes the job; later ones find it.
	if _, err := s.store.AddJob(storage.Job{Kind: storage.JobExpiry, Due: now}, false); err != nil {
		s.log.Error("jobs: add challenge expiry", "err", err)
		return
	}
	js, err := s.store.ClaimJobs(storage.JobExpiry, now, 1)
	if err != nil {
		s.log.Error("jobs: claim challenge expiry", "err", err)
		return
	}
	for _, j := range js {
		if n, err := s.store.PruneChallenges(now); err != nil {
			s.log.Error("prune challenges", "err", err)
			if err := s.store.EndJob(j, false); err != nil {
				s.log.Error("jobs: release challenge expiry", "err", err)
			}
			continue
		} else if n > 0 {
			s.log.Info("pruned expired challenges", "count", n)
		}
		next := storage.Job{Kind: storage.JobExpiry, Rev: j.Rev + 1, Due: now.Add(ExpiryEvery)}
		if _, err := s.store.AddJob(next, false); err != nil {
			s.log.Error("jobs: schedule challenge expiry", "err", err)
		}
	}
}

// sweepOutbox posts the outbox records a dead process left (its lease ran
// out) for the platforms this process delivers.
func (s *Service) sweepOutbox(now time.Time) {
	for _, platform := range s.boxes.live() {
		recs, err := s.store.ClaimOutgoing(platform+":", now)
		if err != nil {
			s.log.Error("outbox: claim", "platform", platform, "err", err)
			continue
		}
		for _, r := range s.outgoingReplies(recs) {
			s.log.Info("outbox: posting a reply another process left", "platform", platform, "id", r.Outbox)
			s.post(r)
		}
	}
}

// botJob is the job of a task.
func botJob(game string, rev uint64) storage.Job {
	return storage.Job{Kind: storage.JobBotMove, Key: game, Rev: rev}
}

// addBotJob records that the computer is to move in a game at a revision.
// A running pool takes the job itself (mine: its lease); with none, any
// process may claim it. It reports false when another process holds that
// very job: the search is that process's.
func (s *Service) addBotJob(game string, rev uint64, now time.Time, mine bool) bool {
	j := botJob(game, rev)
	j.Due = now
	added, err := s.store.AddJob(j, mine)
	if err != nil {
		// The search goes ahead here; the next resume writes the job.
		s.log.Error("bot: add job", "game", game, "err", err)
		return true
	}
	return added || !mine
}

// endBotJob ends a task's job: done unless the pool stopped under it, in
// which case its lease is released for another process (or the next
// start) to search again.
func (s *Service) endBotJob(t *botTask, stopped bool) {
	if err := s.store.EndJob(botJob(t.game, t.rev), !stopped); err != nil {
		s.log.Error("bot: end job", "game", t.game, "err", err)
	}
}

// resumeBotGames makes sure every active game where the bot is to move
// has a job (a restart, or a process that died before writing one), then
// claims the jobs no live process works on (jobs.go).
func (s *Service) resumeBotGames(now time.Time) {
	s.ai.mu.Lock()
	s.ai.resumed = now
	s.ai.mu.Unlock()
	games, err := s.store.UserActiveGames(BotID)
	if err != nil {
		s.log.Error("bot: list games", "err", err)
		return
	}
	for _, rec := range games {
		if botToMove(rec) {
			s.addBotJob(rec.ID, rec.Rev, now, false)
		}
	}
	s.claimBotJobs(now)
}

// claimBotJobs takes the computer's moves that no live process is
// working on, as many as the workers will soon be free for: a process
// does not hoard what another could search now.
func (s *Service) claimBotJobs(now time.Time) {
	n := s.ai.room()
	if n <= 0 {
		return
	}
	js, err := s.store.ClaimJobs(storage.JobBotMove, now, n)
	if err != nil {
		s.log.Error("bot: claim jobs", "err", err)
		return
	}
	for _, j := range js {
		rec, err := s.store.Game(j.Key)
		if err != nil {
			s.log.Error("bot: load game", "game", j.Key, "err", err)
			var re *storage.RecordError
			// A game gone or damaged has no move to make; anything else
			// may pass, so the job is left for a later claim.
			done := errors.Is(err, storage.ErrNotFound) || errors.As(err, &re)
			if err := s.store.EndJob(j, done); err != nil {
				s.log.Error("bot: end job", "game", j.Key, "err", err)
			}
			continue
		}
		if rec.BotLevel <= 0 || !rec.Active() || !botToMove(rec) {
			if err := s.store.EndJob(j, true); err != nil {
				s.log.Error("bot: end job", "game", j.Key, "err", err)
			}
			continue
		}
		if rec.Rev != j.Rev && !s.addBotJob(rec.ID, rec.Rev, now, true) {
			// The game moved on since the job was written and the computer
			// is to move again; another process has that job.
			continue
		}
		s.log.Info("bot: taking up a move", "game", rec.ID, "rev", rec.Rev)
		s.ai.enqueue(rec.ID, rec.Rev)
	}
}

// RunClock runs the job loop every interval until ctx ends: renewing this
// process's leases, the clocks' reminders and losses on time (posted
// through the platforms' Notify functions), challenge expiry, outbox
// records left by a dead process, and the computer's moves nobody is
// working on.
func (s *Service) RunClock(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		s.runJobs(s.now())
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
