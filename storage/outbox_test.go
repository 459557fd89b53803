package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

func suiteOutboxWrittenWithTheGame(t *testing.T, open opener) {
	s := open(t)
	now := time.Unix(1700000000, 0)
	g := newGame("telegram:1", "telegram:2", "telegram:-5")
	start := &Outgoing{Channel: g.Channel, Caption: "Game begins"}
	if err := s.CreateGame(g, "e1", now, start); err != nil {
		t.Fatal(err)
	}
	if start.ID == "" || start.Game != g.ID {
		t.Fatalf("record after CreateGame: %+v", start)
	}
	stale := *g
	g.Moves = append(g.Moves, "e2-e4")
	move := &Outgoing{Channel: g.Channel, Ply: 1, Caption: "1. e4"}
	if err := s.SaveGame(g, "e2", now, move); err != nil {
		t.Fatal(err)
	}
	// A write that fails writes no record either.
	lost := &Outgoing{Channel: g.Channel, Ply: 1, Caption: "never"}
	if err := s.SaveGame(&stale, "e3", now, lost); !errors.Is(err, ErrConflict) {
		t.Fatalf("stale save: %v", err)
	}
	warn := &Outgoing{Channel: "discord:9", Reply: json.RawMessage(`{"Text":"half your time"}`)}
	if err := s.PutOutgoing(now, warn); err != nil {
		t.Fatal(err)
	}
	// Survives a restart, in order, per platform.
	s.Close()
	s = open(t)
	got, err := s.PendingOutgoing("telegram:")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Caption != "Game begins" || got[1].Caption != "1. e4" || got[1].Ply != 1 || got[1].Game != g.ID {
		t.Fatalf("pending after reopen: %+v", got)
	}
	if d, _ := s.PendingOutgoing("discord:"); len(d) != 1 || string(d[0].Reply) != `{"Text":"half your time"}` {
		t.Fatalf("discord pending: %+v", d)
	}
	if err := s.DeliveredOutgoing(got[0].ID, ""); err != nil {
		t.Fatal(err)
	}
	if err := s.DeliveredOutgoing(got[1].ID, "Forbidden: bot was blocked by the user"); err != nil {
		t.Fatal(err)
	}
	if left, _ := s.PendingOutgoing("telegram:"); len(left) != 0 {
		t.Errorf("still pending after delivery: %+v", left)
	}
	ref, err := s.RefusedOutgoing(g.Channel)
	if err != nil || len(ref) != 1 || ref[0].Refused == "" || ref[0].Caption != "1. e4" {
		t.Errorf("refused deliveries: %+v, %v", ref, err)
	}
	// A stop hands its queue over in the queue's order.
	a, b := &Outgoing{Channel: "telegram:7", Reply: json.RawMessage(`1`)}, &Outgoing{Channel: "telegram:7", Reply: json.RawMessage(`2`)}
	if err := s.ReplaceOutgoing(nil, now, a, b); err != nil {
		t.Fatal(err)
	}
	if err := s.ReplaceOutgoing([]string{a.ID, b.ID}, now, &Outgoing{Channel: "telegram:7", Reply: json.RawMessage(`2`)}, &Outgoing{Channel: "telegram:7", Reply: json.RawMessage(`1`)}); err != nil {
		t.Fatal(err)
	}
	if left, _ := s.PendingOutgoing("telegram:7"); len(left) != 2 || string(left[0].Reply) != "2" {
		t.Errorf("after the hand-over: %+v", left)
	}
}

// A channel keeps only its newest refused deliveries: a chat that blocked
// the bot refuses every reply, and the records must not pile up.
func suiteRefusedBounded(t *testing.T, open opener) {
	s := open(t)
	now := time.Unix(1700000000, 0)
	var ids []string
	for i := range maxRefused + 5 {
		o := &Outgoing{Channel: "telegram:9", Reply: json.RawMessage(fmt.Sprint(i))}
		if err := s.PutOutgoing(now, o); err != nil {
			t.Fatal(err)
		}
		if err := s.DeliveredOutgoing(o.ID, fmt.Sprintf("Forbidden %d", i)); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, o.ID)
	}
	other := &Outgoing{Channel: "telegram:90", Reply: json.RawMessage(`1`)}
	if err := s.PutOutgoing(now, other); err != nil {
		t.Fatal(err)
	}
	if err := s.DeliveredOutgoing(other.ID, "Forbidden"); err != nil {
		t.Fatal(err)
	}
	ref, err := s.RefusedOutgoing("telegram:9")
	if err != nil || len(ref) != maxRefused {
		t.Fatalf("refused kept: %d, %v; want %d", len(ref), err, maxRefused)
	}
	if ref[0].ID != ids[5] || ref[len(ref)-1].Refused != fmt.Sprintf("Forbidden %d", maxRefused+4) {
		t.Errorf("kept %s…%q, want the newest from %s", ref[0].ID, ref[len(ref)-1].Refused, ids[5])
	}
	if o, _ := s.RefusedOutgoing("telegram:90"); len(o) != 1 {
		t.Errorf("another channel's refusals: %d", len(o))
	}
}

// A damaged outbox record is left out of the lists; the others are still
// delivered (it used to fail every start's whole resend).
func TestDamagedOutboxRecordLeftOut(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "t.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now := time.Unix(1700000000, 0)
	a, b := &Outgoing{Channel: "telegram:1", Reply: json.RawMessage(`1`)}, &Outgoing{Channel: "telegram:1", Reply: json.RawMessage(`2`)}
	if err := s.PutOutgoing(now, a, b); err != nil {
		t.Fatal(err)
	}
	if err := s.DeliveredOutgoing(b.ID, "Forbidden"); err != nil {
		t.Fatal(err)
	}
	if err := s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bOutbox).Put([]byte("0000000000000000"), []byte("{not json")); err != nil {
			return err
		}
		return tx.Bucket(bRefused).Put(key("telegram:1", "0000000000000000"), []byte("{not json"))
	}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.PendingOutgoing("telegram:"); err != nil || len(got) != 1 || got[0].ID != a.ID {
		t.Errorf("pending beside a damaged record: %+v, %v", got, err)
	}
	if got, err := s.RefusedOutgoing("telegram:1"); err != nil || len(got) != 1 || got[0].ID != b.ID {
		t.Errorf("refused beside a damaged record: %+v, %v", got, err)
	}
	// topochess check names both.
	path := s.Path()
	s.Close()
	rep, err := CheckFile(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range rep.Problems {
		if p.Kind == "outbox" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("check lists %d damaged outbox records, want 2: %v", n, rep.Problems)
	}
}
