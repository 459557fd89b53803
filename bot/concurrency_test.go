package bot

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"topochess/engine"
	"topochess/render"
)

// race runs the commands at once and returns their replies in order.
func race(h *harness, cmds ...Command) [][]Reply {
	out := make([][]Reply, len(cmds))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, c := range cmds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out[i] = h.svc.Handle(c)
		}()
	}
	close(start)
	wg.Wait()
	return out
}

func TestTwoMovesAtOnce(t *testing.T) {
	h := newHarness(t, Limits{})
	for round := 0; round < 5; round++ {
		id := h.startGame("standard")
		// A double click with two different moves: exactly one is played,
		// the other is told it is not alice's turn any more.
		rs := race(h, h.command("alice", "/move e4 game:"+id), h.command("alice", "/move d4 game:"+id))
		played, refused := 0, 0
		for _, r := range rs {
			switch {
			case len(r) == 1 && !r[0].Error:
				played++
			case len(r) == 1 && r[0].Error && strings.Contains(r[0].Text, "not your turn"):
				refused++
			default:
				t.Fatalf("unexpected replies %s", dump(r))
			}
		}
		if played != 1 || refused != 1 {
			t.Fatalf("played %d, refused %d", played, refused)
		}
		if g := h.game(id); len(g.Moves) != 1 || g.Rev != 2 {
			t.Fatalf("stored %v rev %d", g.Moves, g.Rev)
		}
		h.ok("bob", "/resign game:"+id)
	}
}

func TestMoveAndResignAtOnce(t *testing.T) {
	h := newHarness(t, Limits{})
	for round := 0; round < 5; round++ {
		id := h.startGame("standard")
		h.ok("alice", "/move f3 game:"+id)
		h.ok("bob", "/move e5 game:"+id)
		h.ok("alice", "/move g4 game:"+id)
		// Bob mates while alice resigns: one of them ends the game, the
		// other hears that it is over.
		rs := race(h, h.command("bob", "/move Qh4 game:"+id), h.command("alice", "/resign game:"+id))
		g := h.game(id)
		mated := g.Reason == "checkmate"
		resigned := g.Reason == "resignation"
		if !mated && !resigned || g.Result != "0-1" {
			t.Fatalf("result %q by %q", g.Result, g.Reason)
		}
		loser := rs[0]
		if mated {
			loser = rs[1]
		}
		if len(loser) != 1 || !loser[0].Error || !strings.Contains(loser[0].Text, "is over") {
			t.Fatalf("second action got %s", dump(loser))
		}
	}
}

func TestTwoAcceptsOfAnOpenChallenge(t *testing.T) {
	h := newHarness(t, Limits{})
	h.ok("alice", "/challenge")
	rs := race(h, h.command("bob", "/accept c1"), h.command("carol", "/accept c1"))
	wins := 0
	for _, r := range rs {
		if len(r) == 1 && !r[0].Error {
			wins++
		} else if len(r) != 1 || !strings.Contains(r[0].Text, "already accepted") && !strings.Contains(r[0].Text, "no open challenge") {
			t.Fatalf("loser got %s", dump(r))
		}
	}
	if wins != 1 {
		t.Fatalf("%d accepts won", wins)
	}
}

func TestDuplicateEventAppliedOnce(t *testing.T) {
	h := newHarness(t, Limits{})
	id := h.startGame("standard")
	mv := h.command("alice", "/move e4")
	// Delivered three times at once and once more later.
	rs := race(h, mv, mv, mv)
	rs = append(rs, h.svc.Handle(mv))
	for i, r := range rs {
		if len(r) != 1 || r[0].Error || !strings.Contains(r[0].Text, "1. e4") {
			t.Fatalf("delivery %d: %s", i, dump(r))
		}
	}
	if g := h.game(id); len(g.Moves) != 1 {
		t.Fatalf("moves %v after duplicate deliveries", g.Moves)
	}
	// After a restart the replies are no longer in memory, but the event
	// id is in storage: still applied once.
	h.ok("bob", "e5")
	resign := h.command("bob", "/resign")
	h.svc.Handle(resign)
	h.restart()
	rs = [][]Reply{h.svc.Handle(resign)}
	if len(rs[0]) != 1 || rs[0][0].Error || !strings.Contains(rs[0][0].Text, "Already done") {
		t.Fatalf("redelivery after restart: %s", dump(rs[0]))
	}
	if g := h.game(id); g.Result != "1-0" || len(g.Moves) != 2 {
		t.Fatalf("game after redelivery: %q %v", g.Result, g.Moves)
	}
}

