package engine

import (
	"slices"
	"sort"
	"strings"
	"testing"
)

// Published values, shared/rules/perft.md.
func TestPerftHeisenberg(t *testing.T) {
	runPerftCases(t, []perftCase{
		{"start", "heisenberg", "", []uint64{20, 544, 17100, 667276}},
	})
}

func heisenbergPos(t *testing.T, s string) *Position {
	t.Helper()
	p, err := MustVariant("heisenberg").ParsePosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// movesFrom lists the legal moves of the piece on cell from, canonically
// and sorted.
func movesFrom(p *Position, from string) []string {
	var out []string
	for _, s := range p.CanonicalMoves() {
		if strings.HasPrefix(s, from+"-") {
			out = append(out, s)
		}
	}
	return out
}

func withPrefix(from string, cells string) []string {
	var out []string
	for _, c := range strings.Fields(cells) {
		out = append(out, from+"-"+c)
	}
	sort.Strings(out)
	return out
}

func TestHeisenbergMovesOfOnePiece(t *testing.T) {
	cases := []struct {
		name, pos, from, want string
	}{
		// perft.md's worked example (seed diagram 1 with kings added).
		{"seed rook", "w Rc3,Be3,Kh1,na5,pe7,bf7,kh8 - - 0 1", "c3",
			"a1 a2 a4 a5 a6 b1 b2 b3 b5 b6 c1 c2 c4 d1 d2 d3 d4 d5 d6 e2 e4 e5 e6 f1 f7"},
		// Seed diagram 2 with kings added. Black watches b3 and c4 twice
		// (na5 and bf7), nothing else near. Unobserved: b1, d1 (forward c2)
		// and e2 (forward d3). Forward c4 (b5, d5): as a pawn to c5; ring 2
		// around c4 minus the knight's own targets and own pieces: b2 c2 d2
		// a3 e3 a5 e5 a6 b6 c6 d6 e6. Forward b3 (a2): as a pawn to b4; ring
		// 2 around b3 minus targets: a1 c1 d2 d3 d4 a5 c5.
		{"seed knight", "w Nc3,Ra4,Be4,Kh1,na5,bf7,kh8 - - 0 1", "c3",
			"b1 d1 e2 c5 b2 c2 d2 a3 e3 a5 e5 a6 b6 c6 d6 e6 b4 a1 c1 d3 d4"},
		// ra8's ray stops on its first piece whatever its colour, so it
		// watches a5: a1-a5 is observed (S = a5, N = 1) and the rook can only
		// reappear next to a5 (a4 is an ordinary destination).
		{"defended piece", "w Ra1,Kh1,pa5,ra8,kh8 - - 0 1", "a1",
			"a2 a3 a4 b1 c1 d1 e1 f1 g1 a6 b4 b5 b6"},
		{"undefended piece", "w Ra1,Kh1,pa5,kh8 - - 0 1", "a1",
			"a2 a3 a4 a5 b1 c1 d1 e1 f1 g1"},
		// nf5 watches e3, the middle cell of both pawn moves: ring 1 around
		// e3 minus e2 (origin) and e4 (ordinary destination).
		{"double step seen", "w Pe2,Kh1,nf5,kh8 - - 0 1", "e2",
			"d2 f2 d3 f3 d4 f4"},
		// nf5 and nc4 both watch e3: ring 2 around e3, first rank included;
		// both knights may be captured.
		{"pawn to its first rank", "w Pe2,Kh1,nf5,nc4,kh8 - - 0 1", "e2",
			"c1 d1 e1 f1 g1 c2 g2 c3 g3 c4 g4 c5 d5 e5 f5 g5"},
		{"pawn on its first rank", "w Pe1,Kh1,kh8 - - 0 1", "e1", "e2"},
		// The king watches e7: ring 1 around e7 minus e6, e8 (a king is
		// never taken) — landing on the last rank promotes.
		{"promotion by position change", "w Pe6,Kh1,ke8 - - 0 1", "e6",
			"d6 f6 d7 f7 d8=B d8=N d8=Q d8=R f8=B f8=N f8=Q f8=R"},
		// The white king watches e3, the path of the en-passant capture: ring
		// 1 around e3 minus d4 (origin), d3 (push), f2 (the king); e4 taken.
		// The push d4-d3 itself is unobserved.
		{"en passant seen", "b Pe4,Kf2,pd4,kh8 - e3 0 1", "d4", "d3 d2 e2 e4 f3 f4"},
		{"en passant unseen", "b Pe4,Ke1,pd4,kh8 - e3 0 1", "d4", "d3 e3"},
		// b1 is watched by the bishop: the rook cannot go there, but castling
		// is never observed (and the king's cells are safe).
		{"castling never observed", "w Ke1,Ra1,ba2,kh8 Q - 0 1", "e1", "d1 d2 e2 f1 f2 c1"},
		// a1-a2 takes the bishop unobserved; b1, c1, d1 are seen on b1 (N =
		// 1): as a bishop from b1 to c2..h7 (a2 already counted), or ring 1
		// around b1 minus a1, a2, c1: b2, c2.
		{"rook past a watched cell", "w Ke1,Ra1,ba2,kh8 Q - 0 1", "a1",
			"a2 b2 c2 d3 e4 f5 g6 h7"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := heisenbergPos(t, tc.pos)
			got := movesFrom(p, tc.from)
			want := withPrefix(tc.from, tc.want)
			if !slices.Equal(got, want) {
				t.Errorf("moves from %s:\n got %v\nwant %v", tc.from, got, want)
			}
		})
	}
}

