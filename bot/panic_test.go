package bot

import (
	"slices"
	"strings"
	"testing"

	"topochess/engine"
)

// A panic while a game is locked is answered with "nothing was changed";
// that must also hold for the in-memory copy of the game, or the next
// command plays on a position the storage never had.
func TestPanicLeavesNoHalfChangedGame(t *testing.T) {
	h := newHarness(t, Limits{})
	h.cfg.Explain = func(pos *engine.Position, input string, me *engine.MoveError) (Explanation, bool) {
		// Stands for any code that panics half-way through changing the
		// position it was handed (a Make without its Unmake).
		pos.Make(pos.LegalMoves()[0])
		panic("explainer failed")
	}
	h.svc = New(h.store, h.cfg)
	id := h.startGame("heisenberg")
	rs := h.do("alice", "e2e5")
	if len(rs) != 1 || !rs[0].Error || !strings.Contains(rs[0].Text, "nothing was changed") {
		t.Fatalf("after the panic: %s", dump(rs))
	}
	h.ok("alice", "e2e4")
	if g := h.game(id); !slices.Equal(g.Moves, []string{"e2-e4"}) {
		t.Fatalf("moves %v, want [e2-e4]", g.Moves)
	}
	r := h.ok("bob", "/board")
	if !strings.Contains(r.Text, "1 move(s)") || !strings.Contains(r.Text, "(Black) to move") {
		t.Errorf("board after the panic: %q", r.Text)
	}
}
