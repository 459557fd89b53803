package bot

import (
	"fmt"
	"strings"
	"testing"
)

// The caps hold however many requests arrive at once: each is counted
// inside the write that would pass it.
func TestChallengeCapUnderConcurrency(t *testing.T) {
	h := newHarness(t, Limits{CommandsPer10s: 1 << 20})
	var cmds []Command
	for i := range 30 {
		cmds = append(cmds, h.command("alice", fmt.Sprintf("/challenge @p%d", i)))
	}
	made, capped := 0, 0
	for _, r := range race(h, cmds...) {
		switch {
		case len(r) == 1 && !r[0].Error:
			made++
		case len(r) == 1 && r[0].Error && strings.Contains(r[0].Text, "open challenges (the limit)"):
			capped++
		default:
			t.Fatalf("unexpected replies %s", dump(r))
		}
	}
	mine, err := h.store.UserChallenges(testUser("alice").ID, h.clock())
	if err != nil {
		t.Fatal(err)
	}
	if made != DefaultLimits.OpenChallenges || capped != len(cmds)-made || len(mine) != made {
		t.Fatalf("%d challenges made (%d stored), %d refused; the cap is %d", made, len(mine), capped, DefaultLimits.OpenChallenges)
	}
}

func TestGameCapUnderConcurrency(t *testing.T) {
	const limit = 20
	h := newHarness(t, Limits{CommandsPer10s: 1 << 20, OpenChallenges: 100, ActiveGames: limit})
	// 40 players challenge alice; she accepts them all at once.
	var accepts []Command
	for i := range 40 {
		p := fmt.Sprintf("p%d", i)
		h.ok(p, "/challenge @alice")
		accepts = append(accepts, h.command("alice", fmt.Sprintf("/accept c%d", i+1)))
	}
	won := 0
	for _, r := range race(h, accepts...) {
		switch {
		case len(r) == 1 && !r[0].Error:
			won++
		case len(r) == 1 && r[0].Error && strings.Contains(r[0].Text, "games already (the limit)"):
		default:
			t.Fatalf("unexpected replies %s", dump(r))
		}
	}
	n, err := h.store.ActiveCount(testUser("alice").ID)
	if err != nil {
		t.Fatal(err)
	}
	if won != limit || n != limit {
		t.Fatalf("%d accepts won, alice plays %d games; the cap is %d", won, n, limit)
	}
	// The challenger's side of the cap, and games against the computer.
	h.refused("alice", "/challenge bot", "games already (the limit)")
	h.refused("alice", "/challenge @zed", "games already (the limit)")
	h.ok("zed", "/challenge @alice")
	h.refused("alice", "/accept c41", "games already (the limit)")
}