func TestKnightForward(t *testing.T) {
	g := MustVariant("heisenberg").Geo
	for _, tc := range []struct{ from, to, fwd string }{
		{"b1", "c3", "b2"}, {"b1", "d2", "c1"}, {"b1", "a3", "b2"},
		{"g1", "e2", "f1"}, {"e5", "c4", "d5"}, {"e5", "f7", "e6"}, {"e5", "d3", "e4"}, {"e5", "g6", "f5"},
	} {
		got := knightForward(int16(g.Cell(tc.from)), int16(g.Cell(tc.to)))
		if g.Name(int(got)) != tc.fwd {
			t.Errorf("%s-%s: forward cell %s, want %s", tc.from, tc.to, g.Name(int(got)), tc.fwd)
		}
	}
}

func cellNames(p *Position, cs []int) []string {
	var out []string
	for _, c := range cs {
		out = append(out, p.g.Name(c))
	}
	sort.Strings(out)
	return out
}

func moveTargets(p *Position, ms []Move) []string {
	var out []string
	for _, m := range ms {
		out = append(out, p.g.Name(int(m.To)))
	}
	sort.Strings(out)
	return slices.Compact(out)
}

func sortedFields(s string) []string {
	f := strings.Fields(s)
	sort.Strings(f)
	return f
}

