package storage

import (
	"context"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// Jobs and outbox leases on PostgreSQL (jobs.go says what they are for).
// A claim is one statement: the due rows not under a live lease are
// picked with FOR UPDATE SKIP LOCKED, so two processes claiming at once
// take different rows instead of waiting for each other, and are leased
// to the claimer in the same statement. Lease times are the callers'
// clocks, like the games' deadlines: the processes' machines keep time.

// pgLease is the lease a written outbox record gets (zero: none).
type pgLease struct {
	by    *string
	until *int64
}

// leaseAt is the lease of a record this process writes at now.
func (p *Postgres) leaseAt(now time.Time) pgLease {
	until := now.Add(p.lease).UnixNano()
	return pgLease{by: &p.owner, until: &until}
}

// LeaseOwner is the name this handle's leases are held under.
func (p *Postgres) LeaseOwner() string { return p.owner }

func nsOrNil(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	n := t.UnixNano()
	return &n
}

// AddJob schedules a job unless one of its kind and key with the same or
// a higher Rev exists (added false); with claim, leased to this handle,
// taking a job of the same Rev that no other process holds.
func (p *Postgres) AddJob(j Job, claim bool) (bool, error) {
	if j.Kind == JobClock {
		return false, errClockJob
	}
	var by *string
	var until *int64
	if claim {
		by, until = &p.owner, nsOrNil(j.Due.Add(p.lease))
	}
	ctx, cancel := p.ctx()
	defer cancel()
	tag, err := p.pool.Exec(ctx, `INSERT INTO jobs (kind, key, rev, due_ns, locked_by, locked_until_ns) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (kind, key) DO UPDATE SET rev = $3, due_ns = $4, locked_by = $5, locked_until_ns = $6
		WHERE jobs.rev < $3 OR ($5 IS NOT NULL AND jobs.rev = $3
			AND (jobs.locked_by IS NULL OR jobs.locked_by = $5 OR jobs.locked_until_ns <= $4))`,
		j.Kind, j.Key, int64(j.Rev), j.Due.UnixNano(), by, until)
	return tag.RowsAffected() > 0, err
}

// ClaimJobs leases to this handle up to n jobs of a kind that are due at
// now and not held under a live lease, soonest first.
func (p *Postgres) ClaimJobs(kind string, now time.Time, n int) ([]Job, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	at, until := now.UnixNano(), now.Add(p.lease).UnixNano()
	rows, err := p.pool.Query(ctx, `WITH c AS (
			SELECT kind, key FROM jobs
			WHERE kind = $1 AND due_ns <= $2 AND (locked_until_ns IS NULL OR locked_until_ns <= $2)
			ORDER BY due_ns, key LIMIT $3 FOR UPDATE SKIP LOCKED)
		UPDATE jobs SET locked_by = $4, locked_until_ns = $5 FROM c
		WHERE jobs.kind = c.kind AND jobs.key = c.key
		RETURNING jobs.key, jobs.rev, jobs.due_ns`, kind, at, n, p.owner, until)
	if err != nil {
		return nil, err
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Job, error) {
		var key string
		var rev, due int64
		err := row.Scan(&key, &rev, &due)
		return Job{Kind: kind, Key: key, Rev: uint64(rev), Due: time.Unix(0, due), LockedBy: p.owner, LockedUntil: time.Unix(0, until)}, err
	})
	// RETURNING comes in no set order.
	sortJobs(out)
	return out, err
}

// EndJob ends this handle's work on a job: done deletes it unless a
// newer Rev replaced it; not done releases its lease. A clock job is only
// released: its due time moves with the game.
func (p *Postgres) EndJob(j Job, done bool) error {
	ctx, cancel := p.ctx()
	defer cancel()
	var err error
	if done && j.Kind != JobClock {
		_, err = p.pool.Exec(ctx, `DELETE FROM jobs WHERE kind = $1 AND key = $2 AND rev <= $3`, j.Kind, j.Key, int64(j.Rev))
	} else {
		_, err = p.pool.Exec(ctx, `UPDATE jobs SET locked_by = NULL, locked_until_ns = NULL
			WHERE kind = $1 AND key = $2 AND rev = $3 AND locked_by = $4`, j.Kind, j.Key, int64(j.Rev), p.owner)
	}
	return err
}

