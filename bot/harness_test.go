package bot

import (
	"bytes"
	"fmt"
	"image/png"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"topochess/render"
	"topochess/storage"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// harness is a service on a real bbolt file with a small real renderer
// and a clock that advances a second per command.
type harness struct {
	t     testing.TB
	path  string
	store *storage.Store
	svc   *Service
	mu    sync.Mutex
	now   time.Time
	ev    int
	cfg   Config
}

func newHarness(t testing.TB, limits Limits) *harness {
	t.Helper()
	h := &harness{t: t, path: filepath.Join(t.TempDir(), "bot.db"), now: t0}
	h.cfg = Config{
		Limits:  limits,
		Painter: &render.Renderer{Long: 96},
		Now:     h.clock,
		Coin:    func() bool { return true },
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	h.open()
	return h
}

func (h *harness) open() {
	h.t.Helper()
	st, err := storage.Open(h.path, storage.Options{Timeout: time.Second, Logger: h.cfg.Logger})
	if err != nil {
		h.t.Fatal(err)
	}
	h.store = st
	h.svc = New(st, h.cfg)
	h.t.Cleanup(func() { st.Close() })
}

// restart closes the database and opens it again with a new service.
func (h *harness) restart() {
	h.t.Helper()
	if err := h.store.Close(); err != nil {
		h.t.Fatal(err)
	}
	h.open()
}

func (h *harness) clock() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.now
}

func (h *harness) advance(d time.Duration) {
	h.mu.Lock()
	h.now = h.now.Add(d)
	h.mu.Unlock()
}

func testUser(name string) User {
	return User{ID: "test:" + name, Name: name, Mention: "@" + name}
}

// command builds what an adapter would send for "/name text" by user.
func (h *harness) command(user, line string) Command {
	h.mu.Lock()
	h.ev++
	h.now = h.now.Add(time.Second)
	cmd := Command{EventID: fmt.Sprintf("ev%d", h.ev), Platform: "test", Channel: "test:chan", Server: "test", User: testUser(user), Time: h.now}
	h.mu.Unlock()
	name, text, ok := ParseLine(line)
	if !ok {
		name, text = "move", line
	}
	cmd.Name, cmd.Text = name, text
	for _, w := range strings.Fields(text) {
		if strings.HasPrefix(w, "@") {
			cmd.Mentions = append(cmd.Mentions, testUser(w[1:]))
		}
	}
	return cmd
}

func (h *harness) do(user, line string) []Reply {
	h.t.Helper()
	return h.svc.Handle(h.command(user, line))
}

// ok runs a command that must succeed and returns its only reply.
func (h *harness) ok(user, line string) Reply {
	h.t.Helper()
	rs := h.do(user, line)
	if len(rs) != 1 || rs[0].Error {
		h.t.Fatalf("%s: %s: got %s", user, line, dump(rs))
	}
	return rs[0]
}

// refused runs a command that must be refused with text containing want.
func (h *harness) refused(user, line, want string) Reply {
	h.t.Helper()
	rs := h.do(user, line)
	if len(rs) != 1 || !rs[0].Error || !rs[0].Private {
		h.t.Fatalf("%s: %s: want a private refusal, got %s", user, line, dump(rs))
	}
	if !strings.Contains(rs[0].Text, want) {
		h.t.Fatalf("%s: %s: refusal %q does not say %q", user, line, rs[0].Text, want)
	}
	return rs[0]
}

// press sends a button's command as user.
func (h *harness) press(user string, b Button) []Reply {
	h.t.Helper()
	cmd := h.command(user, "")
	cmd.Name, cmd.Text, cmd.Args = b.Command, "", b.Args
	return h.svc.Handle(cmd)
}

// startGame makes alice (White) and bob (Black) play a game of variant.
func (h *harness) startGame(variant string) string {
	h.t.Helper()
	h.ok("alice", "/challenge @bob white variant:"+variant)
	r := h.ok("bob", "/accept")
	if r.Image == nil {
		h.t.Fatalf("no start picture: %s", dump([]Reply{r}))
	}
	return strings.Fields(r.Text)[1] // "Game g1 begins: …"
}

func (h *harness) game(id string) *storage.Game {
	h.t.Helper()
	g, err := h.store.Game(id)
	if err != nil {
		h.t.Fatal(err)
	}
	return g
}

// checkPNG decodes a reply's picture.
func checkPNG(t testing.TB, r Reply) {
	t.Helper()
	if r.Image == nil {
		t.Fatalf("reply has no picture: %q", r.Text)
	}
	img, err := png.Decode(bytes.NewReader(r.Image.PNG))
	if err != nil {
		t.Fatalf("picture does not decode: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 16 || b.Dy() < 16 {
		t.Fatalf("picture is %v", b)
	}
	if r.Image.Alt == "" || r.Image.Variant == "" {
		t.Fatalf("picture without alt text or variant: %+v", r.Image.Alt)
	}
}

func dump(rs []Reply) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "\n  [err=%v private=%v] %q buttons=%d image=%v", r.Error, r.Private, r.Text, len(r.Buttons), r.Image != nil)
	}
	return b.String()
}