func TestExplain(t *testing.T) {
	cases := []struct {
		name, pos, from, to string
		s                   string // "" when unobserved
		observers           string
		kind                Kind
		speed, position     string
	}{
		// perft.md: moving north the rook is seen on c4 by a5 and f7.
		{"rook north", "w Rc3,Be3,Kh1,na5,pe7,bf7,kh8 - - 0 1", "c3", "c6", "c4", "a5 f7", Bishop,
			"b5 a6 d5 e6 f7 b3 a2 d3 e2 f1",
			// ring 2 around c4 minus c2 a3 c6 (rook moves) and e3 (own)
			"a2 b2 d2 e2 a4 e4 a5 e5 a6 b6 d6 e6"},
		{"rook west", "w Rc3,Be3,Kh1,na5,pe7,bf7,kh8 - - 0 1", "c3", "a3", "b3", "a5 f7", Bishop,
			"a4 c4 d5 e6 f7 a2 c2 d1",
			"a1 b1 d1 d2 d4 a5 b5 d5"},
		{"rook south", "w Rc3,Be3,Kh1,na5,pe7,bf7,kh8 - - 0 1", "c3", "c1", "", "", NoKind, "", ""},
		{"knight", "w Nc3,Ra4,Be4,Kh1,na5,bf7,kh8 - - 0 1", "c3", "d5", "c4", "a5 f7", Pawn,
			"c5", "b2 c2 d2 a3 e3 a5 e5 a6 b6 c6 d6 e6"},
		// S holds the captured piece: no change of speed.
		{"defended", "w Ra1,Kh1,pa5,ra8,kh8 - - 0 1", "a1", "a5", "a5", "a8", NoKind, "", "a6 b4 b5 b6"},
		{"king", "w Ke1,Ra1,ba2,kh8 Q - 0 1", "e1", "c1", "", "", NoKind, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := heisenbergPos(t, tc.pos)
			ob, err := p.Explain(p.g.Cell(tc.from), p.g.Cell(tc.to))
			if err != nil {
				t.Fatal(err)
			}
			if ob.Observed != (tc.s != "") {
				t.Fatalf("observed = %v", ob.Observed)
			}
			if !ob.Observed {
				return
			}
			if p.g.Name(ob.S) != tc.s || ob.N != len(ob.Observers) {
				t.Errorf("S = %s, N = %d with %d observers", p.g.Name(ob.S), ob.N, len(ob.Observers))
			}
			if got := cellNames(p, ob.Observers); !slices.Equal(got, sortedFields(tc.observers)) {
				t.Errorf("observers %v, want %s", got, tc.observers)
			}
			if ob.SpeedKind != tc.kind {
				t.Errorf("speed kind %v, want %v", ob.SpeedKind, tc.kind)
			}
			if got := moveTargets(p, ob.Speed); !slices.Equal(got, sortedFields(tc.speed)) {
				t.Errorf("speed change to %v, want %s", got, tc.speed)
			}
			if got := moveTargets(p, ob.Position); !slices.Equal(got, sortedFields(tc.position)) {
				t.Errorf("position change to %v, want %s", got, tc.position)
			}
			legal := map[string]bool{}
			for _, s := range p.CanonicalMoves() {
				legal[s] = true
			}
			for _, m := range append(ob.Speed, ob.Position...) {
				if !legal[p.Canonical(m)] {
					t.Errorf("%s is offered but not legal", p.Canonical(m))
				}
			}
			if d := ob.Describe(p); !strings.Contains(d, "seen on "+tc.s) {
				t.Errorf("description %q", d)
			}
		})
	}
}

func TestExplainRejects(t *testing.T) {
	p := heisenbergPos(t, "w Rc3,Be3,Kh1,na5,pe7,bf7,kh8 - - 0 1")
	for _, mv := range [][2]string{{"c3", "e3"}, {"c3", "f7"}, {"a5", "b3"}, {"d4", "d5"}, {"h1", "h3"}} {
		if _, err := p.Explain(p.g.Cell(mv[0]), p.g.Cell(mv[1])); err == nil {
			t.Errorf("%s-%s explained", mv[0], mv[1])
		}
	}
	if _, err := p.Explain(-1, 99); err == nil {
		t.Error("bad cells explained")
	}
	std, _ := MustVariant("standard").ParsePosition("w Rc3,Kh1,kh8 - - 0 1")
	if _, err := std.Explain(std.g.Cell("c3"), std.g.Cell("c4")); err == nil {
		t.Error("standard chess explained")
	}
}

