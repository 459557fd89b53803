package web

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"topochess/bot"
	"topochess/render"
	"topochess/storage"
	"topochess/storage/pgtest"
)

// sharedChats starts a chat per options, each with the real bot on its
// own connection pool to one throwaway PostgreSQL database and its own
// address, as that many processes would run; it returns their base URLs.
func sharedChats(t *testing.T, opts ...Options) []string {
	t.Helper()
	srv, err := pgtest.Start()
	if errors.Is(err, pgtest.ErrSkip) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	dbURL, err := srv.NewDatabase()
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, opt := range opts {
		p, err := storage.OpenPostgres(dbURL, storage.Options{})
		if err != nil {
			t.Fatal(err)
		}
		svc := bot.New(p, bot.Config{Logger: slog.New(slog.DiscardHandler), Painter: &render.Renderer{Long: 256}})
		o := opt
		o.Listen, o.Shared, o.Names = "127.0.0.1:0", p, p
		s, err := New(svc, o)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		ready := make(chan string, 1)
		done := make(chan error, 1)
		go func() { done <- s.Run(ctx, func(u string) { ready <- strings.TrimSuffix(u, "/") }) }()
		select {
		case u := <-ready:
			urls = append(urls, u)
		case err := <-done:
			t.Fatal(err)
		}
		// Registered after srv.Stop, so they run before it.
		t.Cleanup(func() {
			cancel()
			<-done
			p.Close()
		})
	}
	return urls
}

// Two processes serve one chat: a challenge made on one is accepted with
// its button on the other, every event has one id on both, a picture
// drawn by one is served by the other, a tab's session works on either,
// and a page that reconnects to the other process resumes where it was.
func TestSharedChatAcrossProcesses(t *testing.T) {
	urls := sharedChats(t, Options{}, Options{})
	a, b := urls[0], urls[1]
	alice, bob := join(t, a, "alice", "lobby"), join(t, b, "bob", "lobby")
	alice.listen(0)
	bob.listen(0)

	alice.say("/challenge @bob color:white")
	saidA, saidB := alice.until("said", "/challenge"), bob.until("said", "/challenge")
	if saidA.Seq != saidB.Seq || saidA.Seq == 0 {
		t.Errorf("one event, ids %d and %d", saidA.Seq, saidB.Seq)
	}
	offer := bob.until("reply", "challenges")
	var accept string
	for _, bt := range offer.Buttons {
		if bt.Label == "Accept" {
			accept = bt.ID
		}
	}
	if accept == "" {
		t.Fatalf("no Accept button in %+v", offer.Buttons)
	}
	// The button was made on a; bob presses it on b.
	if code, out := bob.post("/api/press", map[string]string{"button": accept}); code != 200 {
		t.Fatalf("press on the other process: %d %v", code, out)
	}
	started := alice.until("reply", "#1")
	if started.Image == nil {
		t.Fatalf("the game's start has no picture: %+v", started)
	}
	// b drew it; a serves it from the database.
	for _, base := range []string{a, b} {
		resp, err := http.Get(base + started.Image.URL)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.HasPrefix(string(body), "\x89PNG") {
			t.Errorf("%s%s: %d, %d bytes", base, started.Image.URL, resp.StatusCode, len(body))
		}
	}
	// alice's tab, joined on a, plays through b.
	aliceOnB := &client{t: t, base: b, token: alice.token, user: alice.user}
	aliceOnB.say("/move e4")
	moved := bob.until("said", "/move e4")
	bob.until("reply", "e4")
	// bob's page moves to a and resumes from the move: nothing before it
	// again, nothing after it lost.
	bob.base = a
	bob.listen(moved.Seq)
	bob.say("/move e5")
	if e := bob.next(); e.Seq <= moved.Seq {
		t.Fatalf("resumed at %d after %d", e.Seq, moved.Seq)
	} else if e.Kind != "reply" || !strings.Contains(e.Text, "e4") {
		// The reply to alice's move came after the move itself.
		t.Fatalf("first event after resuming: %s %q", e.Kind, e.Text)
	}
	bob.until("said", "/move e5")
	alice.until("said", "/move e5")
	// What the bot answers alice alone stays hers on every process.
	aliceOnB.say("/help")
	alice.until("reply", "/challenge")
	aliceOnB.say("over to you")
	for {
		e := bob.next()
		if e.Private || e.Kind == "said" && e.Text == "/help" {
			t.Fatalf("bob sees alice's private %s %q", e.Kind, e.Text)
		}
		if e.Kind == "chat" && e.Text == "over to you" {
			break
		}
	}
	// A name taken on one process is taken on the other.
	if code, _ := postJSON(t, b+"/api/join", "", map[string]string{"name": "alice", "room": "lobby"}); code != http.StatusForbidden {
		t.Errorf("alice's name on the other process without her secret: %d", code)
	}
}

// A password login made on one process is valid on the other, but not
// on one started with a new password; a logout on one ends it on both.
func TestSharedChatLogins(t *testing.T) {
	urls := sharedChats(t, Options{Password: "pw"}, Options{Password: "pw"}, Options{Password: "new"})
	a, b, renewed := urls[0], urls[1], urls[2]
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.PostForm(a+"/login", url.Values{"password": {"pw"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	ua, _ := url.Parse(a)
	cookies := jar.Cookies(ua)
	if len(cookies) == 0 {
		t.Fatal("no login cookie")
	}
	for _, other := range []string{b, renewed} {
		u, _ := url.Parse(other)
		jar.SetCookies(u, cookies) // the same address behind a proxy
	}
	status := func(base string) int {
		t.Helper()
		resp, err := c.Get(base + "/api/commands")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := status(b); got != 200 {
		t.Fatalf("logged in on a, on b: %d", got)
	}
	if got := status(renewed); got != http.StatusUnauthorized {
		t.Errorf("logged in under the old password, on a process with a new one: %d", got)
	}
	req, _ := http.NewRequest("POST", a+"/logout", nil)
	if resp, err = c.Do(req); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	deadline := time.Now().Add(5 * time.Second)
	for status(b) != http.StatusUnauthorized {
		if time.Now().After(deadline) {
			t.Fatal("logged out on a, still logged in on b")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// slowLog is a shared log whose reads take a while and are counted.
type slowLog struct {
	Shared
	reads atomic.Int32
}

func (l *slowLog) ReadWebLog(after int64, limit int, now time.Time, fn func(int64, []byte)) (int, error) {
	l.reads.Add(1)
	time.Sleep(20 * time.Millisecond)
	return 0, nil
}

// Many requests at once with tokens nobody made: each process reads the
// log once at a time for them, not once each.
func TestSharedLookAgainCoalesces(t *testing.T) {
	log := &slowLog{}
	s, err := New(newFakeBot(t), Options{Shared: log})
	if err != nil {
		t.Fatal(err)
	}
	const n = 50
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			s.lookAgain()
		}()
	}
	close(start)
	wg.Wait()
	if r := log.reads.Load(); r < 1 || r > 5 {
		t.Errorf("%d reads of the log for %d lookups at once; want 1 to 5", r, n)
	}
}
