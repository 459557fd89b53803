package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Followed games, reviews and puzzles on PostgreSQL: records in the keyed
// table (schema step 2) under these kinds, keyed as in their bbolt
// buckets.
const (
	kindFollow      = "follow"       // game, channel
	kindReview      = "review"       // game, ""
	kindPuzzleOpen  = "puzzle_open"  // user, channel
	kindPuzzleStats = "puzzle_stats" // variant, user
)

// pgKeyed reads one keyed record; nil when there is none.
func pgKeyed(ctx context.Context, q rowQuerier, kind, k1, k2 string) ([]byte, error) {
	var data []byte
	err := q.QueryRow(ctx, `SELECT data FROM keyed WHERE kind = $1 AND k1 = $2 AND k2 = $3`, kind, k1, k2).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	return data, err
}

// pgPutKeyed writes one keyed record, replacing the one under its key.
func pgPutKeyed(ctx context.Context, tx pgx.Tx, kind, k1, k2 string, data []byte) error {
	_, err := tx.Exec(ctx, `INSERT INTO keyed VALUES ($1, $2, $3, NULL, $4)
		ON CONFLICT (kind, k1, k2) DO UPDATE SET data = $4`, kind, k1, k2, data)
	return err
}

// AddFollow makes a channel follow a game (or updates its follow);
// following twice is one follow. eventID is recorded with it
// (ErrDuplicate when it was applied before; "" for the bot's own
// updates).
func (p *Postgres) AddFollow(f Follow, eventID string, now time.Time) error {
	f.V = FormatVersion
	data, err := json.Marshal(f)
	if err != nil {
		return err
	}
	return p.update(func(ctx context.Context, tx pgx.Tx) error {
		if err := pgMarkEvent(ctx, tx, eventID, now); err != nil {
			return err
		}
		return pgPutKeyed(ctx, tx, kindFollow, f.Game, f.Channel, data)
	})
}

