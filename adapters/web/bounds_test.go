package web

import (
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// historyBytes adds up the text the hub keeps, per room and in all.
func historyBytes(s *Server) (total, largest int) {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	for _, r := range s.hub.rooms {
		n := 0
		for _, e := range r.history {
			n += len(e.Text) + len(e.From)
		}
		total += n
		largest = max(largest, n)
	}
	return total, largest
}

// A flood of the longest lines into 300 rooms keeps the history, and the
// heap, within a fixed budget (it used to keep 300 lines per room,
// whatever their length).
func TestHistoryBoundedUnderFlood(t *testing.T) {
	_, s, ts := newTestServer(t, Options{})
	line := strings.Repeat("x", maxLine)
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for room := range 300 {
		name := fmt.Sprintf("room%d", room)
		for i := range 300 {
			// Distinct strings, so each line really costs memory.
			s.hub.publish(name, &event{Kind: "chat", From: "flooder", Text: fmt.Sprintf("%06d", i) + line[6:]})
		}
	}
	total, largest := historyBytes(s)
	if total > 16<<20 || largest > 256<<10 {
		t.Errorf("history holds %d bytes, %d in the largest room; want at most 16 MiB and 256 KiB", total, largest)
	}
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 40<<20 {
		t.Errorf("the heap grew by %d MiB under the flood", grown>>20)
	}
	// The newest lines are still there for a page that joins.
	c := join(t, ts.URL, "late", "room299")
	c.listen(0)
	if e := c.next(); len(e.Text) != maxLine {
		t.Errorf("a late joiner sees %s %.20q", e.Kind, e.Text)
	}
}

// Plain chat lines are rate-limited per user like commands: a script
// sending 40 lines at once gets most of them refused, and the room keeps
// only the few that passed.
func TestChatLinesRateLimited(t *testing.T) {
	_, s, ts := newTestServer(t, Options{})
	flooder := join(t, ts.URL, "flooder", "lobby")
	other := join(t, ts.URL, "other", "lobby")
	refused := 0
	for i := range 40 {
		code, out := flooder.post("/api/send", map[string]string{"text": fmt.Sprintf("line %d", i)})
		switch code {
		case 200:
		case http.StatusTooManyRequests:
			refused++
			if msg, _ := out["error"].(string); !strings.Contains(msg, "faster") {
				t.Errorf("refusal %q does not say why", msg)
			}
		default:
			t.Fatalf("line %d: %d %v", i, code, out)
		}
	}
	if refused < 25 {
		t.Errorf("%d of 40 lines refused, want most", refused)
	}
	// Another user is not slowed down by the flooder.
	if code, out := other.post("/api/send", map[string]string{"text": "hello"}); code != 200 {
		t.Errorf("another user's line: %d %v", code, out)
	}
	s.hub.mu.Lock()
	n := len(s.hub.rooms["lobby"].history)
	s.hub.mu.Unlock()
	if n > 40-refused+1 {
		t.Errorf("the room kept %d lines", n)
	}
}

// A room nobody listens to and nobody spoke in for a long time is
// forgotten, not only when 2,000 rooms exist.
func TestIdleRoomsEvicted(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	_, s, ts := newTestServer(t, Options{Now: clock})
	for i := range 5 {
		c := join(t, ts.URL, fmt.Sprintf("p%d", i), fmt.Sprintf("old%d", i))
		c.say("a line nobody will read")
	}
	mu.Lock()
	now = now.Add(2 * time.Hour)
	mu.Unlock()
	fresh := join(t, ts.URL, "fresh", "new")
	fresh.say("hello")
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	for name := range s.hub.rooms {
		if strings.HasPrefix(name, "old") {
			t.Errorf("idle room %s is still kept", name)
		}
	}
	if s.hub.rooms["new"] == nil {
		t.Error("the active room is gone")
	}
}

// openStream opens an event stream for a session token and returns the
// status; the stream stays open until the test ends.
func openStream(t *testing.T, base, token string) int {
	t.Helper()
	resp, err := http.Get(base + "/api/events?s=" + token)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp.StatusCode
}

// One tab cannot open every event stream: a few per session and a few
// more per user, while others still get theirs.
func TestStreamsCappedPerSessionAndUser(t *testing.T) {
	_, _, ts := newTestServer(t, Options{})
	greedy := join(t, ts.URL, "greedy", "lobby")
	opened := 0
	for range 50 {
		if openStream(t, ts.URL, greedy.token) != 200 {
			break
		}
		opened++
	}
	if opened == 0 || opened > 4 {
		t.Errorf("one session opened %d streams, want 1 to 4", opened)
	}
	// More tabs of the same user: capped too.
	tabs := opened
	for range 40 {
		tab := joinWith(t, ts.URL, "greedy", "lobby", greedy.secret)
		if openStream(t, ts.URL, tab.token) != 200 {
			break
		}
		tabs++
	}
	if tabs > 16 {
		t.Errorf("one user opened %d streams", tabs)
	}
	if code := openStream(t, ts.URL, join(t, ts.URL, "modest", "lobby").token); code != 200 {
		t.Errorf("another user's stream: %d", code)
	}
}

// Many names from one address cannot take every stream either.
func TestStreamsCappedPerAddress(t *testing.T) {
	_, s, ts := newTestServer(t, Options{})
	s.hub.limits.perAddr = 4
	opened := 0
	for i := range 4 {
		c := join(t, ts.URL, fmt.Sprintf("sock%d", i), "lobby")
		for range 2 {
			if openStream(t, ts.URL, c.token) == 200 {
				opened++
			}
		}
	}
	if opened != 4 {
		t.Errorf("%d streams from one address, want 4", opened)
	}
	other := join(t, ts.URL, "elsewhere", "lobby")
	resp, err := browser(t, "127.0.0.2").Get(ts.URL + "/api/events?s=" + other.token)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("a stream from another address: %d", resp.StatusCode)
	}
}
