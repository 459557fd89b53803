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

// Message keys, kept buttons and channel moves on PostgreSQL. Message
// keys and kept buttons live in the keyed table (schema step 2) under
// these kinds, keyed as in their bbolt buckets.
const (
	kindMessageKey = "message_key" // channel, reply key
	kindKeptButton = "kept_button" // platform, id
)

// SwapMessage records that message carries a reply key in a channel and
// returns the message that carried it before ("" if none). The old value
// is read under the row's lock, so of two swaps at once the second
// returns the first's message, as with bbolt's one writer.
func (p *Postgres) SwapMessage(channel, replyKey, message string, now time.Time) (previous string, err error) {
	data, err := json.Marshal(messageRef{Message: message, At: now})
	if err != nil {
		return "", err
	}
	err = p.update(func(ctx context.Context, tx pgx.Tx) error {
		for {
			var old []byte
			err := tx.QueryRow(ctx, `SELECT data FROM keyed WHERE kind = $1 AND k1 = $2 AND k2 = $3 FOR UPDATE`,
				kindMessageKey, channel, replyKey).Scan(&old)
			if err == nil {
				var ref messageRef
				if json.Unmarshal(old, &ref) == nil {
					previous = ref.Message
				}
				_, err = tx.Exec(ctx, `UPDATE keyed SET at_ns = $4, data = $5 WHERE kind = $1 AND k1 = $2 AND k2 = $3`,
					kindMessageKey, channel, replyKey, now.UnixNano(), data)
				return err
			}
			if !errors.Is(err, pgx.ErrNoRows) {
				return err
			}
			tag, err := tx.Exec(ctx, `INSERT INTO keyed VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
				kindMessageKey, channel, replyKey, now.UnixNano(), data)
			if err != nil || tag.RowsAffected() == 1 {
				return err
			}
			// Another process inserted the key meanwhile: its row is
			// committed now, so the next round locks and reads it.
		}
	})
	return previous, err
}

// Message returns the message carrying a reply key ("" if none).
func (p *Postgres) Message(channel, replyKey string) (message string, err error) {
	ctx, cancel := p.ctx()
	defer cancel()
	data, err := pgKeyed(ctx, p.pool, kindMessageKey, channel, replyKey)
	if err != nil || data == nil {
		return "", err
	}
	var ref messageRef
	if json.Unmarshal(data, &ref) == nil {
		message = ref.Message
	}
	return message, nil
}

// TakeMessage returns and forgets the message carrying a reply key.
func (p *Postgres) TakeMessage(channel, replyKey string) (message string, err error) {
	ctx, cancel := p.ctx()
	defer cancel()
	var data []byte
	err = p.pool.QueryRow(ctx, `DELETE FROM keyed WHERE kind = $1 AND k1 = $2 AND k2 = $3 RETURNING data`,
		kindMessageKey, channel, replyKey).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var ref messageRef
	if json.Unmarshal(data, &ref) == nil {
		message = ref.Message
	}
	return message, nil
}

// KeepButton stores a button and returns its id, unique for good: ids
// come from a counter row that only ever grows, shared by all platforms
// as bbolt's bucket sequence is.
func (p *Postgres) KeepButton(platform string, b KeptButton) (id string, err error) {
	data, err := json.Marshal(b)
	if err != nil {
		return "", err
	}
	err = p.update(func(ctx context.Context, tx pgx.Tx) error {
		n, err := nextCounter(ctx, tx, "button")
		if err != nil {
			return err
		}
		id = strconv.FormatUint(n, 10)
		_, err = tx.Exec(ctx, `INSERT INTO keyed VALUES ($1, $2, $3, $4, $5)`,
			kindKeptButton, platform, id, b.At.UnixNano(), data)
		return err
	})
	if err != nil {
		return "", err
	}
	return id, nil
}

// Button loads a kept button; ErrNotFound when it was never kept or has
// been pruned.
func (p *Postgres) Button(platform, id string) (KeptButton, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	var b KeptButton
	var data []byte
	err := p.pool.QueryRow(ctx, `SELECT data FROM keyed WHERE kind = $1 AND k1 = $2 AND k2 = $3`,
		kindKeptButton, platform, id).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return b, ErrNotFound
	}
	if err != nil {
		return b, err
	}
	return b, json.Unmarshal(data, &b)
}

// PruneMessages forgets message keys and kept buttons recorded before a
// time.
func (p *Postgres) PruneMessages(before time.Time) (int, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	tag, err := p.pool.Exec(ctx, `DELETE FROM keyed WHERE kind IN ($1, $2) AND at_ns < $3`,
		kindMessageKey, kindKeptButton, before.UnixNano())
	return int(tag.RowsAffected()), err
}

// MoveChannel gives a channel's games, active and finished, its open
// challenges and the games it follows a new channel id (a Telegram group
// upgraded to a supergroup). Every moved game's revision is bumped, so a copy loaded
// before the move is not saved over it; the rows are locked first, so a
// save racing the move either lands before it (and moves with the game)
// or fails with ErrConflict.
func (p *Postgres) MoveChannel(from, to string) (games, challenges int, err error) {
	if from == to || from == "" || to == "" {
		return 0, 0, fmt.Errorf("move channel %q to %q: not two channels", from, to)
	}
	err = p.update(func(ctx context.Context, tx pgx.Tx) error {
		games, challenges = 0, 0
		ids, err := pgColumn(ctx, tx, `SELECT id FROM games WHERE channel = $1 ORDER BY seq, id FOR UPDATE`, from)
		if err != nil {
			return err
		}
		for _, id := range ids {
			g, err := pgGetGame(ctx, tx, id, false)
			if err != nil {
				return err
			}
			g.Channel = to
			if g.Server == from { // a Telegram group is its own server
				g.Server = to
			}
			g.Rev++
			if err := pgPutGame(ctx, tx, g); err != nil {
				return err
			}
			games++
		}
		ids, err = pgColumn(ctx, tx, `SELECT id FROM challenges WHERE channel = $1 ORDER BY seq, id FOR UPDATE`, from)
		if err != nil {
			return err
		}
		for _, id := range ids {
			c, err := pgGetChallenge(ctx, tx, id, false)
			if err != nil {
				return err
			}
			c.Channel = to
			c.V = FormatVersion
			data, err := json.Marshal(c)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `UPDATE challenges SET channel = $2, data = $3 WHERE id = $1`, id, to, data); err != nil {
				return err
			}
			challenges++
		}
		return pgMoveFollows(ctx, tx, from, to)
	})
	if err != nil {
		return 0, 0, err
	}
	return games, challenges, nil
}

// pgColumn runs a query selecting one text column.
func pgColumn(ctx context.Context, tx pgx.Tx, q string, args ...any) ([]string, error) {
	rows, err := tx.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// pgMoveFollows makes the follows of channel from those of channel to.
// The channel is in the record too, so each is rewritten, not only
// re-keyed; a game followed from both ends up followed once, by the
// moved follow (as bbolt's Put over the key does).
func pgMoveFollows(ctx context.Context, tx pgx.Tx, from, to string) error {
	rows, err := tx.Query(ctx, `SELECT k1, data FROM keyed WHERE kind = $1 AND k2 = $2 ORDER BY k1 FOR UPDATE`, kindFollow, from)
	if err != nil {
		return err
	}
	type moved struct {
		game string
		data []byte
	}
	var ms []moved
	for rows.Next() {
		var m moved
		if err := rows.Scan(&m.game, &m.data); err != nil {
			rows.Close()
			return err
		}
		ms = append(ms, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, m := range ms {
		var f Follow
		if err := decode(m.data, &f, migrateFollow); err != nil {
			return fmt.Errorf("follow %s %s: %w", m.game, from, err)
		}
		f.Channel, f.V = to, FormatVersion
		data, err := json.Marshal(f)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM keyed WHERE kind = $1 AND k1 = $2 AND k2 = $3`, kindFollow, m.game, from); err != nil {
			return err
		}
		if err := pgPutKeyed(ctx, tx, kindFollow, f.Game, to, data); err != nil {
			return err
		}
	}
	return nil
}
