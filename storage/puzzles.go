package storage

import (
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Puzzles: the puzzle a user is solving in a channel, and per variant
// their puzzle rating, streak and the puzzles they have tried.

var (
	bPuzzleOpen  = []byte("puzzle_open")  // user \0 channel → PuzzleState
	bPuzzleStats = []byte("puzzle_stats") // variant \0 user → PuzzleStats
)

// PuzzleState is a puzzle being solved.
type PuzzleState struct {
	V      int    `json:"v"`
	Puzzle string `json:"puzzle"`
	// Step is the index in the puzzle's line of the solver's next move.
	Step    int       `json:"step"`
	Started time.Time `json:"started"`
}

// PuzzleStats is a user's puzzle record in one variant (Glicko-2 on the
// Glicko scale like game ratings; zero RD: no rating yet).
type PuzzleStats struct {
	V      int     `json:"v"`
	R      float64 `json:"r"`
	RD     float64 `json:"rd"`
	Sigma  float64 `json:"sigma"`
	Streak int     `json:"streak"`
	Best   int     `json:"best"`
	Solved int     `json:"solved"`
	Failed int     `json:"failed"`
	// Tried are the puzzles given to the user, so none comes twice.
	Tried []string `json:"tried"`
}

func migratePuzzle(v int, raw map[string]any) error {
	return fmt.Errorf("unknown puzzle record format %d", v)
}

// OpenPuzzle returns the puzzle a user is solving in a channel (ok false
// when none).
func (s *Store) OpenPuzzle(user, channel string) (st PuzzleState, ok bool, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bPuzzleOpen)
		if b == nil {
			return nil
		}
		data := b.Get(key(user, channel))
		if data == nil {
			return nil
		}
		ok = true
		return decode(data, &st, migratePuzzle)
	})
	return st, ok, err
}

// PuzzleStats reads a user's puzzle record in a variant.
func (s *Store) PuzzleStats(variant, user string) (PuzzleStats, error) {
	var ps PuzzleStats
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bPuzzleStats)
		if b == nil {
			return nil
		}
		data := b.Get(key(variant, user))
		if data == nil {
			return nil
		}
		return decode(data, &ps, migratePuzzle)
	})
	return ps, err
}

// PuzzleChange decides, from the puzzle a user has open in a channel
// (nil: none) and their record in the variant, which puzzle is open
// afterwards (nil: none); it may change the record in place. It runs
// inside the write, so answers arriving together see each other's
// effect instead of overwriting it; an error writes nothing.
type PuzzleChange func(open *PuzzleState, stats *PuzzleStats) (*PuzzleState, error)

// UpdatePuzzle reads, changes and writes in one transaction the user's
// open puzzle in a channel and their record in the variant, recording
// eventID with them (ErrDuplicate when it was applied before).
func (s *Store) UpdatePuzzle(user, channel, variant, eventID string, now time.Time, change PuzzleChange) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		if err := markEvent(tx, eventID, now); err != nil {
			return err
		}
		ob, err := tx.CreateBucketIfNotExists(bPuzzleOpen)
		if err != nil {
			return err
		}
		sb, err := tx.CreateBucketIfNotExists(bPuzzleStats)
		if err != nil {
			return err
		}
		var open *PuzzleState
		if data := ob.Get(key(user, channel)); data != nil {
			open = new(PuzzleState)
			if err := decode(data, open, migratePuzzle); err != nil {
				return err
			}
		}
		var stats PuzzleStats
		if data := sb.Get(key(variant, user)); data != nil {
			if err := decode(data, &stats, migratePuzzle); err != nil {
				return err
			}
		}
		next, err := change(open, &stats)
		if err != nil {
			return err
		}
		if next == nil {
			err = ob.Delete(key(user, channel))
		} else {
			next.V = FormatVersion
			var od []byte
			if od, err = json.Marshal(next); err == nil {
				err = ob.Put(key(user, channel), od)
			}
		}
		if err != nil {
			return err
		}
		stats.V = FormatVersion
		sd, err := json.Marshal(stats)
		if err != nil {
			return err
		}
		return sb.Put(key(variant, user), sd)
	})
}
