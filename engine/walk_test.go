package engine

import (
	"math/rand"
	"testing"
)

// perftSuite are the positions of the published standard perft suite past
// the start: castling, en passant, promotions and pins.
var perftSuite = []string{
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
}

// randomGames plays games games of at most plies plies on v from its
// start and, on the standard board, from each position of perftSuite. At
// every position it calls step, which checks what its test checks and
// plays the next move (drawn from rng); step returns false to end the game.
func randomGames(t *testing.T, v *Variant, games, plies int, step func(pos *Position) bool) {
	t.Helper()
	starts := []string{v.Start}
	if v.ID == "standard" {
		starts = append(starts, perftSuite...)
	}
	for _, s := range starts {
		for g := 0; g < games; g++ {
			pos, err := v.ParsePosition(s)
			if err != nil {
				t.Fatal(err)
			}
			for ply := 0; ply < plies && step(pos); ply++ {
			}
		}
	}
}

// randomMove plays one of ms, drawn from rng, on pos; it reports false
// when there is none.
func randomMove(pos *Position, ms []Move, rng *rand.Rand) bool {
	if len(ms) == 0 {
		return false
	}
	pos.Make(ms[rng.Intn(len(ms))])
	return true
}