func TestObservers(t *testing.T) {
	p := heisenbergPos(t, "w Rc3,Be3,Kh1,na5,pe7,bf7,kh8 - - 0 1")
	obs := p.Observers()
	for _, tc := range []struct{ cell, by string }{
		{"c4", "a5 f7"}, {"b3", "a5 f7"}, {"c3", ""}, {"d6", "e7"}, {"f6", "e7"},
		// Rays stop on the first piece of either colour: f7 watches e8
		// and g8 but not beyond; e7's own cell is watched by nobody.
		{"e8", "f7"}, {"g8", "f7 h8"}, {"e7", ""},
	} {
		if got := cellNames(p, obs[p.g.Cell(tc.cell)]); !slices.Equal(got, sortedFields(tc.by)) {
			t.Errorf("%s observed by %v, want %s", tc.cell, got, tc.by)
		}
	}
}

func TestHeisenbergCheckAndMate(t *testing.T) {
	cases := []struct {
		name, pos string
		check     bool
		moves     string // every legal move, "" for none
	}{
		// Back-rank mate by ordinary attacks.
		{"mate", "b Ra8,Kg1,kg8,pf7,pg7,ph7 - - 0 1", true, ""},
		// The bishop cannot take a8 (b7 is watched by the knight) but
		// blocks as a knight from b7 on d8 or reappears next to b7 on b8 or
		// c8; a8 itself is an ordinary destination, so not a reappearance.
		// The knight also watches e6, from where the bishop blocks on f8
		// (or d8 again) as a knight.
		{"escape by observation", "b Ra8,Nc5,Kg1,bd5,kg8,pf7,pg7,ph7 - - 0 1", true, "d5-b8 d5-c8 d5-d8 d5-f8"},
		// The rook could reach e6 as a bishop from c4, but a continuation
		// never takes the king, so that is no check.
		{"no check by continuation", "b Rc3,Be3,Kh1,na5,pe7,bf7,ke6 - - 0 1", false, "-"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := heisenbergPos(t, tc.pos)
			if p.InCheck() != tc.check {
				t.Errorf("in check = %v", p.InCheck())
			}
			if tc.moves == "-" {
				return
			}
			if got := p.CanonicalMoves(); !slices.Equal(got, sortedFields(tc.moves)) {
				t.Errorf("moves %v, want %s", got, tc.moves)
			}
		})
	}
	p := heisenbergPos(t, "w Rc3,Be3,Kh1,na5,pe7,bf7,ke6 - - 0 1")
	for _, s := range p.CanonicalMoves() {
		if s == "c3-e6" {
			t.Error("the rook takes the king")
		}
	}
}

// Kings move exactly as in standard chess: never observed, no alternatives.
func TestHeisenbergKingMoves(t *testing.T) {
	for _, pos := range []string{
		"w Rc3,Be3,Kh1,na5,pe7,bf7,kh8 - - 0 1",
		"w Ke1,Ra1,Rh1,ba2,nf5,kc8 KQ - 0 1",
		"b Ke1,Qd4,ke5,rh8,pe6 - - 0 1",
	} {
		h := heisenbergPos(t, pos)
		s, err := MustVariant("standard").ParsePosition(pos)
		if err != nil {
			t.Fatal(err)
		}
		k := h.g.Name(int(h.King[h.Side]))
		if got, want := movesFrom(h, k), movesFrom(s, k); !slices.Equal(got, want) {
			t.Errorf("%s: king moves %v, standard %v", pos, got, want)
		}
	}
}

// Only an unobserved double step gives an en-passant right.
func TestHeisenbergEnPassantRight(t *testing.T) {
	p := heisenbergPos(t, "w Pe2,Kh1,kh8 - - 0 1")
	m, err := p.ParseCanonical("e2-e4")
	if err != nil {
		t.Fatal(err)
	}
	p.Make(m)
	if p.EPSkip != int16(p.g.Cell("e3")) {
		t.Errorf("unobserved double step: en-passant cell %d", p.EPSkip)
	}
	p = heisenbergPos(t, "w Pe2,Kh1,nf5,kh8 - - 0 1")
	for _, m := range p.LegalMoves() {
		u := p.Make(m)
		if p.EPSkip >= 0 {
			t.Errorf("%s gives an en-passant right", p.Canonical(m))
		}
		p.Unmake(m, u)
	}
}
