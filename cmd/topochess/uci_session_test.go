package main

import (
	"bufio"
	"io"
	"strings"
	"testing"
	"time"
)

// TestUCISessionConcurrency runs a session in this process (so that the
// race detector sees both goroutines) and sends commands while searches
// run: every go gets exactly one bestmove, in order, and quit waits for it.
func TestUCISessionConcurrency(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	exit := make(chan int)
	go func() {
		code := cmdUCI(nil, inR, outW, io.Discard)
		outW.Close()
		exit <- code
	}()
	lines := make(chan string, 4096)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	send := func(s string) {
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send("setoption name Threads value 3") // helpers too, under the race detector
	send("go infinite")
	send("position startpos moves e2e4") // while searching: for the next go
	send("isready")
	send("go depth 2") // refused: already searching
	send("setoption name Hash value 2")
	send("go depth 3")
	send("ucinewgame")
	send("setoption name UCI_Variant value toroidal")
	send("go nodes 3000")
	send("stop")
	send("go infinite")
	time.Sleep(50 * time.Millisecond)
	send("quit")
	select {
	case code := <-exit:
		if code != 0 {
			t.Errorf("exit %d", code)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("quit did not end the session")
	}
	inW.Close()
	var best, refused, ready int
	for l := range lines {
		switch {
		case strings.HasPrefix(l, "bestmove "):
			best++
		case strings.Contains(l, "already searching"):
			refused++
		case l == "readyok":
			ready++
		}
	}
	// go infinite (ended by setoption), go depth 3 (ended by ucinewgame or
	// on its own), go nodes 3000, go infinite (ended by quit).
	if best != 4 || refused != 1 || ready != 1 {
		t.Errorf("%d bestmoves (want 4), %d refusals (want 1), %d readyok (want 1)", best, refused, ready)
	}
}
