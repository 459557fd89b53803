package engine

// Cross-check of move generation on `cube`, `cube5` and `chess66` against
// the independent reference of xcheck_odd_ref_test.go: start positions,
// seeded random playouts, random positions from position strings,
// hand-made corner cases and perft.

import (
	"math/rand"
	"slices"
	"strings"
	"sync"
	"testing"
)

var xoIDs = []string{"cube", "cube5", "chess66"}

var (
	xoOnce sync.Once
	xoGeos map[string]*xoGeo
	xoErr  error
)

// xoGeoOf builds the reference boards once and links them to the engine's.
func xoGeoOf(t *testing.T, id string) *xoGeo {
	t.Helper()
	xoOnce.Do(func() {
		xoGeos = map[string]*xoGeo{}
		for _, n := range []int{8, 5} {
			k, err := xoBuildCube(n)
			if err != nil {
				xoErr = err
				return
			}
			xoGeos[k.id] = k.xoGeo
		}
		k, err := xoBuildC66()
		if err != nil {
			xoErr = err
			return
		}
		xoGeos["chess66"] = k.xoGeo
		for id, g := range xoGeos {
			if err := g.attach(MustVariant(id).Geo); err != nil {
				xoErr = err
				return
			}
		}
	})
	if xoErr != nil {
		t.Fatal(xoErr)
	}
	return xoGeos[id]
}

// xoCompare checks the engine's move list against the reference's.
func xoCompare(t *testing.T, g *xoGeo, p *Position, where string) bool {
	t.Helper()
	eng := p.CanonicalMoves()
	ref := g.moves(g.read(p))
	if slices.Equal(eng, ref) {
		return true
	}
	onlyE, onlyR := xoDiff(eng, ref)
	t.Errorf("%s %s: moves differ\n  position %s\n  only the engine: %v\n  only the rule book: %v", g.id, where, p.String(), onlyE, onlyR)
	return false
}

