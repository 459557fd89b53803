package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
)

// pgGetGame reads a game; lock takes its row until the transaction ends,
// which is what serialises two processes changing one game.
func pgGetGame(ctx context.Context, tx rowQuerier, id string, lock bool) (*Game, error) {
	return pgGetRecord[Game](ctx, tx, "games", "game", id, lock, migrateGame)
}

// pgGetRecord reads the record with id from a (id, data) table, locking
// its row when asked; kind names it in errors.
func pgGetRecord[T any](ctx context.Context, tx rowQuerier, table, kind, id string, lock bool, migrate func(v int, raw map[string]any) error) (*T, error) {
	q := `SELECT data FROM ` + table + ` WHERE id = $1`
	if lock {
		q += ` FOR UPDATE`
	}
	var data []byte
	if err := tx.QueryRow(ctx, q, id).Scan(&data); errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%s %s: %w", kind, id, ErrNotFound)
	} else if err != nil {
		return nil, err
	}
	rec := new(T)
	if err := decode(data, rec, migrate); err != nil {
		return nil, &RecordError{Kind: kind, ID: id, Err: err}
	}
	return rec, nil
}

func gameSeq(id string) int64 {
	n, _ := strconv.ParseInt(id[1:], 10, 64)
	return n
}

// pgPutGame writes a game and the columns its lists are selected by.
func pgPutGame(ctx context.Context, tx pgx.Tx, g *Game) error {
	g.V = FormatVersion
	data, err := json.Marshal(g)
	if err != nil {
		return err
	}
	var due, ended *int64
	if g.Active() && g.Clock != nil && !g.Clock.Due.IsZero() {
		d := max(g.Clock.Due.UnixNano(), 0)
		due = &d
	}
	if !g.Active() {
		t := g.Ended
		if t.IsZero() {
			t = g.Updated
		}
		e := max(t.UnixNano(), 0)
		ended = &e
	}
	// The game's clock job follows its deadline in the same statement
	// (jobs.go); its lease, if a process holds it, stays.
	_, err = tx.Exec(ctx, `WITH clock AS (
			INSERT INTO jobs (kind, key, due_ns) SELECT 'clock', $1, $7 WHERE $7::bigint IS NOT NULL
			ON CONFLICT (kind, key) DO UPDATE SET due_ns = EXCLUDED.due_ns
		), unclocked AS (
			DELETE FROM jobs WHERE $7::bigint IS NULL AND kind = 'clock' AND key = $1
		)
		INSERT INTO games (id, seq, channel, white, black, active, due_ns, ended_ns, data)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		ON CONFLICT (id) DO UPDATE SET channel = $3, white = $4, black = $5, active = $6, due_ns = $7, ended_ns = $8, data = $9`,
		g.ID, gameSeq(g.ID), g.Channel, g.White.ID, g.Black.ID, g.Active(), due, ended, data)
	return err
}

func pgCreateGame(ctx context.Context, tx pgx.Tx, g *Game, now time.Time) error {
	n, err := nextCounter(ctx, tx, "game")
	if err != nil {
		return err
	}
	g.ID, g.Rev = GameIDPrefix+strconv.FormatUint(n, 10), 1
	if g.Created.IsZero() {
		g.Created = now
	}
	g.Updated = now
	return pgPutGame(ctx, tx, g)
}

// pgCheckGames is Caps.checkGames. The players are locked first, so two
// transactions starting games for one player count one after the other.
func pgCheckGames(ctx context.Context, tx pgx.Tx, caps Caps, players ...Player) error {
	if caps.ActiveGames <= 0 {
		return nil
	}
	var ids []string
	for _, p := range players {
		if p.ID != "" && p.ID != caps.Exempt {
			ids = append(ids, p.ID)
		}
	}
	if err := lockUsers(ctx, tx, ids...); err != nil {
		return err
	}
	for _, p := range players {
		if p.ID == "" || p.ID == caps.Exempt {
			continue
		}
		n, err := pgActiveCount(ctx, tx, p.ID)
		if err != nil {
			return err
		}
		if n >= caps.ActiveGames {
			return &LimitError{User: p, What: "games", Count: n}
		}
	}
	return nil
}

// pgActiveCount counts games in (user, channel) pairs, as bbolt's index
// does.
func pgActiveCount(ctx context.Context, q rowQuerier, user string) (int, error) {
	var n int
	err := q.QueryRow(ctx, `SELECT count(*) FROM games WHERE active AND (white = $1 OR black = $1)`, user).Scan(&n)
	return n, err
}

