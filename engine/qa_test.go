package engine

import (
	"errors"
	"strings"
	"testing"
)

// Typed moves whose first letter is a lowercase b: by SAN convention that
// is the b-file pawn, and only when no pawn move fits may it be read as a
// lazily typed bishop.
func TestParseLowercaseBIsAPawnFirst(t *testing.T) {
	// After 1. d3 Nc6 2. Bd2 Nb4 3. h3 Nd5 4. h4 Nc3 both the b2 pawn and
	// the d2 bishop can take on c3.
	const both = "r1bqkbnr/pppppppp/8/8/7P/2nP4/PPPBPPP1/RN1QKBNR w KQkq - 1 5"
	cases := []struct {
		variant, pos, in, want string
	}{
		{"standard", both, "bxc3", "b2-c3"},
		{"standard", both, "bc3", "b2-c3"},
		{"standard", both, "b2xc3", "b2-c3"},
		{"standard", both, "Bxc3", "d2-c3"},
		// Only the bishop fits: the lowercase bishop is still understood.
		{"standard", both, "bf4", "d2-f4"},
		// Chess 66: cell 5 is a bishop target, b5 the a4 pawn's step
		// (a4 is the upper left switch half; its north step is b5).
		{"chess66", "w Ke1,Be2,Pa4,ke8 - - 0 1", "b5", "a4-b5"},
		{"chess66", "w Ke1,Be2,Pa4,ke8 - - 0 1", "B5", "e2-5"},
	}
	for _, tc := range cases {
		pos, err := MustVariant(tc.variant).ParsePosition(tc.pos)
		if err != nil {
			t.Fatal(err)
		}
		m, err := pos.ParseMove(tc.in)
		if err != nil {
			t.Errorf("%s %q: %v", tc.variant, tc.in, err)
			continue
		}
		if got := pos.Canonical(m); got != tc.want {
			t.Errorf("%s %q: got %s, want %s", tc.variant, tc.in, got, tc.want)
		}
	}
}

// A pawn capture onto the last rank typed without the piece asks which
// piece, with the four choices, instead of talking about bishops.
func TestParsePawnCapturePromotionAsksWhichPiece(t *testing.T) {
	// After 1. a4 b5 2. axb5 a6 3. bxa6 Bb7 4. axb7 Nc6 the b7 pawn can
	// take the a8 rook or step to b8.
	pos := MustVariant("standard").StartPosition()
	for _, mv := range []string{"a2-a4", "b7-b5", "a4-b5", "a7-a6", "b5-a6", "c8-b7", "a6-b7", "b8-c6"} {
		m, err := pos.ParseCanonical(mv)
		if err != nil {
			t.Fatal(mv, err)
		}
		pos.Make(m)
	}
	for _, in := range []string{"bxa8", "ba8", "b7xa8", "b7-a8"} {
		_, err := pos.ParseMove(in)
		var me *MoveError
		if !errors.As(err, &me) {
			t.Fatalf("%q: got %v, want a MoveError", in, err)
		}
		want := []string{"b7-a8=Q", "b7-a8=R", "b7-a8=B", "b7-a8=N"}
		if strings.Join(me.Choices, " ") != strings.Join(want, " ") {
			t.Errorf("%q: %q, choices %v; want the four promotions", in, me.Msg, me.Choices)
		}
	}
}

// Refusals quote what the player typed, not the text after the parser's
// own rewriting (":" is also a capture sign, so "game:" became "gamex").
func TestParseMoveErrorQuotesTheInput(t *testing.T) {
	pos := MustVariant("standard").StartPosition()
	for _, in := range []string{"game:", "x:y", "Q:z9", "e4:"} {
		_, err := pos.ParseMove(in)
		if err == nil {
			t.Errorf("%q: accepted", in)
			continue
		}
		if !strings.Contains(err.Error(), in) {
			t.Errorf("%q: message %q does not quote the input", in, err)
		}
	}
}

// The cube's knight sentence once read "never to a cell a king, rook or
// bishop could reach in one or two steps", which taken literally leaves
// the knight nothing (every target is two king steps away). It must state
// the rule book's subtraction (RULES.md §1.1): cells one king step away and
// the first two cells of rook and bishop rays.
func TestCubeRulesStateTheKnight(t *testing.T) {
	for _, id := range []string{"cube", "cube5"} {
		r := MustVariant(id).Rules
		if strings.Contains(r, "a king, rook or bishop could reach in one or two steps") {
			t.Errorf("%s: the knight sentence excludes every knight target", id)
		}
		for _, want := range []string{"two king steps away", "next to the knight", "first two cells of every rook and bishop line"} {
			if !strings.Contains(r, want) {
				t.Errorf("%s: rules text lacks %q", id, want)
			}
		}
	}
}
