package puzzle

import (
	"fmt"
	"testing"

	"topochess/engine"
)

// An independent check of the shipped stock: the definitions of check.go
// and material.go written again as plain minimax over engine.LegalMoves
// (Make/Unmake), none of the generator's code, no search package, no
// memory of positions, no move ordering. "Any" and "all" stop at the first
// answer that decides them; nothing else is cut.

// refPieceValue is the material count of the definition, written again.
var refPieceValue = map[engine.Kind]int{engine.Pawn: 1, engine.Knight: 3, engine.Bishop: 3, engine.Rook: 5, engine.Queen: 9}

func refBalance(p *engine.Position, side engine.Color) int {
	b := 0
	for _, pc := range p.Board {
		switch {
		case pc == 0:
		case pc.Color() == side:
			b += refPieceValue[pc.Kind()]
		default:
			b -= refPieceValue[pc.Kind()]
		}
	}
	return b
}

func refPieces(p *engine.Position) int {
	n := 0
	for _, pc := range p.Board {
		if pc != 0 {
			n++
		}
	}
	return n
}

// refMated: the side to move is checkmated.
func refMated(p *engine.Position) bool {
	return p.InCheck() && len(p.LegalMoves()) == 0
}

// refMateWithin: the side to move has a move after which the opponent is
// mated or, with n > 1, every reply leaves a mate within n-1.
func refMateWithin(p *engine.Position, n int) bool {
	if n <= 0 {
		return false
	}
	for _, m := range p.LegalMoves() {
		if refMoveMates(p, m, n) {
			return true
		}
	}
	return false
}

func refMoveMates(p *engine.Position, m engine.Move, n int) bool {
	u := p.Make(m)
	defer p.Unmake(m, u)
	replies := p.LegalMoves()
	if len(replies) == 0 {
		return p.InCheck()
	}
	if n == 1 {
		return false
	}
	for _, r := range replies {
		ru := p.Make(r)
		ok := refMateWithin(p, n-1)
		p.Unmake(r, ru)
		if !ok {
			return false
		}
	}
	return true
}

// refGame holds what the material game needs: whose win it is and the
// balance it started from.
type refGame struct {
	solver engine.Color
	start  int
}

func (g refGame) stuck(p *engine.Position) int {
	switch {
	case !p.InCheck():
		return g.start
	case p.Side == g.solver:
		return -MateValue
	}
	return MateValue
}

// atLeast: the solver's value of p, with left solver moves to play and the
// exchanges settled after them, is at least t.
func (g refGame) atLeast(p *engine.Position, left, t int) bool {
	if left == 0 {
		return g.settledAtLeast(p, 0, t)
	}
	ms := p.LegalMoves()
	if len(ms) == 0 {
		return g.stuck(p) >= t
	}
	solver := p.Side == g.solver
	for _, m := range ms {
		u := p.Make(m)
		next := left
		if solver {
			next--
		}
		ok := g.atLeast(p, next, t)
		p.Unmake(m, u)
		if solver && ok {
			return true
		}
		if !solver && !ok {
			return false
		}
	}
	return !solver
}

func (g refGame) settledAtLeast(p *engine.Position, ply, t int) bool {
	ms := p.LegalMoves()
	if len(ms) == 0 {
		return g.stuck(p) >= t
	}
	stand := refBalance(p, g.solver)
	if ply >= SettlePlies {
		return stand >= t
	}
	check := p.InCheck()
	solver := p.Side == g.solver
	if !check {
		if solver && stand >= t {
			return true
		}
		if !solver && stand < t {
			return false
		}
	}
	before := refPieces(p)
	for _, m := range ms {
		u := p.Make(m)
		material := refPieces(p) != before || m.Promo != engine.NoKind
		ok := true
		if check || material {
			ok = g.settledAtLeast(p, ply+1, t)
		} else if solver {
			ok = false // not a move the settling may play
		}
		p.Unmake(m, u)
		if solver && ok {
			return true
		}
		if !solver && !ok {
			return false
		}
	}
	return !solver
}

// refCheck verifies one puzzle by the definitions, failing t on what does
// not hold.
func refCheck(t *testing.T, pz Puzzle) {
	t.Helper()
	for _, p := range refProblems(pz) {
		t.Error(p)
	}
}

