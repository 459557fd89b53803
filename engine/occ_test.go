package engine

import (
	"math/rand"
	"testing"
)

// checkOcc fails when the bits a position keeps differ from its board.
func checkOcc(t *testing.T, pos *Position, what string) {
	t.Helper()
	fresh := *pos
	fresh.loadOcc()
	if pos.occAll != fresh.occAll || pos.occCol != fresh.occCol {
		t.Fatalf("%s: %s: the kept bits differ from the board's", pos.V.ID, what)
	}
}

// TestPositionBitsFollowMoves plays random games on every board with the
// bit path and checks after every Make, Unmake, MakeNull and UnmakeNull
// that the bits kept in the position equal the bits read from its board.
// Chess 66 (switches) and Heisenberg chess, whose counters read these
// bits, must be among the boards.
// Standard also starts from the perft suite's positions, so castling, en
// passant and promotions are played; the test checks that they were.
func TestPositionBitsFollowMoves(t *testing.T) {
	games := 6
	if raceEnabled || testing.Short() {
		games = 2
	}
	var castles, eps, promos int
	boards := 0
	covered := map[string]bool{}
	for _, id := range Variants() {
		v := MustVariant(id)
		if !v.Geo.bitBoard {
			continue
		}
		boards++
		covered[id] = true
		rng := rand.New(rand.NewSource(int64(len(id)) * 11))
		randomGames(t, v, games, 100, func(pos *Position) bool {
			checkOcc(t, pos, "before a move")
			ms := pos.LegalMoves()
			if len(ms) == 0 {
				return false
			}
			for _, m := range ms {
				before, name := pos.String(), pos.Canonical(m)
				u := pos.Make(m)
				checkOcc(t, pos, "after "+name+" in "+before)
				if rng.Intn(4) == 0 {
					nu := pos.MakeNull()
					checkOcc(t, pos, "null move after "+name+" in "+before)
					pos.UnmakeNull(nu)
					checkOcc(t, pos, "null move taken back after "+name+" in "+before)
				}
				pos.Unmake(m, u)
				checkOcc(t, pos, name+" taken back in "+before)
				switch {
				case m.Flags&FlagCastle != 0:
					castles++
				case m.Flags&FlagEnPassant != 0:
					eps++
				case m.Promo != NoKind:
					promos++
				}
			}
			if rng.Intn(8) == 0 {
				pos.MakeNull()
				checkOcc(t, pos, "null move in "+pos.String())
				return true
			}
			randomMove(pos, ms, rng)
			checkOcc(t, pos, "the move played")
			return true
		})
	}
	if !covered["chess66"] || !covered["heisenberg"] {
		t.Fatalf("Chess 66 or Heisenberg chess keeps no bits: %v", covered)
	}
	if boards < 5 || castles == 0 || eps == 0 || promos == 0 {
		t.Fatalf("too little tested: %d boards, %d castlings, %d en passant captures, %d promotions", boards, castles, eps, promos)
	}
	t.Logf("%d boards; %d castlings, %d en passant captures, %d promotions played and taken back", boards, castles, eps, promos)
}

// TestAttackedWithSideSetDirectly checks that the bits follow a side to
// move set directly on the exported field, as callers may do.
func TestAttackedWithSideSetDirectly(t *testing.T) {
	v := MustVariant("standard")
	pos, err := v.ParsePosition("rnbqkbnr/pppp1ppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	q := pos.Clone()
	q.Side = Black
	// The knight on f3 attacks e5 and g5; the black pawn on e5 is attacked.
	if !q.Attacked(v.Geo.Cell("e5"), White) || !q.Attacked(v.Geo.Cell("g5"), White) {
		t.Fatal("the knight's attacks were missed with the side set directly")
	}
}
