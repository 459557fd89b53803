package discord

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"topochess/bot"
)

// TestButtonsClearedAfterRestart: a challenge is made, the bot restarts,
// and accepting the challenge still takes the buttons off the
// challenge's message and edits its text (through its channel: interaction tokens are not
// stored, they expire within 15 minutes anyway).
func TestButtonsClearedAfterRestart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "bot.db")
	svc, st := newServiceAt(t, path)
	e := start(t, svc, nil)
	id := e.slash(alice, "challenge", opt{name: "opponent", typ: 6, value: bob.id})
	ch, _ := e.answer(id)
	if len(buttons(ch)) != 2 {
		t.Fatalf("challenge: %s", pretty(ch))
	}
	// The adapter learns the id of the message it answered with.
	e.webhook(id, "GET", "/messages/@original")
	time.Sleep(100 * time.Millisecond)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	svc, _ = newServiceAt(t, path)
	e = start(t, svc, nil)
	e.ids.Store(1000) // Discord never sends an interaction id twice
	acc, _ := e.answer(e.slash(bob, "accept"))
	if !strings.HasPrefix(jstr(acc, "content"), "Game ") {
		t.Fatalf("accept: %s", pretty(acc))
	}
	e.f.waitFor("the challenge's buttons cleared through its channel", func(r *request) bool {
		c, ok := jsonPath(r.JSON, "components").([]any)
		return r.Method == "PATCH" && r.Path == "/channels/"+testChannel+"/messages/orig-itok-"+id && ok && len(c) == 0
	})
	// Its text says who accepted it: the message is found in the stored
	// keys too.
	e.f.waitFor("the challenge's text edited through its channel", func(r *request) bool {
		text, _ := jsonPath(r.JSON, "content").(string)
		return r.Method == "PATCH" && r.Path == "/channels/"+testChannel+"/messages/orig-itok-"+id && strings.Contains(text, "Accepted by")
	})
}

// TestOverflowButtonsAcrossRestart: a button whose code is too long for a
// custom_id is stored and still means the same after a restart.
func TestOverflowButtonsAcrossRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	svc, st := newServiceAt(t, path)
	long := bot.Button{Label: "Play", Command: "move", Args: map[string]string{"game": "g12", "move": strings.Repeat("a1-b2'", 20)}, For: "discord:111"}
	a := &Adapter{overflow: newOverflow(10)}
	a.overflow.mem = svc
	code := a.encode(long)
	if !strings.HasPrefix(code, "K:") || len(code) > maxCustomID {
		t.Fatalf("custom_id %q", code)
	}
	st.Close()

	svc, _ = newServiceAt(t, path)
	b := &Adapter{overflow: newOverflow(10)}
	b.overflow.mem = svc
	got, ok := b.decode(code)
	if !ok || got.Command != "move" || got.Args["move"] != long.Args["move"] || got.For != long.For {
		t.Errorf("after a restart the button is %+v (%v)", got, ok)
	}
	if _, ok := b.decode("k:1"); ok {
		t.Error("a button kept in another process's memory decoded")
	}
}
