package engine

import (
	"math"
	"math/rand"
	"slices"
	"sort"
	"strings"
	"testing"
)

func c66(t *testing.T) *Variant {
	t.Helper()
	return MustVariant("chess66")
}

func c66Pos(t *testing.T, s string) *Position {
	t.Helper()
	p, err := c66(t).ParsePosition(s)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return p
}

// destinations lists, sorted, where the legal moves of the piece on from go
// (promotions counted once).
func c66Destinations(p *Position, from string) []string {
	f := p.g.Cell(from)
	seen := map[string]bool{}
	var out []string
	for _, m := range p.LegalMoves() {
		if int(m.From) == f && !seen[p.g.Name(int(m.To))] {
			seen[p.g.Name(int(m.To))] = true
			out = append(out, p.g.Name(int(m.To)))
		}
	}
	sort.Strings(out)
	return out
}

func c66ArrivalNames(g *Geometry, cs []Arrival) []string {
	var out []string
	for _, a := range cs {
		out = append(out, g.Name(a.Cell))
	}
	sort.Strings(out)
	return out
}

func c66SortedFields(s string) []string {
	f := strings.Fields(s)
	sort.Strings(f)
	return f
}

func TestChess66Coordinates(t *testing.T) {
	g := c66(t).Geo
	if g.N != 66 {
		t.Fatalf("%d cells, want 66", g.N)
	}
	cases := []struct {
		cell string
		x, r int
	}{
		{"a1", 1, 1}, {"h1", 8, 1}, {"a4", 1, 4}, {"h4", 8, 4},
		{"a5", 0, 5}, {"h5", 7, 5}, {"a8", 0, 8}, {"h8", 7, 8},
		{"4", 0, 4}, {"5", 8, 5}, {"d4", 4, 4}, {"e5", 4, 5},
	}
	for _, tc := range cases {
		c := g.Cell(tc.cell)
		if c < 0 {
			t.Fatalf("no cell %s", tc.cell)
		}
		if x, r := c66XY(c); x != tc.x || r != tc.r {
			t.Errorf("%s at (%d,%d), want (%d,%d)", tc.cell, x, r, tc.x, tc.r)
		}
		if c66At(tc.x, tc.r) != c {
			t.Errorf("c66At(%d,%d) is not %s", tc.x, tc.r, tc.cell)
		}
	}
}

// The step table of RULES §7, plus the regular steps the seed names.
func TestChess66Steps(t *testing.T) {
	g := c66(t).Geo
	step := c66Step(g)
	table := map[string][8]string{
		//     N     NE    E     SE    S     SW    W     NW
		"4":  {"a5", "b5", "b4", "b3", "a3", "", "", ""},
		"a4": {"b5", "c5", "b4", "b3", "a3", "", "", "a5"},
		"5":  {"h6", "", "", "", "h4", "g4", "g5", "g6"},
		"h5": {"h6", "", "", "h4", "g4", "f4", "g5", "g6"},
	}
	for from, row := range table {
		for d, want := range row {
			got := step(g.Cell(from), d)
			if want == "" {
				if len(got) != 0 {
					t.Errorf("%s dir %d: got %v, want nothing", from, d, c66ArrivalNames(g, got))
				}
				continue
			}
			if len(got) != 1 || g.Name(got[0].Cell) != want || got[0].Dir != d {
				t.Errorf("%s dir %d: got %v, want %s", from, d, c66ArrivalNames(g, got), want)
			}
		}
	}
	forks := []struct {
		from string
		dir  int
		want []string
	}{
		{"d4", DirNE, []string{"f5"}}, // "the diagonal from d4 goes to f5"
		{"d4", DirN, []string{"e5"}},  // "e5 sits straight above d4"
		{"e5", DirS, []string{"d4"}},
		{"a3", DirNW, nil}, // along the slanted edge
		{"h6", DirSE, nil},
		{"a3", DirN, []string{"4", "a4"}},
		{"b3", DirNW, []string{"4", "a4"}},
		{"b4", DirW, []string{"4", "a4"}},
		{"a5", DirS, []string{"4", "a4"}},
		{"a5", DirSE, []string{"4", "a4"}},
		{"b5", DirS, []string{"4", "a4"}},
		{"b5", DirSW, []string{"4", "a4"}},
		{"c5", DirSW, []string{"4", "a4"}},
		{"h4", DirN, []string{"5", "h5"}},
		{"g4", DirNE, []string{"5", "h5"}},
		{"g5", DirE, []string{"5", "h5"}},
		{"h6", DirS, []string{"5", "h5"}},
	}
	for _, tc := range forks {
		got := step(g.Cell(tc.from), tc.dir)
		if !slices.Equal(c66ArrivalNames(g, got), tc.want) {
			t.Errorf("%s dir %d: got %v, want %v", tc.from, tc.dir, c66ArrivalNames(g, got), tc.want)
		}
		for _, a := range got {
			if a.Dir != tc.dir {
				t.Errorf("%s dir %d: continues in dir %d", tc.from, tc.dir, a.Dir)
			}
		}
	}
	// Every step onto a switch enters both halves, and none goes from one
	// half to the other.
	for c := 0; c < g.N; c++ {
		for d := 0; d < 8; d++ {
			got := step(c, d)
			for _, a := range got {
				if int(g.Partner[c]) == a.Cell {
					t.Errorf("%s dir %d steps to its own partner", g.Name(c), d)
				}
				if p := g.Partner[a.Cell]; p >= 0 && !slices.ContainsFunc(got, func(b Arrival) bool { return b.Cell == int(p) }) {
					t.Errorf("%s dir %d enters %s but not %s", g.Name(c), d, g.Name(a.Cell), g.Name(int(p)))
				}
			}
		}
	}
}

