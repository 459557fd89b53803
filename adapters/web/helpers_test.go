package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"topochess/bot"
	"topochess/engine"
	"topochess/render"
)

// fakeBot stands in for bot.Service: it answers a few commands the way
// the service shapes its replies (private help, public board pictures
// with game data, buttons for one user, superseded keys, refusals) and
// records what it was asked.
type fakeBot struct {
	mu   sync.Mutex
	cmds []bot.Command
	// board is the picture it attaches (drawn at a size other than the
	// adapter's renderer, so click scaling is exercised).
	board []byte
	// replay is the animation /replay attaches.
	replay []byte
}

func newFakeBot(t *testing.T) *fakeBot {
	t.Helper()
	r := &render.Renderer{Long: 512}
	png, err := r.PNG(engine.MustVariant("standard").StartPosition(), render.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return &fakeBot{board: png}
}

func (f *fakeBot) Handle(c bot.Command) []bot.Reply {
	f.mu.Lock()
	f.cmds = append(f.cmds, c)
	f.mu.Unlock()
	img := &bot.Image{Name: "g1.png", PNG: f.board, Alt: "standard board", Variant: "standard", Orientation: "white", Game: "g1"}
	switch c.Name {
	case "help":
		return []bot.Reply{{Text: "help text", Private: true}}
	case "board":
		return []bot.Reply{{Text: "g1 board", Image: img}}
	case "moves":
		// Ranks 3 to 6 are empty at the start.
		cell := c.Args["cell"]
		if len(cell) != 2 || cell[1] >= '3' && cell[1] <= '6' {
			return []bot.Reply{{Text: "There is no piece on " + cell + ".", Private: true, Error: true}}
		}
		return []bot.Reply{{Text: cell + " can move.", Image: img, Private: true}}
	case "move":
		mv := c.Args["move"]
		if mv == "" {
			mv = c.Text
		}
		if mv == "e1-e3" || mv == "e1e3" {
			return []bot.Reply{{Text: "The king cannot go from e1 to e3.", Private: true, Error: true}}
		}
		return []bot.Reply{{Text: "moved " + mv, Image: img, Mentions: []string{"web:bob"}}}
	case "challenge":
		to := "anyone"
		if len(c.Mentions) > 0 {
			to = c.Mentions[0].ID
		}
		return []bot.Reply{{Text: c.User.Name + " challenges " + to, Key: "c1", Buttons: []bot.Button{
			{Label: "Accept", Command: "accept", Args: map[string]string{"challenge": "c1"}, Style: "success", For: to},
			{Label: "Cancel", Command: "cancel", Args: map[string]string{"challenge": "c1"}, For: c.User.ID},
		}}}
	case "accept":
		return []bot.Reply{{Text: "accepted", Supersedes: []string{"c1"}, Image: img}}
	case "elsewhere":
		return []bot.Reply{{Channel: "web:other", Text: "to the other room"}, {Channel: "discord:1", Text: "not ours"}}
	case "replay":
		return []bot.Reply{{Text: "g1 replay", Image: &bot.Image{Name: "g1.gif", PNG: f.replay}}}
	case "boom":
		panic("boom")
	}
	return []bot.Reply{{Text: "unknown command " + c.Name, Private: true, Error: true}}
}

func (f *fakeBot) last(t *testing.T) bot.Command {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.cmds) == 0 {
		t.Fatal("the bot got no command")
	}
	return f.cmds[len(f.cmds)-1]
}

func (f *fakeBot) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.cmds)
}

// newTestServer starts the chat on a fake bot behind httptest.
func newTestServer(t *testing.T, opt Options) (*fakeBot, *Server, *httptest.Server) {
	t.Helper()
	fb := newFakeBot(t)
	s, err := New(fb, opt)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		s.hub.closeAll()
		ts.Close()
	})
	return fb, s, ts
}

// client is one browser tab.
type client struct {
	t      *testing.T
	base   string
	token  string
	user   string
	secret string // of the name, when this join took it
	events chan event
}

func postJSON(t *testing.T, url, token string, body any) (int, map[string]any) {
	t.Helper()
	data, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", url, bytes.NewReader(data))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("X-Session", token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out := map[string]any{}
	raw, _ := io.ReadAll(resp.Body)
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("POST %s: %d %q is not JSON", url, resp.StatusCode, raw)
		}
	}
	return resp.StatusCode, out
}

func join(t *testing.T, base, name, room string) *client {
	t.Helper()
	return joinWith(t, base, name, room, "")
}

// joinWith joins with the name's secret.
func joinWith(t *testing.T, base, name, room, secret string) *client {
	t.Helper()
	code, out := postJSON(t, base+"/api/join", "", map[string]string{"name": name, "room": room, "secret": secret})
	if code != 200 {
		t.Fatalf("join %q: %d %v", name, code, out)
	}
	c := &client{t: t, base: base, token: out["token"].(string), user: out["user"].(string)}
	c.secret, _ = out["secret"].(string)
	return c
}

func (c *client) post(path string, body any) (int, map[string]any) {
	c.t.Helper()
	return postJSON(c.t, c.base+path, c.token, body)
}

func (c *client) say(text string) {
	c.t.Helper()
	if code, out := c.post("/api/send", map[string]string{"text": text}); code != 200 {
		c.t.Fatalf("send %q: %d %v", text, code, out)
	}
}

// listen opens the tab's event stream (from seq since, 0 = recent).
func (c *client) listen(since uint64) {
	c.t.Helper()
	req, _ := http.NewRequest("GET", c.base+"/api/events?s="+c.token, nil)
	if since > 0 {
		req.Header.Set("Last-Event-ID", itoa(since))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		c.t.Fatalf("events: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	// The goroutine keeps its own channel: a second listen on this tab
	// replaces c.events while the first stream still runs.
	events := make(chan event, 100)
	c.events = events
	c.t.Cleanup(func() { resp.Body.Close() })
	go func() {
		defer close(events)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var e event
			if json.Unmarshal([]byte(data), &e) == nil {
				events <- e
			}
		}
	}()
}

func (c *client) next() event {
	c.t.Helper()
	select {
	case e, ok := <-c.events:
		if !ok {
			c.t.Fatal("event stream closed")
		}
		return e
	case <-time.After(5 * time.Second):
		c.t.Fatal("no event within 5s")
	}
	return event{}
}

// expect reads the next event and checks its kind and text.
func (c *client) expect(kind, text string) event {
	c.t.Helper()
	e := c.next()
	if e.Kind != kind || e.Text != text {
		c.t.Fatalf("got %s %q, want %s %q", e.Kind, e.Text, kind, text)
	}
	return e
}

func itoa(n uint64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// newHTTP serves s over httptest until the test ends.
func newHTTP(t *testing.T, s *Server) string {
	t.Helper()
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		s.hub.closeAll()
		ts.Close()
	})
	return ts.URL
}