// The reference must first agree with what the rule book itself states.
func TestXcheckOddReferenceFollowsRuleBook(t *testing.T) {
	for _, tc := range []struct {
		id        string
		cells     int
		d1, d2    uint64 // perft.md
		vertexNbr int
	}{
		{"cube", 296, 48, 2304, 6},
		{"cube5", 98, 37, 1353, 6},
		{"chess66", 66, 21, 441, 0},
	} {
		g := xoGeoOf(t, tc.id)
		if len(g.names) != tc.cells {
			t.Errorf("%s: %d cells, want %d", tc.id, len(g.names), tc.cells)
		}
		v := MustVariant(tc.id)
		start := g.read(v.StartPosition())
		if got := g.perft(start, 1); got != tc.d1 {
			t.Errorf("%s: reference perft(1) = %d, perft.md %d", tc.id, got, tc.d1)
		}
		if got := g.perft(start, 2); got != tc.d2 {
			t.Errorf("%s: reference perft(2) = %d, perft.md %d", tc.id, got, tc.d2)
		}
	}

	// §6: "A cell has 8 neighbours, a vertex 6"; an orthogonal line goes
	// round the cube in 28 cells; on faces 5 and 6 a pawn has two forward
	// squares and one forward diagonal.
	for _, n := range []int{8, 5} {
		k, err := xoBuildCube(n)
		if err != nil {
			t.Fatal(err)
		}
		for c := range k.pts {
			want := 8
			if k.vertex(c) {
				want = 6
			}
			if len(k.king[c]) != want {
				t.Errorf("%s %s: %d neighbours, want %d", k.id, k.names[c], len(k.king[c]), want)
			}
		}
		if n == 8 {
			if got := len(k.paths['R'][k.byName["1d4"]][0]); got != 27 {
				t.Errorf("cube: a rook line from 1d4 holds %d other cells, want 27", got)
			}
			for _, nm := range []string{"5d4", "6c5"} {
				c := k.byName[nm]
				if len(k.push[0][c]) != 2 || len(k.capt[0][c]) != 1 {
					t.Errorf("cube: White pawn on %s: %d forward, %d capture steps; want 2 and 1", nm, len(k.push[0][c]), len(k.capt[0][c]))
				}
			}
		}
	}

	// §7's examples.
	g := xoGeoOf(t, "chess66")
	rayCells := func(kind byte, from string) []string {
		seen := map[string]bool{}
		var out []string
		for _, p := range g.paths[kind][g.byName[from]] {
			for _, c := range p {
				if !seen[g.names[c]] {
					seen[g.names[c]] = true
					out = append(out, g.names[c])
				}
			}
		}
		slices.Sort(out)
		return out
	}
	names := func(cs []int) []string {
		var out []string
		for _, c := range cs {
			out = append(out, g.names[c])
		}
		slices.Sort(out)
		return out
	}
	want := func(what string, got []string, w string) {
		ws := strings.Fields(w)
		slices.Sort(ws)
		if !slices.Equal(got, ws) {
			t.Errorf("chess66 %s: %v, rule book %v", what, got, ws)
		}
	}
	want("rook on a1", rayCells('R', "a1"), "a2 a3 4 a4 a5 a6 a7 a8 b5 b6 b7 b8 b1 c1 d1 e1 f1 g1 h1")
	want("knight on 5", names(g.knight[g.byName["5"]]), "g7 f6 f4 g3 e4")
	for _, x := range []struct {
		what    string
		cells   []string
		has     string
		present bool
	}{
		{"bishop on d1", rayCells('B', "d1"), "4", true},
		{"bishop on d1", rayCells('B', "d1"), "a4", true},
		{"bishop on d1", rayCells('B', "d1"), "a5", true},
		{"bishop on 4", rayCells('B', "4"), "e8", true},
		{"knight on 4", names(g.knight[g.byName["4"]]), "b6", true},
		{"knight on a4", names(g.knight[g.byName["a4"]]), "a6", true},
		{"knight on a3", names(g.knight[g.byName["a3"]]), "a5", false},
		{"knight on a3", names(g.knight[g.byName["a3"]]), "b5", false},
		{"knight on b6", names(g.knight[g.byName["b6"]]), "4", false},
		{"king on c5", names(g.king[g.byName["c5"]]), "4", true},
		{"king on 4", names(g.king[g.byName["4"]]), "c5", false},
	} {
		if slices.Contains(x.cells, x.has) != x.present {
			t.Errorf("chess66 %s: %v; the rule book says %s is %v", x.what, x.cells, x.has, map[bool]string{true: "reached", false: "not reached"}[x.present])
		}
	}
	// "A piece on 4 blocks a1-b8".
	p := g.read(xoMustParse(t, "chess66", "w Ra1,Kh1,n4,kh8 - -"))
	if slices.Contains(g.moves(p), "a1-b8") {
		t.Errorf("chess66: a knight on 4 does not block a1-b8")
	}
	// perft.md: "w Rc3,Kh1,ka8: c3-a3 is mate".
	p = g.read(xoMustParse(t, "chess66", "w Rc3,Kh1,ka8 - - 0 1"))
	for _, m := range g.legal(p) {
		if g.canon(m) == "c3-a3" {
			q := g.apply(p, m)
			if len(g.legal(q)) != 0 || !g.attacked(q, q.kingOf(1), 0) {
				t.Errorf("chess66: c3-a3 is not mate for the reference")
			}
		}
	}
}

func xoMustParse(t *testing.T, id, s string) *Position {
	t.Helper()
	p, err := MustVariant(id).ParsePosition(s)
	if err != nil {
		t.Fatalf("%s %q: %v", id, s, err)
	}
	return p
}

// The engine's start positions are the rule book's.
func TestXcheckOddStartPositions(t *testing.T) {
	for _, n := range []int{8, 5} {
		k, err := xoBuildCube(n)
		if err != nil {
			t.Fatal(err)
		}
		xoSameStart(t, k.id, k.startString())
	}
	k, err := xoBuildC66()
	if err != nil {
		t.Fatal(err)
	}
	xoSameStart(t, "chess66", k.startString())
}

func xoSameStart(t *testing.T, id, s string) {
	t.Helper()
	v := MustVariant(id)
	want := xoMustParse(t, id, s)
	got := v.StartPosition()
	if !slices.Equal(got.Board, want.Board) || got.Castle != want.Castle || got.Side != want.Side || got.EPSkip != -1 {
		t.Errorf("%s: start position\n  engine    %s\n  rule book %s", id, got, want)
	}
}

// xoBudget scales the random work: full without the race detector, a
// tenth under it or with -short.
func xoBudget(full int) int {
	if raceEnabled || testing.Short() {
		return max(full/10, 2)
	}
	return full
}

// Seeded random games from the start: every position's move list, and the
// position every move leads to, must agree.
func TestXcheckOddPlayouts(t *testing.T) {
	for _, id := range xoIDs {
		t.Run(id, func(t *testing.T) {
			g := xoGeoOf(t, id)
			v := MustVariant(id)
			rng := rand.New(rand.NewSource(int64(len(id)) * 7919))
			games, plies := xoBudget(40), 80
			compared, fails := 0, 0
			for game := 0; game < games && fails < 3; game++ {
				p := v.StartPosition()
				fails += xoPlay(t, g, p, rng, plies, &compared)
			}
			t.Logf("%s: %d positions from %d games compared", id, compared, games)
		})
	}
}

