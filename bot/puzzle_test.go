package bot

import (
	"strings"
	"testing"

	"topochess/engine"
	"topochess/engine/puzzle"
)

// givenPuzzle runs /puzzle and returns the puzzle it gave.
func givenPuzzle(t *testing.T, h *harness, user, args string) puzzle.Puzzle {
	t.Helper()
	r := h.ok(user, "/puzzle "+args)
	checkPNG(t, r)
	f := strings.Fields(r.Text)
	if len(f) < 2 || f[0] != "Puzzle" {
		t.Fatalf("puzzle reply %q", r.Text)
	}
	pz, ok := puzzle.Find(f[1])
	if !ok {
		t.Fatalf("unknown puzzle %q", f[1])
	}
	return pz
}

func TestPuzzleSolvedStepByStep(t *testing.T) {
	h := newHarness(t, Limits{CommandsPer10s: 1000})
	for _, vid := range []string{"cube", "moebius", "toroidal", "heisenberg", "chess66"} {
		pz := givenPuzzle(t, h, "alice", vid)
		if pz.Variant != vid {
			t.Fatalf("/puzzle %s gave %s", vid, pz.ID)
		}
		for i := 0; i < len(pz.Line); i += 2 {
			// The first answer as /puzzle <move>, the later ones typed plain.
			line := pz.Line[i]
			if i == 0 {
				line = "/puzzle " + line
			}
			r := h.ok("alice", line)
			checkPNG(t, r)
			last := i+1 == len(pz.Line)
			if last != strings.Contains(r.Text, "solved!") {
				t.Fatalf("%s step %d: %q", pz.ID, i/2+1, r.Text)
			}
			if !last && !strings.Contains(r.Text, "right. The answer:") {
				t.Fatalf("%s step %d: %q", pz.ID, i/2+1, r.Text)
			}
		}
		st, err := h.store.PuzzleStats(vid, "test:alice")
		if err != nil || st.Solved != 1 || st.Streak != 1 || st.R <= 1500 {
			t.Fatalf("%s stats %+v %v", vid, st, err)
		}
	}
}

func TestPuzzleWrongAnswer(t *testing.T) {
	h := newHarness(t, Limits{CommandsPer10s: 1000})
	pz := givenPuzzle(t, h, "bob", "cube")
	pos, err := puzzleAt(pz, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Not a move at all: refused, the puzzle stays open.
	h.refused("bob", "/puzzle zz9", "Puzzle "+pz.ID)
	var wrong string
	for _, mv := range pos.CanonicalMoves() {
		if mv != pz.Line[0] {
			wrong = mv
			break
		}
	}
	r := h.ok("bob", wrong)
	if !strings.Contains(r.Text, "is not it. The solution was") || !strings.Contains(r.Text, "streak 0") || !strings.Contains(r.Text, "1500 → ") {
		t.Fatalf("wrong answer: %q", r.Text)
	}
	st, _ := h.store.PuzzleStats("cube", "test:bob")
	if st.Failed != 1 || st.R >= 1500 {
		t.Fatalf("stats after a wrong answer %+v", st)
	}
	h.refused("bob", "/puzzle "+pz.Line[0], "no open puzzle")
	// The next cube puzzle is another one.
	if next := givenPuzzle(t, h, "bob", "cube"); next.ID == pz.ID {
		t.Fatalf("%s given twice", pz.ID)
	}
	if r := h.ok("bob", "/puzzle giveup"); !strings.Contains(r.Text, "the move was") {
		t.Fatalf("give up: %q", r.Text)
	}
}

// TestPuzzlePlainMoveGoesToGame: a plain move of a player with a game
// here is for the game, not for an open puzzle.
func TestPuzzlePlainMoveGoesToGame(t *testing.T) {
	h := newHarness(t, Limits{CommandsPer10s: 1000})
	givenPuzzle(t, h, "alice", "standard")
	h.startGame("standard")
	if r := h.ok("alice", "e2e4"); !strings.HasPrefix(r.Text, "#1 · 1. e4") {
		t.Fatalf("plain move: %q", r.Text)
	}
}

// TestPuzzleUnknownBoard: a board that does not exist is named as such,
// whether a puzzle is open or not, and changes nothing.
func TestPuzzleUnknownBoard(t *testing.T) {
	h := newHarness(t, Limits{CommandsPer10s: 1000})
	h.refused("alice", "/puzzle variant:xyz", `I don't know the variant "xyz"`)
	h.refused("alice", "/puzzle nonsense", `You have no open puzzle here to answer, and "nonsense" is no board I know.`)
	// With a puzzle open, the word is taken for an answer and refused.
	pz := givenPuzzle(t, h, "alice", "toroidal")
	h.refused("alice", "/puzzle variant:xyz", "Puzzle "+pz.ID)
	h.refused("alice", "/puzzle nonsense", "Puzzle "+pz.ID)
	st, open, err := h.store.OpenPuzzle("test:alice", "test:chan")
	if !open || err != nil || st.Puzzle != pz.ID || st.Step != 0 {
		t.Fatalf("open puzzle %+v %v %v", st, open, err)
	}
	if ps, _ := h.store.PuzzleStats("toroidal", "test:alice"); ps.Failed != 0 || len(ps.Tried) != 1 {
		t.Fatalf("stats %+v", ps)
	}
}

// TestEveryStockPuzzleAccepted: the shipped solution of every puzzle of
// every board is accepted move by move, and once a player has had them
// all the board says so.
func TestEveryStockPuzzleAccepted(t *testing.T) {
	h := newHarness(t, Limits{CommandsPer10s: 100000})
	for _, vid := range engine.Variants() {
		ps, err := puzzle.Stock(vid)
		if err != nil || len(ps) == 0 {
			t.Fatalf("%s: %d puzzles, %v", vid, len(ps), err)
		}
		for range ps {
			pz := givenPuzzle(t, h, "alice", vid)
			for i := 0; i < len(pz.Line); i += 2 {
				r := h.ok("alice", "/puzzle "+pz.Line[i])
				if last := i+1 == len(pz.Line); last != strings.Contains(r.Text, "solved!") {
					t.Fatalf("%s step %d: %q", pz.ID, i/2+1, r.Text)
				}
			}
		}
		st, _ := h.store.PuzzleStats(vid, "test:alice")
		if st.Solved != len(ps) || st.Streak != len(ps) {
			t.Errorf("%s: %+v after solving all %d", vid, st, len(ps))
		}
		h.refused("alice", "/puzzle "+vid, "You have tried all")
	}
}
