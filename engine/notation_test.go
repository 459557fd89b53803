package engine

import (
	"strings"
	"testing"
)

func TestParseMoveForms(t *testing.T) {
	v := MustVariant("standard")
	cases := []struct {
		pos, in, want string
	}{
		{"", "e2-e4", "e2-e4"},
		{"", "e2e4", "e2-e4"},
		{"", "e2 e4", "e2-e4"},
		{"", "E2E4", "e2-e4"},
		{"", "Nf3", "g1-f3"},
		{"", "nf3", "g1-f3"},
		{"", "e4", "e2-e4"},
		{"", "b3", "b2-b3"},
		// exd5 after 1. e4 d5
		{"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", "exd5", "e4-d5"},
		{"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", "e4xd5", "e4-d5"},
		{"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", "Bb5+", "f1-b5"},
		{"rnbqkb1r/pppppppp/5n2/8/8/5Q2/PPPPPPPP/RNB1KBNR w KQkq - 0 1", "Qxf6", "f3-f6"},
		{"8/3k4/8/8/8/7p/8/4KQ2 w - - 0 1", "Qxh3+", "f1-h3"},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1", "Nge2", "g1-e2"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O", "e1-g1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0-0", "e1-c1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "o-o", "e8-g8"},
		{"8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e8=Q", "e7-e8=Q"},
		{"8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e8Q", "e7-e8=Q"},
		{"8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e8=N", "e7-e8=N"},
		{"8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", "e7-e8=N"},
		{"8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e7-e8=R", "e7-e8=R"},
		// A bishop move is never read as a b-pawn capture.
		{"4k3/8/8/8/8/1P6/8/2B1K3 w - - 0 1", "Bb2", "c1-b2"},
	}
	for _, tc := range cases {
		pos := v.StartPosition()
		if tc.pos != "" {
			var err error
			if pos, err = v.ParsePosition(tc.pos); err != nil {
				t.Fatal(err)
			}
		}
		m, err := pos.ParseMove(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if got := pos.Canonical(m); got != tc.want {
			t.Errorf("%q: got %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestParseMoveErrors(t *testing.T) {
	v := MustVariant("standard")
	cases := []struct {
		pos, in, want string
	}{
		{"", "Ng1-e5", "illegal: the knight on g1 can go to f3, h3"},
		{"", "g1e5", "illegal: the knight on g1 can go to f3, h3"},
		{"", "e3e4", "no piece on e3"},
		{"", "e7e5", "the pawn on e7 is black's; it is white to move"},
		{"4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2", "ambiguous: Nd2 could be b1-d2 or f3-d2"},
		{"8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e8", "promotion: say which piece"},
		{"", "Qh5", "illegal: the queen on d1 has no legal moves"},
		{"", "hello", "not a move I understand"},
		{"", strings.Repeat("e2e4", 50), "too long"},
		{"", "", "type a move"},
		{"", "O-O", "cannot castle"},
		{"4k3/8/8/8/8/8/4r3/3NK3 w - - 0 1", "Nc3", "does not get your king out of check"},
		{"4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "Nc3", "would leave your king in check"},
	}
	for _, tc := range cases {
		pos := v.StartPosition()
		if tc.pos != "" {
			var err error
			if pos, err = v.ParsePosition(tc.pos); err != nil {
				t.Fatal(err)
			}
		}
		_, err := pos.ParseMove(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got error %v, want one containing %q", tc.in, err, tc.want)
		}
	}
}

func TestSAN(t *testing.T) {
	v := MustVariant("standard")
	cases := []struct{ pos, move, want string }{
		{"", "g1-f3", "Nf3"},
		{"", "e2-e4", "e4"},
		{"4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1-d2", "Nbd2"},
		{"4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1-g1", "O-O"},
		{"4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1-c1", "O-O-O"},
		{"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", "e4-d5", "exd5"},
		{"6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", "a1-a8", "Ra8#"},
		{"8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e7-e8=Q", "e8=Q"},
		{"R6R/8/8/8/8/8/8/2k1K3 w - - 0 1", "a8-b8", "Rab8"},
		{"R7/8/8/8/8/8/8/R3K2k w - - 0 1", "a1-a4", "R1a4"},
	}
	for _, tc := range cases {
		pos := v.StartPosition()
		if tc.pos != "" {
			var err error
			if pos, err = v.ParsePosition(tc.pos); err != nil {
				t.Fatal(err)
			}
		}
		m, err := pos.ParseCanonical(tc.move)
		if err != nil {
			t.Fatal(err)
		}
		if got := pos.SAN(m); got != tc.want {
			t.Errorf("%s: SAN %s, want %s", tc.move, got, tc.want)
		}
		back, err := pos.ParseMove(tc.want)
		if err != nil || !back.Same(m) {
			t.Errorf("SAN %s does not parse back to %s: %v", tc.want, tc.move, err)
		}
	}
}

func TestGameEndings(t *testing.T) {
	v := MustVariant("standard")
	play := func(g *Game, moves ...string) {
		t.Helper()
		for _, s := range moves {
			m, err := g.Position().ParseMove(s)
			if err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	g, _ := NewGame(v, "")
	play(g, "f3", "e5", "g4", "Qh4")
	if g.Result != BlackWins || g.Reason != ReasonCheckmate {
		t.Errorf("fool's mate: %v %v", g.Result, g.Reason)
	}
	if err := g.Play(Move{From: 12, To: 28}); err == nil {
		t.Error("a move after mate was accepted")
	}
	g, _ = NewGame(v, "")
	play(g, "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1")
	if g.Over() {
		t.Fatal("drawn too early")
	}
	play(g, "Ng8")
	if g.Result != Draw || g.Reason != ReasonRepetition {
		t.Errorf("repetition: %v %v", g.Result, g.Reason)
	}
	g = newGame(t, v, "k7/8/1Q6/8/8/8/8/K7 w - - 0 1")
	play(g, "Qc7")
	if g.Result != Draw || g.Reason != ReasonStalemate {
		t.Errorf("stalemate: %v %v", g.Result, g.Reason)
	}
	g = newGame(t, v, "k7/8/8/8/8/8/1q6/K7 w - - 0 1")
	play(g, "Kxb2")
	if g.Reason != ReasonBareKings {
		t.Errorf("bare kings: %v", g.Reason)
	}
	g = newGame(t, v, "k7/8/8/8/8/8/8/KR6 w - - 99 80")
	play(g, "Rb2")
	if g.Reason != ReasonFiftyMoves {
		t.Errorf("100 half-moves: %v", g.Reason)
	}
	r, err := Replay(v, "", []string{"e2-e4", "e7-e5", "g1-f3"})
	if err != nil || r.Position().Side != Black || len(r.Moves) != 3 {
		t.Fatalf("replay: %v", err)
	}
	if err := r.Undo(2); err != nil || len(r.Moves) != 1 {
		t.Fatalf("undo: %v", err)
	}
	if _, err := Replay(v, "", []string{"e2-e4", "e2-e4"}); err == nil {
		t.Error("replay accepted an illegal move")
	}
}

func newGame(t *testing.T, v *Variant, pos string) *Game {
	t.Helper()
	g, err := NewGame(v, pos)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestRefusalExplained(t *testing.T) {
	v := MustVariant("moebius")
	pos := v.StartPosition()
	_, err := pos.ParseMove("a1-e8'")
	if err == nil || !strings.Contains(err.Error(), "Möbius rule") {
		t.Errorf("a1-e8' on the Möbius strip: %v", err)
	}
	h := MustVariant("heisenberg")
	pos, err = h.ParsePosition("w Rc3,Be3,Kh1,na5,pe7,bf7,kh8 - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	_, err = pos.ParseMove("Rc6")
	me, ok := err.(*MoveError)
	if !ok || !strings.Contains(me.Msg, "c4") || len(me.Choices) == 0 {
		t.Fatalf("observed rook move: %v", err)
	}
	for _, c := range me.Choices {
		if _, err := pos.ParseCanonical(c); err != nil {
			t.Errorf("offered choice %s is not legal: %v", c, err)
		}
	}
}

func TestSANPawnAmbiguity(t *testing.T) {
	// On the cube two pawns can step forward onto one cell; SAN must name
	// the origin so it reads back as the same move.
	v := MustVariant("cube")
	pos := v.StartPosition()
	for i := 0; i < 200; i++ {
		ms := pos.LegalMoves()
		if len(ms) == 0 {
			break
		}
		for _, m := range ms {
			back, err := pos.ParseMove(pos.SAN(m))
			if err != nil || !back.Same(m) {
				t.Fatalf("%s: SAN %q reads back as %v (%v)", pos.Canonical(m), pos.SAN(m), back, err)
			}
		}
		pos.Make(ms[(i*7919)%len(ms)])
	}
}