// xoPlay plays random moves, comparing at every ply; it returns 1 after a
// disagreement.
func xoPlay(t *testing.T, g *xoGeo, p *Position, rng *rand.Rand, plies int, compared *int) int {
	t.Helper()
	for ply := 0; ply < plies; ply++ {
		*compared++
		if !xoCompare(t, g, p, "in a game") {
			return 1
		}
		ms := p.LegalMoves()
		if len(ms) == 0 {
			return 0
		}
		m := ms[rng.Intn(len(ms))]
		mv := p.Canonical(m)
		before := g.read(p)
		var ref *xoMove
		for _, rm := range g.legal(before) {
			if g.canon(rm) == mv {
				ref = &rm
				break
			}
		}
		pos := p.String()
		p.Make(m)
		if d := g.diffBoards(p, g.apply(before, *ref)); d != "" {
			t.Errorf("%s: after %s from %s: %s", g.id, mv, pos, d)
			return 1
		}
	}
	return 0
}

// Random positions written as position strings.
func TestXcheckOddRandomPositions(t *testing.T) {
	for _, id := range xoIDs {
		t.Run(id, func(t *testing.T) {
			g := xoGeoOf(t, id)
			v := MustVariant(id)
			rng := rand.New(rand.NewSource(int64(len(id)) * 104729))
			want := xoBudget(3000)
			compared, refused, fails := 0, 0, 0
			for made := 0; made < want && fails < 3; {
				s, want, ok := g.randomPosition(rng, made%2 == 1)
				p, err := v.ParsePosition(s)
				if !ok {
					refused++
					if err == nil {
						t.Errorf("%s: %s: the side not to move is in check, the engine accepts it", id, s)
						fails++
					}
					continue
				}
				if err != nil {
					t.Errorf("%s: %s: %v", id, s, err)
					fails++
					continue
				}
				made++
				if d := g.diffBoards(p, want); d != "" {
					t.Errorf("%s: %s: the engine reads %s", id, s, d)
					fails++
					continue
				}
				compared++
				if !xoCompare(t, g, p, "random") {
					fails++
					continue
				}
				// A few plies on, en-passant rights and checks arise by play.
				fails += xoPlay(t, g, p, rng, 3, &compared)
			}
			t.Logf("%s: %d positions compared (%d random strings refused for a capturable king)", id, compared, refused)
		})
	}
}

// xoCase is a hand-made position. has and hasNot are moves the rule book
// requires or forbids there, each reasoned in why.
type xoCase struct {
	id, pos, why string
	has, hasNot  []string
}

