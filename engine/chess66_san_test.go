package engine

import (
	"regexp"
	"strings"
	"testing"
)

// Moves to and from Chess 66's switch cells are written s4 and s5, so a
// move list never shows a bare number that reads like a move number
// (docs/rules-notes.md).
func TestChess66SwitchSAN(t *testing.T) {
	v := MustVariant("chess66")
	g := mustReplay(t, v, "", "a2-4", "h7-5", "4-a5", "5-h4", "a1-4")
	pgn, err := g.PGN(PGNTags{})
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(pgn, "\n\n")
	if want := "1. s4 s5 2. a5 h4 3. Rs4 *"; strings.TrimSpace(body) != want {
		t.Errorf("movetext %q, want %q", strings.TrimSpace(body), want)
	}
	cases := []struct{ pos, move, want string }{
		{"", "a2-4", "s4"},
		{"w R4,Kh1,kh8 - - 0 1", "4-b4", "Rb4"},
		{"w P4,nb5,Kh1,kh8 - - 0 1", "4-b5", "s4xb5"},
		{"w Ra1,Kh1,kh8 - - 0 1", "a1-4", "Rs4"},
		{"b bb1,Re3,Nf3,pa4,Pc4,Kd4,Pe4,rg4,rb5,Pd6,ka7,nh7,Rg8 - - 3 60", "b5-5", "Rbs5"},
		{"w Nb1,Bc1,Ke1,Qf1,Ng1,Pb2,Bg2,Pd3,pe3,Pg3,Rh4,Pc5,Pd5,pf5,pc6,pb7,nf7,pg7,ra8,ke8,bf8,rh8,R4,b5 - - 2 28", "4-b4", "Rs4b4"},
	}
	for _, tc := range cases {
		pos := v.StartPosition()
		if tc.pos != "" {
			if pos, err = v.ParsePosition(tc.pos); err != nil {
				t.Fatal(err)
			}
		}
		m, err := pos.ParseCanonical(tc.move)
		if err != nil {
			t.Fatal(tc.move, err)
		}
		if got := pos.SAN(m); got != tc.want {
			t.Errorf("%s: SAN %s, want %s", tc.move, got, tc.want)
		}
	}
}

// Every form a player could type for a switch move reads as that move:
// the written s4/s5 forms and those accepted before them.
func TestChess66SwitchFormsReadBack(t *testing.T) {
	v := MustVariant("chess66")
	cases := []struct {
		pos   string
		move  string
		forms []string
	}{
		{"", "a2-4", []string{"s4", "S4", "a2-s4", "a2s4", "a2-4", "a24", "4", "a2 4"}},
		{"w Ra1,Kh1,kh8 - - 0 1", "a1-4", []string{"Rs4", "R4", "a1-4", "a1-s4", "Ra1s4"}},
		{"w P4,nb5,Kh1,kh8 - - 0 1", "4-b5", []string{"s4xb5", "4xb5", "s4-b5", "4-b5", "s4b5"}},
		{"b kh8,p5,Ka1 - - 0 1", "5-h4", []string{"h4", "s5-h4", "5-h4", "s5h4"}},
		{"b bb1,Re3,Nf3,pa4,Pc4,Kd4,Pe4,rg4,rb5,Pd6,ka7,nh7,Rg8 - - 3 60", "b5-5", []string{"Rbs5", "Rb-5", "Rb-s5", "b5-5", "b5-s5"}},
	}
	for _, tc := range cases {
		pos := v.StartPosition()
		if tc.pos != "" {
			var err error
			if pos, err = v.ParsePosition(tc.pos); err != nil {
				t.Fatal(err)
			}
		}
		want, err := pos.ParseCanonical(tc.move)
		if err != nil {
			t.Fatal(tc.move, err)
		}
		for _, f := range tc.forms {
			m, err := pos.ParseMove(f)
			if err != nil || !m.Same(want) {
				t.Errorf("%q reads as %s (%v), want %s", f, pos.Canonical(m), err, tc.move)
			}
		}
	}
}

// In random Chess 66 games no written move starts with a digit, every one
// reads back as its move, and the canonical notation still names the
// switch cells 4 and 5 (RULES §8).
func TestChess66WrittenMovesRandomGames(t *testing.T) {
	v := MustVariant("chess66")
	digit := regexp.MustCompile(`^[0-9]`)
	switches := 0
	for seed := uint64(1); seed <= 40; seed++ {
		g := playout(t, v, "", seed, 150)
		pos := v.StartPosition()
		for _, s := range g.Moves {
			m, err := pos.ParseCanonical(s)
			if err != nil {
				t.Fatal(s, err)
			}
			san := pos.SAN(m)
			if digit.MatchString(san) {
				t.Errorf("seed %d: %s written %q, which starts like a move number", seed, s, san)
			}
			if strings.Contains(s, "s") {
				t.Errorf("canonical move %q uses a written name", s)
			}
			if back, err := pos.ParseMove(san); err != nil || !back.Same(m) {
				t.Errorf("seed %d: %s written %q reads back as %s (%v)", seed, s, san, pos.Canonical(back), err)
			}
			if int(m.From) >= 64 || int(m.To) >= 64 {
				switches++
			}
			pos.Make(m)
		}
	}
	if switches == 0 {
		t.Fatal("no random move touched a switch cell; the test checks nothing")
	}
	t.Logf("%d moves to or from a switch cell", switches)
}
