package storage

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// DueGames lists the games whose clocks need the bot at or before now,
// soonest first.
func (p *Postgres) DueGames(now time.Time) ([]string, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	rows, err := p.pool.Query(ctx, `SELECT id FROM games WHERE due_ns <= $1 ORDER BY due_ns, id`, max(now.UnixNano(), 0))
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// ForgetDue takes a game off the deadline index until it is saved again.
func (p *Postgres) ForgetDue(id string) error {
	ctx, cancel := p.ctx()
	defer cancel()
	return pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE games SET due_ns = NULL WHERE id = $1`, id); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM jobs WHERE kind = 'clock' AND key = $1`, id)
		return err
	})
}

// NextDue is the earliest pending clock event.
func (p *Postgres) NextDue() (t time.Time, ok bool, err error) {
	ctx, cancel := p.ctx()
	defer cancel()
	var ns *int64
	if err := p.pool.QueryRow(ctx, `SELECT min(due_ns) FROM games WHERE due_ns IS NOT NULL`).Scan(&ns); err != nil || ns == nil {
		return time.Time{}, false, err
	}
	return time.Unix(0, *ns), true, nil
}

// FinishedGames lists finished games in a channel, newest first, at most
// limit; with userID only that user's.
func (p *Postgres) FinishedGames(channel, userID string, limit int) ([]*Game, error) {
	if limit <= 0 {
		return nil, nil
	}
	if userID == "" {
		return p.games(`SELECT id, data FROM games WHERE NOT active AND channel = $1 ORDER BY ended_ns DESC, id DESC LIMIT $2`, channel, limit)
	}
	return p.games(`SELECT id, data FROM games WHERE NOT active AND channel = $1 AND (white = $2 OR black = $2) ORDER BY ended_ns DESC, id DESC LIMIT $3`, channel, userID, limit)
}

func pgGetRating(ctx context.Context, q rowQuerier, variant, userID string) (Rating, error) {
	r := Rating{User: userID, Variant: variant}
	var data []byte
	err := q.QueryRow(ctx, `SELECT data FROM ratings WHERE variant = $1 AND user_id = $2`, variant, userID).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return r, nil
	}
	if err != nil {
		return r, err
	}
	if err := decode(data, &r, func(v int, _ map[string]any) error {
		return fmt.Errorf("unknown rating record format %d", v)
	}); err != nil {
		return r, &RecordError{Kind: "rating", ID: variant + "/" + userID, Err: err}
	}
	return r, nil
}