func TestManyGamesInParallel(t *testing.T) {
	h := newHarness(t, Limits{CommandsPer10s: 1000, ActiveGames: 100})
	const games = 6
	ids := make([]string, games)
	for i := range ids {
		w, b := fmt.Sprintf("w%d", i), fmt.Sprintf("b%d", i)
		h.ok(w, fmt.Sprintf("/challenge @%s white", b))
		ids[i] = strings.Fields(h.ok(b, "/accept").Text)[1]
	}
	// Each game plays the same eight plies from its own goroutine, while a
	// spectator keeps looking at every board.
	plies := []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"}
	var wg sync.WaitGroup
	errs := make(chan string, games*len(plies)+games)
	for i := range ids {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for j, p := range plies {
				who := fmt.Sprintf("w%d", i)
				if j%2 == 1 {
					who = fmt.Sprintf("b%d", i)
				}
				if r := h.svc.Handle(h.command(who, "/move "+p)); len(r) != 1 || r[0].Error {
					errs <- fmt.Sprintf("game %s ply %d: %s", ids[i], j, dump(r))
				}
			}
		}()
		go func() {
			defer wg.Done()
			for range 4 {
				if r := h.svc.Handle(h.command("zed", "/board game:"+ids[i])); len(r) != 1 || r[0].Error {
					errs <- fmt.Sprintf("board %s: %s", ids[i], dump(r))
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	for _, id := range ids {
		if g := h.game(id); len(g.Moves) != len(plies) || g.Rev != uint64(len(plies))+1 {
			t.Errorf("game %s: %d moves, rev %d", id, len(g.Moves), g.Rev)
		}
	}
}

// panicky fails the first picture with a panic.
type panicky struct {
	once sync.Once
	next Painter
}

func (p *panicky) PNG(pos *engine.Position, opt render.Options) ([]byte, error) {
	fired := false
	p.once.Do(func() { fired = true })
	if fired {
		panic("boom")
	}
	return p.next.PNG(pos, opt)
}

func TestDrawingFailures(t *testing.T) {
	h := newHarness(t, Limits{})
	id := h.startGame("standard")
	h.svc.painter = &panicky{next: h.svc.painter}
	if r := h.ok("alice", "/moves e2"); r.Image != nil || !strings.Contains(r.Text, "could not draw") {
		t.Fatalf("moves with a failed picture: %s", dump([]Reply{r}))
	}
	h.ok("alice", "e4")
	// A picture that fails after a move was stored still reports the move.
	h.svc.painter = &panicky{next: h.svc.painter}
	if r := h.ok("bob", "/move e5"); r.Image != nil || !strings.Contains(r.Text, "could not draw") {
		t.Fatalf("move with a failed picture: %s", dump([]Reply{r}))
	}
	// Every drawing panics now; the game goes on, and its lock is free.
	h.svc.painter = panicPainter{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.ok("alice", "/move Nf3")
		h.ok("bob", "/board")
		h.ok("alice", "/resign")
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("game stayed locked after a panic")
	}
	if g := h.game(id); g.Result != "0-1" || len(g.Moves) != 3 {
		t.Fatalf("result %q moves %v", g.Result, g.Moves)
	}
}

type panicPainter struct{}

func (panicPainter) PNG(*engine.Position, render.Options) ([]byte, error) { panic("boom") }
