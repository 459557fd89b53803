package web

import (
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"topochess/bot"
	"topochess/engine"
	"topochess/render"
	"topochess/storage"
)

// newServiceServer runs the chat on the real bot with storage in a
// temporary folder. The bot draws pictures long pixels wide, smaller
// than the adapter's renderer (which keeps its default) both to save time
// under the race detector and so clicks must be scaled.
func newServiceServer(t *testing.T, long int) (*Server, *httptest.Server) {
	t.Helper()
	store, err := storage.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	svc := bot.New(store, bot.Config{Logger: slog.New(slog.DiscardHandler), Painter: &render.Renderer{Long: long}})
	s, err := New(svc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		s.hub.closeAll()
		ts.Close()
	})
	return s, ts
}

// until reads events until one of this kind contains text.
func (c *client) until(kind, text string) event {
	c.t.Helper()
	for {
		e := c.next()
		if e.Kind == kind && strings.Contains(e.Text, text) {
			return e
		}
	}
}

// TestGameWithService plays the start of a game through the adapter and
// the real bot: a challenge accepted with its button, typed moves, an
// illegal move, a move by two clicks, and a draw offer whose buttons only
// the opponent may press.
func TestGameWithService(t *testing.T) {
	s, ts := newServiceServer(t, 256)
	alice, bob := join(t, ts.URL, "alice", "lobby"), join(t, ts.URL, "bob", "lobby")
	alice.listen(0)
	bob.listen(0)

	alice.say("/challenge @bob color:white")
	offer := bob.until("reply", "challenges")
	var accept, decline string
	for _, b := range offer.Buttons {
		// Accept is anyone's to press (the bot says why it is not
		// theirs); Decline is bob's.
		if want := map[string]string{"Accept": "", "Decline": "web:bob"}[b.Label]; b.For != want {
			t.Errorf("challenge button %q is for %q, want %q", b.Label, b.For, want)
		}
		switch b.Label {
		case "Accept":
			accept = b.ID
		case "Decline":
			decline = b.ID
		}
	}
	if accept == "" || decline == "" {
		t.Fatalf("challenge buttons %+v", offer.Buttons)
	}
	if code, _ := alice.post("/api/press", map[string]string{"button": accept}); code != 200 {
		t.Errorf("alice accepting her own challenge for bob: %d", code)
	}
	alice.until("reply", "You cannot accept your own challenge")
	if code, out := bob.post("/api/press", map[string]string{"button": accept}); code != 200 {
		t.Fatalf("bob's accept: %d %v", code, out)
	}
	// The challenge message is edited to say who accepted it.
	if ed := alice.until("edit", "Accepted by bob: game #1."); ed.Key != "challenge:c1" {
		t.Errorf("edit of %q, want the challenge", ed.Key)
	}
	start := alice.until("reply", "begins")
	if start.Image == nil || !start.Image.Board {
		t.Fatalf("the game starts without a board picture: %+v", start)
	}
	if !slices.Contains(start.Mentions, "web:alice") {
		t.Errorf("the start should notify alice, the first to move: %v", start.Mentions)
	}
	bob.until("reply", "begins")
	if code, _ := bob.post("/api/press", map[string]string{"button": decline}); code != 410 {
		t.Errorf("the superseded Decline button: %d, want 410", code)
	}

	alice.say("/move e2e4")
	for _, c := range []*client{alice, bob} {
		if e := c.until("reply", "1. e4"); e.Image == nil {
			t.Error("no picture after 1. e4")
		}
	}
	bob.say("/move e7e5")
	for _, c := range []*client{alice, bob} {
		c.until("reply", "1... e5")
	}

	// The illegal move is refused to alice alone: bob's next event is the
	// chat line after it.
	alice.say("/move e1e3")
	if e := alice.until("reply", "illegal"); !e.Error || !e.Private {
		t.Errorf("refusal %+v", e)
	}
	alice.say("sorry")
	if e := bob.next(); e.Kind != "chat" {
		t.Errorf("bob saw %s %q", e.Kind, e.Text)
	}

	// Two clicks on the newest picture: the knight on g1, then f3.
	alice.say("/board")
	board := alice.until("reply", "#1 ·")
	if board.Image == nil {
		t.Fatal("/board sent no picture")
	}
	img, _ := s.images.get(board.Image.ID)
	clickAt := func(cell string) map[string]any {
		t.Helper()
		x, y := cellCentre(img.w, img.h, img.orientation, cell)
		code, out := alice.post("/api/click", map[string]any{"image": board.Image.ID, "x": x, "y": y})
		if code != 200 {
			t.Fatalf("click %s: %d %v", cell, code, out)
		}
		return out
	}
	if out := clickAt("g1"); out["selected"] != "g1" {
		t.Fatalf("click on g1: %v", out)
	}
	if e := alice.until("reply", "can go to"); e.Image == nil || !strings.Contains(e.Text, "f3") {
		t.Errorf("the knight's moves: %+v", e)
	}
	clickAt("f3")
	for _, c := range []*client{alice, bob} {
		c.until("reply", "2. Nf3")
	}
	// A click on an empty cell is refused and selects nothing.
	if out := clickAt("d4"); out["selected"] != "" {
		t.Errorf("click on an empty cell: %v", out)
	}

	// The draw offer's buttons are bob's.
	alice.say("/draw")
	drawOffer := bob.until("reply", "offers a draw")
	var acceptDraw string
	for _, b := range drawOffer.Buttons {
		if b.Label == "Accept draw" {
			acceptDraw = b.ID
		}
	}
	if code, _ := alice.post("/api/press", map[string]string{"button": acceptDraw}); code != 403 {
		t.Errorf("alice accepting her own draw offer: %d", code)
	}
	if code, out := bob.post("/api/press", map[string]string{"button": acceptDraw}); code != 200 {
		t.Fatalf("bob's draw accept: %d %v", code, out)
	}
	alice.until("reply", "Draw agreed")
}

// cellCentre is the centre of a standard-board cell in a picture of w×h
// pixels, as the renderer places it (CellCenter, the inverse direction of
// the cell map the server and the page use).
func cellCentre(w, h int, orientation, cell string) (x, y float64) {
	v := engine.MustVariant("standard")
	o := engine.White
	if orientation == "black" {
		o = engine.Black
	}
	r := &render.Renderer{Long: max(w, h)}
	x, y, _ = r.CellCenter(v, o, v.Geo.Cell(cell))
	return x, y
}