// Every example sentence of RULES §7 and the seed, as the legal moves of
// one piece.
func TestChess66Examples(t *testing.T) {
	cases := []struct {
		name, pos, from string
		exact           string // the whole destination list, if set
		has, hasNot     string
	}{
		{name: "rook a1 through both halves", pos: "w Ra1,Kd3,kh8 - - 0 1", from: "a1",
			exact: "a2 a3 4 a4 a5 a6 a7 a8 b5 b6 b7 b8 b1 c1 d1 e1 f1 g1 h1"},
		{name: "rook a2", pos: "w Ra2,Kd3,kh8 - - 0 1", from: "a2", has: "4 a4 a5 a6 a7 a8 b5 b6 b7 b8"},
		{name: "rook a3", pos: "w Ra3,Kd3,kh8 - - 0 1", from: "a3", has: "4 a4 a5 a6 a7 a8 b5 b6 b7 b8"},
		{name: "a5-a8 only via 4", pos: "w Ra1,Nb5,Kd3,kh8 - - 0 1", from: "a1",
			exact: "a2 a3 4 a4 a5 a6 a7 a8 b1 c1 d1 e1 f1 g1 h1"},
		{name: "b5-b8 only via a4", pos: "w Ra1,Na5,Kd3,kh8 - - 0 1", from: "a1",
			exact: "a2 a3 4 a4 b5 b6 b7 b8 b1 c1 d1 e1 f1 g1 h1"},
		{name: "piece on 4 blocks a1-b8", pos: "w Ra1,N4,Kd3,kh8 - - 0 1", from: "a1",
			exact: "a2 a3 b1 c1 d1 e1 f1 g1 h1"},
		{name: "piece on a4 blocks a1-a8", pos: "w Ra1,Na4,Kd3,kh8 - - 0 1", from: "a1",
			exact: "a2 a3 b1 c1 d1 e1 f1 g1 h1"},
		{name: "capture on 4 takes 4, not a4", pos: "w Ra1,n4,Kd3,kh8 - - 0 1", from: "a1",
			exact: "a2 a3 4 b1 c1 d1 e1 f1 g1 h1"},
		{name: "capture on a4 takes a4, not 4", pos: "w Ra1,na4,Kd3,kh8 - - 0 1", from: "a1",
			exact: "a2 a3 a4 b1 c1 d1 e1 f1 g1 h1"},
		{name: "bishop d1", pos: "w Bd1,Kh1,kh8 - - 0 1", from: "d1", has: "4 a4 a5"},
		{name: "bishop on 4 to e8 via b5", pos: "w B4,Kh1,kh8 - - 0 1", from: "4", has: "b5 c6 d7 e8"},
		{name: "rook on rank 4", pos: "w Re4,Kh1,kh8 - - 0 1", from: "e4", has: "4 a4"},
		{name: "bishop e8 into the switch", pos: "b be8,Kh1,kh8 - - 0 1", from: "e8", has: "4 a4"},
		{name: "bishop e8 captures on a4", pos: "b be8,Na4,Kh1,kh8 - - 0 1", from: "e8", has: "a4", hasNot: "4"},
		{name: "rook a8 captures on 4", pos: "b ra8,N4,Kh1,kh8 - - 0 1", from: "a8", has: "4", hasNot: "a4 a3"},
		{name: "rook b8 into the switch", pos: "b rb8,Kh1,kh8 - - 0 1", from: "b8", has: "4 a4 a3 a2 a1"},
		{name: "knight on 5", pos: "w N5,Kh1,ka8 - - 0 1", from: "5", exact: "g7 f6 f4 g3 e4"},
		{name: "knight on 4", pos: "w N4,Kh1,kh8 - - 0 1", from: "4", has: "b6", hasNot: "a4"},
		{name: "knight on a4", pos: "w Na4,Kh1,kh8 - - 0 1", from: "a4", has: "a6", hasNot: "4"},
		{name: "knight on a3", pos: "w Na3,Kh1,kh8 - - 0 1", from: "a3", hasNot: "a5 b5"},
		{name: "knight on b6 not to 4", pos: "w Nb6,Kh1,kh8 - - 0 1", from: "b6", hasNot: "4"},
		{name: "king c5 into the switch", pos: "w Kc5,kh8 - - 0 1", from: "c5", has: "4 a4"},
		{name: "king c5, enemy on 4", pos: "w Kc5,n4,kh8 - - 0 1", from: "c5", has: "4", hasNot: "a4"},
		{name: "knight c3, own piece on a4", pos: "w Nc3,Ba4,Kh1,kh8 - - 0 1", from: "c3", hasNot: "4 a4"},
		{name: "pawn a3, enemy on 4", pos: "w Pa3,n4,Kh1,kh8 - - 0 1", from: "a3", hasNot: "4 a4"},
		{name: "king on 4 has no step to c5", pos: "w K4,kh8 - - 0 1", from: "4", exact: "a5 b5 b4 b3 a3"},
		{name: "white pawn a2", pos: "w Pa2,Kh1,kh8 - - 0 1", from: "a2", exact: "a3 4 a4"},
		{name: "black pawn h7", pos: "b ph7,Kh1,ka8 - - 0 1", from: "h7", exact: "h6 h5 5"},
		{name: "double step blocked by the switch", pos: "w Pa2,nh5,n4,Kh1,kh8 - - 0 1", from: "a2", exact: "a3"},
		{name: "white pawn on 4", pos: "w P4,nb5,Kh1,kh8 - - 0 1", from: "4", exact: "a5 b5"},
		{name: "white pawn b3 captures into the switch", pos: "w Pb3,n4,Kh1,kh8 - - 0 1", from: "b3", exact: "b4 4"},
		{name: "black pawn on 5", pos: "b p5,Ng4,Kh1,ka8 - - 0 1", from: "5", exact: "h4 g4"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := c66Pos(t, tc.pos)
			got := c66Destinations(p, tc.from)
			if tc.exact != "" && !slices.Equal(got, c66SortedFields(tc.exact)) {
				t.Errorf("moves from %s: got %v, want %v", tc.from, got, c66SortedFields(tc.exact))
			}
			for _, c := range strings.Fields(tc.has) {
				if !slices.Contains(got, c) {
					t.Errorf("moves from %s: %v lacks %s", tc.from, got, c)
				}
			}
			for _, c := range strings.Fields(tc.hasNot) {
				if slices.Contains(got, c) {
					t.Errorf("moves from %s: %v has %s", tc.from, got, c)
				}
			}
		})
	}
}

