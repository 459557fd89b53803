package bot

import (
	"strings"
	"testing"
)

// botGameAt starts a game against the computer (alice White, the bot
// Black at level 1) and puts it into a position of the test's choosing.
func botGameAt(t *testing.T, bh *botHarness, position string) string {
	t.Helper()
	id := bh.startBotGame("alice", "white level:1")
	rec := bh.game(id)
	rec.Start, rec.Moves = position, nil
	if err := bh.store.SaveGame(rec, "", t0); err != nil {
		t.Fatal(err)
	}
	return id
}

func TestBotDrawOffers(t *testing.T) {
	for _, tc := range []struct {
		name, position string
		accept         bool
		why            string
	}{
		{"dead drawn", "w Ke1,Bc1,ke8,nb8 - - 0 1", true, "neither side can force mate"},
		{"bare king against a knight", "w Ke1,ke8,nb8 - - 0 1", true, "neither side can force mate"},
		{"the computer wins", "w Ke1,ke8,qd8,rh8 - - 0 1", false, "better"},
		{"the computer is mated", "w Ka1,Qa6,Rh7,kd8 - - 0 1", false, "for you"},
		{"level with play left", "", false, "still a game to win"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bh := newBotHarness(t, BotConfig{Level: budgetLevels, Seed: 1})
			id := botGameAt(t, bh, tc.position)
			r := bh.ok("alice", "/draw")
			if !strings.Contains(r.Text, tc.why) {
				t.Errorf("the answer does not say why (%q): %q", tc.why, r.Text)
			}
			rec := bh.game(id)
			if tc.accept {
				if !strings.Contains(r.Text, "accepts the draw") || rec.Result != "1/2-1/2" || rec.Reason != "agreement" || r.Image == nil {
					t.Fatalf("not accepted: %q, result %q %q", r.Text, rec.Result, rec.Reason)
				}
				bh.refused("alice", "/draw", "")
				return
			}
			if !strings.Contains(r.Text, "declines the draw") || !rec.Active() || rec.DrawOffer != "" {
				t.Fatalf("not declined: %q, %+v", r.Text, rec)
			}
			// Declining changes nothing: the game goes on with a move.
			if len(bh.settle()) != 0 {
				t.Error("the bot moved without its turn")
			}
		})
	}
}
