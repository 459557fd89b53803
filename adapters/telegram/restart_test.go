package telegram

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"topochess/bot"
)

// reopened is the Bot API as a restarted bot finds it: the chat's
// messages, with their keyboards, are still there.
func reopened(t *testing.T, old *fakeAPI) *fakeAPI {
	f := newFakeAPI(t)
	old.mu.Lock()
	defer old.mu.Unlock()
	for id, m := range old.messages {
		f.messages[id] = m
	}
	f.nextMsg, f.nextUpd = old.nextMsg, old.nextUpd
	return f
}

// TestRestartMidTapToMove: the bot restarts while a player is half-way
// through tap-to-move. The keyboard on the chat's screen still plays the
// move, and the buttons of a draw offer made before the restart are taken
// away when the move makes the offer void.
func TestRestartMidTapToMove(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	svc, st := newServiceAt(t, path)
	f := newFakeAPI(t)
	r := start(t, f, svc, nil)
	g := game{t, f}

	hers := f.say(bob, group, "who wants to play?")
	m := g.mark()
	f.sayReplying(alice, group, "/challenge white", hers)
	ch, m := g.next("sendMessage", m)
	f.press(bob, g.sentID(), buttonData(t, ch.Params["reply_markup"], "Accept"))
	p, _ := g.photo(m, "@alice, your move")
	board := g.sentID()

	m = g.mark()
	f.say(bob, group, "/draw")
	offer, m := g.next("sendMessage", m)
	offerMsg := g.sentID()
	buttonData(t, offer.Params["reply_markup"], "Accept draw")

	f.press(alice, board, buttonData(t, p.Params["reply_markup"], "♟ Move"))
	e, m := g.nextEdit(board, m)
	f.press(alice, board, buttonData(t, e.Params["reply_markup"], "e2"))
	e, _ = g.nextEdit(board, m)
	dest := buttonData(t, e.Params["reply_markup"], "e4")
	time.Sleep(50 * time.Millisecond)
	f.noRefusals()

	r.stop()
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	svc, _ = newServiceAt(t, path)
	f = reopened(t, f)
	start(t, f, svc, nil)
	g = game{t, f}

	m = g.mark()
	f.press(alice, board, dest)
	p, _ = g.photo(m, "1. e4", "@bob, your move")
	if e, _ := g.nextEdit(board, m); e.Params["reply_markup"] != `{"inline_keyboard":[]}` {
		t.Errorf("the tapped keyboard was changed to %s", e.Params["reply_markup"])
	}
	if e, _ := g.nextEdit(offerMsg, m); e.Params["reply_markup"] != `{"inline_keyboard":[]}` {
		t.Errorf("the void draw offer's buttons became %s", e.Params["reply_markup"])
	}
	// The game goes on by tapping on the new picture.
	next := g.sentID()
	for end := time.Now().Add(5 * time.Second); next <= offerMsg && time.Now().Before(end); next = g.sentID() {
		time.Sleep(5 * time.Millisecond) // the photo was asked for; its id comes with the answer
	}
	m = g.mark()
	f.press(bob, next, buttonData(t, p.Params["reply_markup"], "♟ Move"))
	e, m = g.nextEdit(next, m)
	f.press(bob, next, buttonData(t, e.Params["reply_markup"], "e7"))
	e, m = g.nextEdit(next, m)
	f.press(bob, next, buttonData(t, e.Params["reply_markup"], "e5"))
	g.photo(m, "1... e5")
	time.Sleep(50 * time.Millisecond)
	f.noRefusals()
}

// TestKeptButtonsAcrossRestart: a button too long for callback data is
// stored, and still means the same after a restart; one kept in memory
// only would be gone.
func TestKeptButtonsAcrossRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	svc, st := newServiceAt(t, path)
	long := bot.Button{Label: "Play", Command: "move", Args: map[string]string{"game": "g12", "move": strings.Repeat("a1-b2'", 12)}, For: "telegram:42"}
	before := newButtonStore(10)
	before.mem = svc
	data := before.encode(long)
	if !strings.HasPrefix(data, prefixStored) || len(data) > maxCallbackData {
		t.Fatalf("callback data %q", data)
	}
	memOnly := newButtonStore(10).encode(long)
	st.Close()

	svc, _ = newServiceAt(t, path)
	after := newButtonStore(10)
	after.mem = svc
	b, ok := after.decode(data)
	if !ok || b.Command != "move" || b.Args["move"] != long.Args["move"] || b.Args["game"] != "g12" || b.For != long.For {
		t.Errorf("after a restart the button is %+v (%v)", b, ok)
	}
	if _, ok := after.decode(memOnly); ok {
		t.Error("a button kept in another process's memory decoded")
	}
	if again := after.encode(long); again == data {
		t.Errorf("a stored button id was handed out again: %s", again)
	}
}
