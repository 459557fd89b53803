package bot

import (
	"strings"
	"testing"
	"time"

	"topochess/storage"
)

// racingStore is a second process sharing the database: just before the
// service's write, it changes the game itself.
type racingStore struct {
	*storage.Store
	race bool
}

func (r *racingStore) SaveGame(g *storage.Game, eventID string, now time.Time, out ...*storage.Outgoing) error {
	if r.race {
		other, err := r.Store.Game(g.ID)
		if err != nil {
			return err
		}
		if err := r.Store.SaveGame(other, "", now); err != nil {
			return err
		}
	}
	return r.Store.SaveGame(g, eventID, now, out...)
}

// A write lost to another process is refused in words, and applies
// nothing; the same move sent again lands.
func TestLostRaceSaysSomeoneMovedFirst(t *testing.T) {
	h := newHarness(t, Limits{})
	id := h.startGame("standard")
	rs := &racingStore{Store: h.store, race: true}
	h.svc = New(rs, h.cfg)
	r := h.refused("alice", "e4", "Someone else moved first")
	if strings.Contains(r.Text, "went wrong") {
		t.Fatalf("reply %q", r.Text)
	}
	if g := h.game(id); len(g.Moves) != 0 {
		t.Fatalf("moves after the lost race: %v", g.Moves)
	}
	rs.race = false
	h.ok("alice", "e4")
	if g := h.game(id); len(g.Moves) != 1 {
		t.Fatalf("moves after the retry: %v", g.Moves)
	}
}
