package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"topochess/engine"
)

// buildTopochess builds the command into a temporary directory: the UCI
// tests talk to the real binary through pipes, as a GUI does.
func buildTopochess(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "topochess")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

type uciProc struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

func startUCI(t *testing.T, bin string) *uciProc {
	t.Helper()
	cmd := exec.Command(bin, "uci")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &uciProc{t: t, cmd: cmd, in: in, lines: make(chan string, 1024)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	return p
}

func (p *uciProc) send(format string, a ...any) {
	p.t.Helper()
	if _, err := fmt.Fprintf(p.in, format+"\n", a...); err != nil {
		p.t.Fatalf("write: %v", err)
	}
}

// expect reads lines until one starts with prefix, returning it and the
// lines before it; it fails the test after timeout.
func (p *uciProc) expect(prefix string, timeout time.Duration) (string, []string) {
	p.t.Helper()
	var before []string
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				p.t.Fatalf("engine closed its output waiting for %q; got %q", prefix, before)
			}
			if strings.HasPrefix(l, prefix) {
				return l, before
			}
			before = append(before, l)
		case <-deadline:
			p.t.Fatalf("no %q within %v; got %q", prefix, timeout, before)
		}
	}
}

// quiet fails if a line starting with prefix arrives within d.
func (p *uciProc) quiet(prefix string, d time.Duration) {
	p.t.Helper()
	deadline := time.After(d)
	for {
		select {
		case l := <-p.lines:
			if strings.HasPrefix(l, prefix) {
				p.t.Fatalf("unexpected %q", l)
			}
		case <-deadline:
			return
		}
	}
}

// legalBest checks that a bestmove line names a legal move of pos.
func legalBest(t *testing.T, pos *engine.Position, line string) engine.Move {
	t.Helper()
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "bestmove" {
		t.Fatalf("bad bestmove line %q", line)
	}
	m, err := parseUCIMove(pos, f[1])
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	if !isLegalMove(pos, m) {
		t.Fatalf("%s is not in the legal move list", f[1])
	}
	return m
}

func isLegalMove(pos *engine.Position, m engine.Move) bool {
	for _, l := range pos.LegalMoves() {
		if l.Same(m) {
			return true
		}
	}
	return false
}

