package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	bolt "go.etcd.io/bbolt"
)

// Moving a bbolt database into PostgreSQL (topochess migrate): every
// record is copied in one PostgreSQL transaction, ids, revisions and the
// id counters kept, so games go on where they were and a platform's
// redelivery of an event applied before the move is still recognised.

// Counts is how many records of each kind a database holds.
type Counts map[string]int

// countedKinds are the record kinds, with the bbolt bucket and the
// PostgreSQL table holding them (with the condition selecting the kind
// when a table holds several).
var countedKinds = []struct {
	kind   string
	bucket []byte
	table  string
}{
	{"games", bGames, "games"},
	{"challenges", bChallenges, "challenges"},
	{"ratings", bRatings, "ratings"},
	{"settings", bSettings, "settings"},
	{"events", bEvents, "events"},
	{"outbox", bOutbox, "outbox"},
	{"outbox refused", bRefused, "outbox_refused"},
	{"web names", bWebNames, "web_names"},
	{"message keys", bMessageKeys, "keyed WHERE kind = '" + kindMessageKey + "'"},
	{"kept buttons", bKeptButtons, "keyed WHERE kind = '" + kindKeptButton + "'"},
	{"follows", bFollows, "keyed WHERE kind = '" + kindFollow + "'"},
	{"reviews", bReviews, "keyed WHERE kind = '" + kindReview + "'"},
	{"open puzzles", bPuzzleOpen, "keyed WHERE kind = '" + kindPuzzleOpen + "'"},
	{"puzzle stats", bPuzzleStats, "keyed WHERE kind = '" + kindPuzzleStats + "'"},
}

// derivedBuckets are bbolt's indexes, rebuilt from the records.
var derivedBuckets = [][]byte{bMeta, bUserGames, bChanGames, bChanChal, bUserChal, bDue, bDueByGame, bChanFinished, bUserFinished, bUserRatings}

// Kinds lists the kinds of Counts in a fixed order.
func (c Counts) Kinds() []string {
	out := make([]string, 0, len(countedKinds))
	for _, k := range countedKinds {
		out = append(out, k.kind)
	}
	return out
}

// Counts counts the records of each kind.
func (s *Store) Counts() (Counts, error) {
	c := Counts{}
	err := s.db.View(func(tx *bolt.Tx) error {
		for _, k := range countedKinds {
			if b := tx.Bucket(k.bucket); b != nil {
				c[k.kind] = b.Stats().KeyN
			} else {
				c[k.kind] = 0
			}
		}
		return nil
	})
	return c, err
}

// Counts counts the records of each kind.
func (p *Postgres) Counts() (Counts, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	return pgCounts(ctx, p.pool)
}

func pgCounts(ctx context.Context, q rowQuerier) (Counts, error) {
	c := Counts{}
	for _, k := range countedKinds {
		var n int
		if err := q.QueryRow(ctx, `SELECT count(*) FROM `+k.table).Scan(&n); err != nil {
			return nil, err
		}
		c[k.kind] = n
	}
	return c, nil
}

// ErrNotEmpty: migrate fills an empty PostgreSQL database only.
var ErrNotEmpty = errors.New("the PostgreSQL database already holds records")

