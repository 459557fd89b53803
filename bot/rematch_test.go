package bot

import (
	"strings"
	"testing"
)

func buttonOf(t *testing.T, r Reply, label string) Button {
	t.Helper()
	for _, b := range r.Buttons {
		if b.Label == label {
			return b
		}
	}
	t.Fatalf("no button %q in %s", label, dump([]Reply{r}))
	return Button{}
}

// TestRematchBetweenPeople: the Rematch button under a finished game
// challenges the other player to the same game with colours swapped; one
// press (Accept, or Rematch back) starts it.
func TestRematchBetweenPeople(t *testing.T) {
	h := newHarness(t, Limits{})
	h.ok("alice", "/challenge @bob moebius white time:5+3 rated:false")
	h.ok("bob", "/accept")
	end := h.ok("bob", "/resign")
	rematch := buttonOf(t, end, "Rematch")
	buttonOf(t, end, "Review")

	rs := h.press("carol", rematch)
	if len(rs) != 1 || !rs[0].Error || !strings.Contains(rs[0].Text, "Only alice and bob") {
		t.Fatalf("carol's rematch: %s", dump(rs))
	}
	rs = h.press("bob", rematch)
	if len(rs) != 1 || rs[0].Error || !strings.HasPrefix(rs[0].Text, "Rematch of #1: @bob challenges @alice") || !strings.Contains(rs[0].Text, "bob plays White, 5 min each + 3 s per move, unrated") {
		t.Fatalf("bob's rematch: %s", dump(rs))
	}
	if rs := h.press("bob", rematch); len(rs) != 1 || !rs[0].Error || !strings.Contains(rs[0].Text, "already asked") {
		t.Fatalf("bob's second rematch: %s", dump(rs))
	}
	// Alice asks back: that accepts bob's.
	rs = h.press("alice", rematch)
	if len(rs) != 1 || rs[0].Error || !strings.HasPrefix(rs[0].Text, "Game #2 begins: Möbius chess, a rematch of #1. bob (White) vs alice (Black).") {
		t.Fatalf("alice's rematch: %s", dump(rs))
	}
	g := h.game("#2")
	if g.Variant != "moebius" || g.Rated || g.Clock == nil || g.Clock.Control != "5+3" || g.White.Name != "bob" {
		t.Fatalf("rematch game %+v", g)
	}
	// A rematch of a rated game is rated, and Accept is one press.
	h.ok("alice", "/resign")
	r := h.ok("alice", "/rematch #2")
	rs = h.press("bob", buttonOf(t, r, "Accept"))
	if len(rs) != 1 || rs[0].Error || !strings.Contains(rs[0].Text, "alice (White) vs bob (Black)") {
		t.Fatalf("bob accepting the rematch: %s", dump(rs))
	}
	h.refused("alice", "/rematch #3", "still being played")
}

// TestRematchAgainstTheComputer starts at once with colours swapped, at
// the same level.
func TestRematchAgainstTheComputer(t *testing.T) {
	bh := newBotHarness(t, BotConfig{Level: budgetLevels, Seed: 1})
	id := bh.startBotGame("alice", "level:2 white")
	end := bh.ok("alice", "/resign")
	r := bh.press("alice", buttonOf(t, end, "Rematch"))[0]
	if !strings.HasPrefix(r.Text, "Rematch of "+id+": Game #2 begins: Standard chess against the computer at level 2") || !strings.Contains(r.Text, "topochess (level 2) (White) vs alice (Black)") {
		t.Fatalf("rematch: %q", r.Text)
	}
	if got := bh.settle(); len(got) != 1 || len(bh.game("#2").Moves) != 1 {
		t.Fatalf("the computer did not open the rematch: %s", dump(got))
	}
}
