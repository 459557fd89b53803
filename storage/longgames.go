package storage

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Long games: clocks whose deadlines must survive a restart, finished
// games to list and export, and ratings.

// Clock is a game's time control and its state, as the bot keeps it.
type Clock struct {
	// Control is the time control in the bot's canonical form ("1d", "5+3").
	Control string `json:"control"`
	// Left is each side's time at TurnStart on a live clock, White first.
	Left      [2]time.Duration `json:"left,omitempty"`
	TurnStart time.Time        `json:"turn_start"`
	// Reminded counts the reminders sent this turn.
	Reminded int `json:"reminded,omitempty"`
	// Due is when the bot must next look at the game (a reminder or the
	// deadline). Saving the game indexes it, so a restarted bot finds it.
	Due time.Time `json:"due,omitzero"`
}

// RatingChange is what a rated game did to its players' ratings.
type RatingChange struct {
	WhiteBefore float64 `json:"white_before"`
	WhiteAfter  float64 `json:"white_after"`
	BlackBefore float64 `json:"black_before"`
	BlackAfter  float64 `json:"black_after"`
}

// Rating is a player's rating in one variant (Glicko-2 on the Glicko
// scale; a zero RD means the player has no rating yet).
type Rating struct {
	V       int     `json:"v"`
	User    string  `json:"user"`
	Name    string  `json:"name"`
	Variant string  `json:"variant"`
	R       float64 `json:"r"`
	RD      float64 `json:"rd"`
	Sigma   float64 `json:"sigma"`
	Wins    int     `json:"wins"`
	Draws   int     `json:"draws"`
	Losses  int     `json:"losses"`
}

// Games is how many rated games the rating is built on.
func (r Rating) Games() int { return r.Wins + r.Draws + r.Losses }

var (
	bDue          = []byte("due")              // unix ns (8 bytes, big endian) + game → nil
	bDueByGame    = []byte("due_by_game")      // game → its key in bDue
	bChanFinished = []byte("channel_finished") // channel \0 ended \0 game
	bUserFinished = []byte("user_finished")    // user \0 channel \0 ended \0 game
	bRatings      = []byte("ratings")          // variant \0 user → Rating
	bUserRatings  = []byte("user_ratings")     // user \0 variant
)

// indexLongGame keeps the deadline and finished-game indexes in step with
// a game being written (inside putGame's transaction).
func indexLongGame(tx *bolt.Tx, g *Game) error {
	due, err := tx.CreateBucketIfNotExists(bDue)
	if err != nil {
		return err
	}
	byGame, err := tx.CreateBucketIfNotExists(bDueByGame)
	if err != nil {
		return err
	}
	if old := byGame.Get([]byte(g.ID)); old != nil {
		if err := due.Delete(old); err != nil {
			return err
		}
		if err := byGame.Delete([]byte(g.ID)); err != nil {
			return err
		}
	}
	if g.Active() && g.Clock != nil && !g.Clock.Due.IsZero() {
		k := dueKey(g.Clock.Due, g.ID)
		if err := due.Put(k, nil); err != nil {
			return err
		}
		if err := byGame.Put([]byte(g.ID), k); err != nil {
			return err
		}
	}
	if g.Active() {
		return nil
	}
	ended := endedKey(g)
	cf, err := tx.CreateBucketIfNotExists(bChanFinished)
	if err != nil {
		return err
	}
	if err := cf.Put(key(g.Channel, ended, g.ID), nil); err != nil {
		return err
	}
	uf, err := tx.CreateBucketIfNotExists(bUserFinished)
	if err != nil {
		return err
	}
	for _, u := range []string{g.White.ID, g.Black.ID} {
		if err := uf.Put(key(u, g.Channel, ended, g.ID), nil); err != nil {
			return err
		}
	}
	return nil
}

func dueKey(t time.Time, id string) []byte {
	k := binary.BigEndian.AppendUint64(nil, uint64(max(t.UnixNano(), 0)))
	return append(k, id...)
}

// endedKey orders finished games by when they ended (fixed width, so
// byte order is time order).
func endedKey(g *Game) string {
	t := g.Ended
	if t.IsZero() {
		t = g.Updated
	}
	return fmt.Sprintf("%019d", max(t.UnixNano(), 0))
}

// DueGames lists the games whose clocks need the bot at or before now,
// soonest first.
func (s *Store) DueGames(now time.Time) ([]string, error) {
	var ids []string
	err := s.eachDue(now, func(id string, _ time.Time) { ids = append(ids, id) })
	return ids, err
}

// eachDue hands f each game of the deadline index due at or before now,
// with its due time, soonest first.
func (s *Store) eachDue(now time.Time, f func(id string, due time.Time)) error {
	return s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bDue)
		if b == nil {
			return nil
		}
		limit := uint64(max(now.UnixNano(), 0))
		c := b.Cursor()
		for k, _ := c.First(); len(k) > 8 && binary.BigEndian.Uint64(k) <= limit; k, _ = c.Next() {
			f(string(k[8:]), time.Unix(0, int64(binary.BigEndian.Uint64(k))))
		}
		return nil
	})
}

// ForgetDue takes a game off the deadline index: the clock gives up on a
// game whose record cannot be read rather than trying it every tick.
// Saving the game (restored) indexes it again.
func (s *Store) ForgetDue(id string) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		byGame := tx.Bucket(bDueByGame)
		if byGame == nil {
			return nil
		}
		if k := byGame.Get([]byte(id)); k != nil {
			if err := tx.Bucket(bDue).Delete(k); err != nil {
				return err
			}
		}
		return byGame.Delete([]byte(id))
	})
}

