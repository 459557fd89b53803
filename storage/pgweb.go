package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// The web chat's shared log on PostgreSQL (schema step 3). Several
// processes serve one chat: each appends what its browsers did and reads
// every row, its own included, in id order, so every process shows the
// same events in the same order under the same ids (a page that moves to
// another process resumes from the id it saw last). The records are the
// web adapter's; this file only keeps and orders them.

// WebLogChannel is the channel NOTIFY wakes the readers on.
const WebLogChannel = "topochess_web"

// webLogLock serialises appends, so ids commit in the order they are
// handed out: a reader that has seen id n never later finds a row below n
// commit (with a bare sequence, a slow transaction could commit a lower
// id after a faster one, and a reader that had moved past it would miss
// it for good).
const webLogLock = 0x746f706f776562 // "topoweb"

// AppendWebLog adds records, in order, in one transaction, and wakes
// the listeners when it commits.
func (p *Postgres) AppendWebLog(records [][]byte, expires time.Time) error {
	return p.update(func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(webLogLock)); err != nil {
			return err
		}
		for _, r := range records {
			if _, err := tx.Exec(ctx, `INSERT INTO web_log (expires_ns, data) VALUES ($1, $2)`, expires.UnixNano(), r); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, `SELECT pg_notify($1, '')`, WebLogChannel)
		return err
	})
}

// ReadWebLog calls fn with the unexpired records after id after, in id
// order, at most limit of them, and returns how many it read.
func (p *Postgres) ReadWebLog(after int64, limit int, now time.Time, fn func(id int64, data []byte)) (int, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	rows, err := p.pool.Query(ctx, `SELECT id, data FROM web_log WHERE id > $1 AND expires_ns > $2 ORDER BY id LIMIT $3`,
		after, now.UnixNano(), limit)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var id int64
		var data []byte
		if err := rows.Scan(&id, &data); err != nil {
			return n, err
		}
		fn(id, data)
		n++
	}
	return n, rows.Err()
}

// ListenWebLog calls wake whenever records were appended, on a
// connection of its own (a LISTEN needs one that stays open; taking it
// from the pool would take a slot from the commands). It also calls wake
// after every (re)connection, since appends made while it was away sent
// their notifications to nobody. It returns when ctx ends.
func (p *Postgres) ListenWebLog(ctx context.Context, wake func()) error {
	cfg := p.pool.Config().ConnConfig.Copy()
	retry := time.Second
	for ctx.Err() == nil {
		err := p.listen(ctx, cfg, wake)
		if ctx.Err() != nil {
			break
		}
		p.log.Warn("storage: web chat log listener lost its connection; reconnecting", "err", err, "in", retry)
		select {
		case <-ctx.Done():
		case <-time.After(retry):
		}
		retry = min(2*retry, 30*time.Second)
	}
	return nil
}

func (p *Postgres) listen(ctx context.Context, cfg *pgx.ConnConfig, wake func()) error {
	cctx, cancel := context.WithTimeout(ctx, p.timeout)
	conn, err := pgx.ConnectConfig(cctx, cfg)
	cancel()
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, `LISTEN `+WebLogChannel); err != nil {
		return err
	}
	wake()
	for {
		if _, err := conn.WaitForNotification(ctx); err != nil {
			return err
		}
		wake()
	}
}

// PutWebImage keeps a picture a web chat event shows, so any process can
// serve it; meta is the adapter's description of it.
func (p *Postgres) PutWebImage(id string, meta, data []byte, now, expires time.Time) error {
	ctx, cancel := p.ctx()
	defer cancel()
	_, err := p.pool.Exec(ctx, `INSERT INTO web_images VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
		id, now.UnixNano(), expires.UnixNano(), meta, data)
	return err
}

// WebImage returns a kept picture; found is false when it is gone.
func (p *Postgres) WebImage(id string, now time.Time) (meta, data []byte, found bool, err error) {
	ctx, cancel := p.ctx()
	defer cancel()
	err = p.pool.QueryRow(ctx, `SELECT meta, data FROM web_images WHERE id = $1 AND expires_ns > $2`, id, now.UnixNano()).Scan(&meta, &data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil, false, nil
	}
	if err != nil {
		return nil, nil, false, err
	}
	return meta, data, true, nil
}

// PruneWebLog deletes expired records and pictures, then the oldest
// pictures beyond imageBytes in all.
func (p *Postgres) PruneWebLog(now time.Time, imageBytes int64) error {
	return p.update(func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM web_log WHERE expires_ns <= $1`, now.UnixNano()); err != nil {
			return fmt.Errorf("web log: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM web_images WHERE expires_ns <= $1`, now.UnixNano()); err != nil {
			return fmt.Errorf("web images: %w", err)
		}
		_, err := tx.Exec(ctx, `DELETE FROM web_images WHERE id IN (
			SELECT id FROM (SELECT id, sum(octet_length(data)) OVER (ORDER BY at_ns DESC, id) AS total FROM web_images) t
			WHERE total > $1)`, imageBytes)
		if err != nil {
			return fmt.Errorf("web images: %w", err)
		}
		return nil
	})
}
