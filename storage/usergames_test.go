package storage

import "testing"

func suiteUserActiveGames(t *testing.T, open opener) {
	s := open(t)
	// "bot" plays in two channels; "bot2" shares its prefix and must not
	// be listed with it; one of bot's games ends.
	gs := []*Game{
		newGame("alice", "bot", "ch1"),
		newGame("bot", "bob", "ch2"),
		newGame("carol", "bot2", "ch1"),
		newGame("bot", "dave", "ch1"),
	}
	if err := s.ImportGames(gs, t0); err != nil {
		t.Fatal(err)
	}
	gs[3].Result, gs[3].Reason = "1-0", "resignation"
	if err := s.SaveGame(gs[3], "", t0); err != nil {
		t.Fatal(err)
	}
	got, err := s.UserActiveGames("bot")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, g := range got {
		ids = append(ids, g.ID)
	}
	// Creation order, finished and other users' games left out.
	if len(ids) != 2 || ids[0] != gs[0].ID || ids[1] != gs[1].ID {
		t.Errorf("UserActiveGames(bot) = %v, want [%s %s]", ids, gs[0].ID, gs[1].ID)
	}
	if got, _ := s.UserActiveGames("nobody"); len(got) != 0 {
		t.Errorf("UserActiveGames(nobody) = %d games", len(got))
	}
}
