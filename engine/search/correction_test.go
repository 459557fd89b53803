package search

import (
	"testing"

	"topochess/engine"
)

// TestPawnKey: the correction history's key follows the pawns (cells and
// colours) and nothing else.
func TestPawnKey(t *testing.T) {
	v := engine.MustVariant("standard")
	key := func(s string) uint64 {
		t.Helper()
		pos, err := v.ParsePosition(s)
		if err != nil {
			t.Fatal(err)
		}
		return pawnKey(pos)
	}
	base := key("w Ke1,Nb1,pa2,pd4,ke8,nb8,pa7,pd5 - - 0 1")
	if k := key("b Ke2,Nc3,pa2,pd4,ke8,nc6,pa7,pd5 - - 0 1"); k != base {
		t.Errorf("pieces and side moved, pawns kept: key %x, before %x", k, base)
	}
	if k := key("w Ke1,Nb1,pa3,pd4,ke8,nb8,pa7,pd5 - - 0 1"); k == base {
		t.Error("a pawn moved and the key stayed")
	}
	if k := key("w Ke1,Nb1,Pa2,pd4,ke8,nb8,pa7,pd5 - - 0 1"); k == base {
		t.Error("a pawn changed colour and the key stayed")
	}
}

// TestCorrectionUpdate: an entry moves towards the difference the search
// found, faster at greater depth, and stays bounded.
func TestCorrectionUpdate(t *testing.T) {
	var a int32
	correct(&a, 100, 120, 3)
	if a <= 0 || a >= 20*corrGrain {
		t.Fatalf("after one update towards +20: %d", a)
	}
	shallow := a
	a = 0
	correct(&a, 100, 120, 12)
	if a <= shallow {
		t.Errorf("depth 12 moved the entry by %d, depth 3 by %d", a, shallow)
	}
	for range 500 {
		correct(&a, 100, 120, 12)
	}
	if got := a / corrGrain; got < 19 || got > 20 {
		t.Errorf("after many updates towards +20 the correction is %d", got)
	}
	for range 500 {
		correct(&a, 0, 30000, 20)
	}
	if a > corrMax || a < corrMax-corrGrain {
		t.Errorf("entry %d: not bounded by %d", a, corrMax)
	}
	for range 500 {
		correct(&a, 0, -30000, 20)
	}
	if a < -corrMax || a > -corrMax+corrGrain {
		t.Errorf("entry %d: not bounded by %d", a, -corrMax)
	}
}