var xoCases = []xoCase{
	// cube: 1fN = (f, N−1, 7) on the top face; 4h2 = (7,7,6), 4h5 = (7,7,3).
	{"cube", "w Q1f6,B1c6,K3d4,r4h5,k2e4 - -",
		"the queen's diagonal 1g7-1h8 meets the vertex and turns into the edge 4h2-4h5 (§6: d=(1,1,0) crosses x and y, minus face 1's normal gives (0,0,-1)); the bishop's diagonal 1b7-1a8 ends on the vertex, where a queen would turn onto 4a2",
		[]string{"1f6-1h8", "1f6-4h2", "1f6-4h5", "1c6-1a8"}, []string{"1c6-4a2"}},
	{"cube", "w Q1d8,R4a4,K3d4,n6c3,k2e4 - -",
		"an orthogonal along the edge 1e8-1h8 turns at the vertex into face 6's diagonal 6b2-6c3 for the queen (d=(1,0,0) minus the normals of faces 1 and 4 gives (0,-1,-1)); the rook on the edge 4a4-1a8 stops on the vertex",
		[]string{"1d8-1h8", "1d8-6b2", "1d8-6c3", "4a4-1a8"}, nil},
	{"cube", "w N1g7,K3d4,b4h2,k2e4 - -",
		"4h2 is two king steps from 1g7 (via the vertex 1h8), not a king step, and the bishop ray toward it ends at 1h8, so it is a knight target (§6's decision)",
		[]string{"1g7-4h2"}, nil},
	{"cube", "w P5d4,p5e3,n5d3,K3d4,k2e4 - -",
		"on face 5 a White pawn at (0,4,3) (D = 7) has two forward cells 5e4, 5d3 (D = 6; 5d3 is blocked) and one capture cell 5e3 (D = 5)",
		[]string{"5d4-5e4", "5d4-5e3"}, []string{"5d4-5d3", "5d4-5c3"}},
	{"cube", "w K1e8,P4c2,P4d3,P1a7,P6b2,k2e1 - -",
		"start cells double-step whatever the pawn's history (4c2, 1a7, 6b2); 4d3 is not a start cell. 1a7 has two forward cells (1a6 and 5b7) and a double step through each",
		[]string{"1a7-1a5", "1a7-5b6", "4c2-4c4", "6b2-6b4"}, []string{"4d3-4d5"}},
	{"cube", "w K1e8,R1h8,R1a8,q6c3,k2e1 KQ -",
		"the black queen's diagonal 6c3-6b2-1h8 turns at the vertex toward 1g8 (d=(0,1,1) minus face 6's normal gives (-1,0,0)); the rook on 1h8 blocks it until castling moves the rook away, so 1e8-1g8 leaves the king attacked (§1: castling may not leave the king attacked afterwards)",
		[]string{"1e8-1c8"}, []string{"1e8-1g8"}},
	{"cube", "b K3d4,P1c5,p1d5,k2e4 - 1c6/1c5",
		"en passant by the generic rule on the top face: 1d5 neighbours 1c5 and has the capture step 1d5-1c6 (Black's D falls from 3 to 2)",
		[]string{"1d5-1c6"}, nil},
	{"cube", "b K3d4,P5b6,p5c6,k2e4 - 5b7/5b6",
		"White's 1a7 double-stepped through its second forward cell 5b7 to 5b6; 5c6 neighbours 5b6 and captures onto 5b7 (Black's D falls from 4 to 2)",
		[]string{"5c6-5b7"}, nil},
	{"cube", "w K1d4,R1a2,q2d6,k3e5 - -",
		"one queen checks twice along the ring x = 3: 2d7-1d1-1d2-1d3 one way and 2d5…2d1-3d…-4d…-1d8…1d5 the other, so interposing on 1d2 does not help",
		[]string{"1d4-1c4"}, []string{"1a2-1d2"}},
	{"cube", "w K1d4,R1a2,q2d6,k3e5,N3d4 - -",
		"the same with the knight on 3d4 closing the long way round: now 1a2-1d2 blocks the only check",
		[]string{"1a2-1d2"}, []string{"1a2-1a3"}},
	{"cube5", "w P2c2,n2b1,r2d1,K1c3,k3c3 - -",
		"2c2 is one orthogonal step from White's promotion face: the push and both captures promote, four ways each",
		[]string{"2c2-2c1=Q", "2c2-2c1=N", "2c2-2b1=R", "2c2-2d1=B"}, []string{"2c2-2c1"}},
	{"cube5", "w P1a1,P1e3,K1c3,k3c3,n2b2 - -",
		"the vertex pawn 1a1 has one forward cell 2a4 along the vertical edge, a double step to 2a3, and two captures (2b4, 5d4 side cells with D = 3)",
		[]string{"1a1-2a4", "1a1-2a3"}, nil},

	// chess66
	{"chess66", "w Ra3,Kh1,kh8,Pa6,nb6 - -",
		"the rook's line north forks at the switch: 4 and a4, then a5 (via 4; a6 is its own pawn) and b5, b6 (via a4, capturing)",
		[]string{"a3-4", "a3-a4", "a3-a5", "a3-b5", "a3-b6"}, []string{"a3-a6", "a3-b7"}},
	{"chess66", "w K4,rd4,kh8 - -",
		"the rook's line west d4-c4-b4 enters the switch at a4; a king on the other half is attacked because the switch is",
		[]string{"4-a5"}, []string{"4-b4"}},
	{"chess66", "w Kc5,kh8 - -",
		"c5's south-west step enters the switch at a4, so the king may stop on either half; 4 has no step back to c5",
		[]string{"c5-4", "c5-a4"}, nil},
	{"chess66", "b Kh1,P4,pb4,kh8 - a3/4",
		"after a2-4 the pawn on b4 (a king-step neighbour of 4, capture step b4-a3) takes en passant",
		[]string{"b4-a3"}, nil},
	{"chess66", "w Kh1,Pg5,p5,ka8 - h6/5",
		"after h7-5 the pawn on g5 (5's west neighbour, capture step g5-h6) takes en passant",
		[]string{"g5-h6"}, nil},
	{"chess66", "w Ka2,N4,rb7,kh8 - -",
		"the rook's line b6-b5 enters the switch at a4 and would pass on to a3-a2 if the switch were empty: the knight on the other half is pinned and may only interpose on b6",
		[]string{"4-b6"}, []string{"4-c5", "4-d5", "4-c3", "4-b2"}},
	{"chess66", "w Ka2,Na4,rb7,kh8 - -",
		"the same pin with the knight on the half the line enters",
		nil, []string{"a4-a6"}},
	{"chess66", "b Kh1,N4,pb5,kh8 - -",
		"b5's forward step enters the switch, which is occupied: no push; its capture step south-west takes the knight on 4",
		[]string{"b5-4"}, []string{"b5-a4"}},
	{"chess66", "w Bd1,Kh1,n4,kh8 - -",
		"the bishop's diagonal c2-b3 enters the switch held by an enemy: it captures on 4 and goes no further",
		[]string{"d1-4"}, []string{"d1-a4", "d1-a5"}},
	{"chess66", "w Ke1,Ra1,Rh1,q5,kh8 KQ -",
		"the queen on 5 sees d1 along g4-f3-e2-d1, the cell queenside castling passes",
		[]string{"e1-g1"}, []string{"e1-c1"}},
	{"chess66", "w Ka1,Pa2,n4,kh8 - -",
		"an enemy in the switch blocks a2's double step (its second step enters the switch) and a2 has no capture onto it; the knight on 4 guards b2",
		[]string{"a2-a3"}, []string{"a2-4", "a2-a4", "a1-b2"}},
	{"chess66", "w Nb6,N5,Na3,Ka1,kh8,p4 - -",
		"knights near switches (§7's examples): b6 does not reach 4 (the rook line b5-a4 subtracts the whole switch); 5 reaches g7 f6 f4 g3 e4; a3 reaches neither a5 nor b5, nor the switch (one king step away)",
		[]string{"5-g7", "5-f6", "5-f4", "5-g3", "5-e4"}, []string{"b6-4", "a3-a5", "a3-b5", "a3-4"}},
}