// A bishop changes colour through 4: d1 and e8 are drawn in different
// colours.
func TestChess66BishopChangesColour(t *testing.T) {
	l := c66(t).Geo.Layout
	g := c66(t).Geo
	dark := map[string]bool{}
	for _, s := range l.Shapes {
		dark[g.Name(s.Cell)] = s.Dark
	}
	if dark["d1"] == dark["e8"] {
		t.Errorf("d1 and e8 have the same colour")
	}
}

// No piece moves from one half of a switch to the other.
func TestChess66NoMoveBetweenHalves(t *testing.T) {
	for _, half := range []string{"4", "a4", "5", "h5"} {
		for _, pc := range []string{"K", "Q", "R", "B", "N", "P", "p", "n", "q"} {
			side := "w"
			if pc == strings.ToLower(pc) {
				side = "b"
			}
			// Kings where no queen in a switch sees them.
			kings := "Kb1,kc8"
			if pc == "K" {
				kings = "kc8"
			}
			pos := side + " " + pc + half + "," + kings + " - - 0 1"
			p := c66Pos(t, pos)
			partner := p.g.Name(int(p.g.Partner[p.g.Cell(half)]))
			if got := c66Destinations(p, half); slices.Contains(got, partner) {
				t.Errorf("%s: %s moves to %s", pos, half, partner)
			}
		}
	}
}

