package bot

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"topochess/engine/puzzle"
	"topochess/render"
	"topochess/storage"
)

// Two bot processes on one PostgreSQL database: puzzle answers and
// redeliveries reaching both at once are each applied once, and all
// count.
func TestPuzzlesTwoProcessesOnPostgres(t *testing.T) {
	url := pgURL(t)
	var procs []*Service
	for range 2 {
		p, err := storage.OpenPostgres(url, storage.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		procs = append(procs, New(p, Config{
			Limits:  Limits{CommandsPer10s: 1000},
			Painter: &render.Renderer{Long: 64},
			Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
		}))
	}
	ev := 0
	cmd := func(channel, line string) Command {
		ev++
		name, text, _ := ParseLine(line)
		return Command{EventID: fmt.Sprintf("pg-ev%d", ev), Platform: "test", Channel: channel, Server: "test", User: testUser("alice"), Name: name, Text: text}
	}
	// at delivers each command to its process at the same moment.
	at := func(cmds ...Command) [][]Reply {
		out := make([][]Reply, len(cmds))
		var wg sync.WaitGroup
		for i, c := range cmds {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out[i] = procs[i%2].Handle(c)
			}()
		}
		wg.Wait()
		return out
	}

	// A second delivery is answered "Already done", or, when the first
	// was written before it looked, as any later command would be.
	harmless := func(r []Reply, also string) bool {
		return len(r) == 1 && (strings.Contains(r[0].Text, "Already done") || r[0].Error && strings.Contains(r[0].Text, also))
	}
	const n = 5 // a variant's whole stock
	var lasts []Command
	for i := range n {
		ch := fmt.Sprintf("test:room%d", i)
		// The request reaches both processes: one puzzle is given.
		ask := cmd(ch, "/puzzle moebius")
		rs := at(ask, ask)
		var pz puzzle.Puzzle
		given := 0
		for _, r := range rs {
			switch {
			case len(r) == 1 && strings.HasPrefix(r[0].Text, "Puzzle "):
				pz, _ = puzzle.Find(strings.Fields(r[0].Text)[1])
				given++
			case !harmless(r, "You are solving puzzle"):
				t.Fatalf("puzzle %d: %s", i, dump(r))
			}
		}
		if given != 1 {
			t.Fatalf("puzzle %d given %d times", i, given)
		}
		for j := 0; j+1 < len(pz.Line); j += 2 {
			procs[j%2].Handle(cmd(ch, "/puzzle "+pz.Line[j]))
		}
		lasts = append(lasts, cmd(ch, "/puzzle "+pz.Line[len(pz.Line)-1]))
	}
	// The last answers together, half on each process, each also
	// redelivered to the other.
	var all []Command
	for _, c := range lasts {
		all = append(all, c, c)
	}
	solved := 0
	for i, r := range at(all...) {
		switch {
		case len(r) == 1 && strings.Contains(r[0].Text, "solved!"):
			solved++
		case !harmless(r, "no open puzzle"):
			t.Fatalf("answer %d: %s", i, dump(r))
		}
	}
	st, err := procs[0].store.PuzzleStats("moebius", "test:alice")
	if solved != n || err != nil || st.Solved != n || st.Streak != n || len(st.Tried) != n {
		t.Fatalf("%d solved; stats %+v %v", solved, st, err)
	}
}
