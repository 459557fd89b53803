package telegram

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// outage makes every upload fail with the front end's error page until
// the test ends it.
func outage(f *fakeAPI) {
	for i := 0; i < 1000; i++ {
		f.script("sendPhoto", htmlError(502))
	}
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
	g.f.waitSent("sendMessage", m, 0)
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
	f.unscript("sendPhoto")

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
	helps := f.count("sendMessage")

	// SIGTERM: the queue is handed to the outbox.
	r.stop()
	if !strings.Contains(r.logs.String(), "kept for the next start") {
		t.Errorf("the queue was not handed over:\n%s", r.logs.String())
	}
	st.Close()
	f.unscript("sendPhoto")

	svc2, _ := newServiceAt(t, path)
	start(t, f, svc2, nil)
	wantAfterRestart(t, f)
	if f.count("sendMessage") < helps {
		t.Error("the /help answer was lost")
	}
}