// A king in a switch is attacked when the switch is: a piece reaching one
// half always reaches the other.
func TestChess66KingInSwitchAttacked(t *testing.T) {
	checks := []struct {
		pos     string
		inCheck bool
	}{
		{"b k4,Rb8,Kh1 - - 0 1", true},  // b8-b5, then a4's partner
		{"b ka4,Ra8,Kh1 - - 0 1", true}, // a8-a5, then 4's partner
		{"b k4,Nc3,Kh1 - - 0 1", true},
		{"b ka4,Nc3,Kh1 - - 0 1", true},
		{"b k4,Pb3,Kh1 - - 0 1", true},
		{"b k4,Nb6,Kh1 - - 0 1", false}, // b6 is on a line with 4
		{"w K5,qg4,kh8 - - 0 1", true},
		{"w Kh5,rh8,kh1 - - 0 1", true},
		{"w K5,rh8,kh1 - - 0 1", true},
	}
	for _, tc := range checks {
		if got := c66Pos(t, tc.pos).InCheck(); got != tc.inCheck {
			t.Errorf("%s: in check %v, want %v", tc.pos, got, tc.inCheck)
		}
	}
	g := c66(t).Geo
	has := func(s []int16, c int) bool { return containsCell(s, int16(c)) }
	for o := 0; o < g.N; o++ {
		for _, half := range []int{c66Four, c66Five} {
			other := int(g.Partner[half])
			if o == half || o == other {
				continue
			}
			tables := map[string][]int16{
				"king": g.KingSteps[o], "knight": g.Knight[o],
				"white pawn": g.PawnCap[White][0][o], "black pawn": g.PawnCap[Black][1][o],
			}
			for _, k := range []Kind{Bishop, Rook, Queen} {
				var cs []int16
				for _, c := range g.RayCells(k, o) {
					cs = append(cs, int16(c))
				}
				tables[k.Name()] = cs
			}
			for name, tbl := range tables {
				if has(tbl, half) != has(tbl, other) {
					t.Errorf("%s on %s reaches only one half of %s/%s", name, g.Name(o), g.Name(half), g.Name(other))
				}
			}
		}
	}
}

