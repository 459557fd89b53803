package engine

import (
	"math/rand"
	"testing"
)

// TestCountLegalMatchesList plays random games on every board and checks at
// each position that perft's counter agrees with the listed legal moves,
// so the two generators cannot drift apart. The games start from each
// variant's start and, on standard, from the perft suite's positions,
// whose castling, en passant, promotion and pins the counter must handle.
func TestCountLegalMatchesList(t *testing.T) {
	games := 20
	if raceEnabled || testing.Short() {
		games = 3
	}
	var buf [256]Move
	for _, id := range Variants() {
		v := MustVariant(id)
		rng := rand.New(rand.NewSource(int64(len(id))))
		checked := 0
		randomGames(t, v, games, 120, func(pos *Position) bool {
			ms := pos.LegalMoves()
			if got := pos.countLegal(buf[:0]); got != len(ms) {
				t.Fatalf("%s: %s: counted %d legal moves, listed %d", id, pos.String(), got, len(ms))
			}
			checked++
			return randomMove(pos, ms, rng)
		})
		if checked < 100 {
			t.Errorf("%s: only %d positions checked", id, checked)
		}
	}
}

// TestCountLegalAtSwitches is TestCountLegalMatchesList on the boards with
// switches, with games steered onto the switch cells and the kings moved
// often, so that pieces stand on a switch half between a king and an
// enemy rider: the counter reads an empty half of a taken switch as taken
// and must still find the piece it pins on the other half.
func TestCountLegalAtSwitches(t *testing.T) {
	games := 300
	if raceEnabled || testing.Short() {
		games = 40
	}
	var buf [256]Move
	boards := 0
	for _, id := range Variants() {
		v := MustVariant(id)
		if v.Geo.switches == nil {
			continue
		}
		boards++
		rng := rand.New(rand.NewSource(7))
		onSwitch := 0
		for g := 0; g < games; g++ {
			pos := v.StartPosition()
			for ply := 0; ply < 150; ply++ {
				ms := pos.LegalMoves()
				if got := pos.countLegal(buf[:0]); got != len(ms) {
					t.Fatalf("%s: %s: counted %d legal moves, listed %d", id, pos.String(), got, len(ms))
				}
				if len(ms) == 0 {
					break
				}
				m := ms[rng.Intn(len(ms))]
				for try := 0; try < 4; try++ {
					if c := ms[rng.Intn(len(ms))]; v.Geo.Partner[c.To] >= 0 || pos.Board[c.From].Kind() == King {
						m = c
						break
					}
				}
				if v.Geo.Partner[m.To] >= 0 {
					onSwitch++
				}
				pos.Make(m)
			}
		}
		if onSwitch < games {
			t.Errorf("%s: only %d moves onto a switch in %d games", id, onSwitch, games)
		}
	}
	if boards == 0 {
		t.Fatal("no board with switches")
	}
}