func TestUCIBinary(t *testing.T) {
	bin := buildTopochess(t)
	t.Run("handshake", func(t *testing.T) {
		p := startUCI(t, bin)
		p.send("uci")
		_, lines := p.expect("uciok", 5*time.Second)
		all := strings.Join(lines, "\n")
		for _, want := range []string{"id name topochess", "id author ", "option name Level type spin default 5 min 1 max 5",
			"option name Hash type spin", "option name Threads type spin"} {
			if !strings.Contains(all, want) {
				t.Errorf("uci answer lacks %q:\n%s", want, all)
			}
		}
		offered := map[string]bool{}
		for _, l := range lines {
			if f := strings.Fields(l); strings.HasPrefix(l, "option name UCI_Variant type combo default standard ") {
				for i := 0; i+1 < len(f); i++ {
					if f[i] == "var" {
						offered[f[i+1]] = true
					}
				}
			}
		}
		for _, id := range engine.Variants() {
			if !offered[id] {
				t.Errorf("UCI_Variant does not offer %s: %q", id, lines)
			}
		}
		if len(offered) != 10 {
			t.Errorf("UCI_Variant offers %d variants, want the ten", len(offered))
		}
		p.send("isready")
		p.expect("readyok", 5*time.Second)
		p.send("quit")
		done := make(chan error)
		go func() { done <- p.cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("quit: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Error("the engine did not exit on quit")
		}
	})
	t.Run("depth4", func(t *testing.T) {
		p := startUCI(t, bin)
		p.send("position startpos moves e2e4")
		p.send("go depth 4")
		best, infos := p.expect("bestmove", 20*time.Second)
		pos := engine.MustVariant("standard").StartPosition()
		pos.Make(mustParse(t, pos, "e2-e4"))
		legalBest(t, pos, best)
		maxDepth := 0
		for _, l := range infos {
			f := strings.Fields(l)
			for _, key := range []string{"depth", "score", "nodes", "nps", "time", "pv"} {
				if !strings.Contains(" "+l+" ", " "+key+" ") {
					t.Errorf("info line lacks %s: %q", key, l)
				}
			}
			if len(f) > 2 && f[1] == "depth" {
				var d int
				fmt.Sscan(f[2], &d)
				maxDepth = max(maxDepth, d)
			}
		}
		if maxDepth != 4 {
			t.Errorf("deepest info depth %d, want 4: %q", maxDepth, infos)
		}
	})
	t.Run("threads2", func(t *testing.T) {
		p := startUCI(t, bin)
		p.send("setoption name Threads value 2")
		p.send("setoption name UCI_Variant value toroidal")
		p.send("position startpos moves e2e4")
		p.send("go movetime 1000")
		best, infos := p.expect("bestmove", 20*time.Second)
		pos := engine.MustVariant("toroidal").StartPosition()
		pos.Make(mustParse(t, pos, "e2-e4"))
		legalBest(t, pos, best)
		var nodes, nps int64
		for _, l := range infos {
			if strings.HasPrefix(l, "info string") {
				t.Errorf("Threads 2 is not a plain search: %q", l)
			}
			f := strings.Fields(l)
			for i := 0; i+1 < len(f); i++ {
				switch f[i] {
				case "nodes":
					nodes, _ = strconv.ParseInt(f[i+1], 10, 64)
				case "nps":
					nps, _ = strconv.ParseInt(f[i+1], 10, 64)
				}
			}
		}
		if nodes <= 0 || nps <= 0 {
			t.Errorf("last info line counts %d nodes, %d nps: %q", nodes, nps, infos)
		}
		t.Logf("2 threads, 1 s: %d nodes, %d nps", nodes, nps)
	})
	t.Run("variants", func(t *testing.T) {
		p := startUCI(t, bin)
		for _, id := range engine.Variants() {
			v := engine.MustVariant(id)
			p.send("setoption name UCI_Variant value %s", id)
			p.send("ucinewgame")
			p.send("position startpos")
			p.send("go nodes 2000")
			best, _ := p.expect("bestmove", 20*time.Second)
			legalBest(t, v.StartPosition(), best)

			// A few plies in, written as the engine writes moves.
			pos := v.StartPosition()
			var moves []string
			for i := 0; i < 5; i++ {
				ms := pos.LegalMoves()
				m := ms[(7*i+3)%len(ms)]
				moves = append(moves, uciMoveText(pos, m))
				pos.Make(m)
			}
			p.send("position startpos moves %s", strings.Join(moves, " "))
			p.send("go depth 2")
			best, _ = p.expect("bestmove", 20*time.Second)
			legalBest(t, pos, best)
		}
	})
	t.Run("infinite-stop", func(t *testing.T) {
		p := startUCI(t, bin)
		p.send("position startpos")
		p.send("go infinite")
		p.quiet("bestmove", 300*time.Millisecond)
		sent := time.Now()
		p.send("isready")
		p.expect("readyok", time.Second)
		if d := time.Since(sent); d > 500*time.Millisecond {
			t.Errorf("isready answered after %v while searching", d)
		}
		sent = time.Now()
		p.send("stop")
		best, _ := p.expect("bestmove", 2*time.Second)
		if d := time.Since(sent); d > time.Second {
			t.Errorf("stop answered after %v", d)
		}
		legalBest(t, engine.MustVariant("standard").StartPosition(), best)
	})
	t.Run("movetime", func(t *testing.T) {
		p := startUCI(t, bin)
		p.send("isready")
		p.expect("readyok", 5*time.Second)
		sent := time.Now()
		p.send("go movetime 200")
		best, _ := p.expect("bestmove", 3*time.Second)
		// It searches the whole time less a 10 ms margin: the upper bound
		// leaves room for a loaded machine.
		if d := time.Since(sent); d < 150*time.Millisecond || d > 1200*time.Millisecond {
			t.Errorf("go movetime 200 answered after %v", d)
		}
		legalBest(t, engine.MustVariant("standard").StartPosition(), best)
		// A clock: one second left must not be overspent.
		sent = time.Now()
		p.send("position startpos moves e2e4")
		p.send("go wtime 1000 btime 1000 winc 0 binc 0")
		p.expect("bestmove", 3*time.Second)
		if d := time.Since(sent); d > 800*time.Millisecond {
			t.Errorf("with 1 s on the clock the move took %v", d)
		}
	})
	t.Run("mate-in-1", func(t *testing.T) {
		p := startUCI(t, bin)
		p.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
		p.send("go depth 5")
		best, infos := p.expect("bestmove", 10*time.Second)
		if best != "bestmove a1a8" {
			t.Errorf("got %q, want bestmove a1a8", best)
		}
		found := false
		for _, l := range infos {
			found = found || strings.Contains(l, " score mate 1 ")
		}
		if !found {
			t.Errorf("no score mate 1 in %q", infos)
		}
	})
	t.Run("bad-input", func(t *testing.T) {
		p := startUCI(t, bin)
		p.send("position startpos moves e2e4")
		for _, bad := range []string{
			"hello", "setoption name Level value 9", "setoption name UCI_Variant value chess960",
			"setoption name Nonsense value 1", "position fen w nothing", "position startpos moves e2e4 e2e4",
			"position startpos moves e7e5", "position", "go depth x nodes", "position startpos moves 0000",
		} {
			p.send("%s", bad)
			line, _ := p.expect("info string", 5*time.Second)
			if len(line) < len("info string ")+10 {
				t.Errorf("%q: explanation too short: %q", bad, line)
			}
		}
		// Nothing above changed the position: e2e4 was played, Black moves.
		pos := engine.MustVariant("standard").StartPosition()
		pos.Make(mustParse(t, pos, "e2-e4"))
		best, _ := p.expect("bestmove", 10*time.Second) // from "go depth x nodes"
		legalBest(t, pos, best)
		p.send("go depth 1")
		best, _ = p.expect("bestmove", 10*time.Second)
		legalBest(t, pos, best)
		// Canonical and UCI notation mix; a finished game has no move.
		p.send("position startpos moves f2-f3 e7e5 g2g4 d8-h4")
		p.send("go depth 2")
		if best, _ := p.expect("bestmove", 10*time.Second); best != "bestmove (none)" {
			t.Errorf("mated side: %q, want bestmove (none)", best)
		}
		p.send("isready")
		p.expect("readyok", 5*time.Second)
	})
}

// TestUCIArena plays short matches against a second topochess process
// speaking UCI, on standard chess and on the cube.
func TestUCIArena(t *testing.T) {
	bin := buildTopochess(t)
	for _, tc := range []struct{ variant, level string }{{"standard", "3"}, {"cube", "2"}} {
		var out, errb bytes.Buffer
		code := run([]string{"arena", "--variant", tc.variant, "--uci", bin + " uci", "--white", tc.level, "--games", "2",
			"--nodes", "1500", "--uci-nodes", "1500", "--uci-option", "Level=" + tc.level, "--max-moves", "25", "-v"}, nil, &out, &errb)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.variant, code, errb.String())
		}
		s := out.String()
		for _, want := range []string{tc.variant + ": level " + tc.level + " vs topochess, 2 games, colours alternate",
			"topochess budget: uci 1500 nodes, Level=" + tc.level, "result: level " + tc.level + " against topochess: +", "Elo difference"} {
			if !strings.Contains(s, want) {
				t.Errorf("%s: output lacks %q:\n%s", tc.variant, want, s)
			}
		}
		rows := 0
		for _, line := range strings.Split(s, "\n") {
			f := strings.Fields(line)
			if len(f) != 9 || (f[0] != "level" && f[0] != "topochess") {
				continue
			}
			if f[0] == "level" {
				f = f[1:] // "level N" is two words
			} else {
				f = append([]string{"topochess"}, f[1:]...)
			}
			rows++
			total := 0
			for _, x := range f[1:4] {
				n, err := strconv.Atoi(x)
				if err != nil {
					t.Fatalf("bad row %q", line)
				}
				total += n
			}
			if total != 2 || f[5] != "0" || f[6] != "0" {
				t.Errorf("%s: row %q: want 2 games, no illegal move, no crash", tc.variant, line)
			}
		}
		if rows != 1 {
			t.Errorf("%s: %d rows parsed, want 1 level row:\n%s", tc.variant, rows, s)
		}
		if strings.Count(s, "game ") < 2 {
			t.Errorf("%s: fewer than 2 game lines:\n%s", tc.variant, s)
		}
	}
	// An engine that cannot be started, and one that does not speak UCI.
	for _, cmdline := range []string{filepath.Join(t.TempDir(), "missing"), "cat"} {
		var out, errb bytes.Buffer
		code := run([]string{"arena", "--uci", cmdline, "--games", "1"}, nil, &out, &errb)
		if code != 2 || !strings.HasPrefix(errb.String(), "topochess arena: ") {
			t.Errorf("--uci %s: exit %d, stderr %q", cmdline, code, errb.String())
		}
	}
}