// The same, on positions from random games: a piece in a switch is
// attacked on one half exactly when it would be on the other.
func TestChess66SwitchAttackRandomGames(t *testing.T) {
	v := c66(t)
	rng := rand.New(rand.NewSource(66))
	checked := 0
	for game := 0; game < 60; game++ {
		p := v.StartPosition()
		for ply := 0; ply < 120; ply++ {
			for _, half := range []int{c66Four, c66A4, c66Five, c66H5} {
				pc := p.Board[half]
				if pc == 0 {
					continue
				}
				other := int(p.g.Partner[half])
				by := pc.Color().Other()
				a := p.Attacked(half, by)
				p.Board[half], p.Board[other] = 0, pc
				b := p.Attacked(other, by)
				p.Board[half], p.Board[other] = pc, 0
				if a != b {
					t.Fatalf("%s: piece on %s attacked %v, on %s %v", p, p.g.Name(half), a, p.g.Name(other), b)
				}
				checked++
			}
			ms := p.LegalMoves()
			if len(ms) == 0 {
				break
			}
			// Prefer moves into switches so they are often occupied.
			// The pin shortcut of appendLegal against trying every
			// pseudo-legal move.
			brute := c66LegalByTrial(p)
			if legal := p.CanonicalMoves(); !slices.Equal(legal, brute) {
				t.Fatalf("%s: legal %v, by trial %v", p, legal, brute)
			}
			m := ms[rng.Intn(len(ms))]
			for _, x := range ms {
				if p.g.Partner[x.To] >= 0 && rng.Intn(3) == 0 {
					m = x
					break
				}
			}
			p.Make(m)
		}
	}
	t.Logf("%d occupied switches checked", checked)
	if checked < 100 {
		t.Fatalf("only %d occupied switches seen", checked)
	}
}

// legalByTrial is the legal-move list found the slow way: every
// pseudo-legal move made and the own king looked at.
func c66LegalByTrial(p *Position) []string {
	var out []string
	for _, m := range p.genPseudo(nil) {
		u := p.Make(m)
		if !p.Attacked(int(p.King[p.Side.Other()]), p.Side) {
			out = append(out, p.Canonical(m))
		}
		p.Unmake(m, u)
	}
	sort.Strings(out)
	return out
}

// Random sparse positions crowded around the switches, where pins run
// through a switch half or are held by a piece on the other half: the
// legal-move filter must agree with trial.
func TestChess66PinsAtSwitches(t *testing.T) {
	v := c66(t)
	g := v.Geo
	near := strings.Fields("4 a4 5 h5 a1 a2 a3 b3 b4 c4 a5 b5 c5 a6 b6 a8 b8 c6 d7 e8 d1 h1 h4 g4 g3 h6 g5 g6 h8 g8 f4 e4 e2")
	rng := rand.New(rand.NewSource(6666))
	pick := func() string {
		if rng.Intn(3) > 0 {
			return near[rng.Intn(len(near))]
		}
		return g.Name(rng.Intn(g.N))
	}
	checked := 0
	for try := 0; try < 20000 && checked < 3000; try++ {
		used := map[string]bool{}
		var toks []string
		place := func(letter string) {
			for {
				c := pick()
				if !used[c] {
					used[c] = true
					toks = append(toks, letter+c)
					return
				}
			}
		}
		place("K")
		place("k")
		for n := 2 + rng.Intn(6); n > 0; n-- {
			place(string("QRBNqrbnRBrb"[rng.Intn(12)]))
		}
		side := "w"
		if rng.Intn(2) == 0 {
			side = "b"
		}
		p, err := v.ParsePosition(side + " " + strings.Join(toks, ",") + " - - 0 1")
		if err != nil {
			continue // two pieces in a switch, or the side not to move in check
		}
		if legal, trial := p.CanonicalMoves(), c66LegalByTrial(p); !slices.Equal(legal, trial) {
			t.Fatalf("%s: legal %v, by trial %v", p, legal, trial)
		}
		checked++
	}
	if checked < 3000 {
		t.Fatalf("only %d positions checked", checked)
	}
}

func c66IsMate(p *Position) bool { return p.InCheck() && len(p.LegalMoves()) == 0 }

// The seed: "Queen and rook can thus checkmate an opposing king standing
// for example on a8 starting from line a1/a3 without the help of other
// pieces" — through 4 the rook sees a5–a8, through a4 b5–b8.
func TestChess66RookAloneMates(t *testing.T) {
	for _, pos := range []string{
		"b Ra1,Kh1,ka8 - - 0 1", "b Ra2,Kh1,ka8 - - 0 1", "b Ra3,Kh1,ka8 - - 0 1",
		"b Qa1,Kh1,ka8 - - 0 1",
	} {
		if !c66IsMate(c66Pos(t, pos)) {
			t.Errorf("%s is not mate", pos)
		}
	}
	// perft.md's worked example.
	p := c66Pos(t, "w Rc3,Kh1,ka8 - - 0 1")
	m, err := p.ParseCanonical("c3-a3")
	if err != nil {
		t.Fatal(err)
	}
	p.Make(m)
	if !c66IsMate(p) {
		t.Errorf("c3-a3 is not mate: %s", p)
	}
}

