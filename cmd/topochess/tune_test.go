package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"topochess/engine"
	"topochess/engine/search"
)

// arena --record writes every game as a line that replays legally to its
// recorded ending, and tune learns a weight file from such lines that the
// search can load.
func TestRecordAndTune(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join(dir, "games.jsonl")
	var out, errb bytes.Buffer
	if code := run([]string{"arena", "--variant", "toroidal", "--white", "3", "--black", "3", "--games", "6", "--nodes", "400",
		"--openings", "4", "--max-moves", "40", "--record", games, "--seed", "9"}, nil, &out, &errb); code != 0 {
		t.Fatalf("arena: exit %d: %s", code, errb.String())
	}
	f, err := os.Open(games)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, _ := engine.GetVariant("toroidal")
	lines := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines++
		var g gameRecord
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatal(err)
		}
		if g.Variant != "toroidal" || g.Openings != 4 || len(g.Moves) < 4 {
			t.Fatalf("record %+v", g)
		}
		game, _ := engine.NewGame(v, "")
		for _, m := range g.Moves {
			mv, err := game.Position().ParseCanonical(m)
			if err == nil {
				err = game.Play(mv)
			}
			if err != nil {
				t.Fatalf("game %d: %s: %v", lines, m, err)
			}
		}
		// A game still running at the end of the moves was adjudicated or
		// hit the move limit; one that is over must have the same result.
		if game.Over() && string(game.Result) != g.Result {
			t.Fatalf("game %d: replay ends %s, record says %s", lines, game.Result, g.Result)
		}
		if !game.Over() && g.Reason != "adjudicated" && g.Reason != "move limit" {
			t.Fatalf("game %d: unfinished replay but reason %q", lines, g.Reason)
		}
	}
	if lines != 6 {
		t.Fatalf("%d records, want 6", lines)
	}

	w := filepath.Join(dir, "w.json")
	out.Reset()
	if code := run([]string{"tune", "--variant", "toroidal", "--games", games, "-o", w, "--iterations", "50", "--skip", "0"}, nil, &out, &errb); code != 0 {
		t.Fatalf("tune: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "toroidal: 6 games") {
		t.Fatalf("tune output:\n%s", out.String())
	}
	data, err := os.ReadFile(w)
	if err != nil {
		t.Fatal(err)
	}
	var wf search.WeightFile
	if err := json.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	if wf.Variant != "toroidal" || wf.Games != 6 || wf.Positions == 0 || len(wf.Weights) != len(search.DefaultWeights(v)) {
		t.Fatalf("weight file: variant %q, %d games, %d positions, %d weights", wf.Variant, wf.Games, wf.Positions, len(wf.Weights))
	}
	if wf.LossEnd >= wf.LossStart {
		t.Fatalf("fit did not lower the loss: %v → %v", wf.LossStart, wf.LossEnd)
	}
}

func TestTuneBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"--variant", "nope", "--games", "x", "-o", "y"},
		{"--games", "x"},
		{"--games", "/nonexistent/games.jsonl", "-o", "y"},
		{"--games", "x", "-o", "y", "--iterations", "0"},
	} {
		var out, errb bytes.Buffer
		if code := run(append([]string{"tune"}, args...), nil, &out, &errb); code == 0 || errb.Len() == 0 {
			t.Errorf("tune %v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}
