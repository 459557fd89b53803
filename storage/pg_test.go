package storage

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// Two processes (two connection pools) on one database, moving in the
// same games from both sides: every move lands once, and the loser of
// each race gets the conflict the bot turns into "someone else moved
// first".
func TestPostgresTwoProcessesOneGame(t *testing.T) {
	open := freshPostgres(t)
	a, b := open(t), open(t)
	const games, moves = 4, 20
	var ids []string
	for range games {
		g := newGame("alice", "bob", "c")
		if err := a.CreateGame(g, "", t0); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, g.ID)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	applied := map[string]int{}
	for _, id := range ids {
		for side, s := range []Backend{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					g, err := s.Game(id)
					if err != nil {
						t.Error(err)
						return
					}
					if len(g.Moves) >= moves {
						return
					}
					mv := fmt.Sprintf("%d:%d", len(g.Moves), side)
					g.Moves = append(g.Moves, mv)
					err = s.SaveGame(g, id+"/"+mv, t0)
					switch {
					case err == nil:
						mu.Lock()
						applied[id]++
						mu.Unlock()
					case errors.Is(err, ErrConflict), errors.Is(err, ErrDuplicate):
					default:
						t.Error(err)
						return
					}
				}
			}()
		}
	}
	wg.Wait()
	for _, id := range ids {
		g, err := b.Game(id)
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Moves) != moves || applied[id] != moves || g.Rev != moves+1 {
			t.Errorf("%s: %d moves, %d saves acknowledged, revision %d; want %d, %d, %d", id, len(g.Moves), applied[id], g.Rev, moves, moves, moves+1)
		}
		for i, mv := range g.Moves {
			if !strings.HasPrefix(mv, fmt.Sprintf("%d:", i)) {
				t.Errorf("%s: move %d is %q", id, i, mv)
			}
		}
	}
}

// A database brought to a newer schema by a newer topochess is refused
// with a clear error; an up-to-date one opens again without changes.
func TestPostgresNewerSchemaRefused(t *testing.T) {
	url, err := pgServer(t).NewDatabase()
	if err != nil {
		t.Fatal(err)
	}
	// Several processes starting on an empty database at once: the
	// schema steps run once.
	errs := parallel(4, func(int) error {
		p, err := OpenPostgres(url, Options{})
		if err == nil {
			p.Close()
		}
		return err
	})
	for _, err := range errs {
		if err != nil {
			t.Fatalf("concurrent first start: %v", err)
		}
	}
	p, err := OpenPostgres(url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var v int
	if err := p.pool.QueryRow(context.Background(), `SELECT version FROM topochess_schema`).Scan(&v); err != nil || v != SchemaVersion {
		t.Fatalf("schema version %d, %v; want %d", v, err, SchemaVersion)
	}
	if _, err := p.pool.Exec(context.Background(), `UPDATE topochess_schema SET version = 99`); err != nil {
		t.Fatal(err)
	}
	p.Close()
	_, err = OpenPostgres(url, Options{})
	if !errors.Is(err, ErrSchemaNewer) || !strings.Contains(err.Error(), "schema 99") {
		t.Fatalf("newer schema: %v", err)
	}
}

func TestPostgresBadURLKeepsThePasswordOut(t *testing.T) {
	_, err := OpenPostgres("postgres://u:s3cret@[bad", Options{Timeout: time.Second})
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("bad URL: %v", err)
	}
	// Nothing listens on port 1 of loopback.
	_, err = OpenPostgres("postgres://u:s3cret@127.0.0.1:1/x", Options{Timeout: 2 * time.Second})
	if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "does not answer") {
		t.Fatalf("no server: %v", err)
	}
}
