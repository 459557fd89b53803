package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"topochess/engine"
	"topochess/render"
)

// A move typed without a slash plays when it is a move by the player to
// move, as in the console; other lines, and moves typed out of turn,
// stay chat between people.
func TestBareMovesPlay(t *testing.T) {
	_, ts := newServiceServer(t, 256)
	alice, bob := join(t, ts.URL, "alice", "lobby"), join(t, ts.URL, "bob", "lobby")
	alice.listen(0)
	bob.listen(0)
	alice.say("/challenge @bob color:white")
	bob.say("/accept")
	bob.until("reply", "begins")
	alice.until("reply", "begins")

	alice.say("d4")
	for _, c := range []*client{alice, bob} {
		if e := c.until("reply", "1. d4"); e.Image == nil {
			t.Error("no picture after a bare d4")
		}
	}
	bob.say("Nf6")
	for _, c := range []*client{alice, bob} {
		c.until("reply", "1... Nf6")
	}
	// Out of turn, a move-shaped line is chat; plain chat stays chat.
	bob.say("e5")
	if e := alice.next(); e.Kind != "chat" || e.Text != "e5" {
		t.Errorf("bob's e5 out of turn: %s %q, want chat", e.Kind, e.Text)
	}
	alice.say("nice move")
	bob.until("chat", "nice move")
	// A refused bare move shaped like one is explained to its player.
	alice.say("Nf5")
	if e := alice.until("reply", "knight"); !e.Error || !e.Private {
		t.Errorf("refused bare move: %+v", e)
	}
	alice.say("c4")
	bob.until("reply", "2. c4")
}

// The cell map of a board picture is served as JSON in the picture's own
// pixels; a click names the cell it found there.
func TestCellMapServedAndUsed(t *testing.T) {
	s, ts := newServiceServer(t, 256)
	alice := join(t, ts.URL, "alice", "lobby")
	alice.listen(0)
	alice.say("/challenge bot klein white")
	e := alice.until("reply", "begins")
	if e.Image == nil || !e.Image.Board {
		t.Fatalf("no board: %+v", e)
	}
	resp, err := http.Get(ts.URL + "/api/map/" + e.Image.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m render.CellMap
	if resp.StatusCode != 200 || json.NewDecoder(resp.Body).Decode(&m) != nil {
		t.Fatalf("map: %d", resp.StatusCode)
	}
	img, _ := s.images.get(e.Image.ID)
	if m.Width != img.w || m.Height != img.h {
		t.Errorf("map is %dx%d, the picture %dx%d", m.Width, m.Height, img.w, img.h)
	}
	v := engine.MustVariant("klein")
	seen := map[string]bool{}
	for _, c := range m.Cells {
		if v.Geo.Cell(c.Cell) < 0 || seen[c.Cell] || len(c.Polygons) == 0 {
			t.Errorf("map cell %q (seen before: %v, %d polygons)", c.Cell, seen[c.Cell], len(c.Polygons))
		}
		seen[c.Cell] = true
		// The centre of each of its polygons is found back in the map.
		for _, p := range c.Polygons {
			var x, y float64
			for _, pt := range p {
				x, y = x+pt[0]/float64(len(p)), y+pt[1]/float64(len(p))
			}
			if got := cellIn(&m, x, y); got != c.Cell {
				t.Errorf("centre of %s's polygon is %q in the map", c.Cell, got)
			}
		}
	}
	if len(seen) != v.Geo.N {
		t.Errorf("map has %d cells, the board %d", len(seen), v.Geo.N)
	}
	// A click on the opponent's piece shows its moves but selects nothing.
	if code, out := alice.post("/api/click", map[string]any{"image": e.Image.ID, "cell": "e7"}); code != 200 || out["selected"] != "" || !strings.Contains(fmt.Sprint(out["note"]), "not yours to move") {
		t.Fatalf("click e7: %d %v", code, out)
	}
	alice.until("reply", "could go to")
	// A click by cell: e2 is selected (its /moves), then e4 is played.
	if code, out := alice.post("/api/click", map[string]any{"image": e.Image.ID, "cell": "e2"}); code != 200 || out["selected"] != "e2" {
		t.Fatalf("click e2: %d %v", code, out)
	}
	alice.until("reply", "can go to")
	if code, out := alice.post("/api/click", map[string]any{"image": e.Image.ID, "cell": "e4"}); code != 200 || out["selected"] != "" {
		t.Fatalf("click e4: %d %v", code, out)
	}
	alice.until("reply", "1. e4")
	// A cell that is not on the board selects nothing.
	if code, out := alice.post("/api/click", map[string]any{"image": e.Image.ID, "cell": "z99"}); code != 200 || out["selected"] != "" {
		t.Errorf("click z99: %d %v", code, out)
	}
	if resp, err := http.Get(ts.URL + "/api/map/nope"); err != nil || resp.StatusCode != 404 {
		t.Errorf("map of an unknown picture: %v %v", resp.StatusCode, err)
	}
}
