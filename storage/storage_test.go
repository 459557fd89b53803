package storage

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func newGame(white, black, channel string) *Game {
	return &Game{Variant: "standard", Channel: channel, White: Player{ID: white, Name: white}, Black: Player{ID: black, Name: black}, Moves: []string{}}
}

func TestSecondOpenFailsFast(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	s, err := Open(path, Options{Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	start := time.Now()
	_, err = Open(path, Options{Timeout: 50 * time.Millisecond})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("second open: got %v, want ErrLocked", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("second open took %v", d)
	}
}

func suiteGameRoundTripAndConflict(t *testing.T, open opener) {
	s := open(t)
	g := newGame("u:a", "u:b", "ch1")
	if err := s.CreateGame(g, "e1", t0); err != nil {
		t.Fatal(err)
	}
	if g.ID != "#1" || g.Rev != 1 {
		t.Fatalf("id %q rev %d, want #1 rev 1", g.ID, g.Rev)
	}
	stale, _ := s.Game("#1")
	g.Moves = append(g.Moves, "e2-e4")
	if err := s.SaveGame(g, "e2", t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	stale.Moves = append(stale.Moves, "d2-d4")
	if err := s.SaveGame(stale, "e3", t0); !errors.Is(err, ErrConflict) {
		t.Fatalf("stale save: got %v, want ErrConflict", err)
	}
	got, err := s.Game("#1")
	if err != nil {
		t.Fatal(err)
	}
	if got.Rev != 2 || len(got.Moves) != 1 || got.Moves[0] != "e2-e4" || !got.Updated.Equal(t0.Add(time.Second)) {
		t.Fatalf("stored %+v", got)
	}
	// The same event id again writes nothing.
	g.Moves = append(g.Moves, "e7-e5")
	if err := s.SaveGame(g, "e2", t0); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("duplicate event: got %v", err)
	}
	if seen, _ := s.SeenEvent("e2"); !seen {
		t.Fatal("event e2 not remembered")
	}
}

func suiteIndexes(t *testing.T, open opener) {
	s := open(t)
	var gs []*Game
	// 2,000 games over 40 users and 10 channels; user i plays user i+1.
	for i := 0; i < 2000; i++ {
		gs = append(gs, newGame(fmt.Sprintf("u%d", i%40), fmt.Sprintf("u%d", (i+1)%40), fmt.Sprintf("ch%d", i%10)))
	}
	if err := s.ImportGames(gs, t0); err != nil {
		t.Fatal(err)
	}
	// u0 is White in games i ≡ 0 (mod 40) and Black in i ≡ 39; channel
	// i mod 10 is then 0 resp. 9: 50 games each.
	for _, tc := range []struct {
		user, ch string
		want     int
	}{{"u0", "ch0", 50}, {"u0", "ch9", 50}, {"u0", "ch1", 0}, {"u1", "ch1", 50}, {"nobody", "ch0", 0}} {
		got, err := s.ActiveGames(tc.user, tc.ch)
		if err != nil || len(got) != tc.want {
			t.Errorf("ActiveGames(%s, %s) = %d, %v; want %d", tc.user, tc.ch, len(got), err, tc.want)
		}
		for i := 1; i < len(got); i++ {
			a, _ := strconv.Atoi(got[i-1].ID[1:])
			b, _ := strconv.Atoi(got[i].ID[1:])
			if a >= b {
				t.Errorf("not in creation order: %s before %s", got[i-1].ID, got[i].ID)
			}
		}
	}
	if n, _ := s.ActiveCount("u0"); n != 100 {
		t.Errorf("ActiveCount(u0) = %d, want 100", n)
	}
	ch, _ := s.ChannelGames("ch3")
	if len(ch) != 200 {
		t.Errorf("ChannelGames(ch3) = %d, want 200", len(ch))
	}
	// Finishing a game takes it out of every index but keeps it.
	g := ch[0]
	g.Result, g.Reason = "1-0", "resignation"
	if err := s.SaveGame(g, "", t0); err != nil {
		t.Fatal(err)
	}
	if ch, _ := s.ChannelGames("ch3"); len(ch) != 199 {
		t.Errorf("after finishing: %d games in ch3", len(ch))
	}
	if n, _ := s.ActiveCount(g.White.ID); n != 99 {
		t.Errorf("after finishing: ActiveCount = %d", n)
	}
	kept, err := s.Game(g.ID)
	if err != nil || kept.Result != "1-0" || kept.Ended.IsZero() {
		t.Errorf("finished game: %+v, %v", kept, err)
	}
}

func suiteChallenges(t *testing.T, open opener) {
	s := open(t)
	c := &Challenge{Channel: "ch", From: Player{ID: "a", Name: "a"}, Variant: "standard", Color: "white", Created: t0, Expires: t0.Add(time.Hour)}
	if err := s.CreateChallenge(c, "", t0, Caps{}); err != nil {
		t.Fatal(err)
	}
	if !c.Open() || c.ID != "c1" {
		t.Fatalf("challenge %+v", c)
	}
	if got, _ := s.ChannelChallenges("ch", t0); len(got) != 1 {
		t.Fatalf("channel challenges: %d", len(got))
	}
	if got, _ := s.UserChallenges("a", t0.Add(2*time.Hour)); len(got) != 0 {
		t.Fatalf("expired challenge listed")
	}
	// Two accepts: one game.
	g1, g2 := newGame("a", "b", "ch"), newGame("a", "c", "ch")
	if err := s.AcceptChallenge("c1", g1, "", t0, Caps{}); err != nil {
		t.Fatal(err)
	}
	if err := s.AcceptChallenge("c1", g2, "", t0, Caps{}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second accept: %v", err)
	}
	if got, _ := s.ChannelChallenges("ch", t0); len(got) != 0 {
		t.Fatalf("accepted challenge still listed")
	}
	// Expired challenges are pruned.
	c2 := &Challenge{Channel: "ch", From: Player{ID: "a"}, Created: t0, Expires: t0.Add(time.Minute)}
	if err := s.CreateChallenge(c2, "", t0, Caps{}); err != nil {
		t.Fatal(err)
	}
	if n, err := s.PruneChallenges(t0.Add(time.Hour)); n != 1 || err != nil {
		t.Fatalf("pruned %d, %v", n, err)
	}
	if _, err := s.Challenge(c2.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("pruned challenge still there: %v", err)
	}
}

func suiteSettingsAndEvents(t *testing.T, open opener) {
	s := open(t)
	if st, err := s.Settings("a"); err != nil || st.Orientation != "" {
		t.Fatalf("default settings %+v %v", st, err)
	}
	if err := s.SaveSettings("a", Settings{Orientation: "black"}, "ev1", t0); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.Settings("a"); st.Orientation != "black" {
		t.Fatalf("settings %+v", st)
	}
	if n, err := s.PruneEvents(t0.Add(time.Hour)); n != 1 || err != nil {
		t.Fatalf("pruned %d events, %v", n, err)
	}
	if seen, _ := s.SeenEvent("ev1"); seen {
		t.Fatal("pruned event still seen")
	}
}

func TestVersionedRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := newGame("a", "b", "ch")
	if err := s.CreateGame(g, "", t0); err != nil {
		t.Fatal(err)
	}
	// A record from a future version, and a corrupt one.
	err = s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bGames).Put([]byte("g100"), []byte(`{"v":99,"id":"g100"}`)); err != nil {
			return err
		}
		return tx.Bucket(bGames).Put([]byte("g101"), []byte(`{"v":1,`))
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Game("g100"); err == nil {
		t.Error("future record decoded")
	}
	if _, err := s.Game("g101"); err == nil {
		t.Error("corrupt record decoded")
	}
	// A database from a newer topochess is refused as a whole.
	if err := s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bMeta).Put([]byte("format"), []byte("99")) }); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(path, Options{}); err == nil {
		t.Error("newer database opened")
	}
}