// NextDue is the earliest pending clock event; ok is false when no timed
// game is being played.
func (s *Store) NextDue() (t time.Time, ok bool, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bDue)
		if b == nil {
			return nil
		}
		if k, _ := b.Cursor().First(); len(k) > 8 {
			t, ok = time.Unix(0, int64(binary.BigEndian.Uint64(k))), true
		}
		return nil
	})
	return t, ok, err
}

// FinishedGames lists finished games in a channel, newest first, at most
// limit; with userID only that user's.
func (s *Store) FinishedGames(channel, userID string, limit int) ([]*Game, error) {
	var out []*Game
	err := s.db.View(func(tx *bolt.Tx) error {
		bucket, prefix := bChanFinished, append(key(channel), 0)
		if userID != "" {
			bucket, prefix = bUserFinished, append(key(userID, channel), 0)
		}
		b := tx.Bucket(bucket)
		if b == nil {
			return nil
		}
		c := b.Cursor()
		// Seek past the prefix's last key, then walk back.
		end := append(append([]byte(nil), prefix...), 0xff)
		k, _ := c.Seek(end)
		if k == nil {
			k, _ = c.Last()
		} else {
			k, _ = c.Prev()
		}
		for ; k != nil && len(out) < limit && len(k) > len(prefix) && string(k[:len(prefix)]) == string(prefix); k, _ = c.Prev() {
			rest := k[len(prefix):]
			i := len(rest) - 1
			for i >= 0 && rest[i] != 0 {
				i--
			}
			g, err := getGame(tx, string(rest[i+1:]))
			if err != nil {
				s.skipped("game", string(rest[i+1:]), err)
				continue
			}
			out = append(out, g)
		}
		return nil
	})
	return out, err
}

// Rating reads a player's rating in a variant; a player without one gets
// a zero Rating with User and Variant set.
func (s *Store) Rating(variant, userID string) (Rating, error) {
	var r Rating
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		r, err = getRating(tx, variant, userID)
		return err
	})
	return r, err
}

func getRating(tx *bolt.Tx, variant, userID string) (Rating, error) {
	r := Rating{User: userID, Variant: variant}
	b := tx.Bucket(bRatings)
	if b == nil {
		return r, nil
	}
	data := b.Get(key(variant, userID))
	if data == nil {
		return r, nil
	}
	if err := decode(data, &r, func(v int, _ map[string]any) error {
		return fmt.Errorf("unknown rating record format %d", v)
	}); err != nil {
		return r, &RecordError{Kind: "rating", ID: variant + "/" + userID, Err: err}
	}
	return r, nil
}

func putRating(tx *bolt.Tx, r Rating) error {
	r.V = FormatVersion
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	b, err := tx.CreateBucketIfNotExists(bRatings)
	if err != nil {
		return err
	}
	if err := b.Put(key(r.Variant, r.User), data); err != nil {
		return err
	}
	ub, err := tx.CreateBucketIfNotExists(bUserRatings)
	if err != nil {
		return err
	}
	return ub.Put(key(r.User, r.Variant), nil)
}

// RateGame applies a finished rated game to its players' ratings, once:
// update gets both players' ratings before the game and returns them
// after. The game record gets the change and a new revision; it is
// returned. Games that are unrated, unfinished or rated already are
// returned unchanged.
func (s *Store) RateGame(id string, now time.Time, update func(g *Game, white, black Rating) (Rating, Rating)) (*Game, error) {
	var out *Game
	err := s.db.Update(func(tx *bolt.Tx) error {
		g, err := getGame(tx, id)
		if err != nil {
			return err
		}
		out = g
		if !g.Rated || g.Active() || g.Rating != nil {
			return nil
		}
		w, err := getRating(tx, g.Variant, g.White.ID)
		if err != nil {
			return err
		}
		b, err := getRating(tx, g.Variant, g.Black.ID)
		if err != nil {
			return err
		}
		nw, nb := update(g, w, b)
		nw.User, nw.Variant, nb.User, nb.Variant = g.White.ID, g.Variant, g.Black.ID, g.Variant
		if err := putRating(tx, nw); err != nil {
			return err
		}
		if err := putRating(tx, nb); err != nil {
			return err
		}
		ng := *g
		ng.Rating = &RatingChange{WhiteBefore: w.R, WhiteAfter: nw.R, BlackBefore: b.R, BlackAfter: nb.R}
		ng.Rev++
		ng.Updated = now
		if err := putGame(tx, &ng); err != nil {
			return err
		}
		out = &ng
		return nil
	})
	return out, err
}

// Leaderboard lists the rated players of a variant, best first.
func (s *Store) Leaderboard(variant string) ([]Rating, error) {
	var out []Rating
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bRatings)
		if b == nil {
			return nil
		}
		for _, user := range prefixIDs(b, append(key(variant), 0)) {
			r, err := getRating(tx, variant, user)
			if err != nil {
				s.skipped("rating", variant+"/"+user, err)
				continue
			}
			out = append(out, r)
		}
		return nil
	})
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].R != out[j].R {
			return out[i].R > out[j].R
		}
		return out[i].User < out[j].User
	})
	return out, err
}

// UserRatings lists a player's ratings in every variant they are rated in.
func (s *Store) UserRatings(userID string) ([]Rating, error) {
	var out []Rating
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bUserRatings)
		if b == nil {
			return nil
		}
		for _, variant := range prefixIDs(b, append(key(userID), 0)) {
			r, err := getRating(tx, variant, userID)
			if err != nil {
				s.skipped("rating", variant+"/"+userID, err)
				continue
			}
			out = append(out, r)
		}
		return nil
	})
	return out, err
}
