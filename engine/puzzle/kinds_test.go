package puzzle

import (
	"context"
	"slices"
	"testing"

	"topochess/engine"
)

func mustPos(t *testing.T, variant, s string) *engine.Position {
	t.Helper()
	p, err := engine.MustVariant(variant).ParsePosition(s)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return p
}

// TestMaterialFork: a knight fork of king and rook wins the rook in one
// move (the check must be answered, then the rook is taken as the
// exchanges settle), and the generator's line passes both checks.
func TestMaterialFork(t *testing.T) {
	pos := mustPos(t, "standard", "w Kg1,Nd5,Ph2,ke8,ra8,ph7 - - 0 1")
	pz, ok := materialPuzzle(context.Background(), pos, 2)
	if !ok {
		t.Fatal("no puzzle found in a knight fork")
	}
	if !slices.Equal(pz.Line, []string{"d5-c7"}) || pz.Gain != 5 || pz.WinIn != 1 {
		t.Fatalf("fork puzzle %+v", pz)
	}
	pz.ID = "standard-fork"
	if err := Check(pz); err != nil {
		t.Fatal(err)
	}
	refCheck(t, pz)
	if got := pz.Task(0); got != "win material in 1" {
		t.Errorf("task %q", got)
	}
	// A gain claimed too high, or a wrong key, fails the check.
	bad := pz
	bad.Gain = 6
	if Check(bad) == nil {
		t.Error("a gain of 6 passed the check")
	}
	bad = pz
	bad.Line = []string{"d5-b6"}
	if Check(bad) == nil {
		t.Error("a wrong key passed the check")
	}
}

// TestMaterialNotAPuzzle: a piece hanging is no puzzle; two moves that
// win are not unique; a forced mate is no material puzzle.
func TestMaterialNotAPuzzle(t *testing.T) {
	for _, tc := range []struct{ name, pos string }{
		{"hanging knight", "w Kg1,Rd1,Ph2,ke8,nd5,ph7 - - 0 1"},
		{"two forks", "w Kg1,Nd5,Nf5,Ph2,ke8,ra8,rh8,ph7 - - 0 1"},
		{"a mate", "w Kg1,Qd1,Ra1,kh8,pg7,ph7 - - 0 1"},
		{"nothing", "w Kg1,Ph2,kg8,ph7 - - 0 1"},
	} {
		if pz, ok := materialPuzzle(context.Background(), mustPos(t, "standard", tc.pos), 2); ok {
			t.Errorf("%s: a puzzle %v", tc.name, pz.Line)
		}
	}
}

// TestMateInThreeChecked: a mate in 3 from an engine game, built by the
// generator, passes the generator's check and the independent one; the
// line with another reply does not.
func TestMateInThreeChecked(t *testing.T) {
	pos := mustPos(t, "standard", "w Kb2,ke3,pb4,Pc4,bg4,pa5,Qd5,ne5,ph7,Qe8 - - 3 59")
	s := newMater(mateNodes)
	if n := s.shortest(pos, 3); n != 3 {
		t.Fatalf("a mate in %d", n)
	}
	pz, ok := matePuzzle(s, pos, 3)
	if !ok {
		t.Fatal("no unique mate in 3")
	}
	pz.ID = "standard-m3"
	if err := Check(pz); err != nil {
		t.Fatal(err)
	}
	refCheck(t, pz)
	if !slices.Contains(pz.Themes, "mate in 3") || pz.Task(2) != "mate in 2" {
		t.Errorf("themes %v, task %q", pz.Themes, pz.Task(2))
	}
	after := pos.Clone()
	m, _ := after.ParseCanonical(pz.Line[0])
	after.Make(m)
	for _, r := range after.CanonicalMoves() {
		if r == pz.Line[1] {
			continue
		}
		bad := pz
		bad.Line = slices.Clone(pz.Line)
		bad.Line[1] = r
		if Check(bad) == nil {
			t.Errorf("the line with the reply %s passed", r)
		}
	}
}

// TestMaterialSkewer: a bishop skewering queen and bishop wins a piece in
// two moves (the queen steps aside first), not one.
func TestMaterialSkewer(t *testing.T) {
	pos := mustPos(t, "standard", "b Ra1,Kc1,Nd1,Bf1,Pg2,Pb3,Qd3,Pe3,Rh3,Pa4,qb4,Pd4,ne4,Pf4,pa5,pd5,pf5,pc6,pe6,pg6,Ph6,rf7,ph7,ra8,nb8,bc8,kg8 - - 1 28")
	pz, ok := materialPuzzle(context.Background(), pos, 2)
	if !ok {
		t.Fatal("no puzzle")
	}
	if pz.WinIn != 2 || pz.Gain != 3 || pz.Line[0] != "c8-a6" || pz.Line[2] != "a6-f1" {
		t.Fatalf("skewer puzzle %+v", pz)
	}
	pz.ID = "standard-skewer"
	if err := Check(pz); err != nil {
		t.Fatal(err)
	}
	refCheck(t, pz)
}

// TestSwitchFork: a rook reaching a2 on the Chess 66 board attacks a6
// through the switch half 4 and b8 through the half a4 at once; a rook
// fork along a plain rank is no switch fork.
func TestSwitchFork(t *testing.T) {
	for _, tc := range []struct {
		pos, move string
		want      bool
	}{
		{"w Kg1,Rd2,kb8,qa6 - - 0 1", "d2-a2", true},
		{"w Kg1,Rd2,kb8,pa6 - - 0 1", "d2-a2", false}, // a pawn is no target
		{"w Kg1,Rd2,kd8,qa6 - - 0 1", "d2-a2", false}, // one target only
		{"w Kh1,Rd1,ka3,qg3 - - 0 1", "d1-d3", false}, // a fork, not through a switch
	} {
		pz := Puzzle{ID: "chess66-t", Variant: "chess66", Position: tc.pos, Line: []string{tc.move}, WinIn: 1}
		got := slices.Contains(Themes(pz), ThemeSwitchFork)
		if got != tc.want {
			t.Errorf("%s %s: switch fork %v, want %v", tc.pos, tc.move, got, tc.want)
		}
	}
}

// TestObservationTrap: the knight's check on f7 is mate in Heisenberg
// chess because the rook on e1 watches e7, so the rook on d7 cannot take
// on f7 as in ordinary chess; without the defending rook the same mate is
// an ordinary smothered mate, no trap.
func TestObservationTrap(t *testing.T) {
	for _, tc := range []struct {
		pos  string
		want bool
	}{
		{"w Kg1,Re1,Nd6,kh8,ng8,pg7,ph7,rd7 - - 0 1", true},
		{"w Kg1,Nd6,kh8,ng8,pg7,ph7 - - 0 1", false},
	} {
		pz := Puzzle{ID: "heisenberg-t", Variant: "heisenberg", Position: tc.pos, Line: []string{"d6-f7"}, MateIn: 1}
		if err := Check(pz); err != nil {
			t.Fatalf("%s: %v", tc.pos, err)
		}
		if got := slices.Contains(Themes(pz), ThemeObservation); got != tc.want {
			t.Errorf("%s: observation trap %v, want %v", tc.pos, got, tc.want)
		}
		// The same position on the ordinary board: never a trap.
		pz.Variant = "standard"
		if slices.Contains(Themes(pz), ThemeObservation) {
			t.Errorf("%s: a trap in standard chess", tc.pos)
		}
	}
}
