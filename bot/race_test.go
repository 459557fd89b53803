package bot

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestOutOfTurnMovesRaceNothing mixes, on many games at once, the moves of
// the player to move with moves sent by the other player. The refusals
// must be worded from the game as it was under the lock: run with -race,
// any read of the cached game after its lock is released is reported.
func TestOutOfTurnMovesRaceNothing(t *testing.T) {
	h := newHarness(t, Limits{CommandsPer10s: 1 << 20, ActiveGames: 100})
	const games = 12
	ids := make([]string, games)
	for i := range ids {
		w, b := fmt.Sprintf("w%d", i), fmt.Sprintf("b%d", i)
		h.ok(w, fmt.Sprintf("/challenge @%s white", b))
		ids[i] = strings.Fields(h.ok(b, "/accept").Text)[1]
	}
	// Knights out and back: legal for ever, and never Qh5, which is what
	// the impatient side keeps sending (refused whoever's turn it is).
	plies := []string{"Nf3", "Nf6", "Nc3", "Nc6", "Nb1", "Nb8"}
	var wg sync.WaitGroup
	errs := make(chan string, 4*games*len(plies))
	for i, id := range ids {
		w, b := fmt.Sprintf("w%d", i), fmt.Sprintf("b%d", i)
		wg.Add(3)
		go func() {
			defer wg.Done()
			for j, p := range plies {
				who := w
				if j%2 == 1 {
					who = b
				}
				if r := h.svc.Handle(h.command(who, "/move "+p+" game:"+id)); len(r) != 1 || r[0].Error {
					errs <- fmt.Sprintf("game %s ply %d: %s", id, j, dump(r))
				}
			}
		}()
		for _, who := range []string{w, b} {
			go func() {
				defer wg.Done()
				for range len(plies) {
					r := h.svc.Handle(h.command(who, "/move Qh5 game:"+id))
					if len(r) != 1 || !r[0].Error {
						errs <- fmt.Sprintf("game %s: Qh5 by %s: %s", id, who, dump(r))
					}
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	for _, id := range ids {
		if g := h.game(id); len(g.Moves) != len(plies) {
			t.Errorf("game %s: %d moves", id, len(g.Moves))
		}
	}
}
