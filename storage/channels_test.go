package storage

import (
	"testing"
	"time"
)

func suiteMoveChannel(t *testing.T, open opener) {
	s := open(t)
	gs := []*Game{
		newGame("alice", "bob", "tg:old"),   // active
		newGame("carol", "alice", "tg:old"), // finished below
		newGame("alice", "bob", "tg:other"), // another chat: stays
	}
	for _, g := range gs {
		g.Server = g.Channel // a Telegram group is its own server
	}
	if err := s.ImportGames(gs, t0); err != nil {
		t.Fatal(err)
	}
	gs[1].Result, gs[1].Reason = "0-1", "resignation"
	if err := s.SaveGame(gs[1], "", t0); err != nil {
		t.Fatal(err)
	}
	ch := &Challenge{Channel: "tg:old", From: Player{ID: "bob"}, Variant: "standard", Color: "white", Created: t0, Expires: t0.Add(time.Hour)}
	if err := s.CreateChallenge(ch, "", t0, Caps{}); err != nil {
		t.Fatal(err)
	}
	// The old chat follows a game of another chat (and a third chat
	// follows the same game).
	for _, ch := range []string{"tg:old", "tg:third"} {
		if err := s.AddFollow(Follow{Game: gs[2].ID, Channel: ch, By: "bob", Since: t0}, "", t0); err != nil {
			t.Fatal(err)
		}
	}
	stale := *gs[0] // loaded before the move

	games, chals, err := s.MoveChannel("tg:old", "tg:new")
	if err != nil || games != 2 || chals != 1 {
		t.Fatalf("MoveChannel = %d games, %d challenges, %v; want 2, 1", games, chals, err)
	}
	count := func(what string, n int, err error, want int) {
		t.Helper()
		if err != nil || n != want {
			t.Errorf("%s: %d (%v), want %d", what, n, err, want)
		}
	}
	act, err := s.ActiveGames("alice", "tg:new")
	count("alice's active games in the new chat", len(act), err, 1)
	act, err = s.ActiveGames("alice", "tg:old")
	count("alice's active games in the old chat", len(act), err, 0)
	act, err = s.ChannelGames("tg:new")
	count("active games in the new chat", len(act), err, 1)
	act, err = s.ChannelGames("tg:old")
	count("active games in the old chat", len(act), err, 0)
	fin, err := s.FinishedGames("tg:new", "", 10)
	count("finished games in the new chat", len(fin), err, 1)
	fin, err = s.FinishedGames("tg:old", "", 10)
	count("finished games in the old chat", len(fin), err, 0)
	fin, err = s.FinishedGames("tg:new", "carol", 10)
	count("carol's finished games in the new chat", len(fin), err, 1)
	cs, err := s.ChannelChallenges("tg:new", t0)
	count("challenges in the new chat", len(cs), err, 1)
	cs, err = s.ChannelChallenges("tg:old", t0)
	count("challenges in the old chat", len(cs), err, 0)
	if g, _ := s.Game(gs[2].ID); g.Channel != "tg:other" {
		t.Errorf("a game of another chat moved to %s", g.Channel)
	}
	if g, _ := s.Game(gs[0].ID); g.Channel != "tg:new" || g.Server != "tg:new" {
		t.Errorf("a moved game is in %s on server %s", g.Channel, g.Server)
	}
	if g, _ := s.Game(gs[2].ID); g.Server != "tg:other" {
		t.Errorf("a game of another chat moved to server %s", g.Server)
	}
	if c, _ := s.Challenge(ch.ID); c.Channel != "tg:new" {
		t.Errorf("the challenge is in %s", c.Channel)
	}
	fs, err := s.Follows(gs[2].ID)
	if err != nil || len(fs) != 2 || fs[0].Channel != "tg:new" || fs[1].Channel != "tg:third" {
		t.Errorf("follows after the move: %+v %v, want tg:new and tg:third", fs, err)
	}
	if found, _ := s.RemoveFollow(gs[2].ID, "tg:old", "", t0); found {
		t.Error("the old chat still follows the game")
	}
	// A copy from before the move cannot be saved over it.
	stale.Moves = []string{"e2-e4"}
	if err := s.SaveGame(&stale, "", t0); err == nil {
		t.Error("a game loaded before the move was saved over it")
	}
	// The second notice of the same upgrade moves nothing.
	if g, c, err := s.MoveChannel("tg:old", "tg:new"); g != 0 || c != 0 || err != nil {
		t.Errorf("moved again: %d, %d, %v", g, c, err)
	}
	if _, _, err := s.MoveChannel("tg:new", "tg:new"); err == nil {
		t.Error("a move onto itself was accepted")
	}
}
