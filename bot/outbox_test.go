package bot

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestOutboxKeepsGameRepliesAcrossARestart(t *testing.T) {
	h := newHarness(t, Limits{})
	// Without an adapter that asked, nothing is kept.
	g0 := h.startGame("standard")
	if r := h.ok("alice", "/move e4 game:"+g0); r.Outbox != "" {
		t.Fatalf("a reply was kept for a platform without an outbox: %q", r.Outbox)
	}
	h.ok("alice", "/resign game:"+g0)

	if left := h.svc.Undelivered("test"); len(left) != 0 {
		t.Fatalf("undelivered at first: %s", dump(left))
	}
	g := h.startGame("standard")
	moved := h.ok("alice", "/move e4 game:"+g)
	answered := h.ok("bob", "/move e5 game:"+g)
	if moved.Outbox == "" || answered.Outbox == "" {
		t.Fatalf("move replies without outbox ids: %q %q", moved.Outbox, answered.Outbox)
	}
	h.svc.Delivered(answered, nil) // this one got through

	// A kill: the replies not reported delivered come back, drawn again.
	h.restart()
	left := h.svc.Undelivered("test")
	if len(left) != 2 {
		t.Fatalf("undelivered after the restart: %s", dump(left))
	}
	start, move := left[0], left[1]
	if !strings.Contains(start.Text, "Game "+g+" begins") || start.Image == nil || start.Channel != "test:chan" {
		t.Errorf("game start: %s", dump([]Reply{start}))
	}
	// The picture after 1. e4, though the game has moved on since.
	if move.Text != moved.Text || move.Image == nil || move.Image.Game != g || strings.Join(move.Mentions, ",") != "test:bob" {
		t.Errorf("move after the restart:\n%s\nwas:\n%s", dump([]Reply{move}), dump([]Reply{moved}))
	}
	checkPNG(t, move)

	// Refused for good: recorded and told in /games.
	h.svc.Delivered(move, errors.New("Forbidden: bot was blocked by the user"))
	h.svc.Delivered(start, nil)
	if again := h.svc.Undelivered("test"); len(again) != 0 {
		t.Errorf("still undelivered: %s", dump(again))
	}
	if r := h.ok("alice", "/games"); !strings.Contains(r.Text, "refused") || !strings.Contains(r.Text, "blocked") {
		t.Errorf("/games does not tell the refusal: %s", r.Text)
	}

	// A stop hands a queue over whole, in its order.
	text := Reply{Channel: "test:chan", Text: "Help text"}
	h.svc.Keep("test", []Reply{text})
	if kept := h.svc.Undelivered("test"); len(kept) != 1 || kept[0].Text != "Help text" || kept[0].Outbox == "" {
		t.Errorf("kept queue: %s", dump(kept))
	}
}

// A long refusal is shortened on a character boundary: /games shows it.
func TestRefusalReasonCutOnACharacter(t *testing.T) {
	h := newHarness(t, Limits{})
	h.svc.Undelivered("test")
	g := h.startGame("standard")
	moved := h.ok("alice", "/move e4 game:"+g)
	if moved.Outbox == "" {
		t.Fatal("the move reply has no outbox id")
	}
	h.svc.Delivered(moved, errors.New("Refused: "+strings.Repeat("€", 100)))
	r := h.ok("alice", "/games")
	if !strings.Contains(r.Text, "Refused: €") || strings.ContainsRune(r.Text, utf8.RuneError) || !utf8.ValidString(r.Text) {
		t.Errorf("/games tells the refusal as %q", r.Text)
	}
}
