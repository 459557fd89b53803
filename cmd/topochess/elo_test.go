package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeMatch writes arena -v style lines: wins, draws and losses of level
// 5 against an engine at UCI_Elo elo, colours alternating.
func writeMatch(t *testing.T, dir string, elo, w, d, l int, budgetFirst bool) string {
	var b strings.Builder
	if budgetFirst {
		fmt.Fprintf(&b, "### match: --uci-option UCI_Elo=%d\n", elo)
	}
	n := 0
	line := func(res string) {
		n++
		if n%2 == 1 {
			fmt.Fprintf(&b, "game %d: level 5 (White) vs Stockfish 15.1 (Black): %s by adjudicated after 40 moves\n", n, res)
			return
		}
		flip := map[string]string{"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1/2-1/2"}[res]
		fmt.Fprintf(&b, "game %d: Stockfish 15.1 (White) vs level 5 (Black): %s by adjudicated after 40 moves\n", n, flip)
	}
	for range w {
		line("1-0")
	}
	for range d {
		line("1/2-1/2")
	}
	for range l {
		line("0-1")
	}
	if !budgetFirst {
		fmt.Fprintf(&b, "  Stockfish 15.1 budget: uci 2s a move, UCI_LimitStrength=true, UCI_Elo=%d\n", elo)
	}
	p := filepath.Join(dir, fmt.Sprintf("m%d-%d%d%d.log", elo, w, d, l))
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// runElo runs the elo command on these files and returns its output.
func runElo(t *testing.T, files ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(append([]string{"elo"}, files...), nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	return out.String()
}

func eloOf(t *testing.T, out, player string) (elo, lo, hi float64) {
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, player+" ") {
			continue
		}
		var los, his string
		rest := line[strings.Index(line, "Elo"):]
		if _, err := fmt.Sscanf(rest, "Elo %f 95%% %s to %s", &elo, &los, &his); err != nil {
			t.Fatalf("bad line %q: %v", line, err)
		}
		parse := func(s string) float64 {
			switch s {
			case "-inf":
				return math.Inf(-1)
			case "+inf":
				return math.Inf(1)
			}
			var x float64
			fmt.Sscanf(s, "%f", &x)
			return x
		}
		return elo, parse(los), parse(his)
	}
	t.Fatalf("no line for %s in:\n%s", player, out)
	return
}

// The fit gives what the logistic model says for a single match, and
// combines matches against two anchors.
func TestElo(t *testing.T) {
	dir := t.TempDir()
	run1 := func(files ...string) string { return runElo(t, files...) }
	// 15 of 20 against 2000: 2000 + 400·log10(3) ≈ 2191.
	out := run1(writeMatch(t, dir, 2000, 15, 0, 5, false))
	elo, lo, hi := eloOf(t, out, "level 5")
	if math.Abs(elo-2000-400*math.Log10(3)) > 2 || !(lo < elo && elo < hi) || hi-lo < 200 {
		t.Fatalf("15/20 against 2000: %v (%v to %v)\n%s", elo, lo, hi, out)
	}
	// 50 % against 2200 and 50 % against 1800, with the anchor in a note
	// before the games: 2000, and a narrower interval than one match.
	out = run1(writeMatch(t, dir, 2200, 10, 0, 10, true), writeMatch(t, dir, 1800, 5, 10, 5, false))
	elo2, lo2, hi2 := eloOf(t, out, "level 5")
	if math.Abs(elo2-2000) > 2 || hi2-lo2 >= hi-lo {
		t.Fatalf("two matches: %v (%v to %v)\n%s", elo2, lo2, hi2, out)
	}
	if !strings.Contains(out, "Stockfish 15.1@2200") || !strings.Contains(out, "Stockfish 15.1@1800") {
		t.Fatalf("anchors not named:\n%s", out)
	}
	// All won: no upper bound, and no estimate but a lower bound.
	out = run1(writeMatch(t, dir, 1500, 6, 0, 0, false))
	if !strings.Contains(out, "level 5              Elo above ") || !strings.Contains(out, " to +inf") {
		t.Fatalf("6/6: want a lower bound only\n%s", out)
	}
}

// A player who lost every game to a rated player has an upper bound only,
// and a finite one, below the rating of the player it lost to.
func TestEloLostEverything(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 10 {
		fmt.Fprintf(&b, "game %d: level 2 (White) vs level 1 (Black): 1-0 by checkmate after 30 moves\n", i+1)
	}
	p := filepath.Join(dir, "h2h.log")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// Level 2 (in writeMatch's lines "level 5") is held at 1500 by an
	// even match; name it level 2 there.
	m := writeMatch(t, dir, 1500, 10, 0, 10, false)
	raw, _ := os.ReadFile(m)
	os.WriteFile(m, []byte(strings.ReplaceAll(string(raw), "level 5", "level 2")), 0o644)
	out := runElo(t, p, m)
	var hi float64
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "level 1 ") {
			if _, err := fmt.Sscanf(line[strings.Index(line, "Elo"):], "Elo below %f", &hi); err != nil {
				t.Fatalf("level 1: want an upper bound only, got %q", line)
			}
		}
	}
	if !(hi > 0 && hi < 1500) {
		t.Fatalf("level 1's upper bound %v, want a finite bound below 1500\n%s", hi, out)
	}
}