func pgPutRating(ctx context.Context, tx pgx.Tx, r Rating) error {
	r.V = FormatVersion
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO ratings VALUES ($1, $2, $3) ON CONFLICT (variant, user_id) DO UPDATE SET data = $3`, r.Variant, r.User, data)
	return err
}

// Rating reads a player's rating in a variant.
func (p *Postgres) Rating(variant, userID string) (Rating, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	return pgGetRating(ctx, p.pool, variant, userID)
}

// RateGame applies a finished rated game to its players' ratings, once.
// The game's row lock makes "once" hold across processes; the players'
// locks keep two games ending together from overwriting each other's
// rating change.
func (p *Postgres) RateGame(id string, now time.Time, update func(g *Game, white, black Rating) (Rating, Rating)) (*Game, error) {
	var out *Game
	err := p.update(func(ctx context.Context, tx pgx.Tx) error {
		g, err := pgGetGame(ctx, tx, id, true)
		if err != nil {
			return err
		}
		out = g
		if !g.Rated || g.Active() || g.Rating != nil {
			return nil
		}
		if err := lockUsers(ctx, tx, g.White.ID, g.Black.ID); err != nil {
			return err
		}
		w, err := pgGetRating(ctx, tx, g.Variant, g.White.ID)
		if err != nil {
			return err
		}
		b, err := pgGetRating(ctx, tx, g.Variant, g.Black.ID)
		if err != nil {
			return err
		}
		nw, nb := update(g, w, b)
		nw.User, nw.Variant, nb.User, nb.Variant = g.White.ID, g.Variant, g.Black.ID, g.Variant
		if err := pgPutRating(ctx, tx, nw); err != nil {
			return err
		}
		if err := pgPutRating(ctx, tx, nb); err != nil {
			return err
		}
		ng := *g
		ng.Rating = &RatingChange{WhiteBefore: w.R, WhiteAfter: nw.R, BlackBefore: b.R, BlackAfter: nb.R}
		ng.Rev++
		ng.Updated = now
		if err := pgPutGame(ctx, tx, &ng); err != nil {
			return err
		}
		out = &ng
		return nil
	})
	return out, err
}

func (p *Postgres) ratings(q string, args ...any) ([]Rating, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	rows, err := p.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Rating
	for rows.Next() {
		var variant, user string
		var data []byte
		if err := rows.Scan(&variant, &user, &data); err != nil {
			return nil, err
		}
		var r Rating
		if err := decode(data, &r, func(v int, _ map[string]any) error {
			return fmt.Errorf("unknown rating record format %d", v)
		}); err != nil {
			p.skipped("rating", variant+"/"+user, err)
			continue
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Leaderboard lists the rated players of a variant, best first.
func (p *Postgres) Leaderboard(variant string) ([]Rating, error) {
	out, err := p.ratings(`SELECT variant, user_id, data FROM ratings WHERE variant = $1 ORDER BY user_id`, variant)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].R != out[j].R {
			return out[i].R > out[j].R
		}
		return out[i].User < out[j].User
	})
	return out, err
}

// UserRatings lists a player's ratings in every variant they are rated in.
func (p *Postgres) UserRatings(userID string) ([]Rating, error) {
	return p.ratings(`SELECT variant, user_id, data FROM ratings WHERE user_id = $1 ORDER BY variant`, userID)
}

// pgPutOutgoing is putOutgoing. Ids come from a sequence: two games'
// records need no common lock, and one game's records are written under
// its row lock, so their order is the write order.
// The records are leased as given: to the writer, who posts them, or
// to nobody (a stop handing its queue over).
func pgPutOutgoing(ctx context.Context, tx pgx.Tx, out []*Outgoing, game string, now time.Time, l pgLease) error {
	for _, o := range out {
		if o == nil {
			continue
		}
		var n int64
		if err := tx.QueryRow(ctx, `SELECT nextval('outbox_seq')`).Scan(&n); err != nil {
			return err
		}
		rec := *o
		rec.V, rec.ID = FormatVersion, outboxID(uint64(n))
		if rec.Game == "" && rec.Reply == nil {
			rec.Game = game
			rec.Caption = strings.ReplaceAll(rec.Caption, "{game}", game)
		}
		if rec.Created.IsZero() {
			rec.Created = now
		}
		data, err := json.Marshal(&rec)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO outbox (seq, channel, data, locked_by, locked_until_ns) VALUES ($1, $2, $3, $4, $5)`,
			n, rec.Channel, data, l.by, l.until); err != nil {
			return err
		}
		o.ID, o.Game, o.Caption, o.Created = rec.ID, rec.Game, rec.Caption, rec.Created
	}
	return nil
}

// outboxID is the record id bbolt gives sequence number n.
func outboxID(n uint64) string {
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], n)
	return hex.EncodeToString(k[:])
}

// outboxSeq is the sequence number of an id; ok is false for an id no
// store gave.
func outboxSeq(id string) (int64, bool) {
	b, err := hex.DecodeString(id)
	if err != nil || len(b) != 8 {
		return 0, false
	}
	return int64(binary.BigEndian.Uint64(b)), true
}

// PutOutgoing writes records on their own.
func (p *Postgres) PutOutgoing(now time.Time, out ...*Outgoing) error {
	return p.update(func(ctx context.Context, tx pgx.Tx) error {
		return pgPutOutgoing(ctx, tx, out, "", now, p.leaseAt(now))
	})
}

