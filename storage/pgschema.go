package storage

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Postgres keeps the same records as Store in a PostgreSQL database, for
// several bot processes sharing one. Records are the same versioned JSON
// as in bbolt (decode and the migrate functions apply unchanged); the
// columns beside them are what the queries select and order by. Every
// write is one transaction; what bbolt gets from having one writer at a
// time is got here from row locks (SELECT … FOR UPDATE on the game or
// challenge), unique keys (event ids, web names) and transaction-scoped
// advisory locks on the users whose caps or ratings are read and written.
type Postgres struct {
	pool    *pgxpool.Pool
	log     *slog.Logger
	timeout time.Duration
	// owner names this handle's leases on jobs and outbox records; lease
	// is how long they last unrenewed (pgjobs.go).
	owner string
	lease time.Duration
}

// pgMigrations are the schema steps; step i brings the schema to version
// i+1. Steps are only ever appended: a database records the version it is
// at, and a binary refuses a database newer than its last step.
var pgMigrations = []string{
	// 1: everything the bbolt buckets hold. Times the queries compare are
	// unix nanoseconds (as in bbolt's keys), so nothing is rounded to
	// PostgreSQL's microseconds; ids compare bytewise (COLLATE "C") so
	// orders match bbolt's.
	`CREATE TABLE counters (name text PRIMARY KEY, n bigint NOT NULL);
INSERT INTO counters VALUES ('game', 0), ('challenge', 0);
CREATE SEQUENCE outbox_seq;
CREATE TABLE games (
	id text COLLATE "C" PRIMARY KEY,
	seq bigint NOT NULL,
	channel text COLLATE "C" NOT NULL,
	white text COLLATE "C" NOT NULL,
	black text COLLATE "C" NOT NULL,
	active boolean NOT NULL,
	due_ns bigint,
	ended_ns bigint,
	data bytea NOT NULL);
CREATE INDEX games_channel_active ON games (channel, seq) WHERE active;
CREATE INDEX games_white_active ON games (white, seq) WHERE active;
CREATE INDEX games_black_active ON games (black, seq) WHERE active;
CREATE INDEX games_due ON games (due_ns, id) WHERE due_ns IS NOT NULL;
CREATE INDEX games_finished ON games (channel, ended_ns, id) WHERE NOT active;
CREATE TABLE challenges (
	id text COLLATE "C" PRIMARY KEY,
	seq bigint NOT NULL,
	channel text COLLATE "C" NOT NULL,
	from_id text COLLATE "C" NOT NULL,
	expires_ns bigint NOT NULL,
	data bytea NOT NULL);
CREATE INDEX challenges_channel ON challenges (channel, seq);
CREATE INDEX challenges_from ON challenges (from_id, seq);
CREATE TABLE settings (user_id text COLLATE "C" PRIMARY KEY, data bytea NOT NULL);
CREATE TABLE events (id text COLLATE "C" PRIMARY KEY, at_ns bigint NOT NULL);
CREATE INDEX events_at ON events (at_ns);
CREATE TABLE ratings (
	variant text COLLATE "C" NOT NULL,
	user_id text COLLATE "C" NOT NULL,
	data bytea NOT NULL,
	PRIMARY KEY (variant, user_id));
CREATE INDEX ratings_user ON ratings (user_id, variant);
CREATE TABLE outbox (seq bigint PRIMARY KEY, channel text COLLATE "C" NOT NULL, data bytea NOT NULL);
CREATE TABLE outbox_refused (
	channel text COLLATE "C" NOT NULL,
	id text COLLATE "C" NOT NULL,
	data bytea NOT NULL,
	PRIMARY KEY (channel, id));
CREATE TABLE web_names (key text COLLATE "C" PRIMARY KEY, data bytea NOT NULL);`,
	// 2: small records looked up by a key of one or two parts (bbolt's
	// "a \0 b" keys): message keys, kept buttons, follows, reviews,
	// puzzles. One table serves every such kind; at_ns is set for the
	// kinds pruned by age.
	`CREATE TABLE keyed (
	kind text COLLATE "C" NOT NULL,
	k1 text COLLATE "C" NOT NULL,
	k2 text COLLATE "C" NOT NULL,
	at_ns bigint,
	data bytea NOT NULL,
	PRIMARY KEY (kind, k1, k2));
CREATE INDEX keyed_at ON keyed (kind, at_ns) WHERE at_ns IS NOT NULL;
INSERT INTO counters VALUES ('button', 0);`,
	// 3: the web chat's shared log (pgweb.go): what one process's web
	// chat shows, read by every process serving the same chat, and the
	// pictures those events show. Both expire; nothing here is migrated.
	`CREATE TABLE web_log (id bigserial PRIMARY KEY, expires_ns bigint NOT NULL, data bytea NOT NULL);
CREATE INDEX web_log_expires ON web_log (expires_ns);
CREATE TABLE web_images (
	id text COLLATE "C" PRIMARY KEY,
	at_ns bigint NOT NULL,
	expires_ns bigint NOT NULL,
	meta bytea NOT NULL,
	data bytea NOT NULL);
CREATE INDEX web_images_at ON web_images (at_ns);`,
	// 4: jobs claimed by one process at a time under a lease (jobs.go),
	// and leases on outbox records. Clock jobs mirror games.due_ns and are
	// written with the game; the games with a deadline get theirs here.
	`CREATE TABLE jobs (
	kind text COLLATE "C" NOT NULL,
	key text COLLATE "C" NOT NULL,
	rev bigint NOT NULL DEFAULT 0,
	due_ns bigint NOT NULL,
	locked_by text,
	locked_until_ns bigint,
	PRIMARY KEY (kind, key));
CREATE INDEX jobs_due ON jobs (kind, due_ns, key);
INSERT INTO jobs (kind, key, due_ns) SELECT 'clock', id, due_ns FROM games WHERE due_ns IS NOT NULL;
ALTER TABLE outbox ADD COLUMN locked_by text, ADD COLUMN locked_until_ns bigint;`,
}