func TestEloString(t *testing.T) {
	for _, tc := range []struct {
		w, d, l int
		want    string
	}{
		{10, 0, 10, "score 50.0%, Elo difference +0 (95% interval -163 to +163, 20 games)"},
		{3, 0, 1, "score 75.0%, Elo difference +191 "},
		{2, 0, 0, "score 100.0%, Elo difference +inf (95% interval +inf to +inf"},
		{0, 4, 0, "Elo difference +0 (95% interval +0 to +0"},
	} {
		if got := eloString(tc.w, tc.d, tc.l); !strings.Contains(got, tc.want) {
			t.Errorf("%d/%d/%d: %q, want %q in it", tc.w, tc.d, tc.l, got, tc.want)
		}
	}
}

func mustParse(t *testing.T, pos *engine.Position, s string) engine.Move {
	t.Helper()
	m, err := parseUCIMove(pos, s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestUCIArenaForfeits: an engine that answers an illegal move loses the
// game for it, and one that dies in the middle of a game loses it as a
// crash and is started afresh for the next; the match goes on either way.
func TestUCIArenaForfeits(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	script := func(name, onGo string) string {
		path := filepath.Join(dir, name)
		body := "#!/bin/sh\nwhile read -r cmd rest; do\n  case \"$cmd\" in\n" +
			"    uci) echo 'id name fake'; echo uciok ;;\n" +
			"    isready) echo readyok ;;\n" +
			"    go) " + onGo + " ;;\n" +
			"    quit) exit 0 ;;\n  esac\ndone\n"
		if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, tc := range []struct {
		name, onGo, column string
	}{
		{"illegal", "echo 'info depth 1 nodes 5'; echo 'bestmove e2e5'", "illegal"},
		{"crash", "exit 3", "crashes"},
	} {
		var out, errb bytes.Buffer
		code := run([]string{"arena", "--uci", script(tc.name, tc.onGo), "--white", "2", "--games", "2", "--nodes", "300", "-v"}, nil, &out, &errb)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.name, code, errb.String())
		}
		s := out.String()
		var row []string
		for _, line := range strings.Split(s, "\n") {
			if f := strings.Fields(line); len(f) == 9 && f[0] == "fake" {
				row = f
			}
		}
		// fake: wins draws losses score illegal crashes nodes/move depth
		want := map[string]int{"illegal": 5, "crashes": 6}[tc.column]
		if row == nil || row[3] != "2" || row[want] != "2" {
			t.Errorf("%s: want 2 losses by %s for the engine:\n%s", tc.name, tc.column, s)
		}
		if !strings.Contains(s, "result: level 2 against fake: +2 =0 -0") {
			t.Errorf("%s: no result line for two wins:\n%s", tc.name, s)
		}
	}
}

func TestClockBudget(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		left, inc time.Duration
		mtg       int
		want      time.Duration
	}{
		{60000 * ms, 0, 0, 2000 * ms},         // a thirtieth of the time
		{60000 * ms, 1000 * ms, 0, 2750 * ms}, // plus three quarters of the increment
		{10000 * ms, 0, 5, 2000 * ms},         // the moves to the control
		{1000 * ms, 0, 1, 950 * ms},           // the last move before it: all but a margin
		{100 * ms, 5000 * ms, 0, 80 * ms},     // never more than the clock holds
		{0, 0, 0, ms},                         // a fallen flag still answers
	} {
		if got := clockBudget(tc.left, tc.inc, tc.mtg); got != tc.want {
			t.Errorf("clockBudget(%v, %v, %d) = %v, want %v", tc.left, tc.inc, tc.mtg, got, tc.want)
		}
	}
}