// CreateGame stores a new game, giving it an id and revision 1.
func (p *Postgres) CreateGame(g *Game, eventID string, now time.Time, out ...*Outgoing) error {
	return p.CreateGameCapped(g, Caps{}, eventID, now, out...)
}

// CreateGameCapped is CreateGame failing with a LimitError when a player
// is at the cap of active games.
func (p *Postgres) CreateGameCapped(g *Game, caps Caps, eventID string, now time.Time, out ...*Outgoing) error {
	ng := *g
	err := p.update(func(ctx context.Context, tx pgx.Tx) error {
		ng = *g
		if err := pgMarkEvent(ctx, tx, eventID, now); err != nil {
			return err
		}
		if err := pgCheckGames(ctx, tx, caps, ng.White, ng.Black); err != nil {
			return err
		}
		if err := pgCreateGame(ctx, tx, &ng, now); err != nil {
			return err
		}
		return pgPutOutgoing(ctx, tx, out, ng.ID, now, p.leaseAt(now))
	})
	if err == nil {
		*g = ng
	}
	return err
}

// SaveGame writes a changed game; ErrConflict unless the stored revision
// is the one g was loaded at. On success g.Rev is bumped.
func (p *Postgres) SaveGame(g *Game, eventID string, now time.Time, out ...*Outgoing) error {
	err := p.update(func(ctx context.Context, tx pgx.Tx) error {
		if err := pgMarkEvent(ctx, tx, eventID, now); err != nil {
			return err
		}
		old, err := pgGetGame(ctx, tx, g.ID, true)
		if err != nil {
			return err
		}
		if old.Rev != g.Rev {
			return fmt.Errorf("game %s: %w (revision %d, expected %d)", g.ID, ErrConflict, old.Rev, g.Rev)
		}
		ng := *g
		ng.saved(now)
		if err := pgPutGame(ctx, tx, &ng); err != nil {
			return err
		}
		return pgPutOutgoing(ctx, tx, out, g.ID, now, p.leaseAt(now))
	})
	if err == nil {
		g.saved(now)
	}
	return err
}

// Game loads a game by id.
func (p *Postgres) Game(id string) (*Game, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	return pgGetGame(ctx, p.pool, id, false)
}

// games runs a query selecting (id, data) and decodes the rows, leaving
// out (and logging) those that do not decode.
func (p *Postgres) games(q string, args ...any) ([]*Game, error) {
	return pgRecords[Game](p, "game", migrateGame, q, args...)
}

// ActiveGames lists a user's active games in a channel, oldest first.
func (p *Postgres) ActiveGames(userID, channel string) ([]*Game, error) {
	return p.games(`SELECT id, data FROM games WHERE active AND channel = $2 AND (white = $1 OR black = $1) ORDER BY seq`, userID, channel)
}

// ChannelGames lists the active games in a channel, oldest first.
func (p *Postgres) ChannelGames(channel string) ([]*Game, error) {
	return p.games(`SELECT id, data FROM games WHERE active AND channel = $1 ORDER BY seq`, channel)
}

// UserActiveGames lists a user's active games in every channel.
func (p *Postgres) UserActiveGames(userID string) ([]*Game, error) {
	return p.games(`SELECT id, data FROM games WHERE active AND (white = $1 OR black = $1) ORDER BY seq`, userID)
}

// ActiveCount counts a user's active games in every channel.
func (p *Postgres) ActiveCount(userID string) (int, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	return pgActiveCount(ctx, p.pool, userID)
}

// ImportGames stores many new games in one transaction.
func (p *Postgres) ImportGames(gs []*Game, now time.Time) error {
	return p.update(func(ctx context.Context, tx pgx.Tx) error {
		for _, g := range gs {
			if err := pgCreateGame(ctx, tx, g, now); err != nil {
				return err
			}
		}
		return nil
	})
}

func pgGetChallenge(ctx context.Context, tx rowQuerier, id string, lock bool) (*Challenge, error) {
	return pgGetRecord[Challenge](ctx, tx, "challenges", "challenge", id, lock, migrateChallenge)
}