func TestChess66Pawns(t *testing.T) {
	// Promotion by rank; 4 and 5 are on ranks 4 and 5.
	p := c66Pos(t, "w Pb7,Kh1,kh8 - - 0 1")
	promos := 0
	for _, m := range p.LegalMoves() {
		if m.Promo != NoKind {
			promos++
		}
	}
	if promos != 4 {
		t.Errorf("b7-b8: %d promotions, want 4", promos)
	}
	if got := c66Destinations(c66Pos(t, "b pc2,Kh8,ka8 - - 0 1"), "c2"); !slices.Equal(got, []string{"c1"}) {
		t.Errorf("black c2: %v", got)
	}
	// En passant after a double step into the switch: the black pawn on b4
	// neighbours 4 and captures south-west onto a3.
	p = c66Pos(t, "w Pa2,pb4,Kh1,kh8 - - 0 1")
	for _, mv := range []string{"a2-4", "a2-a4"} {
		q := p.Clone()
		m, err := q.ParseCanonical(mv)
		if err != nil {
			t.Fatal(err)
		}
		q.Make(m)
		ep, err := q.ParseCanonical("b4-a3")
		if err != nil {
			t.Fatalf("after %s: %v", mv, err)
		}
		q.Make(ep)
		if q.Board[c66Four] != 0 || q.Board[c66A4] != 0 {
			t.Errorf("after %s b4-a3 the white pawn is still in the switch: %s", mv, q)
		}
	}
	// The short form of the en-passant field finds the pawn in the switch.
	q := c66Pos(t, "b P4,pb4,Kh1,kh8 - a3 0 1")
	if q.EPPawn != c66Four {
		t.Errorf("en-passant pawn on %s, want 4", q.g.Name(int(q.EPPawn)))
	}
	if _, err := c66(t).ParsePosition("w N4,Na4,Kh1,kh8 - - 0 1"); err == nil {
		t.Error("two pieces in one switch were accepted")
	}
}

func TestChess66Castling(t *testing.T) {
	got := c66Destinations(c66Pos(t, "w Ra1,Ke1,Rh1,ke8 KQ - 0 1"), "e1")
	for _, c := range []string{"c1", "g1"} {
		if !slices.Contains(got, c) {
			t.Errorf("king e1: %v lacks castling to %s", got, c)
		}
	}
	// Through the shift and the switch h5/5, a rook on h8 sees h7, h6, h5
	// and then g4, g3, g2, g1: White may not castle short.
	got = c66Destinations(c66Pos(t, "w Ra1,Ke1,Rh1,ke8,rh8 KQ - 0 1"), "e1")
	if slices.Contains(got, "g1") || !slices.Contains(got, "c1") {
		t.Errorf("king e1 with a rook on h8: %v", got)
	}
}

// perft.md's hand check: the start has the 20 FIDE moves and a2-4; no
// piece can reach the other army in two plies, so d2 = 21².
func TestChess66StartMoves(t *testing.T) {
	std := MustVariant("standard").StartPosition().CanonicalMoves()
	got := c66(t).StartPosition().CanonicalMoves()
	want := append(std, "a2-4")
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("start moves %v, want %v", got, want)
	}
}

func TestPerftChess66(t *testing.T) {
	runPerftCases(t, []perftCase{
		// perft.md reference values (d2 = 21², see TestChess66StartMoves).
		{"start", "chess66", "", []uint64{21, 441, 10343, 239073}},
	})
}

