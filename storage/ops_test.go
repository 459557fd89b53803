package storage

import (
	"testing"
	"time"
)

func suiteOperationsCounts(t *testing.T, open opener) {
	s := open(t)
	count := func(what string, f func() (int, error), want int) {
		t.Helper()
		if n, err := f(); err != nil || n != want {
			t.Errorf("%s: %d, %v; want %d", what, n, err, want)
		}
	}
	count("active games, empty", s.ActiveGameCount, 0)
	count("outbox, empty", s.OutboxCount, 0)
	now := time.Unix(1700000000, 0)
	a, b := newGame("web:a", "web:b", "web:room"), newGame("web:c", "web:d", "web:room")
	start := &Outgoing{Channel: a.Channel, Caption: "Game begins"}
	if err := s.CreateGame(a, "e1", now, start); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateGame(b, "e2", now); err != nil {
		t.Fatal(err)
	}
	count("active games", s.ActiveGameCount, 2)
	count("outbox", s.OutboxCount, 1)
	b.Result, b.Reason = "1-0", "resignation"
	if err := s.SaveGame(b, "e3", now); err != nil {
		t.Fatal(err)
	}
	if err := s.DeliveredOutgoing(start.ID, ""); err != nil {
		t.Fatal(err)
	}
	count("active games after one ended", s.ActiveGameCount, 1)
	count("outbox after the delivery", s.OutboxCount, 0)
	s.Close()
	if _, err := s.ActiveGameCount(); err == nil {
		t.Error("a closed database counted its games")
	}
}
