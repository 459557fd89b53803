package storage

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"topochess/engine"
)

// Problem is one thing a check found wrong.
type Problem struct {
	// Kind is "file" (the page structure), "game", "challenge",
	// "rating", "settings", "outbox" or "index"; ID names the record (a game id).
	Kind, ID string
	Err      string
}

func (p Problem) String() string {
	if p.ID == "" {
		return fmt.Sprintf("%s: %s", p.Kind, p.Err)
	}
	return fmt.Sprintf("%s %s: %s", p.Kind, p.ID, p.Err)
}

// Report is what CheckFile found.
type Report struct {
	Path string
	// Records read, by kind.
	Games, Challenges, Ratings, Settings, IndexEntries int
	Problems                                           []Problem
}

// OK reports whether nothing was found wrong.
func (r *Report) OK() bool { return len(r.Problems) == 0 }

func (r *Report) add(kind, id string, err error) {
	r.Problems = append(r.Problems, Problem{Kind: kind, ID: id, Err: err.Error()})
}

// maxProblems keeps the report readable on a badly damaged file.
const maxProblems = 1000

// CheckFile verifies a database file that no process is serving: its page
// structure, bbolt's own consistency check, and that every record decodes
// (games also replay) and every index entry points to its record. The
// error is for a file that cannot be read at all (missing, or locked
// longer than timeout); damage is in the report.
func CheckFile(path string, timeout time.Duration) (*Report, error) {
	if timeout <= 0 {
		timeout = time.Second
	}
	rep := &Report{Path: path}
	if err := verifyPath(path, timeout); errors.Is(err, ErrLocked) {
		return nil, fmt.Errorf("storage: %s: %w (waited %v)", path, ErrLocked, timeout)
	} else if errors.Is(err, ErrDamaged) {
		// bbolt must not map a file whose pages are broken: stop here.
		rep.add("file", "", err)
		return rep, nil
	} else if err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: timeout})
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, fmt.Errorf("storage: %s: %w (waited %v)", path, ErrLocked, timeout)
	}
	if err != nil {
		rep.add("file", "", err)
		return rep, nil
	}
	defer db.Close()
	err = db.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			if len(rep.Problems) < maxProblems {
				rep.add("file", "", err)
			}
		}
		checkRecords(tx, rep)
		return nil
	})
	return rep, err
}

func checkRecords(tx *bolt.Tx, rep *Report) {
	add := func(kind, id string, err error) {
		if len(rep.Problems) < maxProblems {
			rep.add(kind, id, err)
		}
	}
	if b := tx.Bucket(bMeta); b != nil {
		if v := b.Get([]byte("format")); v != nil && string(v) != fmt.Sprint(FormatVersion) {
			add("file", "", fmt.Errorf("format %q; this topochess reads format %d", v, FormatVersion))
		}
	}
	active := map[string]bool{} // the games that decode: active or not
	each(tx, bGames, func(k, _ []byte) {
		rep.Games++
		g, err := getGame(tx, string(k))
		if err != nil {
			add("game", string(k), errors.Unwrap(err))
			return
		}
		active[string(k)] = g.Active()
		v, err := engine.GetVariant(g.Variant)
		if err == nil {
			_, err = engine.Replay(v, g.Start, g.Moves)
		}
		if err != nil {
			add("game", string(k), fmt.Errorf("its moves do not replay: %w", err))
		}
	})
	challenges := map[string]bool{}
	each(tx, bChallenges, func(k, _ []byte) {
		rep.Challenges++
		if _, err := getChallenge(tx, string(k)); err != nil {
			add("challenge", string(k), errors.Unwrap(err))
		}
		challenges[string(k)] = true
	})
	each(tx, bRatings, func(k, v []byte) {
		rep.Ratings++
		var r Rating
		if err := decode(v, &r, nil); err != nil {
			add("rating", printable(k), err)
		}
	})
	// Undeliverable replies are left out of the resend, and named here.
	for _, bucket := range [][]byte{bOutbox, bRefused} {
		each(tx, bucket, func(k, v []byte) {
			var o Outgoing
			if err := decode(v, &o, nil); err != nil {
				add("outbox", printable(k), err)
			}
		})
	}
	each(tx, bSettings, func(k, v []byte) {
		rep.Settings++
		var st Settings
		if err := decode(v, &st, nil); err != nil {
			add("settings", string(k), err)
		}
	})
	each(tx, bWebNames, func(k, v []byte) {
		var rec webNameRecord
		if err := decode(v, &rec, nil); err != nil {
			add("web name", printable(k), err)
		}
	})
	// What comes around games: follows, reviews, puzzles.
	each(tx, bFollows, func(k, v []byte) {
		var f Follow
		if err := decode(v, &f, migrateFollow); err != nil {
			add("follow", printable(k), err)
		}
	})
	each(tx, bReviews, func(k, v []byte) {
		var r Review
		if err := decode(v, &r, migrateReview); err != nil {
			add("review", printable(k), err)
		} else if len(r.Scores) != len(r.Best) {
			add("review", printable(k), fmt.Errorf("%d scores but %d best moves", len(r.Scores), len(r.Best)))
		}
	})
	each(tx, bPuzzleOpen, func(k, v []byte) {
		var st PuzzleState
		if err := decode(v, &st, migratePuzzle); err != nil {
			add("open puzzle", printable(k), err)
		}
	})
	each(tx, bPuzzleStats, func(k, v []byte) {
		var ps PuzzleStats
		if err := decode(v, &ps, migratePuzzle); err != nil {
			add("puzzle stats", printable(k), err)
		}
	})
	// Index entries end with the id of what they point to.
	last := func(k []byte) string {
		if i := bytes.LastIndexByte(k, 0); i >= 0 {
			return string(k[i+1:])
		}
		return string(k)
	}
	for _, ix := range []struct {
		bucket []byte
		id     func(k, v []byte) string
		active bool
	}{
		{bUserGames, func(k, _ []byte) string { return last(k) }, true},
		{bChanGames, func(k, _ []byte) string { return last(k) }, true},
		{bChanFinished, func(k, _ []byte) string { return last(k) }, false},
		{bUserFinished, func(k, _ []byte) string { return last(k) }, false},
		{bDueByGame, func(k, _ []byte) string { return string(k) }, true},
	} {
		each(tx, ix.bucket, func(k, v []byte) {
			rep.IndexEntries++
			id := ix.id(k, v)
			a, ok := active[id]
			switch {
			case !ok && tx.Bucket(bGames).Get([]byte(id)) == nil:
				add("index", string(ix.bucket), fmt.Errorf("entry %q points to game %s, which is missing", printable(k), id))
			case ok && a != ix.active:
				add("index", string(ix.bucket), fmt.Errorf("entry %q lists game %s, which is %s", printable(k), id, map[bool]string{true: "active", false: "finished"}[a]))
			}
		})
	}
	for _, bucket := range [][]byte{bUserChal, bChanChal} {
		each(tx, bucket, func(k, _ []byte) {
			rep.IndexEntries++
			if id := last(k); !challenges[id] {
				add("index", string(bucket), fmt.Errorf("entry %q points to challenge %s, which is missing", printable(k), id))
			}
		})
	}
}

// each calls fn for every key of a top-level bucket (none if missing).
func each(tx *bolt.Tx, bucket []byte, fn func(k, v []byte)) {
	b := tx.Bucket(bucket)
	if b == nil {
		return
	}
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		fn(k, v)
	}
}
