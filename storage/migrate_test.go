package storage

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// fillAllKinds writes one or more records of every kind a bot keeps.
func fillAllKinds(t *testing.T, s *Store) {
	t.Helper()
	var gs []*Game
	for i := range 30 {
		g := newGame("alice", "bob", "ch")
		if i%3 == 0 {
			g.Clock = &Clock{Control: "1d", Due: t0.Add(time.Duration(i) * time.Minute), TurnStart: t0}
		}
		gs = append(gs, g)
	}
	if err := s.ImportGames(gs, t0); err != nil {
		t.Fatal(err)
	}
	for i, g := range gs[:5] {
		g.Moves = append(g.Moves, "e2-e4")
		g.Result, g.Reason, g.Rated = "1-0", "resignation", true
		if err := s.SaveGame(g, "ev-end-"+g.ID, t0.Add(time.Duration(i)*time.Hour), &Outgoing{Channel: "telegram:ch", Ply: 1, Caption: "1. e4"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.RateGame(g.ID, t0, func(_ *Game, w, b Rating) (Rating, Rating) {
			w.R, w.RD, w.Wins = w.R+10, 100, w.Wins+1
			b.R, b.RD, b.Losses = b.R-10, 100, b.Losses+1
			return w, b
		}); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		c := &Challenge{Channel: "ch", From: Player{ID: "carol"}, Variant: "torus", Color: "random", Created: t0, Expires: t0.Add(time.Hour)}
		if err := s.CreateChallenge(c, "", t0, Caps{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SaveSettings("alice", Settings{Orientation: "black"}, "ev-settings", t0); err != nil {
		t.Fatal(err)
	}
	if err := s.PutOutgoing(t0, &Outgoing{Channel: "discord:9", Reply: json.RawMessage(`{"Text":"hi"}`)}); err != nil {
		t.Fatal(err)
	}
	pending, _ := s.PendingOutgoing("telegram:")
	if err := s.DeliveredOutgoing(pending[0].ID, "Forbidden: bot was blocked"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.ClaimWebName("bob", "Bob", []byte("hash")); err != nil {
		t.Fatal(err)
	}
	for i, k := range []string{"board:g1", "draw:g2"} {
		if _, err := s.SwapMessage("telegram:ch", k, strconv.Itoa(10+i), t0.Add(time.Duration(i)*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	for _, ch := range []string{"discord:a", "discord:b"} {
		if err := s.AddFollow(Follow{Game: gs[6].ID, Channel: ch, By: "carol", Since: t0, Plies: 3}, "", t0); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SaveReview(&Review{Game: gs[0].ID, Plies: 1, Depth: 3, Scores: []int{20, -30}, Best: []string{"e2-e4", "e7-e5"}, Created: t0}, "", t0); err != nil {
		t.Fatal(err)
	}
	if err := savePuzzle(s, "alice", "ch", "torus", &PuzzleState{Puzzle: "torus-4", Step: 1, Started: t0}, PuzzleStats{R: 1510, RD: 300, Sigma: 0.06, Solved: 1, Tried: []string{"torus-2", "torus-4"}}); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := s.KeepButton("telegram", KeptButton{Command: "move", Args: map[string]string{"move": "e2-e4"}, For: "telegram:5", At: t0.Add(time.Duration(i) * time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestMigrateBoltToPostgres(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	src, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	fillAllKinds(t, src)
	open := freshPostgres(t)
	dst := open(t).(*Postgres)
	copied, err := src.MigrateTo(dst)
	if err != nil {
		t.Fatal(err)
	}
	want := Counts{"games": 30, "challenges": 3, "ratings": 2, "settings": 1, "events": 6, "outbox": 5, "outbox refused": 1, "web names": 1, "message keys": 2, "kept buttons": 3, "follows": 2, "reviews": 1, "open puzzles": 1, "puzzle stats": 1}
	if !reflect.DeepEqual(copied, want) {
		t.Fatalf("copied %v, want %v", copied, want)
	}
	if got, _ := dst.Counts(); !reflect.DeepEqual(got, want) {
		t.Fatalf("PostgreSQL counts %v", got)
	}
	// Every list reads the same from both.
	same := func(what string, a, b any, errA, errB error) {
		t.Helper()
		if errA != nil || errB != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("%s differs:\nbbolt      %+v (%v)\npostgresql %+v (%v)", what, a, errA, b, errB)
		}
	}
	for _, id := range []string{"#1", "#2", "#7", "#30"} {
		a, ea := src.Game(id)
		b, eb := dst.Game(id)
		same("game "+id, a, b, ea, eb)
	}
	a1, ea := src.ActiveGames("alice", "ch")
	b1, eb := dst.ActiveGames("alice", "ch")
	same("active games", a1, b1, ea, eb)
	a2, ea := src.FinishedGames("ch", "bob", 10)
	b2, eb := dst.FinishedGames("ch", "bob", 10)
	same("finished games", a2, b2, ea, eb)
	a3, ea := src.DueGames(t0.Add(time.Hour))
	b3, eb := dst.DueGames(t0.Add(time.Hour))
	same("due games", a3, b3, ea, eb)
	a4, ea := src.Leaderboard("standard")
	b4, eb := dst.Leaderboard("standard")
	same("leaderboard", a4, b4, ea, eb)
	a5, ea := src.ChannelChallenges("ch", t0)
	b5, eb := dst.ChannelChallenges("ch", t0)
	same("challenges", a5, b5, ea, eb)
	a6, ea := src.Settings("alice")
	b6, eb := dst.Settings("alice")
	same("settings", a6, b6, ea, eb)
	a7, ea := src.PendingOutgoing("")
	b7, eb := dst.PendingOutgoing("")
	same("outbox", a7, b7, ea, eb)
	a8, ea := src.RefusedOutgoing("telegram:ch")
	b8, eb := dst.RefusedOutgoing("telegram:ch")
	same("refused", a8, b8, ea, eb)
	if name, hash, err := dst.ClaimWebName("bob", "B0b", []byte("other")); err != nil || name != "Bob" || string(hash) != "hash" {
		t.Errorf("web name after the move: %q %q %v", name, hash, err)
	}
	if seen, _ := dst.SeenEvent("ev-end-#1"); !seen {
		t.Error("an event applied before the move is not recognised after it")
	}
	a9, ea := src.Button("telegram", "2")
	b9, eb := dst.Button("telegram", "2")
	same("kept button", a9, b9, ea, eb)
	if m, err := dst.TakeMessage("telegram:ch", "draw:g2"); m != "11" || err != nil {
		t.Errorf("message key after the move: %q %v, want 11", m, err)
	}
	a10, ea := src.Follows("#7")
	b10, eb := dst.Follows("#7")
	same("follows", a10, b10, ea, eb)
	a11, ea := src.GameReview("#1")
	b11, eb := dst.GameReview("#1")
	same("review", a11, b11, ea, eb)
	a12, _, ea := src.OpenPuzzle("alice", "ch")
	b12, _, eb := dst.OpenPuzzle("alice", "ch")
	same("open puzzle", a12, b12, ea, eb)
	a13, ea := src.PuzzleStats("torus", "alice")
	b13, eb := dst.PuzzleStats("torus", "alice")
	same("puzzle stats", a13, b13, ea, eb)
	if len(b10) != 2 || b11 == nil || b12.Puzzle != "torus-4" || b13.Solved != 1 {
		t.Errorf("after the move: follows %+v, review %+v, puzzle %+v, stats %+v", b10, b11, b12, b13)
	}
	// The records' times came along: pruning takes the older ones.
	if n, err := dst.PruneMessages(t0.Add(90 * time.Minute)); n != 3 || err != nil {
		t.Errorf("pruned %d (%v) after the move, want 1 message key and 2 buttons", n, err)
	}
	// Ids go on where they were.
	if id, err := dst.KeepButton("telegram", KeptButton{Command: "board", At: t0}); id != "4" || err != nil {
		t.Errorf("next kept button id %q, %v; want 4", id, err)
	}
	g := newGame("x", "y", "ch")
	if err := dst.CreateGame(g, "", t0); err != nil || g.ID != "#31" {
		t.Errorf("next game id %q, %v; want #31", g.ID, err)
	}
	c := &Challenge{Channel: "ch", From: Player{ID: "x"}, Created: t0, Expires: t0.Add(time.Hour)}
	if err := dst.CreateChallenge(c, "", t0, Caps{}); err != nil || c.ID != "c4" {
		t.Errorf("next challenge id %q, %v; want c4", c.ID, err)
	}
	o := &Outgoing{Channel: "discord:9", Reply: json.RawMessage(`1`)}
	if err := dst.PutOutgoing(t0, o); err != nil || o.ID <= a7[len(a7)-1].ID {
		t.Errorf("next outbox id %q after %q, %v", o.ID, a7[len(a7)-1].ID, err)
	}
	// A second run finds the database filled and writes nothing.
	if _, err := src.MigrateTo(dst); !errors.Is(err, ErrNotEmpty) {
		t.Errorf("second migrate: %v", err)
	}
}

// Records this binary does not know how to copy stop the move: they
// would be lost silently.
func TestMigrateRefusesUnknownRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	src, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if err := src.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucket([]byte("from_the_future"))
		if err != nil {
			return err
		}
		return b.Put([]byte("k"), []byte("v"))
	}); err != nil {
		t.Fatal(err)
	}
	dst := freshPostgres(t)(t).(*Postgres)
	if _, err := src.MigrateTo(dst); err == nil || !strings.Contains(err.Error(), "from_the_future") {
		t.Fatalf("unknown bucket: %v", err)
	}
	if n, _ := dst.Counts(); n["games"] != 0 {
		t.Fatalf("something was written: %v", n)
	}
}

// A record that does not decode stops the move with its name and where
// to look; nothing is written.
func TestMigrateStopsAtADamagedRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	src, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fillAllKinds(t, src)
	src.Close()
	plantRaw(t, path, "games", "g99", []byte(`{"v":1,`))
	if src, err = Open(path, Options{}); err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst := freshPostgres(t)(t).(*Postgres)
	_, err = src.MigrateTo(dst)
	if err == nil || !strings.Contains(err.Error(), `game "g99"`) || !strings.Contains(err.Error(), "topochess check") {
		t.Fatalf("damaged record: %v", err)
	}
	if n, _ := dst.Counts(); n["games"] != 0 || n["ratings"] != 0 {
		t.Fatalf("something was written: %v", n)
	}
}
