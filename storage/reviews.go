package storage

import (
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Reviews: the engine's evaluation of every position of a finished game,
// kept with the game so that a review is computed once.

var bReviews = []byte("reviews") // game → Review

// Review is the engine's pass over a game: for every position, start
// included, the evaluation for the side to move and the move it prefers.
type Review struct {
	V    int    `json:"v"`
	Game string `json:"game"`
	// Plies is how many moves the game had when reviewed.
	Plies int `json:"plies"`
	// Depth and Nodes are the search budget per position; with them the
	// review is reproducible.
	Depth int   `json:"depth"`
	Nodes int64 `json:"nodes"`
	// Scores[i] is the position before ply i in centipawns for the side
	// to move, a found mate written as ±(10000 − moves); Best[i] is the
	// engine's move there in canonical notation ("" when there is none).
	Scores  []int     `json:"scores"`
	Best    []string  `json:"best"`
	Created time.Time `json:"created"`
}

func migrateReview(v int, raw map[string]any) error {
	return fmt.Errorf("unknown review record format %d", v)
}

// SaveReview stores a game's review, replacing an older one, and records
// the event that asked for it (ErrDuplicate when it was applied before).
func (s *Store) SaveReview(r *Review, eventID string, now time.Time) error {
	r.V = FormatVersion
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		if err := markEvent(tx, eventID, now); err != nil {
			return err
		}
		b, err := tx.CreateBucketIfNotExists(bReviews)
		if err != nil {
			return err
		}
		return b.Put([]byte(r.Game), data)
	})
}

// GameReview loads a game's review (ErrNotFound when there is none).
func (s *Store) GameReview(game string) (*Review, error) {
	var r *Review
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bReviews)
		var data []byte
		if b != nil {
			data = b.Get([]byte(game))
		}
		if data == nil {
			return fmt.Errorf("review of %s: %w", game, ErrNotFound)
		}
		r = new(Review)
		return decode(data, r, migrateReview)
	})
	return r, err
}