// ReplaceOutgoing deletes the records done and writes out, in one
// transaction.
func (p *Postgres) ReplaceOutgoing(done []string, now time.Time, out ...*Outgoing) error {
	return p.update(func(ctx context.Context, tx pgx.Tx) error {
		for _, id := range done {
			if n, ok := outboxSeq(id); ok {
				if _, err := tx.Exec(ctx, `DELETE FROM outbox WHERE seq = $1`, n); err != nil {
					return err
				}
			}
		}
		return pgPutOutgoing(ctx, tx, out, "", now, pgLease{})
	})
}

// PendingOutgoing lists the records whose channel starts with prefix,
// oldest first.
func (p *Postgres) PendingOutgoing(prefix string) ([]*Outgoing, error) {
	return p.outgoing(`SELECT seq::text, data FROM outbox WHERE starts_with(channel, $1) ORDER BY seq`, prefix)
}

// RefusedOutgoing lists the deliveries the platform refused in a channel,
// oldest first.
func (p *Postgres) RefusedOutgoing(channel string) ([]*Outgoing, error) {
	return p.outgoing(`SELECT id, data FROM outbox_refused WHERE channel = $1 ORDER BY id`, channel)
}

func (p *Postgres) outgoing(q string, args ...any) ([]*Outgoing, error) {
	return pgRecords[Outgoing](p, "outbox", nil, q, args...)
}

// DeliveredOutgoing forgets a delivered record; refused non-empty keeps it
// among the refused deliveries of its channel instead.
func (p *Postgres) DeliveredOutgoing(id, refused string) error {
	n, ok := outboxSeq(id)
	if !ok {
		return nil
	}
	return p.update(func(ctx context.Context, tx pgx.Tx) error {
		var data []byte
		err := tx.QueryRow(ctx, `DELETE FROM outbox WHERE seq = $1 RETURNING data`, n).Scan(&data)
		if errors.Is(err, pgx.ErrNoRows) || (err == nil && refused == "") {
			return nil // delivered before, or handed over meanwhile
		}
		if err != nil {
			return err
		}
		var o Outgoing
		if err := decode(data, &o, nil); err != nil {
			return err
		}
		o.Refused, o.Reply = refused, nil
		if data, err = json.Marshal(&o); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO outbox_refused VALUES ($1, $2, $3) ON CONFLICT (channel, id) DO UPDATE SET data = $3`, o.Channel, o.ID, data)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM outbox_refused WHERE channel = $1 AND id NOT IN
			(SELECT id FROM outbox_refused WHERE channel = $1 ORDER BY id DESC LIMIT $2)`, o.Channel, maxRefused)
		return err
	})
}

// ClaimWebName stores (name, hash) under key unless the key is taken, and
// returns what the key holds afterwards. The primary key decides between
// two processes claiming at once.
func (p *Postgres) ClaimWebName(key, name string, hash []byte) (heldName string, heldHash []byte, err error) {
	data, err := json.Marshal(webNameRecord{V: FormatVersion, Name: name, Hash: hash})
	if err != nil {
		return "", nil, err
	}
	err = p.update(func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO web_names VALUES ($1, $2) ON CONFLICT DO NOTHING`, key, data); err != nil {
			return err
		}
		var held []byte
		if err := tx.QueryRow(ctx, `SELECT data FROM web_names WHERE key = $1`, key).Scan(&held); err != nil {
			return err
		}
		var rec webNameRecord
		if err := decode(held, &rec, nil); err != nil {
			return fmt.Errorf("web name %q: %w", key, err)
		}
		heldName, heldHash = rec.Name, bytes.Clone(rec.Hash)
		return nil
	})
	if err != nil {
		return "", nil, fmt.Errorf("storage: %w", err)
	}
	return heldName, heldHash, nil
}
