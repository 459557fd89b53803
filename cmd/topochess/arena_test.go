package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
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

func TestArenaBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"--variant", "nope"},
		{"--white", "9"},
		{"--games", "0"},
		{"--nodes", "-5"},
		{"extra"},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"arena"}, args...), nil, &out, &errb)
		if code == 0 || !strings.HasPrefix(errb.String(), "topochess arena: ") || strings.Count(errb.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}