// SchemaVersion is the schema version this binary writes and reads.
var SchemaVersion = len(pgMigrations)

// ErrSchemaNewer: the database was brought to a schema by a newer
// topochess; this one would misread it, so it does not start.
var ErrSchemaNewer = errors.New("database schema is newer than this topochess")

// schemaLock serialises schema steps between processes starting at once.
const schemaLock = 0x746f706f6368 // "topoch"

// OpenPostgres connects to the database at url (a postgres:// URL or a
// key=value string) and brings its schema up to date.
func OpenPostgres(url string, opt Options) (*Postgres, error) {
	if opt.Timeout <= 0 {
		opt.Timeout = 10 * time.Second
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's message may quote the URL, password included.
		return nil, errors.New("storage: postgres_url does not parse as a PostgreSQL URL or key=value string")
	}
	ctx, cancel := context.WithTimeout(context.Background(), opt.Timeout)
	defer cancel()
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("storage: postgres: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("storage: postgres: the database does not answer: %w\n(check storage.postgres_url / TOPOCHESS_POSTGRES_URL and that the server runs)", err)
	}
	if opt.Lease <= 0 {
		opt.Lease = DefaultLease
	}
	p := &Postgres{pool: pool, log: opt.Logger, timeout: opt.Timeout, owner: newOwner(), lease: opt.Lease}
	if err := p.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return p, nil
}

func (p *Postgres) migrate(ctx context.Context) error {
	return pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(schemaLock)); err != nil {
			return fmt.Errorf("storage: postgres: %w", err)
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS topochess_schema (version int NOT NULL)`); err != nil {
			return fmt.Errorf("storage: postgres: %w", err)
		}
		v := 0
		err := tx.QueryRow(ctx, `SELECT version FROM topochess_schema`).Scan(&v)
		if errors.Is(err, pgx.ErrNoRows) {
			_, err = tx.Exec(ctx, `INSERT INTO topochess_schema VALUES (0)`)
		}
		if err != nil {
			return fmt.Errorf("storage: postgres: %w", err)
		}
		if v > len(pgMigrations) {
			return fmt.Errorf("storage: postgres: %w (schema %d, this one knows up to %d): run the newer topochess, or restore a backup taken before it", ErrSchemaNewer, v, len(pgMigrations))
		}
		for i := v; i < len(pgMigrations); i++ {
			if _, err := tx.Exec(ctx, pgMigrations[i]); err != nil {
				return fmt.Errorf("storage: postgres: schema step %d: %w", i+1, err)
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE topochess_schema SET version = $1`, len(pgMigrations)); err != nil {
			return fmt.Errorf("storage: postgres: %w", err)
		}
		return nil
	})
}

