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
		{"--games", "x", "--labels", "z", "-o", "y"},
		{"--label", "stockfish", "--games", "x"},
		{"--label", "/nonexistent/engine", "--games", "x", "--labels", "/nonexistent/dir/z"},
	} {
		var out, errb bytes.Buffer
		if code := run(append([]string{"tune"}, args...), nil, &out, &errb); code == 0 || errb.Len() == 0 {
			t.Errorf("tune %v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

// tune --label has a UCI engine (here topochess uci itself) score the quiet
// positions of recorded games, from White's side, and tune --labels fits
// weights to those scores.
func TestLabelAndTune(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join(dir, "games.jsonl")
	// 1. e4 e5 2. Nf3 Qh4 3. Nxh4 Nc6: after 2…Qh4 White wins the queen at
	// once (not quiet); after 3. Nxh4, with Black to move, White is a
	// queen up.
	rec, _ := json.Marshal(gameRecord{Variant: "standard", Result: "1-0", Reason: "adjudicated",
		Moves: []string{"e2-e4", "e7-e5", "g1-f3", "d8-h4", "f3-h4", "b8-c6"}})
	if err := os.WriteFile(games, append(rec, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	labels := filepath.Join(dir, "labels.jsonl")
	var out, errb bytes.Buffer
	if code := run([]string{"tune", "--games", games, "--skip", "0", "--label", servingBinary(t) + " uci",
		"--label-go", "depth 3", "--labels", labels, "--label-jobs", "2"}, nil, &out, &errb); code != 0 {
		t.Fatalf("tune --label: exit %d: %s", code, errb.String())
	}
	data, err := os.ReadFile(labels)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := engine.GetVariant("standard")
	byPos := map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r labelRecord
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if _, err := v.ParsePosition(r.Position); err != nil || r.Variant != "standard" || r.Game != 0 {
			t.Fatalf("label %+v: %v", r, err)
		}
		byPos[r.Position] = r.CP
	}
	// The six positions before a move, less the one after 2…Qh4.
	p := v.StartPosition()
	var want []string
	for i, s := range []string{"e2-e4", "e7-e5", "g1-f3", "d8-h4", "f3-h4", "b8-c6"} {
		if i != 4 {
			want = append(want, p.String())
		}
		m, _ := p.ParseCanonical(s)
		p.Make(m)
	}
	if len(byPos) != len(want) {
		t.Fatalf("%d labels, want %d:\n%s", len(byPos), len(want), data)
	}
	for i, s := range want {
		cp, ok := byPos[s]
		switch {
		case !ok:
			t.Fatalf("no label for %s:\n%s", s, data)
		case i == 4 && cp < 500:
			t.Errorf("a queen up for White, Black to move: label %d, want White far ahead", cp)
		case i < 4 && (cp < -150 || cp > 150):
			t.Errorf("%s: label %d, want about level", s, cp)
		}
	}
	w := filepath.Join(dir, "w.json")
	out.Reset()
	if code := run([]string{"tune", "--labels", labels, "-o", w, "--iterations", "20", "--holdout", "0"}, nil, &out, &errb); code != 0 {
		t.Fatalf("tune --labels: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "standard: 1 games, 5 positions") {
		t.Fatalf("tune output:\n%s", out.String())
	}
	// Each file numbers its games from 0; two files are two games.
	out.Reset()
	if code := run([]string{"tune", "--labels", labels + "," + labels, "-o", w, "--iterations", "2", "--holdout", "2"}, nil, &out, &errb); code != 0 {
		t.Fatalf("tune --labels of two files: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "standard: 2 games, 10 positions (5 held out)") {
		t.Fatalf("tune output of two files:\n%s", out.String())
	}
	// A network from the same labels: both files, the second file's game
	// held out, each training position also turned left to right.
	for _, onTerms := range []string{"false", "true"} {
		nf := filepath.Join(dir, "n.net")
		out.Reset()
		if code := run([]string{"tune", "--labels", labels + "," + labels, "--net", "8", "--epochs", "3", "--batch", "4", "--holdout", "2",
			"--turn", "--on-terms=" + onTerms, "-o", nf}, nil, &out, &errb); code != 0 {
			t.Fatalf("tune --net: exit %d: %s", code, errb.String())
		}
		if !strings.Contains(out.String(), "standard: 15 positions (5 held out)") || !strings.Contains(out.String(), "epoch 3:") {
			t.Fatalf("tune --net output:\n%s", out.String())
		}
		data, err := os.ReadFile(nf)
		if err != nil {
			t.Fatal(err)
		}
		n, err := search.ParseNet(data, v)
		if err != nil || n.Hidden != 8 || n.OnTerms != (onTerms == "true") {
			t.Fatalf("the net written: %v", err)
		}
	}
	if code := run([]string{"tune", "--variant", "toroidal", "--labels", labels, "--net", "8", "-o", filepath.Join(dir, "x.net")}, nil, &out, &errb); code == 0 {
		t.Error("tune --net on the torus: exit 0")
	}
	if code := run([]string{"tune", "--labels", labels, "--net", "8"}, nil, &out, &errb); code == 0 {
		t.Error("tune --net without -o: exit 0")
	}
}