func TestXcheckOddHandMade(t *testing.T) {
	for _, tc := range xoCases {
		g := xoGeoOf(t, tc.id)
		p := xoMustParse(t, tc.id, tc.pos)
		if !xoCompare(t, g, p, "hand-made ("+tc.why+")") {
			continue
		}
		ms := p.CanonicalMoves()
		for _, m := range tc.has {
			if !slices.Contains(ms, m) {
				t.Errorf("%s %s: %s missing; %s", tc.id, tc.pos, m, tc.why)
			}
		}
		for _, m := range tc.hasNot {
			if slices.Contains(ms, m) {
				t.Errorf("%s %s: %s must not be legal; %s", tc.id, tc.pos, m, tc.why)
			}
		}
		depth := 3
		if raceEnabled || testing.Short() {
			depth = 2
		}
		if got, want := p.Perft(depth), g.perft(g.read(p), depth); got != want {
			t.Errorf("%s %s: perft(%d) engine %d, reference %d", tc.id, tc.pos, depth, got, want)
		}
	}
	// §7: a switch holds at most one piece, whatever the position string says.
	if _, err := MustVariant("chess66").ParsePosition("w Ka1,N4,na4,kh8 - -"); err == nil {
		t.Errorf("chess66: two pieces in the switch 4/a4 accepted")
	}
}

// Perft of the engine against the reference: the start positions (and
// perft.md's values) and a sample of random positions.
func TestXcheckOddPerft(t *testing.T) {
	table := map[string][]uint64{ // perft.md
		"cube":    {48, 2304, 122924},
		"cube5":   {37, 1353, 52799},
		"chess66": {21, 441, 10343},
	}
	for _, id := range xoIDs {
		t.Run(id, func(t *testing.T) {
			g := xoGeoOf(t, id)
			v := MustVariant(id)
			start := v.StartPosition()
			depth := 3
			if raceEnabled || testing.Short() {
				depth = 2
			}
			for d := 1; d <= depth; d++ {
				eng, ref := start.Perft(d), g.perft(g.read(start), d)
				if eng != ref || eng != table[id][d-1] {
					t.Errorf("start perft(%d): engine %d, reference %d, perft.md %d", d, eng, ref, table[id][d-1])
				}
			}
			rng := rand.New(rand.NewSource(int64(len(id)) * 15485863))
			n := xoBudget(30)
			for done := 0; done < n; {
				s, _, ok := g.randomPosition(rng, done%2 == 0)
				if !ok {
					continue
				}
				done++
				p := xoMustParse(t, id, s)
				if eng, ref := p.Perft(2), g.perft(g.read(p), 2); eng != ref {
					t.Errorf("%s: perft(2) engine %d, reference %d", s, eng, ref)
				}
			}
			t.Logf("%s: start to depth %d and %d random positions to depth 2", id, depth, n)
		})
	}
}
