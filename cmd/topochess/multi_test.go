package main

import (
	"regexp"
	"strings"
	"sync"
	"testing"
)

// Issue 20, as an operator would see it: two `topochess serve` processes
// (real binaries) on one throwaway PostgreSQL, each with its own web chat
// address and ops listener. alice plays on one, bob on the other, a whole
// game; alice's move sent to both at once is applied once; the first
// process dies by SIGKILL and the game goes on through the second; /pgn
// from either (the first restarted) has every move once; /healthz,
// /readyz and /metrics answer. (The clock, the computer's moves and the
// outbox as jobs claimed by one process come with the jobs work; this
// game has none of them.)
func TestTwoServesOneGame(t *testing.T) {
	dbURL := pgDatabase(t)
	bin := servingBinary(t)
	a, b := startServe(t, bin, dbURL), startServe(t, bin, dbURL)

	alice := joinTab(t, a.web, "alice", "lobby", "")
	bob := joinTab(t, b.web, "bob", "lobby", "")
	alice.listen(a.web, 0)
	bob.listen(b.web, 0)

	alice.send(a.web, "/challenge @bob color:white", "")
	bob.until("reply", "challenges")
	bob.send(b.web, "/accept", "")
	alice.until("reply", "#1")

	alice.send(a.web, "/move e4", "")
	bob.until("said", "/move e4")
	bob.send(b.web, "/move e5", "")
	alice.until("said", "/move e5")

	// The same move, sent by alice's page to both processes at once (a
	// retry after a timeout, a proxy resending): applied once.
	var wg sync.WaitGroup
	for _, p := range []*serveProc{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			alice.send(p.web, "/move Bc4", "same-move-1")
		}()
	}
	wg.Wait()
	bob.send(b.web, "/move Nc6", "")
	seen := bob.until("said", "/move Nc6")
	public := 0
	for _, e := range seen {
		if e.Kind == "said" && e.Text == "/move Bc4" {
			public++
		}
	}
	if public != 1 {
		t.Errorf("bob saw alice's Bc4 played %d times; want once", public)
	}
	a.checkOps(t)
	b.checkOps(t)

	// The first process dies. alice's page goes to the second (her
	// session is known there) and the game goes on.
	a.kill()
	alice.listen(b.web, 0)
	alice.send(b.web, "/move Qh5", "")
	bob.until("said", "/move Qh5")
	bob.send(b.web, "/move Nf6", "")
	alice.until("said", "/move Nf6")
	alice.send(b.web, "/move Qxf7", "")
	bob.until("reply", "Checkmate. White (alice) wins")

	// A new first process on the same database; /pgn from both. carol's
	// tab joins once and reads through either.
	a2 := startServe(t, bin, dbURL)
	carol := joinTab(t, a2.web, "carol", "lobby", "")
	var last uint64
	for _, p := range []*serveProc{a2, b} {
		carol.listen(p.web, last)
		carol.send(p.web, "/pgn #1", "")
		seen := carol.until("reply", "PGN of")
		last = seen[len(seen)-1].Seq
		pgn := seen[len(seen)-1].Text
		if !regexp.MustCompile(`\n1\. e4 e5 2\. Bc4 Nc6 3\. Qh5 Nf6 4\. Qxf7# \{White wins by checkmate\} 1-0\n`).MatchString(pgn) || !strings.Contains(pgn, `[PlyCount "7"]`) {
			t.Errorf("/pgn on %s:\n%s", p.web, pgn)
		}
		for _, mv := range []string{"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"} {
			if n := len(regexp.MustCompile(`[ .]`+regexp.QuoteMeta(mv)+`[ #\n]`).FindAllString(pgn, -1)); n != 1 {
				t.Errorf("/pgn on %s has %s %d times:\n%s", p.web, mv, n, pgn)
			}
		}
		p.checkOps(t)
	}
}
