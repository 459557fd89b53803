package bot

import (
	"bytes"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"topochess/engine"
)

// TestAcceptEditsChallenge: the challenge message is edited to say who
// accepted it and which game it became.
func TestAcceptEditsChallenge(t *testing.T) {
	h := newHarness(t, Limits{})
	ch := h.ok("alice", "/challenge @bob moebius white")
	r := h.ok("bob", "/accept")
	if len(r.Edits) != 1 || r.Edits[0].Key != ch.Key {
		t.Fatalf("accept edits %+v, want the challenge %q", r.Edits, ch.Key)
	}
	id := strings.Fields(r.Text)[1]
	if want := "Accepted by bob: game " + id + "."; !strings.Contains(r.Edits[0].Text, want) || !strings.Contains(r.Edits[0].Text, "Möbius") {
		t.Fatalf("edited challenge %q lacks %q", r.Edits[0].Text, want)
	}
}

// TestOwnChallengeAccept: the challenger pressing Accept (open or
// directed) is told in words that it is their own challenge; a third
// person pressing a directed challenge's Accept is told whose it is.
func TestOwnChallengeAccept(t *testing.T) {
	h := newHarness(t, Limits{})
	r := h.ok("alice", "/challenge @bob")
	acc := r.Buttons[0]
	if acc.Label != "Accept" || acc.For != "" {
		t.Fatalf("accept button %+v", acc)
	}
	rs := h.press("alice", acc)
	if len(rs) != 1 || !rs[0].Error || !strings.Contains(rs[0].Text, "You cannot accept your own challenge; bob has to") {
		t.Fatalf("alice pressing her own Accept: %s", dump(rs))
	}
	rs = h.press("carol", acc)
	if len(rs) != 1 || !rs[0].Error || !strings.Contains(rs[0].Text, "is for bob, not for you") {
		t.Fatalf("carol pressing bob's Accept: %s", dump(rs))
	}
	r = h.ok("dave", "/challenge")
	rs = h.press("dave", r.Buttons[0])
	if len(rs) != 1 || !rs[0].Error || !strings.Contains(rs[0].Text, "You cannot accept your own challenge; someone else has to") {
		t.Fatalf("dave pressing his own open Accept: %s", dump(rs))
	}
	if rs := h.press("bob", acc); len(rs) != 1 || rs[0].Error {
		t.Fatalf("bob accepting: %s", dump(rs))
	}
}

// TestGameIDsAreNotCells: a new game's id is no cell name of any board,
// and the id is found typed as #N, N, gN or GN; an old gN id stays
// readable through the same forms.
func TestGameIDsAreNotCells(t *testing.T) {
	h := newHarness(t, Limits{})
	id := h.startGame("standard")
	if id != "#1" {
		t.Fatalf("first game id %q, want #1", id)
	}
	for _, vid := range engine.Variants() {
		geo := engine.MustVariant(vid).Geo
		for _, n := range []string{"#1", "#12", "#100"} {
			if geo.Cell(n) >= 0 {
				t.Errorf("game id %s is a cell of %s", n, vid)
			}
		}
	}
	for _, typed := range []string{"#1", "1", "g1", "G1"} {
		r := h.ok("carol", "/board "+typed)
		if !strings.HasPrefix(r.Text, "#1 ·") {
			t.Errorf("/board %s: %q", typed, r.Text)
		}
	}
	h.refused("carol", "/board 7", `There is no game "#7"`)
	// In /moves a #N word names the game, in either place, never a cell.
	for _, typed := range []string{"#1 g1", "g1 #1"} {
		if r := h.ok("carol", "/moves "+typed); !strings.HasPrefix(r.Text, "#1: the white knight on g1") {
			t.Errorf("/moves %s: %q", typed, r.Text)
		}
	}
	h.refused("carol", "/moves g1 #7", `There is no game "#7"`)
	h.refused("carol", "/moves #1", "Which piece?")
	if got := gameIDs("g12"); len(got) != 2 || got[0] != "#12" || got[1] != "g12" {
		t.Errorf("gameIDs(g12) = %v", got)
	}
	if got := gameIDs("c3"); len(got) != 1 || got[0] != "c3" {
		t.Errorf("gameIDs(c3) = %v", got)
	}
}

// TestThinkingLineEdited: the message saying the computer is thinking is
// edited to say what it played, once it has.
func TestThinkingLineEdited(t *testing.T) {
	bh := newBotHarness(t, BotConfig{Level: budgetLevels, Seed: 1})
	r := bh.ok("alice", "/challenge bot level:1 black")
	id := strings.Fields(r.Text)[1]
	if r.Key != thinkingKey(id) || !strings.Contains(r.Text, "is thinking…") {
		t.Fatalf("start reply key %q text %q", r.Key, r.Text)
	}
	got := bh.settle()
	if len(got) != 1 || len(got[0].Edits) != 1 {
		t.Fatalf("bot posted %s", dump(got))
	}
	e := got[0].Edits[0]
	san := strings.Fields(got[0].Text)[3] // "#1 · 1. d4 · …"
	want := strings.Replace(r.Text, "is thinking…", "answered 1. "+san+".", 1)
	if e.Key != r.Key || e.Text != want {
		t.Fatalf("edit %+v, want %q", e, want)
	}
	// The human's move leaves a new thinking line, edited in turn.
	mv := bh.position(id).CanonicalMoves()[0]
	r = bh.ok("alice", "/move "+mv)
	if r.Key != thinkingKey(id) {
		t.Fatalf("after alice's move: key %q", r.Key)
	}
	got = bh.settle()
	if len(got) != 1 || len(got[0].Edits) != 1 || !strings.Contains(got[0].Edits[0].Text, "answered 2. ") {
		t.Fatalf("second answer %s edits %+v", dump(got), got[0].Edits)
	}
}

// TestOldGameIDsReadable: a game stored before ids took the # form (g7)
// is found by every typed form of its number, and lists and moves work.
func TestOldGameIDsReadable(t *testing.T) {
	h := newHarness(t, Limits{})
	h.startGame("standard")
	// Rewrite game #1 on disk as it was stored before: id g1.
	if err := h.store.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(h.path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		games := tx.Bucket([]byte("games"))
		data := bytes.Replace(games.Get([]byte("#1")), []byte(`"id":"#1"`), []byte(`"id":"g1"`), 1)
		if err := games.Delete([]byte("#1")); err != nil {
			return err
		}
		if err := games.Put([]byte("g1"), data); err != nil {
			return err
		}
		for _, idx := range []struct{ bucket, prefix string }{{"user_active", "test:alice\x00test:chan\x00"}, {"user_active", "test:bob\x00test:chan\x00"}, {"channel_active", "test:chan\x00"}} {
			b := tx.Bucket([]byte(idx.bucket))
			if err := b.Delete([]byte(idx.prefix + "#1")); err != nil {
				return err
			}
			if err := b.Put([]byte(idx.prefix+"g1"), nil); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	h.open()
	for _, typed := range []string{"g1", "1", "#1", "G1"} {
		if r := h.ok("carol", "/board "+typed); !strings.HasPrefix(r.Text, "g1 ·") {
			t.Errorf("/board %s: %q", typed, r.Text)
		}
	}
	if r := h.ok("alice", "e2e4"); !strings.HasPrefix(r.Text, "g1 · 1. e4") {
		t.Fatalf("move in the old game: %q", r.Text)
	}
	// New games go on numbering after it, in the new form.
	if id := h.startGame("moebius"); id != "#2" {
		t.Fatalf("next id %q", id)
	}
}
