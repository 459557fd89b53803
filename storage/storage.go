// Package storage keeps games, challenges and user settings in a bbolt
// file. Every write is one bbolt transaction (one fsync), so anything the
// bot acknowledged survives a crash. Records are JSON with a version
// field; older versions are migrated in code when read. The same records
// can live in PostgreSQL instead (Postgres, pg*.go), for several
// processes sharing one database; Backend is the contract both keep.
package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// FormatVersion is the version written into every record.
const FormatVersion = 1

var (
	// ErrNotFound: no record with that id (or it is gone already).
	ErrNotFound = errors.New("not found")
	// ErrConflict: the record changed since it was loaded.
	ErrConflict = errors.New("changed concurrently")
	// ErrDuplicate: the event was applied before; nothing was written.
	ErrDuplicate = errors.New("event already applied")
	// ErrLocked: another process has the database open.
	ErrLocked = errors.New("database is in use by another process")
	// ErrDamagedRecord: a record's bytes do not decode. Only that record
	// is affected: lists skip it (and log it), reading it by id fails.
	ErrDamagedRecord = errors.New("damaged record")
)

// Bucket names. Index keys join their parts with a zero byte, which no id
// contains, so a prefix scan of "user\x00channel\x00" finds exactly that
// user's games in that channel.
var (
	bMeta       = []byte("meta")
	bGames      = []byte("games")
	bUserGames  = []byte("user_active")    // user \0 channel \0 game
	bChanGames  = []byte("channel_active") // channel \0 game
	bChallenges = []byte("challenges")
	bChanChal   = []byte("channel_challenges") // channel \0 challenge
	bUserChal   = []byte("user_challenges")    // challenger \0 challenge
	bSettings   = []byte("settings")
	bEvents     = []byte("events") // event id → unix nanoseconds
)

// Options tune Open.
type Options struct {
	// Timeout is how long to wait for another process to release the
	// file (default 1 s); bbolt would otherwise wait forever.
	Timeout time.Duration
	// Logger hears of damaged records that lists skip (default: slog's
	// default logger).
	Logger *slog.Logger
	// Lease is how long a claimed job or a written outbox record stays
	// with this process without being renewed (default DefaultLease).
	Lease time.Duration
}

// Store is an open database. It is safe for concurrent use.
type Store struct {
	db   *bolt.DB
	log  *slog.Logger
	jobs *memJobs
}

// RecordError is a record that cannot be read: damaged bytes
// (ErrDamagedRecord) or a format from a newer topochess.
type RecordError struct {
	// Kind is "game", "challenge", "rating" or "settings"; ID its key.
	Kind, ID string
	Err      error
}

func (e *RecordError) Error() string { return fmt.Sprintf("%s %s: %v", e.Kind, e.ID, e.Err) }
func (e *RecordError) Unwrap() error { return e.Err }

// skipped logs a record a list leaves out because it does not decode.
func (s *Store) skipped(kind, id string, err error) {
	s.log.Error("storage: a damaged record is left out (topochess check lists them)", "record", kind, "id", id, "err", err)
}

// Open opens or creates the database file.
func Open(path string, opt Options) (*Store, error) {
	if opt.Timeout <= 0 {
		opt.Timeout = time.Second
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("storage: %w", err)
		}
	}
	// bbolt would walk the file's pages at open and crash on a damaged
	// one: the file is walked here first (see verify.go).
	if st, err := os.Stat(path); err == nil && st.Size() > 0 {
		if err := verifyPath(path, opt.Timeout); errors.Is(err, ErrLocked) {
			return nil, fmt.Errorf("storage: %s: %w (waited %v)", path, ErrLocked, opt.Timeout)
		} else if errors.Is(err, ErrDamaged) {
			return nil, damaged(path, err)
		} else if err != nil {
			return nil, fmt.Errorf("storage: open %s: %w", path, err)
		}
	}
	db, err := openBolt(path, opt)
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, fmt.Errorf("storage: %s: %w (waited %v)", path, ErrLocked, opt.Timeout)
	}
	if errors.Is(err, berrors.ErrInvalid) || errors.Is(err, berrors.ErrChecksum) || errors.Is(err, berrors.ErrVersionMismatch) || errors.Is(err, ErrDamaged) {
		return nil, damaged(path, err)
	}
	if err != nil {
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bMeta, bGames, bUserGames, bChanGames, bChallenges, bChanChal, bUserChal, bSettings, bEvents} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		meta := tx.Bucket(bMeta)
		if v := meta.Get([]byte("format")); v != nil {
			n, _ := strconv.Atoi(string(v))
			if n > FormatVersion {
				return fmt.Errorf("written by a newer topochess (format %d, this one reads up to %d)", n, FormatVersion)
			}
		}
		return meta.Put([]byte("format"), []byte(strconv.Itoa(FormatVersion)))
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("storage: %s: %w", path, err)
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	if opt.Lease <= 0 {
		opt.Lease = DefaultLease
	}
	jobs, err := newMemJobs(db, opt.Lease)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("storage: %s: %w", path, err)
	}
	return &Store{db: db, log: opt.Logger, jobs: jobs}, nil
}