// Close closes the connections.
func (p *Postgres) Close() error {
	p.pool.Close()
	return nil
}

// Ping reports whether the database answers.
func (p *Postgres) Ping(ctx context.Context) error { return p.pool.Ping(ctx) }

// ctx bounds one call: a database that stops answering fails the command
// instead of hanging it.
func (p *Postgres) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), p.timeout)
}

// rowQuerier is a pool or a transaction: reads outside a write need no
// transaction of their own (one round trip instead of three).
type rowQuerier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// update runs fn in one read-write transaction.
func (p *Postgres) update(fn func(ctx context.Context, tx pgx.Tx) error) error {
	ctx, cancel := p.ctx()
	defer cancel()
	return pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error { return fn(ctx, tx) })
}

func (p *Postgres) skipped(kind, id string, err error) {
	p.log.Error("storage: a damaged record is left out", "record", kind, "id", id, "err", err)
}

// pgRecords runs a query selecting (key, data) and decodes each row into
// a new T, leaving out (and logging as kind) the rows that do not decode:
// one damaged record must not hold back all the others.
func pgRecords[T any](p *Postgres, kind string, migrate func(v int, raw map[string]any) error, q string, args ...any) ([]*T, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	rows, err := p.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*T
	for rows.Next() {
		var key string
		var data []byte
		if err := rows.Scan(&key, &data); err != nil {
			return nil, err
		}
		rec := new(T)
		if err := decode(data, rec, migrate); err != nil {
			p.skipped(kind, key, err)
			continue
		}
		out = append(out, rec)
	}
	return out, rows.Err()
}

// pgMarkEvent is markEvent: the primary key makes a second transaction
// with the same id wait for the first and then find it.
func pgMarkEvent(ctx context.Context, tx pgx.Tx, eventID string, now time.Time) error {
	if eventID == "" {
		return nil
	}
	tag, err := tx.Exec(ctx, `INSERT INTO events VALUES ($1, $2) ON CONFLICT DO NOTHING`, eventID, now.UnixNano())
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return ErrDuplicate
	}
	return nil
}

// SeenEvent reports whether an event id was applied.
func (p *Postgres) SeenEvent(eventID string) (bool, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	var seen bool
	err := p.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM events WHERE id = $1)`, eventID).Scan(&seen)
	return seen, err
}

// PruneEvents forgets event ids applied before t.
func (p *Postgres) PruneEvents(before time.Time) (int, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	tag, err := p.pool.Exec(ctx, `DELETE FROM events WHERE at_ns < $1`, before.UnixNano())
	return int(tag.RowsAffected()), err
}

// lockUsers takes transaction-scoped locks on users, in one order so two
// transactions never wait on each other in a circle.
func lockUsers(ctx context.Context, tx pgx.Tx, ids ...string) error {
	keys := make([]string, 0, len(ids))
	for _, id := range ids {
		if id == "" {
			continue
		}
		k := "user\x1f" + id
		dup := false
		for _, o := range keys {
			dup = dup || o == k
		}
		if !dup {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, k); err != nil {
			return err
		}
	}
	return nil
}

// nextCounter is NextSequence: a row bumped inside the transaction, so an
// id is only used up when the record is written (no gaps, as in bbolt).
func nextCounter(ctx context.Context, tx pgx.Tx, name string) (uint64, error) {
	var n int64
	err := tx.QueryRow(ctx, `UPDATE counters SET n = n + 1 WHERE name = $1 RETURNING n`, name).Scan(&n)
	return uint64(n), err
}