func TestEloBadInput(t *testing.T) {
	dir := t.TempDir()
	noAnchor := filepath.Join(dir, "self.log")
	os.WriteFile(noAnchor, []byte("game 1: level 5 (White) vs level 3 (Black): 1-0 by checkmate after 30 moves\n"), 0o644)
	unlimited := filepath.Join(dir, "full.log")
	os.WriteFile(unlimited, []byte("### UCI_LimitStrength=false UCI_Elo=2000\ngame 1: level 5 (White) vs Stockfish 15.1 (Black): 0-1 by checkmate after 30 moves\n"), 0o644)
	for _, args := range [][]string{{}, {"/nonexistent/x.log"}, {noAnchor}, {unlimited}} {
		var out, errb bytes.Buffer
		if code := run(append([]string{"elo"}, args...), nil, &out, &errb); code == 0 || errb.Len() == 0 {
			t.Errorf("elo %v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

// spreadOf reads the "by spread" interval of a player's line.
func spreadOf(t *testing.T, out, player string) (lo, hi float64, ok bool) {
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, player+" ") {
			continue
		}
		i := strings.Index(line, "by spread ")
		if i < 0 {
			return 0, 0, false
		}
		if _, err := fmt.Sscanf(line[i:], "by spread %f to %f", &lo, &hi); err != nil {
			t.Fatalf("bad line %q: %v", line, err)
		}
		return lo, hi, true
	}
	t.Fatalf("no line for %s in:\n%s", player, out)
	return
}

// The spread interval of one match against an anchor comes close to the
// normal interval from the games' own spread (arena's result line), narrower
// than the likelihood's when there are draws and the same without.
func TestEloSpread(t *testing.T) {
	dir := t.TempDir()
	elo1 := func(files ...string) string { return runElo(t, files...) }
	// normal is the 95 % normal interval of a match score with this
	// record, on the Elo scale, relative to the anchor.
	normal := func(w, d, l int) (lo, hi float64) {
		n := float64(w + d + l)
		s := (float64(w) + 0.5*float64(d)) / n
		v := (float64(w)*(1-s)*(1-s) + float64(d)*(0.5-s)*(0.5-s) + float64(l)*s*s) / n
		se := math.Sqrt(v / n)
		return eloFromScore(s - 1.96*se), eloFromScore(s + 1.96*se)
	}
	for _, c := range []struct{ w, d, l int }{{60, 80, 60}, {100, 0, 100}, {50, 100, 70}, {30, 20, 10}} {
		out := elo1(writeMatch(t, dir, 2400, c.w, c.d, c.l, false))
		_, lo, hi := eloOf(t, out, "level 5")
		slo, shi, ok := spreadOf(t, out, "level 5")
		if !ok {
			t.Fatalf("%v: no spread interval\n%s", c, out)
		}
		nlo, nhi := normal(c.w, c.d, c.l)
		// The profile likelihood's ends and the normal interval's
		// mapped to Elo are asymmetric in different ways, but close
		// for this many games: within 5 % of the width.
		tol := max(4, 0.05*(nhi-nlo))
		if math.Abs(slo-2400-nlo) > tol || math.Abs(shi-2400-nhi) > tol {
			t.Errorf("%v: by spread %.0f to %.0f, normal interval %.0f to %.0f\n%s", c, slo, shi, 2400+nlo, 2400+nhi, out)
		}
		if c.d == 0 {
			if math.Abs(slo-lo) > 4 || math.Abs(shi-hi) > 4 {
				t.Errorf("%v: no draws, yet by spread %.0f to %.0f and likelihood %.0f to %.0f", c, slo, shi, lo, hi)
			}
		} else if shi-slo >= hi-lo-10 {
			t.Errorf("%v: draws, yet by spread %.0f to %.0f not narrower than %.0f to %.0f", c, slo, shi, lo, hi)
		}
	}
	// No finite estimate: no spread interval either.
	out := elo1(writeMatch(t, dir, 1500, 6, 0, 0, false))
	if _, _, ok := spreadOf(t, out, "level 5"); ok {
		t.Fatalf("6/6: a spread interval without an estimate\n%s", out)
	}
}
