package engine

import (
	"errors"
	"math/rand/v2"
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

// The SAN the bot prints in its captions must read back as the same move,
// or a player who copies it plays something else. Each position is one
// where it did not: the writer and the reader disagreed on disambiguators.
func TestSANReadsBack(t *testing.T) {
	cases := []struct{ variant, pos, move, why string }{
		{"moebius", "w Qc1,Ke1,Ng1,P+c2,P+d2,P+f2,P+g2,P+h2,ke7',P+b3,Nc3,P+e3,Rf3,P+a4,rd5,p-g5,qa4',p-a6,p-d6,ng6,p-h6,Bf3',p-b7,p-c7,p-e7,p-f7,Rg2',ra8,nb8,bc8,bf8,Bf1' - - 13 20",
			"f3'-e2'", "B3'e2' read as the coordinates b3'-e2'"},
		{"heisenberg", "w Nb1,Bc1,Ke1,Rh1,Pb2,Rc2,Pf2,Pe3,Nf3,Ph3,Pb4,Bc4,pe4,Ph4,rb5,Pd5,nb6,pf6,qg6,ph6,pb7,pd7,pf7,bc8,kd8,bf8,ng8,rh8 K - 2 17",
			"c1-d2", "B1d2 read as the knight's b1-d2"},
		{"cube5", "w P1a1,P1c1,P1d1,R1b2,N1c2,N1d2,P1e2,P1a3,R1b3,K1c3,B1d3,P1a4,Q1c4,Q1d4,P1e4,P1b5,P1d5,B1e5,p2b1,p2c1,p2e1,p2a2,p2d3,P2e3,P2b4,p3c1,p3d1,p3e1,q3c2,b3d2,r3b3,k3c3,p3e3,p3a4,r3b4,n3c4,n3d4,p3e4,p4a2,P4e2,p4a3,P4c3,q4b4,b4e4,p5b3,p5c3,P5d3,P6c2,p6b3 - - 0 12",
			"1b5-4a2", "bx4a2: 1a4 is also 5b5, so file b fits two pawns"},
		{"chess66", "b bb1,Re3,Nf3,pa4,Pc4,Kd4,Pe4,rg4,rb5,Pd6,ka7,nh7,Rg8 - - 3 60",
			"b5-5", "Rb and the cell 5 read as Rb5"},
		{"chess66", "b bb1,Re3,Nf3,pa4,Pc4,Kd4,Pe4,rg4,rb5,Pd6,ka7,nh7,Rg8 - - 3 60",
			"g4-5", "Rg and 5 read as Rg5, the other rook's move"},
		{"chess66", "w Nb1,Bc1,Ke1,Qf1,Ng1,Pb2,Bg2,Pd3,pe3,Pg3,Rh4,Pc5,Pd5,pf5,pc6,pb7,nf7,pg7,ra8,ke8,bf8,rh8,R4,b5 - - 2 28",
			"4-b4", "R4b4: the cell 4 is also read as rank 4"},
		{"klein", "w Ra1,Ke1,Bf1,Rh1,P+a2,P+b2,P+d2,P+e2,P+f2,P+c4,nd4,P+g4,P+h4,p-a5,p-f5,Nh5,p-d6,p-g6,nh6,p-b7,p-c7,p-e7,bg7,p-h7,rb8,bc8,qd8,kf8,rh8,p+c9,p+d9,p+e9,p+f9,p+g9,p+h9,p+a10,p+b11,P-b12,P-d12,Bf12,P-g12,P-a13,P-c13,Qd13,Nb14,P-e14,P-f14,P-h14 KQ - 0 15",
			"f1-f9", "Bf1xf9: f1 is a prefix of f12"},
	}
	for _, tc := range cases {
		pos, err := MustVariant(tc.variant).ParsePosition(tc.pos)
		if err != nil {
			t.Fatal(err)
		}
		m, err := pos.ParseCanonical(tc.move)
		if err != nil {
			t.Fatal(tc.move, err)
		}
		san := pos.SAN(m)
		back, err := pos.ParseMove(san)
		if err != nil || !back.Same(m) {
			t.Errorf("%s %s: SAN %q reads back as %s, %v (was: %s)", tc.variant, tc.move, san, pos.Canonical(back), err, tc.why)
		}
	}
}

// Typed "B1d2" where the knight b1-d2 and the bishop c1-d2 are both legal
// is a question, not a silent knight move.
func TestCapitalBBothReadingsAsks(t *testing.T) {
	pos, err := MustVariant("heisenberg").ParsePosition("w Nb1,Bc1,Ke1,Rh1,Pb2,Rc2,Pf2,Pe3,Nf3,Ph3,Pb4,Bc4,pe4,Ph4,rb5,Pd5,nb6,pf6,qg6,ph6,pb7,pd7,pf7,bc8,kd8,bf8,ng8,rh8 K - 2 17")
	if err != nil {
		t.Fatal(err)
	}
	_, err = pos.ParseMove("B1d2")
	var me *MoveError
	if !errors.As(err, &me) || strings.Join(me.Choices, " ") != "b1-d2 c1-d2" {
		t.Errorf("B1d2: %v, want a question between b1-d2 and c1-d2", err)
	}
	// Capitalised coordinates still work where no bishop fits.
	std := MustVariant("standard").StartPosition()
	if m, err := std.ParseMove("B2b4"); err != nil || std.Canonical(m) != "b2-b4" {
		t.Errorf("B2b4 from the start: %v %v", std.Canonical(m), err)
	}
}

// Random games in every variant: every legal move's SAN reads back as that
// move. (A wider run, 30 games of 120 plies per variant, found the cases
// above; this keeps a light sweep in the suite.)
func TestSANReadsBackRandomGames(t *testing.T) {
	games, plies := 3, 60
	if testing.Short() || raceEnabled {
		games, plies = 1, 30
	}
	for _, id := range Variants() {
		v := MustVariant(id)
		for game := 0; game < games; game++ {
			r := rand.New(rand.NewPCG(uint64(game), 99))
			pos := v.StartPosition()
			for ply := 0; ply < plies; ply++ {
				ms := pos.LegalMoves()
				if len(ms) == 0 {
					break
				}
				for _, m := range ms {
					san := pos.SAN(m)
					if back, err := pos.ParseMove(san); err != nil || !back.Same(m) {
						t.Fatalf("%s %s: %s SAN %q reads back as %v (%v)", id, pos.String(), pos.Canonical(m), san, back, err)
					}
				}
				pos.Make(ms[r.IntN(len(ms))])
			}
		}
	}
}

// In Heisenberg chess after 1. e4 three black pawns can land on e5 (d7 and
// f7 by reappearing next to the watched d5/f5); "e5" is the e-pawn's step,
// as SAN reads it, while d7-e5 stays typeable in full.
func TestPlainPawnStepMeansThatFile(t *testing.T) {
	v := MustVariant("heisenberg")
	pos := v.StartPosition()
	m, err := pos.ParseMove("e4")
	if err != nil {
		t.Fatal(err)
	}
	pos.Make(m)
	var toE5 []string
	for _, l := range pos.LegalMoves() {
		if v.Geo.Name(int(l.To)) == "e5" {
			toE5 = append(toE5, pos.Canonical(l))
		}
	}
	if len(toE5) < 2 {
		t.Fatalf("the position no longer tests anything: moves to e5 are %v", toE5)
	}
	for in, want := range map[string]string{"e5": "e7-e5", "d7-e5": "d7-e5", "d7e5": "d7-e5"} {
		got, err := pos.ParseMove(in)
		if err != nil || pos.Canonical(got) != want {
			t.Errorf("%q: got %v (%v), want %s", in, pos.Canonical(got), err, want)
		}
	}
}
