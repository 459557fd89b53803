package storage

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// ErrLockHeld: another process holds the lock asked for.
var ErrLockHeld = errors.New("held by another process")

// HoldLock takes a session-level advisory lock named name for as long as
// the returned release is not called, on a connection of its own: the lock
// lives exactly as long as that connection, so a process that dies (even
// by SIGKILL) lets go of it when the server notices the connection gone.
// Any number of processes may hold it shared; one alone exclusively. It
// answers ErrLockHeld at once when that cannot be had.
func (p *Postgres) HoldLock(name string, shared bool) (release func(), err error) {
	ctx, cancel := p.ctx()
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, p.pool.Config().ConnConfig.Copy())
	if err != nil {
		return nil, fmt.Errorf("storage: postgres: %w", err)
	}
	key := "lock\x1f" + name
	lock, unlock := `SELECT pg_try_advisory_lock(hashtextextended($1, 0))`, `SELECT pg_advisory_unlock(hashtextextended($1, 0))`
	if shared {
		lock, unlock = `SELECT pg_try_advisory_lock_shared(hashtextextended($1, 0))`, `SELECT pg_advisory_unlock_shared(hashtextextended($1, 0))`
	}
	var got bool
	if err := conn.QueryRow(ctx, lock, key).Scan(&got); err != nil {
		_ = conn.Close(context.Background())
		return nil, fmt.Errorf("storage: postgres: %w", err)
	}
	if !got {
		_ = conn.Close(context.Background())
		return nil, ErrLockHeld
	}
	// The server lets go of a closed connection's locks only once its
	// backend has ended, a moment after the close: the lock is given back
	// first, so whoever asks next finds it free.
	return func() {
		ctx, cancel := p.ctx()
		defer cancel()
		_, _ = conn.Exec(ctx, unlock, key)
		_ = conn.Close(context.Background())
	}, nil
}
