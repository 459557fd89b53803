package storage

import (
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Followed games: a channel where a game's moves are posted as they
// happen, besides the game's own channel.

var bFollows = []byte("follows") // game \0 channel → Follow

// Follow is one channel following one game.
type Follow struct {
	V       int       `json:"v"`
	Game    string    `json:"game"`
	Channel string    `json:"channel"`
	By      string    `json:"by"` // who asked
	Since   time.Time `json:"since"`
	// Plies is how many moves had been played when the channel was last
	// shown the game.
	Plies int `json:"plies"`
}

func migrateFollow(v int, raw map[string]any) error {
	return fmt.Errorf("unknown follow record format %d", v)
}

// AddFollow makes a channel follow a game (or updates its follow);
// following twice is one follow. eventID is recorded with it
// (ErrDuplicate when it was applied before; "" for the bot's own
// updates).
func (s *Store) AddFollow(f Follow, eventID string, now time.Time) error {
	f.V = FormatVersion
	data, err := json.Marshal(f)
	if err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		if err := markEvent(tx, eventID, now); err != nil {
			return err
		}
		b, err := tx.CreateBucketIfNotExists(bFollows)
		if err != nil {
			return err
		}
		return b.Put(key(f.Game, f.Channel), data)
	})
}

// RemoveFollow stops a channel following a game; it reports whether it
// did. eventID is recorded as with AddFollow.
func (s *Store) RemoveFollow(game, channel, eventID string, now time.Time) (bool, error) {
	found := false
	err := s.db.Update(func(tx *bolt.Tx) error {
		if err := markEvent(tx, eventID, now); err != nil {
			return err
		}
		b := tx.Bucket(bFollows)
		if b == nil || b.Get(key(game, channel)) == nil {
			return nil
		}
		found = true
		return b.Delete(key(game, channel))
	})
	return found, err
}

// Follows lists the channels following a game.
func (s *Store) Follows(game string) ([]Follow, error) {
	var out []Follow
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bFollows)
		if b == nil {
			return nil
		}
		for _, ch := range prefixIDs(b, append(key(game), 0)) {
			var f Follow
			if err := decode(b.Get(key(game, ch)), &f, migrateFollow); err != nil {
				return fmt.Errorf("follow %s %s: %w", game, ch, err)
			}
			out = append(out, f)
		}
		return nil
	})
	return out, err
}
