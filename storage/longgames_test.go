package storage

import (
	"slices"
	"testing"
	"time"
)

// The deadline index follows every save: a moved deadline replaces the
// old entry, and finished games leave it.
func suiteDueIndex(t *testing.T, open opener) {
	s := open(t)
	mk := func(due time.Duration) *Game {
		g := &Game{Variant: "standard", Channel: "c", White: Player{ID: "a"}, Black: Player{ID: "b"}, Clock: &Clock{Control: "1d", Due: t0.Add(due)}}
		if err := s.CreateGame(g, "", t0); err != nil {
			t.Fatal(err)
		}
		return g
	}
	g1, g2 := mk(3*time.Hour), mk(time.Hour)
	untimed := &Game{Variant: "standard", Channel: "c", White: Player{ID: "a"}, Black: Player{ID: "b"}}
	if err := s.CreateGame(untimed, "", t0); err != nil {
		t.Fatal(err)
	}
	due := func(at time.Duration, want ...string) {
		t.Helper()
		ids, err := s.DueGames(t0.Add(at))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ids, want) && !(len(ids) == 0 && len(want) == 0) {
			t.Fatalf("due at +%v: %v, want %v", at, ids, want)
		}
	}
	due(0)
	due(time.Hour, g2.ID)
	due(5*time.Hour, g2.ID, g1.ID)
	if next, ok, _ := s.NextDue(); !ok || !next.Equal(t0.Add(time.Hour)) {
		t.Fatalf("next due %v %v", next, ok)
	}
	g2.Clock.Due = t0.Add(4 * time.Hour)
	if err := s.SaveGame(g2, "", t0); err != nil {
		t.Fatal(err)
	}
	due(3*time.Hour, g1.ID)
	due(5*time.Hour, g1.ID, g2.ID)
	g1.Result = "1-0"
	if err := s.SaveGame(g1, "", t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	due(5*time.Hour, g2.ID)
}

func suiteFinishedGamesNewestFirst(t *testing.T, open opener) {
	s := open(t)
	var ids []string
	for i, pl := range [][2]string{{"a", "b"}, {"b", "c"}, {"a", "c"}, {"a", "b"}} {
		g := &Game{Variant: "standard", Channel: "c", White: Player{ID: pl[0]}, Black: Player{ID: pl[1]}}
		if err := s.CreateGame(g, "", t0); err != nil {
			t.Fatal(err)
		}
		g.Result = "1/2-1/2"
		if err := s.SaveGame(g, "", t0.Add(time.Duration(10-i)*time.Hour)); err != nil { // the later-created end earlier
			t.Fatal(err)
		}
		ids = append(ids, g.ID)
	}
	other := &Game{Variant: "standard", Channel: "elsewhere", White: Player{ID: "a"}, Black: Player{ID: "b"}, Result: "1-0"}
	if err := s.CreateGame(other, "", t0); err != nil {
		t.Fatal(err)
	}
	list := func(user string, limit int) []string {
		gs, err := s.FinishedGames("c", user, limit)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, g := range gs {
			out = append(out, g.ID)
		}
		return out
	}
	if got := list("", 10); !slices.Equal(got, ids) {
		t.Errorf("channel: %v, want %v", got, ids)
	}
	if got := list("", 2); !slices.Equal(got, ids[:2]) {
		t.Errorf("limit 2: %v", got)
	}
	if got := list("c", 10); !slices.Equal(got, []string{ids[1], ids[2]}) {
		t.Errorf("user c: %v", got)
	}
	if got := list("zz", 10); len(got) != 0 {
		t.Errorf("unknown user: %v", got)
	}
}

// RateGame applies a rated finished game once.
func suiteRateGameOnce(t *testing.T, open opener) {
	s := open(t)
	g := &Game{Variant: "standard", Channel: "c", White: Player{ID: "a"}, Black: Player{ID: "b"}, Rated: true}
	if err := s.CreateGame(g, "", t0); err != nil {
		t.Fatal(err)
	}
	calls := 0
	up := func(_ *Game, w, b Rating) (Rating, Rating) {
		calls++
		w.R, w.RD, w.Wins = w.R+10, 100, w.Wins+1
		b.R, b.RD, b.Losses = b.R-10, 100, b.Losses+1
		return w, b
	}
	if _, err := s.RateGame(g.ID, t0, up); err != nil || calls != 0 {
		t.Fatalf("an unfinished game was rated: %v %d", err, calls)
	}
	g.Result = "1-0"
	if err := s.SaveGame(g, "", t0); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		ng, err := s.RateGame(g.ID, t0, up)
		if err != nil || ng.Rating == nil || ng.Rating.WhiteAfter != 10 {
			t.Fatalf("%v %+v", err, ng)
		}
	}
	if calls != 1 {
		t.Fatalf("rated %d times", calls)
	}
	lb, _ := s.Leaderboard("standard")
	if len(lb) != 2 || lb[0].User != "a" || lb[1].R != -10 {
		t.Fatalf("leaderboard %+v", lb)
	}
	if rs, _ := s.UserRatings("b"); len(rs) != 1 || rs[0].Losses != 1 {
		t.Fatalf("user ratings %+v", rs)
	}
}