// Make/Unmake and the incremental hash stay consistent through switch
// moves, switch captures and en passant from a switch.
func TestChess66MakeUnmake(t *testing.T) {
	for _, s := range []string{
		"w Ra1,Pa2,Pb3,Bd1,Nc3,Ke1,Rh1,pb4,n5,qa8,rb8,ke8,ph7,bc5 KQ - 0 1",
		"b Rb2,Qg4,P4,Kh1,pb4,rh8,ph7,kb6,nb5,bd7 - a3 0 1",
	} {
		p := c66Pos(t, s)
		var walk func(d int)
		walk = func(d int) {
			if p.Hash != p.computeHash() {
				t.Fatalf("hash drift at %s", p)
			}
			if d == 0 {
				return
			}
			for _, m := range p.LegalMoves() {
				before := p.String()
				u := p.Make(m)
				walk(d - 1)
				p.Unmake(m, u)
				if p.String() != before {
					t.Fatalf("unmake of %s broke the position: %s != %s", p.Canonical(m), p, before)
				}
			}
		}
		walk(2)
	}
}

func c66PolyArea(ps []Point) float64 {
	a := 0.0
	for i := range ps {
		j := (i + 1) % len(ps)
		a += ps[i].X*ps[j].Y - ps[j].X*ps[i].Y
	}
	return math.Abs(a) / 2
}

func TestChess66Layout(t *testing.T) {
	g := c66(t).Geo
	l := g.Layout
	shapes := map[string]CellShape{}
	for _, s := range l.Shapes {
		if _, dup := shapes[g.Name(s.Cell)]; dup {
			t.Errorf("%s drawn twice", g.Name(s.Cell))
		}
		shapes[g.Name(s.Cell)] = s
		for _, p := range s.Poly {
			if p.X < l.MinX || p.X > l.MaxX || p.Y < l.MinY || p.Y > l.MaxY {
				t.Errorf("%s outside the board box", g.Name(s.Cell))
			}
		}
		if a := c66PolyArea(s.Poly); math.Abs(a-1) > 1e-9 {
			t.Errorf("%s has area %v", g.Name(s.Cell), a)
		}
	}
	if len(shapes) != 66 {
		t.Fatalf("%d cells drawn, want 66", len(shapes))
	}
	colours := []struct {
		cell string
		dark bool
	}{{"a1", true}, {"h1", false}, {"a8", true}, {"h8", false}, {"d4", true}, {"e5", false}, {"a4", false}, {"h5", true}}
	for _, tc := range colours {
		if shapes[tc.cell].Dark != tc.dark {
			t.Errorf("%s dark %v, want %v", tc.cell, shapes[tc.cell].Dark, tc.dark)
		}
	}
	// e5 straight above d4; the halves are shifted by one column.
	if d4, e5 := shapes["d4"].Poly[0], shapes["e5"].Poly[0]; d4.X != e5.X || e5.Y != d4.Y+1 {
		t.Errorf("e5 at %v is not above d4 at %v", e5, d4)
	}
	// Each transfer cell is a square of its own beside its partner: 4
	// below a5 and left of a4, 5 above h4 and right of h5.
	for _, tc := range []struct{ cell, partner, vert string }{{"4", "a4", "a5"}, {"5", "h5", "h4"}} {
		s, p, v := shapes[tc.cell].Poly, shapes[tc.partner].Poly, shapes[tc.vert].Poly
		sharesEdge := func(q []Point) bool {
			for i := range q {
				if c66HasEdge(s, q[i], q[(i+1)%len(q)]) {
					return true
				}
			}
			return false
		}
		if s[0].Y != p[0].Y || s[0].X != v[0].X || !sharesEdge(p) || !sharesEdge(v) {
			t.Errorf("%s at %v: not beside %s (%v) and in line with %s (%v)", tc.cell, s[0], tc.partner, p[0], tc.vert, v[0])
		}
	}
	switches := 0
	for _, m := range l.Marks {
		if m.Kind == "switch" {
			switches++
		}
	}
	if switches == 0 {
		t.Error("no switch marks")
	}
}

func c66HasEdge(poly []Point, a, b Point) bool {
	for i := range poly {
		p, q := poly[i], poly[(i+1)%len(poly)]
		if (p == a && q == b) || (p == b && q == a) {
			return true
		}
	}
	return false
}

func TestChess66Texts(t *testing.T) {
	v := c66(t)
	if v.Name == "" || v.Short == "" || !strings.Contains(v.Rules, "switch") {
		t.Errorf("missing texts: %q %q", v.Name, v.Short)
	}
}
