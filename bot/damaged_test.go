package bot

import (
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// plant overwrites one stored game record with raw bytes, as a damaged
// disk or a careless edit would, and reopens the service.
func (h *harness) plant(id string, raw []byte) {
	h.t.Helper()
	if err := h.store.Close(); err != nil {
		h.t.Fatal(err)
	}
	db, err := bolt.Open(h.path, 0o600, &bolt.Options{Timeout: time.Second, NoFreelistSync: true})
	if err != nil {
		h.t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte("games")).Put([]byte(id), raw) })
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		h.t.Fatal(err)
	}
	h.open()
}

// A damaged game record affects that game only: lists and the other
// games of the channel go on, and commands on it say it is damaged.
func TestDamagedRecordAffectsOnlyItsGame(t *testing.T) {
	h := newHarness(t, Limits{CommandsPer10s: 1000})
	g1 := h.startGame("standard") // alice–bob, played on
	h.ok("alice", "/move e4 game:"+g1)
	h.ok("carol", "/challenge @dave white")
	g2 := strings.Fields(h.ok("dave", "/accept").Text)[1] // its bytes get damaged
	h.ok("erin", "/challenge @fred white")
	g3 := strings.Fields(h.ok("fred", "/accept").Text)[1] // its moves no longer replay
	h.ok("erin", "/move e4 game:"+g3)
	h.ok("fred", "/resign game:"+g3)
	h.ok("gail", "/challenge @hal white")
	g4 := strings.Fields(h.ok("hal", "/accept").Text)[1] // finished, rated
	h.ok("gail", "/move d4 game:"+g4)
	h.ok("hal", "/move d5 game:"+g4)
	h.ok("hal", "/resign game:"+g4)

	h.plant(g2, []byte(`{"v":1,"id":"`+g2+`","moves":["e2-e4"`))
	rec := h.game(g3)
	h.plant(g3, []byte(`{"v":1,"id":"`+g3+`","rev":3,"variant":"standard","channel":"test:chan","white":{"id":"test:erin","name":"erin"},"black":{"id":"test:fred","name":"fred"},"moves":["e2-e5"],"result":"0-1","reason":"resignation","created":"`+rec.Created.Format(time.RFC3339)+`"}`))

	// A spectator's /board finds the channel's only readable game.
	if r := h.ok("zed", "/board"); !strings.HasPrefix(r.Text, g1+" ") || r.Image == nil {
		t.Errorf("spectator /board: %s", dump([]Reply{r}))
	}
	for _, id := range []string{g2, g3} {
		for _, line := range []string{"/board " + id, "/pgn " + id, "/moves e2 game:" + id} {
			h.refused("zed", line, "damaged")
		}
	}
	h.refused("carol", "/move e4 game:"+g2, "damaged")
	h.refused("dave", "/resign game:"+g2, "damaged")
	// Lists leave the damaged games out and show the rest.
	if r := h.ok("alice", "/games"); !strings.Contains(r.Text, g1) {
		t.Errorf("/games: %q", r.Text)
	}
	if r := h.ok("zed", "/history"); !strings.Contains(r.Text, g4) || strings.Contains(r.Text, g2+" ") {
		t.Errorf("/history: %q", r.Text)
	}
	if r := h.ok("zed", "/leaderboard"); !strings.Contains(r.Text, "gail") {
		t.Errorf("/leaderboard: %q", r.Text)
	}
	// The other games go on.
	h.ok("bob", "/move e5 game:"+g1)
	h.ok("carol", "/challenge @dave")
}

// The clock gives up on a damaged timed game after one try instead of
// failing on it every tick; the other timed games keep their clocks.
func TestClockLeavesDamagedGame(t *testing.T) {
	h := newHarness(t, Limits{CommandsPer10s: 1000})
	h.ok("alice", "/challenge @bob white 1d")
	bad := strings.Fields(h.ok("bob", "/accept").Text)[1]
	h.ok("carol", "/challenge @dave white 1d")
	good := strings.Fields(h.ok("dave", "/accept").Text)[1]
	h.plant(bad, []byte(`{"v":1,"id":"`+bad+`","clock":`))
	later := h.clock().Add(30 * time.Hour)
	if due, _ := h.store.DueGames(later); len(due) != 2 {
		t.Fatalf("due before the tick: %v", due)
	}
	rs := h.svc.Tick(later)
	if len(rs) != 1 || !strings.Contains(rs[0].Text, "ran out of time") || !strings.Contains(rs[0].Text, good) {
		t.Fatalf("tick: %s", dump(rs))
	}
	if due, _ := h.store.DueGames(later.Add(time.Hour)); len(due) != 0 {
		t.Errorf("still due after the tick: %v", due)
	}
}
