package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
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
// following twice is one follow.
func (p *Postgres) AddFollow(f Follow) error {
	f.V = FormatVersion
	data, err := json.Marshal(f)
	if err != nil {
		return err
	}
	return p.update(func(ctx context.Context, tx pgx.Tx) error {
		return pgPutKeyed(ctx, tx, kindFollow, f.Game, f.Channel, data)
	})
}

// RemoveFollow stops a channel following a game; it reports whether it
// did.
func (p *Postgres) RemoveFollow(game, channel string) (bool, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	tag, err := p.pool.Exec(ctx, `DELETE FROM keyed WHERE kind = $1 AND k1 = $2 AND k2 = $3`, kindFollow, game, channel)
	return tag.RowsAffected() > 0, err
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

// SaveReview stores a game's review, replacing an older one.
func (p *Postgres) SaveReview(r *Review) error {
	r.V = FormatVersion
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return p.update(func(ctx context.Context, tx pgx.Tx) error {
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

// SavePuzzle writes, in one transaction, the user's open puzzle in a
// channel (nil: none open any more) and their record in the variant.
func (p *Postgres) SavePuzzle(user, channel, variant string, open *PuzzleState, stats PuzzleStats) error {
	stats.V = FormatVersion
	sd, err := json.Marshal(stats)
	if err != nil {
		return err
	}
	var od []byte
	if open != nil {
		open.V = FormatVersion
		if od, err = json.Marshal(open); err != nil {
			return err
		}
	}
	return p.update(func(ctx context.Context, tx pgx.Tx) error {
		var err error
		if open == nil {
			_, err = tx.Exec(ctx, `DELETE FROM keyed WHERE kind = $1 AND k1 = $2 AND k2 = $3`, kindPuzzleOpen, user, channel)
		} else {
			err = pgPutKeyed(ctx, tx, kindPuzzleOpen, user, channel, od)
		}
		if err != nil {
			return err
		}
		return pgPutKeyed(ctx, tx, kindPuzzleStats, variant, user, sd)
	})
}