// MigrateTo copies every record into an empty PostgreSQL database in one
// transaction, and checks inside it that each kind's count there equals
// the count here before committing. It returns the counts copied.
func (s *Store) MigrateTo(p *Postgres) (Counts, error) {
	ctx := context.Background()
	var copied Counts
	err := s.db.View(func(btx *bolt.Tx) error {
		if err := unknownBuckets(btx); err != nil {
			return err
		}
		return pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
			before, err := pgCounts(ctx, tx)
			if err != nil {
				return err
			}
			for _, k := range countedKinds {
				if before[k.kind] > 0 {
					return fmt.Errorf("%w (%d %s): migrate fills an empty database", ErrNotEmpty, before[k.kind], k.kind)
				}
			}
			if err := copyRecords(ctx, btx, tx); err != nil {
				return err
			}
			src := Counts{}
			for _, k := range countedKinds {
				if b := btx.Bucket(k.bucket); b != nil {
					src[k.kind] = b.Stats().KeyN
				} else {
					src[k.kind] = 0
				}
			}
			dst, err := pgCounts(ctx, tx)
			if err != nil {
				return err
			}
			if !maps.Equal(src, dst) {
				return fmt.Errorf("counts differ after copying, nothing was written: bbolt %v, PostgreSQL %v", src, dst)
			}
			copied = dst
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("storage: migrate: %w", err)
	}
	return copied, nil
}

// unknownBuckets refuses a file holding records this binary cannot copy
// (written by a newer topochess): they would be lost silently.
func unknownBuckets(tx *bolt.Tx) error {
	known := map[string]bool{}
	for _, k := range countedKinds {
		known[string(k.bucket)] = true
	}
	for _, b := range derivedBuckets {
		known[string(b)] = true
	}
	var unknown []string
	err := tx.ForEach(func(name []byte, _ *bolt.Bucket) error {
		if !known[string(name)] {
			unknown = append(unknown, strconv.Quote(string(name)))
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return fmt.Errorf("the file holds records this topochess cannot copy (%s); migrate with the topochess that wrote them", strings.Join(unknown, ", "))
	}
	return nil
}

func copyRecords(ctx context.Context, btx *bolt.Tx, tx pgx.Tx) error {
	each := func(bucket []byte, fn func(k, v []byte) error) error {
		b := btx.Bucket(bucket)
		if b == nil {
			return nil
		}
		return b.ForEach(fn)
	}
	damaged := func(kind string, k []byte, err error) error {
		return fmt.Errorf("%s %q does not decode (%w); see topochess check", kind, k, err)
	}
	err := each(bGames, func(k, v []byte) error {
		g := new(Game)
		if err := decode(v, g, migrateGame); err != nil {
			return damaged("game", k, err)
		}
		return pgPutGame(ctx, tx, g)
	})
	if err != nil {
		return err
	}
	err = each(bChallenges, func(k, v []byte) error {
		c := new(Challenge)
		if err := decode(v, c, migrateChallenge); err != nil {
			return damaged("challenge", k, err)
		}
		return pgPutChallenge(ctx, tx, c)
	})
	if err != nil {
		return err
	}
	err = each(bRatings, func(k, v []byte) error {
		var r Rating
		if err := decode(v, &r, nil); err != nil {
			return damaged("rating", k, err)
		}
		return pgPutRating(ctx, tx, r)
	})
	if err != nil {
		return err
	}
	err = each(bSettings, func(k, v []byte) error {
		var st Settings
		if err := decode(v, &st, migrateSettings); err != nil {
			return damaged("settings", k, err)
		}
		_, err := tx.Exec(ctx, `INSERT INTO settings VALUES ($1, $2)`, string(k), v)
		return err
	})
	if err != nil {
		return err
	}
	err = each(bEvents, func(k, v []byte) error {
		ns, _ := strconv.ParseInt(string(v), 10, 64)
		_, err := tx.Exec(ctx, `INSERT INTO events VALUES ($1, $2)`, string(k), ns)
		return err
	})
	if err != nil {
		return err
	}
	err = each(bOutbox, func(k, v []byte) error {
		var o Outgoing
		if err := decode(v, &o, nil); err != nil {
			return damaged("outbox record", k, err)
		}
		n, ok := outboxSeq(string(k))
		if !ok {
			return damaged("outbox record", k, errors.New("key is not a sequence number"))
		}
		_, err := tx.Exec(ctx, `INSERT INTO outbox VALUES ($1, $2, $3)`, n, o.Channel, v)
		return err
	})
	if err != nil {
		return err
	}
	err = each(bRefused, func(k, v []byte) error {
		var o Outgoing
		if err := decode(v, &o, nil); err != nil {
			return damaged("refused outbox record", k, err)
		}
		_, err := tx.Exec(ctx, `INSERT INTO outbox_refused VALUES ($1, $2, $3)`, o.Channel, o.ID, v)
		return err
	})
	if err != nil {
		return err
	}
	err = each(bWebNames, func(k, v []byte) error {
		var rec webNameRecord
		if err := decode(v, &rec, nil); err != nil {
			return damaged("web name", k, err)
		}
		_, err := tx.Exec(ctx, `INSERT INTO web_names VALUES ($1, $2)`, string(k), v)
		return err
	})
	if err != nil {
		return err
	}
	// keyed copies a bucket of records keyed "k1 \0 k2" (or k1 alone)
	// into the keyed table; check decodes a record and returns its time
	// for the kinds pruned by age.
	keyed := func(bucket []byte, kind, what string, twoParts bool, check func(v []byte) (*int64, error)) error {
		return each(bucket, func(k, v []byte) error {
			k1, k2, two := bytes.Cut(k, []byte{0})
			if two != twoParts {
				return damaged(what, k, errors.New("the key has the wrong number of parts"))
			}
			at, err := check(v)
			if err != nil {
				return damaged(what, k, err)
			}
			_, err = tx.Exec(ctx, `INSERT INTO keyed VALUES ($1, $2, $3, $4, $5)`, kind, string(k1), string(k2), at, v)
			return err
		})
	}
	err = keyed(bMessageKeys, kindMessageKey, "message key", true, func(v []byte) (*int64, error) {
		var ref messageRef
		err := json.Unmarshal(v, &ref)
		at := ref.At.UnixNano()
		return &at, err
	})
	if err != nil {
		return err
	}
	err = keyed(bKeptButtons, kindKeptButton, "kept button", true, func(v []byte) (*int64, error) {
		var b KeptButton
		err := json.Unmarshal(v, &b)
		at := b.At.UnixNano()
		return &at, err
	})
	if err != nil {
		return err
	}
	err = keyed(bFollows, kindFollow, "follow", true, func(v []byte) (*int64, error) {
		var f Follow
		return nil, decode(v, &f, migrateFollow)
	})
	if err != nil {
		return err
	}
	err = keyed(bReviews, kindReview, "review", false, func(v []byte) (*int64, error) {
		var r Review
		return nil, decode(v, &r, migrateReview)
	})
	if err != nil {
		return err
	}
	err = keyed(bPuzzleOpen, kindPuzzleOpen, "open puzzle", true, func(v []byte) (*int64, error) {
		var st PuzzleState
		return nil, decode(v, &st, migratePuzzle)
	})
	if err != nil {
		return err
	}
	err = keyed(bPuzzleStats, kindPuzzleStats, "puzzle stats", true, func(v []byte) (*int64, error) {
		var ps PuzzleStats
		return nil, decode(v, &ps, migratePuzzle)
	})
	if err != nil {
		return err
	}
	// The id counters go on from where bbolt's were.
	seq := func(bucket []byte) int64 {
		if b := btx.Bucket(bucket); b != nil {
			return int64(b.Sequence())
		}
		return 0
	}
	if _, err := tx.Exec(ctx, `UPDATE counters SET n = $1 WHERE name = 'game'`, seq(bGames)); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `UPDATE counters SET n = $1 WHERE name = 'challenge'`, seq(bChallenges)); err != nil {
		return err
	}
	// A kept button's id is never handed out again, after the move too.
	if _, err := tx.Exec(ctx, `UPDATE counters SET n = $1 WHERE name = 'button'`, seq(bKeptButtons)); err != nil {
		return err
	}
	n := seq(bOutbox)
	_, err = tx.Exec(ctx, `SELECT setval('outbox_seq', $1, $2)`, max(n, 1), n > 0)
	return err
}
