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
