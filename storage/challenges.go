package storage

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Challenge is an invitation to a game, to one user or to anyone in the
// channel (To.ID == "").
type Challenge struct {
	V        int    `json:"v"`
	ID       string `json:"id"`
	Platform string `json:"platform,omitempty"`
	Channel  string `json:"channel"`
	From     Player `json:"from"`
	To       Player `json:"to"`
	Variant  string `json:"variant"`
	// Color is what the challenger plays: "white", "black" or "random".
	Color string `json:"color"`
	// Rated: the game will change ratings. Time is the time control in
	// the bot's canonical form ("1d", "5+3"), "" for none.
	Rated bool   `json:"rated,omitempty"`
	Time  string `json:"time,omitempty"`
	// Start is the position string the game begins from, "" for the
	// variant's start.
	Start string `json:"start,omitempty"`
	// Rematch is the finished game this challenge replays, if any.
	Rematch string    `json:"rematch,omitempty"`
	Created time.Time `json:"created"`
	Expires time.Time `json:"expires"`
}

// Open reports whether anyone may accept.
func (c *Challenge) Open() bool { return c.To.ID == "" }

// Expired reports whether the challenge lapsed at time now.
func (c *Challenge) Expired(now time.Time) bool { return !now.Before(c.Expires) }

func migrateChallenge(v int, raw map[string]any) error {
	return fmt.Errorf("unknown challenge record format %d", v)
}

func getChallenge(tx *bolt.Tx, id string) (*Challenge, error) {
	data := tx.Bucket(bChallenges).Get([]byte(id))
	if data == nil {
		return nil, fmt.Errorf("challenge %s: %w", id, ErrNotFound)
	}
	c := new(Challenge)
	if err := decode(data, c, migrateChallenge); err != nil {
		return nil, &RecordError{Kind: "challenge", ID: id, Err: err}
	}
	return c, nil
}

func deleteChallenge(tx *bolt.Tx, c *Challenge) error {
	if err := tx.Bucket(bChallenges).Delete([]byte(c.ID)); err != nil {
		return err
	}
	if err := tx.Bucket(bChanChal).Delete(key(c.Channel, c.ID)); err != nil {
		return err
	}
	return tx.Bucket(bUserChal).Delete(key(c.From.ID, c.ID))
}

// CreateChallenge stores a new challenge and gives it an id (c1, c2, …).
// It fails with a LimitError when the challenger is at a cap.
func (s *Store) CreateChallenge(c *Challenge, eventID string, now time.Time, caps Caps) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		if err := markEvent(tx, eventID, now); err != nil {
			return err
		}
		if err := caps.checkChallenges(tx, c.From, now); err != nil {
			return err
		}
		if err := caps.checkGames(tx, c.From); err != nil {
			return err
		}
		b := tx.Bucket(bChallenges)
		n, err := b.NextSequence()
		if err != nil {
			return err
		}
		c.ID = "c" + strconv.FormatUint(n, 10)
		c.V = FormatVersion
		data, err := json.Marshal(c)
		if err != nil {
			return err
		}
		if err := b.Put([]byte(c.ID), data); err != nil {
			return err
		}
		if err := tx.Bucket(bChanChal).Put(key(c.Channel, c.ID), nil); err != nil {
			return err
		}
		return tx.Bucket(bUserChal).Put(key(c.From.ID, c.ID), nil)
	})
}

// Challenge loads a challenge by id.
func (s *Store) Challenge(id string) (*Challenge, error) {
	var c *Challenge
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		c, err = getChallenge(tx, id)
		return err
	})
	return c, err
}

// DeleteChallenge removes a challenge (declined or withdrawn). It fails
// with ErrNotFound when someone else removed or accepted it first.
func (s *Store) DeleteChallenge(id, eventID string, now time.Time) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		if err := markEvent(tx, eventID, now); err != nil {
			return err
		}
		c, err := getChallenge(tx, id)
		if err != nil {
			return err
		}
		return deleteChallenge(tx, c)
	})
}

// AcceptChallenge turns a challenge into a game in one transaction, so of
// two users accepting an open challenge at once exactly one gets it. It
// fails with a LimitError when either player is at the cap of games. The
// outbox records of the game's announcement are written with it.
func (s *Store) AcceptChallenge(id string, g *Game, eventID string, now time.Time, caps Caps, out ...*Outgoing) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		if err := markEvent(tx, eventID, now); err != nil {
			return err
		}
		c, err := getChallenge(tx, id)
		if err != nil {
			return err
		}
		if err := caps.checkGames(tx, g.White, g.Black); err != nil {
			return err
		}
		if err := deleteChallenge(tx, c); err != nil {
			return err
		}
		if err := createGame(tx, g, now); err != nil {
			return err
		}
		return putOutgoing(tx, out, g.ID, now)
	})
}

func (s *Store) challengesByIndex(bucket, prefix []byte, now time.Time) ([]*Challenge, error) {
	var out []*Challenge
	err := s.db.View(func(tx *bolt.Tx) error {
		for _, id := range prefixIDs(tx.Bucket(bucket), prefix) {
			c, err := getChallenge(tx, id)
			if err != nil {
				s.skipped("challenge", id, err)
				continue
			}
			if !c.Expired(now) {
				out = append(out, c)
			}
		}
		return nil
	})
	num := func(id string) uint64 { n, _ := strconv.ParseUint(id[1:], 10, 64); return n }
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && num(out[j].ID) < num(out[j-1].ID); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out, err
}

// ChannelChallenges lists the unexpired challenges in a channel.
func (s *Store) ChannelChallenges(channel string, now time.Time) ([]*Challenge, error) {
	return s.challengesByIndex(bChanChal, append(key(channel), 0), now)
}

// UserChallenges lists the unexpired challenges a user made, anywhere.
func (s *Store) UserChallenges(userID string, now time.Time) ([]*Challenge, error) {
	return s.challengesByIndex(bUserChal, append(key(userID), 0), now)
}

// PruneChallenges deletes challenges that expired before now.
func (s *Store) PruneChallenges(now time.Time) (int, error) {
	n := 0
	err := s.db.Update(func(tx *bolt.Tx) error {
		var old []*Challenge
		err := tx.Bucket(bChallenges).ForEach(func(k, _ []byte) error {
			c, err := getChallenge(tx, string(k))
			if err != nil {
				s.skipped("challenge", string(k), err)
				return nil
			}
			if c.Expired(now) {
				old = append(old, c)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, c := range old {
			if err := deleteChallenge(tx, c); err != nil {
				return err
			}
		}
		n = len(old)
		return nil
	})
	return n, err
}

// Settings are a user's preferences.
type Settings struct {
	V int `json:"v"`
	// Orientation: "auto" (the side to move at the bottom), "white" or
	// "black".
	Orientation string `json:"orientation,omitempty"`
}

func migrateSettings(v int, raw map[string]any) error {
	return fmt.Errorf("unknown settings record format %d", v)
}

// Settings loads a user's settings (the zero value when none are stored).
func (s *Store) Settings(userID string) (Settings, error) {
	var st Settings
	err := s.db.View(func(tx *bolt.Tx) error {
		data := tx.Bucket(bSettings).Get([]byte(userID))
		if data == nil {
			return nil
		}
		return decode(data, &st, migrateSettings)
	})
	return st, err
}

// SaveSettings stores a user's settings.
func (s *Store) SaveSettings(userID string, st Settings, eventID string, now time.Time) error {
	st.V = FormatVersion
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		if err := markEvent(tx, eventID, now); err != nil {
			return err
		}
		return tx.Bucket(bSettings).Put([]byte(userID), data)
	})
}
