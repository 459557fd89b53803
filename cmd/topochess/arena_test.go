package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"topochess/engine"
)

func TestArena(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"arena", "--variant", "standard", "--white", "3", "--black", "1", "--games", "2", "--alternate", "--nodes", "300", "--max-moves", "15"}, nil, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	s := out.String()
	for _, want := range []string{"standard: level 3 vs level 1, 2 games, colours alternate", "level 3 budget: 300 nodes", "illegal", "endings:"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	// Each player's wins, draws and losses add up to the games played, with
	// no illegal move and no crash.
	rows := 0
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		if !strings.HasPrefix(line, "level ") || len(f) < 8 {
			continue // the budget lines are indented
		}
		rows++
		total := 0
		for _, x := range f[2:5] {
			n, err := strconv.Atoi(x)
			if err != nil {
				t.Fatalf("bad row %q", line)
			}
			total += n
		}
		if total != 2 {
			t.Errorf("results do not add up to 2 games: %q", line)
		}
		if f[6] != "0" || f[7] != "0" {
			t.Errorf("illegal moves or crashes: %q", line)
		}
	}
	if rows != 2 {
		t.Errorf("%d player rows, want 2:\n%s", rows, s)
	}
}

// --threads gives player A more search threads: its nodes a move count
// every thread's, so they pass the first thread's node budget, which
// player B (one thread) never does.
func TestArenaThreads(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"arena", "--white", "5", "--black", "5", "--threads", "2", "--hash", "4", "--games", "1", "--nodes", "3000", "--max-moves", "4"}, nil, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	perMove := map[string]int{}
	for _, line := range strings.Split(out.String(), "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || f[0] != "level" || strings.Contains(line, "budget") {
			continue
		}
		n, err := strconv.Atoi(f[len(f)-2])
		if err != nil {
			t.Fatalf("bad row %q", line)
		}
		perMove[f[len(f)-9]] = n
	}
	if a, b := perMove["(A)"], perMove["(B)"]; a <= 3000 || b == 0 || b > 3000 {
		t.Errorf("nodes a move: A (2 threads) %d, B %d; want A over the 3000-node budget, B within it:\n%s", a, b, out.String())
	}
}

func TestArenaBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"--variant", "nope"},
		{"--white", "9"},
		{"--games", "0"},
		{"--nodes", "-5"},
		{"--threads", "0"},
		{"--hash", "-1"},
		{"extra"},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"arena"}, args...), nil, &out, &errb)
		if code == 0 || !strings.HasPrefix(errb.String(), "topochess arena: ") || strings.Count(errb.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

func TestArenaOpenings(t *testing.T) {
	v, err := engine.GetVariant("standard")
	if err != nil {
		t.Fatal(err)
	}
	line := func(seed, pair uint64) string {
		g, err := engine.NewGame(v, "")
		if err != nil {
			t.Fatal(err)
		}
		playOpening(g, 6, seed, pair)
		if len(g.Moves) != 6 {
			t.Fatalf("opening of %d plies, want 6: %v", len(g.Moves), g.Moves)
		}
		return strings.Join(g.Moves, " ")
	}
	if a, b := line(1, 3), line(1, 3); a != b {
		t.Errorf("the same pair got two openings: %q and %q", a, b)
	}
	seen := map[string]bool{}
	for pair := range uint64(10) {
		seen[line(1, pair)] = true
	}
	if len(seen) < 9 {
		t.Errorf("10 pairs got only %d openings", len(seen))
	}
}

func TestArenaAdjudicator(t *testing.T) {
	var a adjudicator
	white, black := engine.White, engine.Black
	// White's own +600, then Black's -700 (Black sees White ahead), twice.
	plies := []struct {
		score int
		mover engine.Color
	}{{600, white}, {-700, black}, {650, white}, {-mateCP, black}}
	for i, p := range plies {
		w, done := a.note(arenaStats{score: p.score, scored: true}, p.mover, 500)
		if done != (i == 3) || (done && w != white) {
			t.Fatalf("ply %d: winner %v, decided %v", i, w, done)
		}
	}
	// A score below the margin, or none, restarts the count.
	a = adjudicator{}
	for _, st := range []arenaStats{{score: 900, scored: true}, {score: -900, scored: true}, {score: 100, scored: true}, {score: -900, scored: true}, {score: 900}} {
		if _, done := a.note(st, white, 500); done {
			t.Fatalf("decided on %+v", st)
		}
	}
	if _, done := a.note(arenaStats{score: 900, scored: true}, white, 0); done {
		t.Error("adjudicated with the margin off")
	}
}
