package telegram

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// outage makes every message fail with the front end's error page until
// the test ends it (unscript).
func outage(f *fakeAPI) {
	for i := 0; i < 1000; i++ {
		f.script("sendPhoto", htmlError(502))
		f.script("sendMessage", htmlError(502))
	}
}

// endOutage lets messages through again.
func endOutage(f *fakeAPI) {
	f.unscript("sendPhoto")
	f.unscript("sendMessage")
}

// helpArrived reports whether the answer to alice's /help reached her.
func helpArrived(f *fakeAPI) bool {
	for _, r := range f.requests() {
		if r.Method == "sendMessage" && r.Status == 200 && r.Params["chat_id"] == itoa(int(alice.ID)) {
			return true
		}
	}
	return false
}

// queuedMoves starts a group game and plays two moves during an upload
// outage, so their pictures are queued (retrying) when it returns.
func queuedMoves(t *testing.T, g game) {
	t.Helper()
	startGroupGame(t, g)
	outage(g.f)
	m := g.mark()
	g.f.say(alice, group, "f3")
	g.f.say(bob, group, "e5")
	g.f.say(alice, int64(alice.ID), "/help") // a reply that changes no game
	g.f.waitSent("sendPhoto", m, 2)
	g.f.waitSent("sendMessage", m, 1)
	time.Sleep(50 * time.Millisecond)
	if c := g.f.captions(group); len(c) != 1 {
		t.Fatalf("pictures got through the outage: %q", c)
	}
}

// wantAfterRestart checks that the queued pictures arrived after the
// restart, in order and once each.
func wantAfterRestart(t *testing.T, f *fakeAPI) {
	t.Helper()
	f.waitFor("the queued pictures after the restart", func([]apiRequest) bool { return len(f.captions(group)) >= 3 })
	time.Sleep(100 * time.Millisecond)
	c := f.captions(group)
	if len(c) != 3 || !strings.Contains(c[1], "1. f3") || !strings.Contains(c[2], "1... e5") || !strings.Contains(c[2], "@alice, your move") {
		t.Errorf("pictures in the chat after the restart:\n%s", strings.Join(c, "\n"))
	}
}

func TestKilledWithRepliesQueued(t *testing.T) {
	f := newFakeAPI(t)
	path := filepath.Join(t.TempDir(), "bot.db")
	svc, st := newServiceAt(t, path)
	r := start(t, f, svc, nil)
	queuedMoves(t, game{t, f})

	// SIGKILL: nothing runs after it, so nothing more reaches the file.
	// Closing the store first leaves the file as a kill does; the adapter
	// then stops without being able to hand anything over.
	st.Close()
	r.stop()
	endOutage(f)

	svc2, _ := newServiceAt(t, path)
	start(t, f, svc2, nil)
	wantAfterRestart(t, f)
}

func TestStoppedWithRepliesQueued(t *testing.T) {
	f := newFakeAPI(t)
	path := filepath.Join(t.TempDir(), "bot.db")
	svc, st := newServiceAt(t, path)
	r := start(t, f, svc, func(*Config) {})
	r.a.grace = 100 * time.Millisecond
	queuedMoves(t, game{t, f})

	// SIGTERM: the queue is handed to the outbox.
	r.stop()
	if !strings.Contains(r.logs.String(), "kept for the next start") {
		t.Errorf("the queue was not handed over:\n%s", r.logs.String())
	}
	st.Close()
	endOutage(f)

	svc2, _ := newServiceAt(t, path)
	start(t, f, svc2, nil)
	wantAfterRestart(t, f)
	// Nothing is lost, not even a reply that is not about a game.
	f.waitFor("the /help answer", func([]apiRequest) bool { return helpArrived(f) })
}