// RenewLeases extends every lease this handle holds, on jobs and outbox
// records, to now plus the lease.
func (p *Postgres) RenewLeases(now time.Time) (int, error) {
	n := 0
	until := now.Add(p.lease).UnixNano()
	err := p.update(func(ctx context.Context, tx pgx.Tx) error {
		for _, table := range []string{"jobs", "outbox"} {
			tag, err := tx.Exec(ctx, `UPDATE `+table+` SET locked_until_ns = $2 WHERE locked_by = $1`, p.owner, until)
			if err != nil {
				return err
			}
			n += int(tag.RowsAffected())
		}
		return nil
	})
	return n, err
}

// ReleaseLeases gives up every lease this handle holds (a graceful stop).
func (p *Postgres) ReleaseLeases() error {
	return p.update(func(ctx context.Context, tx pgx.Tx) error {
		for _, table := range []string{"jobs", "outbox"} {
			if _, err := tx.Exec(ctx, `UPDATE `+table+` SET locked_by = NULL, locked_until_ns = NULL WHERE locked_by = $1`, p.owner); err != nil {
				return err
			}
		}
		return nil
	})
}

// JobStats reports per kind (JobKinds) the due jobs and their lag.
func (p *Postgres) JobStats(now time.Time) ([]JobStat, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	at := now.UnixNano()
	stats := map[string]*JobStat{}
	for _, k := range JobKinds {
		stats[k] = &JobStat{Kind: k}
	}
	rows, err := p.pool.Query(ctx, `SELECT kind, count(*), min(due_ns) FROM jobs WHERE due_ns <= $1 GROUP BY kind`, at)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var kind string
		var n, oldest int64
		if err := rows.Scan(&kind, &n, &oldest); err != nil {
			rows.Close()
			return nil, err
		}
		stats[kind] = &JobStat{Kind: kind, Due: int(n), Lag: time.Duration(at - oldest)}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var n int
	var first []byte
	err = p.pool.QueryRow(ctx, `SELECT count(*), (SELECT data FROM outbox ORDER BY seq LIMIT 1) FROM outbox`).Scan(&n, &first)
	if err != nil {
		return nil, err
	}
	box := stats["outbox"]
	box.Due = n
	var o Outgoing
	if first != nil && decode(first, &o, nil) == nil && !o.Created.IsZero() {
		box.Lag = max(now.Sub(o.Created), 0)
	}
	out := make([]JobStat, 0, len(stats))
	for _, st := range stats {
		out = append(out, *st)
	}
	sortStats(out)
	return out, nil
}

// ClaimOutgoing leases to this handle the outbox records of channels
// starting with prefix that no live process holds, oldest first.
func (p *Postgres) ClaimOutgoing(prefix string, now time.Time) ([]*Outgoing, error) {
	at, until := now.UnixNano(), now.Add(p.lease).UnixNano()
	out, err := p.outgoing(`WITH c AS (
			SELECT seq FROM outbox
			WHERE starts_with(channel, $1) AND (locked_until_ns IS NULL OR locked_until_ns <= $2)
			FOR UPDATE SKIP LOCKED)
		UPDATE outbox SET locked_by = $3, locked_until_ns = $4 FROM c WHERE outbox.seq = c.seq
		RETURNING outbox.seq::text, outbox.data`, prefix, at, p.owner, until)
	// Ids are fixed-width hex of the sequence: their order is the write order.
	slices.SortFunc(out, func(a, b *Outgoing) int { return cmpString(a.ID, b.ID) })
	return out, err
}