// RemoveFollow stops a channel following a game; it reports whether it
// did. eventID is recorded as with AddFollow.
func (p *Postgres) RemoveFollow(game, channel, eventID string, now time.Time) (bool, error) {
	found := false
	err := p.update(func(ctx context.Context, tx pgx.Tx) error {
		if err := pgMarkEvent(ctx, tx, eventID, now); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM keyed WHERE kind = $1 AND k1 = $2 AND k2 = $3`, kindFollow, game, channel)
		found = tag.RowsAffected() > 0
		return err
	})
	return found, err
}

// Follows lists the channels following a game, in bbolt's order.
func (p *Postgres) Follows(game string) ([]Follow, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	rows, err := p.pool.Query(ctx, `SELECT k2, data FROM keyed WHERE kind = $1 AND k1 = $2 ORDER BY k2`, kindFollow, game)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Follow
	for rows.Next() {
		var ch string
		var data []byte
		if err := rows.Scan(&ch, &data); err != nil {
			return nil, err
		}
		var f Follow
		if err := decode(data, &f, migrateFollow); err != nil {
			return nil, fmt.Errorf("follow %s %s: %w", game, ch, err)
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// SaveReview stores a game's review, replacing an older one, and records
// the event that asked for it (ErrDuplicate when it was applied before).
func (p *Postgres) SaveReview(r *Review, eventID string, now time.Time) error {
	r.V = FormatVersion
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return p.update(func(ctx context.Context, tx pgx.Tx) error {
		if err := pgMarkEvent(ctx, tx, eventID, now); err != nil {
			return err
		}
		return pgPutKeyed(ctx, tx, kindReview, r.Game, "", data)
	})
}

// GameReview loads a game's review (ErrNotFound when there is none).
func (p *Postgres) GameReview(game string) (*Review, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	data, err := pgKeyed(ctx, p.pool, kindReview, game, "")
	if err != nil {
		return nil, err
	}
	if data == nil {
		return nil, fmt.Errorf("review of %s: %w", game, ErrNotFound)
	}
	r := new(Review)
	if err := decode(data, r, migrateReview); err != nil {
		return nil, err
	}
	return r, nil
}

// OpenPuzzle returns the puzzle a user is solving in a channel (ok false
// when none).
func (p *Postgres) OpenPuzzle(user, channel string) (st PuzzleState, ok bool, err error) {
	ctx, cancel := p.ctx()
	defer cancel()
	data, err := pgKeyed(ctx, p.pool, kindPuzzleOpen, user, channel)
	if err != nil || data == nil {
		return st, false, err
	}
	return st, true, decode(data, &st, migratePuzzle)
}

// PuzzleStats reads a user's puzzle record in a variant.
func (p *Postgres) PuzzleStats(variant, user string) (PuzzleStats, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	var ps PuzzleStats
	data, err := pgKeyed(ctx, p.pool, kindPuzzleStats, variant, user)
	if err != nil || data == nil {
		return ps, err
	}
	return ps, decode(data, &ps, migratePuzzle)
}

// UpdatePuzzle reads, changes and writes in one transaction the user's
// open puzzle in a channel and their record in the variant, recording
// eventID with them (ErrDuplicate when it was applied before).
//
// The record's row is locked first (created empty if the user has none
// yet, so there is a row to lock): every change of a user's puzzles in a
// variant waits for the one before, in any process. The open puzzle is
// locked after it; a puzzle opened where there was none is inserted only
// if no other transaction opened one meanwhile (ErrConflict otherwise).
func (p *Postgres) UpdatePuzzle(user, channel, variant, eventID string, now time.Time, change PuzzleChange) error {
	empty, err := json.Marshal(PuzzleStats{V: FormatVersion})
	if err != nil {
		return err
	}
	return p.update(func(ctx context.Context, tx pgx.Tx) error {
		if err := pgMarkEvent(ctx, tx, eventID, now); err != nil {
			return err
		}
		var sd []byte
		err := tx.QueryRow(ctx, `INSERT INTO keyed VALUES ($1, $2, $3, NULL, $4)
			ON CONFLICT (kind, k1, k2) DO UPDATE SET data = keyed.data RETURNING data`,
			kindPuzzleStats, variant, user, empty).Scan(&sd)
		if err != nil {
			return err
		}
		var stats PuzzleStats
		if err := decode(sd, &stats, migratePuzzle); err != nil {
			return err
		}
		var od []byte
		err = tx.QueryRow(ctx, `SELECT data FROM keyed WHERE kind = $1 AND k1 = $2 AND k2 = $3 FOR UPDATE`,
			kindPuzzleOpen, user, channel).Scan(&od)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		var open *PuzzleState
		if od != nil {
			open = new(PuzzleState)
			if err := decode(od, open, migratePuzzle); err != nil {
				return err
			}
		}
		next, err := change(open, &stats)
		if err != nil {
			return err
		}
		switch {
		case next == nil:
			_, err = tx.Exec(ctx, `DELETE FROM keyed WHERE kind = $1 AND k1 = $2 AND k2 = $3`, kindPuzzleOpen, user, channel)
		default:
			next.V = FormatVersion
			var nd []byte
			if nd, err = json.Marshal(next); err != nil {
				return err
			}
			if open != nil {
				err = pgPutKeyed(ctx, tx, kindPuzzleOpen, user, channel, nd)
				break
			}
			var tag pgconn.CommandTag
			tag, err = tx.Exec(ctx, `INSERT INTO keyed VALUES ($1, $2, $3, NULL, $4) ON CONFLICT DO NOTHING`, kindPuzzleOpen, user, channel, nd)
			if err == nil && tag.RowsAffected() == 0 {
				err = fmt.Errorf("open puzzle of %s in %s: %w", user, channel, ErrConflict)
			}
		}
		if err != nil {
			return err
		}
		stats.V = FormatVersion
		if sd, err = json.Marshal(stats); err != nil {
			return err
		}
		return pgPutKeyed(ctx, tx, kindPuzzleStats, variant, user, sd)
	})
}
