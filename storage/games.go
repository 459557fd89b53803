package storage

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Player is one side of a game or a challenge.
type Player struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Mention string `json:"mention,omitempty"`
}

// Game is a stored game: the full canonical move list, not a position, so
// any rule fix in the engine replays old games correctly.
type Game struct {
	V   int    `json:"v"`
	ID  string `json:"id"`
	Rev uint64 `json:"rev"` // bumped on every save; the optimistic check
	// Variant is the engine variant id.
	Variant  string `json:"variant"`
	Platform string `json:"platform,omitempty"`
	Channel  string `json:"channel"`
	// Server is the community the channel belongs to (a Discord guild, a
	// Telegram group, the web site); "" when unknown.
	Server string `json:"server,omitempty"`
	White  Player `json:"white"`
	Black  Player `json:"black"`
	// Start is the start position string, "" for the variant's start.
	Start  string   `json:"start,omitempty"`
	Moves  []string `json:"moves"`
	Result string   `json:"result,omitempty"` // "", "1-0", "0-1", "1/2-1/2"
	Reason string   `json:"reason,omitempty"`
	// DrawOffer is "white" or "black" while that side's offer stands.
	DrawOffer string `json:"draw_offer,omitempty"`
	// TakebackOffer is "white" or "black" while that side asks to take
	// back its last move.
	TakebackOffer string `json:"takeback_offer,omitempty"`
	// Rated games change the players' ratings when they end; Rating holds
	// the change once applied.
	Rated  bool          `json:"rated,omitempty"`
	Rating *RatingChange `json:"rating,omitempty"`
	// BotLevel is the playing level (1..5) of the computer opponent in a
	// game against the bot; 0 when both players are people.
	BotLevel int `json:"bot_level,omitempty"`
	// Clock is the time control and its state; nil for untimed games.
	Clock   *Clock    `json:"clock,omitempty"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	Ended   time.Time `json:"ended,omitzero"`
}

// Active reports whether the game is still being played.
func (g *Game) Active() bool { return g.Result == "" }

// ColorOf returns the colour ("white"/"black") a user plays, or "".
func (g *Game) ColorOf(userID string) string {
	switch userID {
	case g.White.ID:
		return "white"
	case g.Black.ID:
		return "black"
	}
	return ""
}

func migrateGame(v int, raw map[string]any) error {
	// Format 1 is the first; later formats add their steps here, each
	// turning version n into n+1.
	return fmt.Errorf("unknown game record format %d", v)
}

func getGame(tx *bolt.Tx, id string) (*Game, error) {
	data := tx.Bucket(bGames).Get([]byte(id))
	if data == nil {
		return nil, fmt.Errorf("game %s: %w", id, ErrNotFound)
	}
	g := new(Game)
	if err := decode(data, g, migrateGame); err != nil {
		return nil, &RecordError{Kind: "game", ID: id, Err: err}
	}
	return g, nil
}

func putGame(tx *bolt.Tx, g *Game) error {
	g.V = FormatVersion
	data, err := json.Marshal(g)
	if err != nil {
		return err
	}
	if err := tx.Bucket(bGames).Put([]byte(g.ID), data); err != nil {
		return err
	}
	ug, cg := tx.Bucket(bUserGames), tx.Bucket(bChanGames)
	keys := [][]byte{key(g.White.ID, g.Channel, g.ID), key(g.Black.ID, g.Channel, g.ID)}
	for _, k := range keys {
		if g.Active() {
			err = ug.Put(k, nil)
		} else {
			err = ug.Delete(k)
		}
		if err != nil {
			return err
		}
	}
	if g.Active() {
		err = cg.Put(key(g.Channel, g.ID), nil)
	} else {
		err = cg.Delete(key(g.Channel, g.ID))
	}
	if err != nil {
		return err
	}
	return indexLongGame(tx, g)
}

// nextGameID hands out short, typeable ids: #1, #2, … No cell of any
// board starts with "#", so a game id is never read as a cell (the older
// form g1 was also a cell). Older games keep their g-ids; both forms
// count from the same sequence, so a number names at most one game.
func nextGameID(tx *bolt.Tx) (string, error) {
	n, err := tx.Bucket(bGames).NextSequence()
	if err != nil {
		return "", err
	}
	return GameIDPrefix + strconv.FormatUint(n, 10), nil
}

// GameIDPrefix starts every new game id.
const GameIDPrefix = "#"

// CreateGame stores a new game, giving it an id and revision 1, and the
// outbox records of its announcement (outbox.go).
func (s *Store) CreateGame(g *Game, eventID string, now time.Time, out ...*Outgoing) error {
	return s.CreateGameCapped(g, Caps{}, eventID, now, out...)
}

// CreateGameCapped is CreateGame failing with a LimitError, and writing
// nothing, when a player is at the cap of active games.
func (s *Store) CreateGameCapped(g *Game, caps Caps, eventID string, now time.Time, out ...*Outgoing) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		if err := markEvent(tx, eventID, now); err != nil {
			return err
		}
		if err := caps.checkGames(tx, g.White, g.Black); err != nil {
			return err
		}
		if err := createGame(tx, g, now); err != nil {
			return err
		}
		return putOutgoing(tx, out, g.ID, now)
	})
}

func createGame(tx *bolt.Tx, g *Game, now time.Time) error {
	id, err := nextGameID(tx)
	if err != nil {
		return err
	}
	g.ID, g.Rev = id, 1
	if g.Created.IsZero() {
		g.Created = now
	}
	g.Updated = now
	return putGame(tx, g)
}

// SaveGame writes a changed game, and the outbox records of the replies
// that report the change (outbox.go). It fails with ErrConflict unless the
// stored revision is the one g was loaded at; on success g.Rev is bumped.
func (s *Store) SaveGame(g *Game, eventID string, now time.Time, out ...*Outgoing) error {
	err := s.db.Update(func(tx *bolt.Tx) error {
		if err := markEvent(tx, eventID, now); err != nil {
			return err
		}
		old, err := getGame(tx, g.ID)
		if err != nil {
			return err
		}
		if old.Rev != g.Rev {
			return fmt.Errorf("game %s: %w (revision %d, expected %d)", g.ID, ErrConflict, old.Rev, g.Rev)
		}
		ng := *g
		ng.saved(now)
		if err := putGame(tx, &ng); err != nil {
			return err
		}
		return putOutgoing(tx, out, g.ID, now)
	})
	if err == nil {
		g.saved(now)
	}
	return err
}

// saved is g as a save at now leaves it: one revision on, updated now,
// and ended now if this change ended it.
func (g *Game) saved(now time.Time) {
	g.Rev++
	g.Updated = now
	if !g.Active() && g.Ended.IsZero() {
		g.Ended = now
	}
}

// Game loads a game by id.
func (s *Store) Game(id string) (*Game, error) {
	var g *Game
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		g, err = getGame(tx, id)
		return err
	})
	return g, err
}

func (s *Store) gamesByIndex(bucket []byte, prefix []byte) ([]*Game, error) {
	var out []*Game
	err := s.db.View(func(tx *bolt.Tx) error {
		for _, id := range prefixIDs(tx.Bucket(bucket), prefix) {
			g, err := getGame(tx, id)
			if err != nil {
				s.skipped("game", id, err)
				continue
			}
			out = append(out, g)
		}
		return nil
	})
	sortGames(out)
	return out, err
}

// ActiveGames lists a user's active games in a channel, oldest first.
func (s *Store) ActiveGames(userID, channel string) ([]*Game, error) {
	return s.gamesByIndex(bUserGames, append(key(userID, channel), 0))
}

// ChannelGames lists the active games in a channel, oldest first.
func (s *Store) ChannelGames(channel string) ([]*Game, error) {
	return s.gamesByIndex(bChanGames, append(key(channel), 0))
}

// ActiveCount counts a user's active games in every channel.
func (s *Store) ActiveCount(userID string) (int, error) {
	n := 0
	err := s.db.View(func(tx *bolt.Tx) error {
		n = len(prefixIDs(tx.Bucket(bUserGames), append(key(userID), 0)))
		return nil
	})
	return n, err
}

// sortGames orders by numeric id, i.e. by creation (#9 before #10, and
// an old g9 before #10).
func sortGames(gs []*Game) {
	num := func(id string) uint64 { n, _ := strconv.ParseUint(id[1:], 10, 64); return n }
	for i := 1; i < len(gs); i++ {
		for j := i; j > 0 && num(gs[j].ID) < num(gs[j-1].ID); j-- {
			gs[j], gs[j-1] = gs[j-1], gs[j]
		}
	}
}

// ImportGames stores many new games in one transaction (imports, and
// filling a database for benchmarks); each gets an id and revision 1.
func (s *Store) ImportGames(gs []*Game, now time.Time) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		for _, g := range gs {
			if err := createGame(tx, g, now); err != nil {
				return err
			}
		}
		return nil
	})
}