func pgPutChallenge(ctx context.Context, tx pgx.Tx, c *Challenge) error {
	c.V = FormatVersion
	data, err := json.Marshal(c)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO challenges (id, seq, channel, from_id, expires_ns, data) VALUES ($1, $2, $3, $4, $5, $6)`,
		c.ID, gameSeq(c.ID), c.Channel, c.From.ID, c.Expires.UnixNano(), data)
	return err
}

// CreateChallenge stores a new challenge and gives it an id (c1, c2, …).
func (p *Postgres) CreateChallenge(c *Challenge, eventID string, now time.Time, caps Caps) error {
	id := ""
	err := p.update(func(ctx context.Context, tx pgx.Tx) error {
		if err := pgMarkEvent(ctx, tx, eventID, now); err != nil {
			return err
		}
		if caps.OpenChallenges > 0 && c.From.ID != caps.Exempt {
			if err := lockUsers(ctx, tx, c.From.ID); err != nil {
				return err
			}
			var n int
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM challenges WHERE from_id = $1 AND expires_ns > $2`, c.From.ID, now.UnixNano()).Scan(&n); err != nil {
				return err
			}
			if n >= caps.OpenChallenges {
				return &LimitError{User: c.From, What: "challenges", Count: n}
			}
		}
		if err := pgCheckGames(ctx, tx, caps, c.From); err != nil {
			return err
		}
		n, err := nextCounter(ctx, tx, "challenge")
		if err != nil {
			return err
		}
		id = "c" + strconv.FormatUint(n, 10)
		nc := *c
		nc.ID = id
		return pgPutChallenge(ctx, tx, &nc)
	})
	if err == nil {
		c.ID, c.V = id, FormatVersion
	}
	return err
}

// Challenge loads a challenge by id.
func (p *Postgres) Challenge(id string) (*Challenge, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	return pgGetChallenge(ctx, p.pool, id, false)
}

// DeleteChallenge removes a challenge; ErrNotFound when someone else
// removed or accepted it first.
func (p *Postgres) DeleteChallenge(id, eventID string, now time.Time) error {
	return p.update(func(ctx context.Context, tx pgx.Tx) error {
		if err := pgMarkEvent(ctx, tx, eventID, now); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM challenges WHERE id = $1`, id)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("challenge %s: %w", id, ErrNotFound)
		}
		return nil
	})
}

// AcceptChallenge turns a challenge into a game in one transaction: the
// challenge's row lock lets exactly one of two accepters have it.
func (p *Postgres) AcceptChallenge(id string, g *Game, eventID string, now time.Time, caps Caps, out ...*Outgoing) error {
	ng := *g
	err := p.update(func(ctx context.Context, tx pgx.Tx) error {
		ng = *g
		if err := pgMarkEvent(ctx, tx, eventID, now); err != nil {
			return err
		}
		if _, err := pgGetChallenge(ctx, tx, id, true); err != nil {
			return err
		}
		if err := pgCheckGames(ctx, tx, caps, ng.White, ng.Black); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM challenges WHERE id = $1`, id); err != nil {
			return err
		}
		if err := pgCreateGame(ctx, tx, &ng, now); err != nil {
			return err
		}
		return pgPutOutgoing(ctx, tx, out, ng.ID, now, p.leaseAt(now))
	})
	if err == nil {
		*g = ng
	}
	return err
}

func (p *Postgres) challenges(q string, args ...any) ([]*Challenge, error) {
	return pgRecords[Challenge](p, "challenge", migrateChallenge, q, args...)
}

// ChannelChallenges lists the unexpired challenges in a channel.
func (p *Postgres) ChannelChallenges(channel string, now time.Time) ([]*Challenge, error) {
	return p.challenges(`SELECT id, data FROM challenges WHERE channel = $1 AND expires_ns > $2 ORDER BY seq`, channel, now.UnixNano())
}

// UserChallenges lists the unexpired challenges a user made, anywhere.
func (p *Postgres) UserChallenges(userID string, now time.Time) ([]*Challenge, error) {
	return p.challenges(`SELECT id, data FROM challenges WHERE from_id = $1 AND expires_ns > $2 ORDER BY seq`, userID, now.UnixNano())
}

// PruneChallenges deletes challenges that expired before now.
func (p *Postgres) PruneChallenges(now time.Time) (int, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	tag, err := p.pool.Exec(ctx, `DELETE FROM challenges WHERE expires_ns <= $1`, now.UnixNano())
	return int(tag.RowsAffected()), err
}

// Settings loads a user's settings (the zero value when none are stored).
func (p *Postgres) Settings(userID string) (Settings, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	var st Settings
	var data []byte
	err := p.pool.QueryRow(ctx, `SELECT data FROM settings WHERE user_id = $1`, userID).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return st, nil
	}
	if err != nil {
		return st, err
	}
	return st, decode(data, &st, migrateSettings)
}

// SaveSettings stores a user's settings.
func (p *Postgres) SaveSettings(userID string, st Settings, eventID string, now time.Time) error {
	st.V = FormatVersion
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return p.update(func(ctx context.Context, tx pgx.Tx) error {
		if err := pgMarkEvent(ctx, tx, eventID, now); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO settings VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET data = $2`, userID, data)
		return err
	})
}