// refProblems lists what does not hold of a puzzle.
func refProblems(pz Puzzle) (out []string) {
	fail := func(f string, a ...any) { out = append(out, fmt.Sprintf(f, a...)) }
	v, err := engine.GetVariant(pz.Variant)
	if err != nil {
		fail("%s: %v", pz.ID, err)
		return out
	}
	pos, err := v.ParsePosition(pz.Position)
	if err != nil {
		fail("%s: %v", pz.ID, err)
		return out
	}
	n := pz.MateIn + pz.WinIn
	if pz.MateIn*pz.WinIn != 0 || n == 0 || len(pz.Line) != 2*n-1 {
		fail("%s: mate in %d, win in %d, line of %d", pz.ID, pz.MateIn, pz.WinIn, len(pz.Line))
		return out
	}
	game := refGame{solver: pos.Side, start: refBalance(pos, pos.Side)}
	if pz.MateIn > 0 && refMateWithin(pos, n-1) {
		fail("%s: a mate within %d moves", pz.ID, n-1)
	}
	if pz.WinIn > 0 {
		if pz.Gain < WinMin || pz.Gain >= MateValue/2 {
			fail("%s: a gain of %d", pz.ID, pz.Gain)
		}
		if game.atLeast(pos, n-1, game.start+WinMin) {
			fail("%s: material is won in %d moves", pz.ID, n-1)
		}
	}
	for i, mv := range pz.Line {
		var played engine.Move
		found := false
		for _, m := range pos.LegalMoves() {
			if pos.Canonical(m) == mv {
				played, found = m, true
			}
		}
		if !found {
			fail("%s: move %d (%s) is not legal", pz.ID, i+1, mv)
			return out
		}
		left := n - i/2
		if i%2 == 0 {
			for _, m := range pos.LegalMoves() {
				key := m.Same(played)
				if pz.MateIn > 0 {
					if refMoveMates(pos, m, left) != key {
						fail("%s step %d: %s mates within %d: %v", pz.ID, i/2+1, pos.Canonical(m), left, !key)
					}
					continue
				}
				u := pos.Make(m)
				var bad bool
				if key {
					bad = !game.atLeast(pos, left-1, game.start+pz.Gain) || game.atLeast(pos, left-1, game.start+pz.Gain+1)
				} else {
					bad = game.atLeast(pos, left-1, game.start+OtherMax+1)
				}
				pos.Unmake(m, u)
				if bad {
					fail("%s step %d: %s (key %v) breaks the win of %d", pz.ID, i/2+1, pos.Canonical(m), key, pz.Gain)
				}
			}
		}
		pos.Make(played)
		if i%2 == 1 && pz.MateIn > 0 && refMateWithin(pos, left-2) {
			fail("%s: after %s a mate within %d moves: not a longest defence", pz.ID, mv, left-2)
		}
	}
	if pz.MateIn > 0 && !refMated(pos) {
		fail("%s: the line does not end in mate", pz.ID)
	}
	return out
}

// TestStockIndependently checks every shipped puzzle of every variant by
// the definitions above. Under the race detector or -short only each
// variant's first puzzle is checked (the rest costs minutes there).
func TestStockIndependently(t *testing.T) {
	for _, id := range engine.Variants() {
		ps, err := Stock(id)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(id, func(t *testing.T) {
			for i, pz := range ps {
				if (raceOn || testing.Short()) && i > 0 {
					continue
				}
				refCheck(t, pz)
				if got, ok := Find(pz.ID); !ok || got.Position != pz.Position {
					t.Errorf("Find(%s)", pz.ID)
				}
			}
		})
	}
}

// TestIndependentCheckFails: the independent check finds a wrong gain, a
// wrong key and a line that is not the defender's best.
func TestIndependentCheckFails(t *testing.T) {
	fork := Puzzle{ID: "fork", Variant: "standard", Position: "w Kg1,Nd5,Ph2,ke8,ra8,ph7 - - 0 1", Line: []string{"d5-c7"}, WinIn: 1, Gain: 5}
	if p := refProblems(fork); len(p) != 0 {
		t.Fatalf("the fork: %v", p)
	}
	for _, bad := range []Puzzle{
		{ID: "gain", Variant: "standard", Position: fork.Position, Line: fork.Line, WinIn: 1, Gain: 4},
		{ID: "key", Variant: "standard", Position: fork.Position, Line: []string{"d5-b6"}, WinIn: 1, Gain: 5},
		{ID: "mate", Variant: "standard", Position: "w Kg1,Qd1,Ra1,kh8,pg7,ph7 - - 0 1", Line: []string{"d1-d8"}, MateIn: 1},
	} {
		if len(refProblems(bad)) == 0 {
			t.Errorf("%s: no problem found", bad.ID)
		}
	}
}