// openBolt opens the file with bbolt. A damage the walk in verify.go
// missed may still panic in bbolt's own goroutine; what panics in this
// one is turned into an error (the half-open file stays locked until the
// process ends, which then only reports the error).
func openBolt(path string, opt Options) (db *bolt.DB, err error) {
	defer func() {
		if r := recover(); r != nil {
			db, err = nil, fmt.Errorf("%w: %v", ErrDamaged, r)
		}
	}()
	return bolt.Open(path, 0o600, &bolt.Options{Timeout: opt.Timeout, NoFreelistSync: true, FreelistType: bolt.FreelistMapType})
}

// damaged is the error for a damaged file: where it is and what to do.
func damaged(path string, err error) error {
	if !errors.Is(err, ErrDamaged) {
		err = fmt.Errorf("%w: %w", ErrDamaged, err)
	}
	return fmt.Errorf("storage: %s: %w.\nNothing was changed in the file. Restore the last backup (made by topochess backup; see docs/security-storage.md), "+
		"or see which records are damaged with: topochess check --db %s", path, err, path)
}

// Close closes the file.
func (s *Store) Close() error { return s.db.Close() }

// Path is the database file.
func (s *Store) Path() string { return s.db.Path() }

func key(parts ...string) []byte {
	n := 0
	for _, p := range parts {
		n += len(p) + 1
	}
	b := make([]byte, 0, n)
	for i, p := range parts {
		if i > 0 {
			b = append(b, 0)
		}
		b = append(b, p...)
	}
	return b
}

// prefixIDs lists the last key part of every key starting with prefix.
func prefixIDs(b *bolt.Bucket, prefix []byte) []string {
	var ids []string
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && len(k) >= len(prefix) && string(k[:len(prefix)]) == string(prefix); k, _ = c.Next() {
		ids = append(ids, string(k[len(prefix):]))
	}
	return ids
}

// versioned is the envelope every record starts with.
type versioned struct {
	V int `json:"v"`
}

// decode reads a record, refusing versions from the future and running
// migrations for older ones.
func decode(data []byte, into any, migrate func(v int, raw map[string]any) error) error {
	var head versioned
	if err := json.Unmarshal(data, &head); err != nil {
		return fmt.Errorf("%w: %w", ErrDamagedRecord, err)
	}
	if head.V > FormatVersion {
		return fmt.Errorf("record format %d is newer than this topochess (%d)", head.V, FormatVersion)
	}
	if head.V < FormatVersion && migrate != nil {
		var raw map[string]any
		if err := json.Unmarshal(data, &raw); err != nil {
			return fmt.Errorf("%w: %w", ErrDamagedRecord, err)
		}
		if err := migrate(head.V, raw); err != nil {
			return err
		}
		raw["v"] = FormatVersion
		var err error
		if data, err = json.Marshal(raw); err != nil {
			return err
		}
	}
	if err := json.Unmarshal(data, into); err != nil {
		return fmt.Errorf("%w: %w", ErrDamagedRecord, err)
	}
	return nil
}

// markEvent records an event id inside a write transaction; a second
// write with the same id fails with ErrDuplicate and so rolls back.
func markEvent(tx *bolt.Tx, eventID string, now time.Time) error {
	if eventID == "" {
		return nil
	}
	b := tx.Bucket(bEvents)
	if b.Get([]byte(eventID)) != nil {
		return ErrDuplicate
	}
	return b.Put([]byte(eventID), []byte(strconv.FormatInt(now.UnixNano(), 10)))
}

// SeenEvent reports whether an event id was applied.
func (s *Store) SeenEvent(eventID string) (bool, error) {
	seen := false
	err := s.db.View(func(tx *bolt.Tx) error {
		seen = tx.Bucket(bEvents).Get([]byte(eventID)) != nil
		return nil
	})
	return seen, err
}

// PruneEvents forgets event ids applied before t; platforms redeliver
// within minutes, so a day is plenty.
func (s *Store) PruneEvents(before time.Time) (int, error) {
	n := 0
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bEvents)
		var old [][]byte
		c := b.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if ns, _ := strconv.ParseInt(string(v), 10, 64); ns < before.UnixNano() {
				old = append(old, append([]byte(nil), k...))
			}
		}
		for _, k := range old {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		n = len(old)
		return nil
	})
	return n, err
}
