package engine

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"
)

var torusIDs = []string{"toroidal", "cylindrical", "klein"}

// torusPos parses a position of variant id or fails the test.
func torusPos(t *testing.T, id, s string) *Position {
	t.Helper()
	p, err := MustVariant(id).ParsePosition(s)
	if err != nil {
		t.Fatalf("%s: %q: %v", id, s, err)
	}
	return p
}

// torusPlay makes canonical moves in order, failing on the first illegal one.
func torusPlay(t *testing.T, p *Position, moves ...string) {
	t.Helper()
	for _, s := range moves {
		m, err := p.ParseCanonical(s)
		if err != nil {
			t.Fatalf("%s after %s: %v", s, p, err)
		}
		p.Make(m)
	}
}

// torusMovesFrom is the sorted canonical legal moves starting on cell from.
func torusMovesFrom(p *Position, from string) []string {
	var out []string
	for _, s := range p.CanonicalMoves() {
		if strings.HasPrefix(s, from+"-") {
			out = append(out, s)
		}
	}
	return out
}

// torusWantPos compares p with a position string, whatever its token order.
func torusWantPos(t *testing.T, p *Position, want string) {
	t.Helper()
	if w := torusPos(t, p.V.ID, want); p.String() != w.String() {
		t.Errorf("got %s, want %s", p, w)
	}
}

func torusHasMove(p *Position, move string) bool {
	for _, s := range p.CanonicalMoves() {
		if s == move {
			return true
		}
	}
	return false
}

// torusCells names the cells of g satisfying keep, sorted as move lists are.
func torusCells(g *Geometry, prefix string, keep func(x, y int) bool) []string {
	var out []string
	for c := 0; c < g.N; c++ {
		if keep(c%torusW, c/torusW) {
			out = append(out, prefix+g.Name(c))
		}
	}
	sort.Strings(out)
	return out
}

func torusSame(a, b []string) bool {
	return strings.Join(a, " ") == strings.Join(b, " ")
}

// The seed's sample game opens 1. e4 e11 (Black's + pawn double-steps
// from rank 9), then 2. Bc4 "attacking f7": c4-d5-e6-f7 on the drawn board.
func TestTorusSeedSampleGame(t *testing.T) {
	for _, id := range torusIDs {
		t.Run(id, func(t *testing.T) {
			p := MustVariant(id).StartPosition()
			torusPlay(t, p, "e2-e4", "e9-e11", "f1-c4")
			if !p.Attacked(p.g.Cell("f7"), White) {
				t.Errorf("the bishop on c4 should attack f7: %s", p)
			}
		})
	}
}

// perft.md worked example: on the torus a bishop's diagonal wraps through
// every cell of its colour (lcm(8, 14) = 56 cells on one diagonal), so it
// has all 55 of them; the kings stand on the other colour.
func TestToroidalBishopSeesHalfTheBoard(t *testing.T) {
	p := torusPos(t, "toroidal", "w Bf1,Kd4,kd12 - - 0 1")
	got := torusMovesFrom(p, "f1")
	want := torusCells(p.g, "f1-", func(x, y int) bool { return (x+y)%2 == 1 && !(x == 5 && y == 0) })
	if len(got) != 55 || !torusSame(got, want) {
		t.Errorf("bishop f1 has %d moves, want the 55 other light cells:\n got %v", len(got), got)
	}
	// RULES §4 spells the start of the journey: f1-e2-…-a6-h7-…-a14-h1-…-a8.
	wantStart := strings.Fields("e2 d3 c4 b5 a6 h7 g8 f9 e10 d11 c12 b13 a14 h1 g2 f3 e4 d5 c6 b7 a8")
	found := false
	for _, path := range p.g.RayPaths(Bishop, p.g.Cell("f1")) {
		if len(path) < len(wantStart) {
			continue
		}
		ok := true
		for i, nm := range wantStart {
			if p.g.Name(path[i]) != nm {
				ok = false
				break
			}
		}
		found = found || ok
	}
	if !found {
		t.Errorf("no bishop ray from f1 runs %v", wantStart)
	}
}

// perft.md worked example: on the Klein bottle a vertical line from d5
// crosses the seam onto the e-file and comes back to the d-file, so the
// rook sees files d and e whole, plus rank 5 (e5 counted once).
func TestKleinRookSeesTwoFiles(t *testing.T) {
	p := torusPos(t, "klein", "w Rd5,Ka3,kh10 - - 0 1")
	got := torusMovesFrom(p, "d5")
	want := torusCells(p.g, "d5-", func(x, y int) bool { return (x == 3 || x == 4 || y == 4) && !(x == 3 && y == 4) })
	if len(got) != 33 || !torusSame(got, want) {
		t.Errorf("rook d5 has %d moves, want 33:\n got  %v\n want %v", len(got), got, want)
	}
}

// Rook counts on an empty board, reasoned from the gluings: a rook on a5
// has its rank (7 cells, round the wrap or, on the cylinder, to the h
// edge) and its file (13 cells). On the Klein bottle the file continues
// on h after the seam: 27 cells of files a and h, plus b5-g5, 33.
func TestTorusRookCounts(t *testing.T) {
	for _, tc := range []struct {
		id   string
		want int
	}{{"toroidal", 20}, {"cylindrical", 20}, {"klein", 33}} {
		p := torusPos(t, tc.id, "w Ra5,Kc2,kf9 - - 0 1")
		if got := len(torusMovesFrom(p, "a5")); got != tc.want {
			t.Errorf("%s: rook a5 has %d moves, want %d: %v", tc.id, got, tc.want, torusMovesFrom(p, "a5"))
		}
	}
}

// RULES §4: "a bishop going up-right from a11 lands on g12 and continues
// up-left"; a pawn keeps its direction across the seam.
func TestKleinSeam(t *testing.T) {
	g := MustVariant("klein").Geo
	step := torusStep(glueKlein)
	for _, tc := range []struct {
		from    string
		dir     int
		to      string
		thenDir int
	}{
		{"a11", DirNE, "g12", DirNW},
		{"a11", DirN, "h12", DirN},
		{"h12", DirS, "a11", DirS},
		{"b12", DirSW, "h11", DirSE}, // 7 − ((1−1) mod 8) = 7
		{"a11", DirNW, "a12", DirNE}, // files wrap first: 7 − 7 = 0
		{"d10", DirN, "d11", DirN},   // below the seam nothing changes
		{"d14", DirN, "d1", DirN},    // the 14/1 gluing is straight
		{"h3", DirE, "a3", DirE},
	} {
		a := step(g.Cell(tc.from), tc.dir)
		if len(a) != 1 || g.Name(a[0].Cell) != tc.to || a[0].Dir != tc.thenDir {
			t.Errorf("%s dir %d: got %v, want %s dir %d", tc.from, tc.dir, a, tc.to, tc.thenDir)
		}
	}
	found := false
	for _, path := range g.RayPaths(Bishop, g.Cell("a11")) {
		if len(path) >= 3 && g.Name(path[0]) == "g12" && g.Name(path[1]) == "f13" && g.Name(path[2]) == "e14" {
			found = true
		}
	}
	if !found {
		t.Error("no bishop ray a11-g12-f13-e14")
	}
	// 7 − x flips the parity of the file, so squares meeting across the
	// seam are drawn alike, and a diagonal step across it changes colour.
	dark := map[int]bool{}
	for _, sh := range g.Layout.Shapes {
		dark[sh.Cell] = sh.Dark
	}
	if dark[g.Cell("a11")] != dark[g.Cell("h12")] || dark[g.Cell("a11")] == dark[g.Cell("g12")] {
		t.Error("seam colours: a11 and h12 should match, a11 and g12 differ")
	}
	// A Black + pawn walks c9-c11, crosses onto f12 and goes on up to
	// promote on f1 (rank 14 continues on rank 1).
	p := torusPos(t, "klein", "b Ka5,kh9,p+c9 - - 0 1")
	torusPlay(t, p, "c9-c11", "a5-a6", "c11-f12", "a6-a5", "f12-f13", "a5-a6", "f13-f14", "a6-a5", "f14-f1=N")
}

// The local picture is flat everywhere on the torus and the Klein bottle
// (both 8×14 are large enough), so every cell has 8 king steps and the
// generic knight gives the 8 orthodox leaps. On the cylinder the files a
// and h are edges, so counts are those of an endless 8-wide strip.
func TestTorusNeighbourCounts(t *testing.T) {
	stripKnight := [8]int{4, 6, 8, 8, 8, 8, 6, 4}
	stripKing := [8]int{5, 8, 8, 8, 8, 8, 8, 5}
	for _, id := range torusIDs {
		g := MustVariant(id).Geo
		for c := 0; c < g.N; c++ {
			wantK, wantN := 8, 8
			if id == "cylindrical" {
				wantK, wantN = stripKing[c%torusW], stripKnight[c%torusW]
			}
			if len(g.KingSteps[c]) != wantK || len(g.Knight[c]) != wantN {
				t.Errorf("%s %s: %d king steps, %d knight moves; want %d, %d", id, g.Name(c), len(g.KingSteps[c]), len(g.Knight[c]), wantK, wantN)
			}
		}
	}
}

// Castling is orthodox on ranks 1 and 8 in all three gluings.
func TestTorusCastling(t *testing.T) {
	for _, id := range torusIDs {
		t.Run(id, func(t *testing.T) {
			// Nothing attacks the king's path: every rook line ends on a
			// rook or king of the other side (the a- and h-files wrap
			// into the other side's rook; on the Klein bottle a wraps to h).
			for _, tc := range []struct {
				side, king, short, long, rookTo, rightsAfter string
				rook                                         Piece
			}{
				{"w", "e1", "e1-g1", "e1-c1", "f1", "kq", MakePiece(White, Rook, false)},
				{"b", "e8", "e8-g8", "e8-c8", "d8", "KQ", MakePiece(Black, Rook, false)},
			} {
				p := torusPos(t, id, tc.side+" Ke1,Ra1,Rh1,ke8,ra8,rh8 KQkq - 0 1")
				for _, m := range []string{tc.short, tc.long} {
					if !torusHasMove(p, m) {
						t.Errorf("%s should be legal: %v", m, torusMovesFrom(p, tc.king))
					}
				}
				castle := tc.short
				if tc.side == "b" {
					castle = tc.long
				}
				torusPlay(t, p, castle)
				if p.Board[p.g.Cell(tc.rookTo)] != tc.rook {
					t.Errorf("after %s: %s", castle, p)
				}
				if p.castleString() != tc.rightsAfter {
					t.Errorf("after %s: rights %s, want %s", castle, p.castleString(), tc.rightsAfter)
				}
			}

			// "Between" is along the row as drawn: pieces on f1 and g1 (on
			// the way round the wrap from e1 to a1) do not stop the long
			// castle, a knight on b1 does.
			p := torusPos(t, id, "w Ke1,Ra1,Bf1,Ng1,kd10 Q - 0 1")
			if !torusHasMove(p, "e1-c1") {
				t.Errorf("e1-c1 should be legal with f1 and g1 occupied: %v", torusMovesFrom(p, "e1"))
			}
			p = torusPos(t, id, "w Ke1,Ra1,Nb1,ke8 Q - 0 1")
			if torusHasMove(p, "e1-c1") {
				t.Error("e1-c1 should be refused with b1 occupied")
			}
		})
	}
}

// The rook leaving its corner opens a line round the edge. Black's rook
// on a1 looks west through h1 (White's rook) and east through b1 (White's
// knight): e1, f1 and g1 are not attacked, so every FIDE condition holds.
// After e1-g1 the rook has gone from h1 to f1, and where files wrap
// (torus, Klein bottle) the line a1-h1-g1 reaches the king: castling
// would leave it attacked and is refused. On the cylinder a1 and h1 are
// not neighbours and castling is legal.
func TestTorusCastlingOpensWrappedLine(t *testing.T) {
	for _, tc := range []struct {
		id    string
		legal bool
	}{{"toroidal", false}, {"cylindrical", true}, {"klein", false}} {
		p := torusPos(t, tc.id, "w Ke1,Rh1,Nb1,ra1,ke8 K - 0 1")
		for _, c := range []string{"e1", "f1", "g1"} {
			if p.Attacked(p.g.Cell(c), Black) {
				t.Fatalf("%s: %s attacked before castling; the case tests nothing", tc.id, c)
			}
		}
		if got := torusHasMove(p, "e1-g1"); got != tc.legal {
			t.Errorf("%s: e1-g1 legal = %v, want %v", tc.id, got, tc.legal)
		}
	}
}

// RULES §4 pawns: White promotes on rank 8 and Black on rank 1 whichever
// way they travel; a Black + pawn goes 9 → 14 → 1.
func TestTorusPromotion(t *testing.T) {
	promos := func(from, to string) []string {
		var out []string
		for _, k := range "BNQR" {
			out = append(out, fmt.Sprintf("%s-%s=%c", from, to, k))
		}
		return out
	}
	for _, id := range torusIDs {
		t.Run(id, func(t *testing.T) {
			p := torusPos(t, id, "b Ka5,kh10,p+c13 - - 0 1")
			torusPlay(t, p, "c13-c14", "a5-a6")
			if got := torusMovesFrom(p, "c14"); !torusSame(got, promos("c14", "c1")) {
				t.Errorf("Black + pawn on c14: %v", got)
			}
			torusPlay(t, p, "c14-c1=Q")
			if p.Board[p.g.Cell("c1")] != MakePiece(Black, Queen, false) {
				t.Errorf("after c14-c1=Q: %s", p)
			}
			// Black − pawn: the orthodox way to rank 1.
			p = torusPos(t, id, "b Ka5,kh10,p-c2 - - 0 1")
			if got := torusMovesFrom(p, "c2"); !torusSame(got, promos("c2", "c1")) {
				t.Errorf("Black − pawn on c2: %v", got)
			}
			// Black + pawn passing rank 8 does not promote there; White
			// − pawn from rank 14 promotes on 8, + pawn on rank 8 too.
			p = torusPos(t, id, "b Ka5,kh10,p+c7 - - 0 1")
			if got := torusMovesFrom(p, "c7"); !torusSame(got, []string{"c7-c8"}) {
				t.Errorf("Black + pawn on c7: %v", got)
			}
			p = torusPos(t, id, "w Ka5,kh12,P-e9,P+b7 - - 0 1")
			if got := torusMovesFrom(p, "e9"); !torusSame(got, promos("e9", "e8")) {
				t.Errorf("White − pawn on e9: %v", got)
			}
			if got := torusMovesFrom(p, "b7"); !torusSame(got, promos("b7", "b8")) {
				t.Errorf("White + pawn on b7: %v", got)
			}
		})
	}
}

// Double steps from each of the four start ranks, and en passant for −
// pawns in both roles (the core's generic rule: a neighbour of the pawn
// that double-stepped with a capture step onto the skipped cell).
func TestTorusDoubleStepAndEnPassant(t *testing.T) {
	for _, id := range torusIDs {
		t.Run(id, func(t *testing.T) {
			p := MustVariant(id).StartPosition()
			for _, m := range []string{"a2-a4", "a14-a12", "h2-h4", "h14-h12"} {
				if !torusHasMove(p, m) {
					t.Errorf("start: %s missing", m)
				}
			}
			torusPlay(t, p, "a14-a12")
			for _, m := range []string{"a7-a5", "a9-a11", "h7-h5", "h9-h11"} {
				if !torusHasMove(p, m) {
					t.Errorf("after a14-a12: %s missing", m)
				}
			}

			// A White − pawn double-steps e14-e12 past the Black + pawn
			// on d12, which takes it on e13.
			p = torusPos(t, id, "w Ka1,P-e14,kh5,p+d12 - - 0 1")
			torusPlay(t, p, "e14-e12")
			torusWantPos(t, p, "b Ka1,P-e12,kh5,p+d12 - e13/e12 0 1")
			torusPlay(t, p, "d12-e13")
			torusWantPos(t, p, "w Ka1,kh5,p+e13 - - 0 2")

			// A Black + pawn double-steps d9-d11 past the White − pawn on
			// e11, which takes it on d10.
			p = torusPos(t, id, "b Ka1,P-e11,kh5,p+d9 - - 0 1")
			torusPlay(t, p, "d9-d11", "e11-d10")
			torusWantPos(t, p, "b Ka1,P-d10,kh5 - - 0 2")

			// The short en-passant field (skipped cell alone) finds the pawn.
			p = torusPos(t, id, "b Ka1,P-e12,kh5,p+d12 - e13 0 1")
			if !torusHasMove(p, "d12-e13") {
				t.Errorf("d12-e13 e.p. missing with field e13: %v", p.CanonicalMoves())
			}
		})
	}
}

// perft.md reference values from the start.
func TestPerftTorusFamily(t *testing.T) {
	runPerftCases(t, []perftCase{
		{"toroidal", "toroidal", "", []uint64{40, 1584, 68044, 2891434}},
		{"cylindrical", "cylindrical", "", []uint64{40, 1600, 66964, 2799108}},
		{"klein", "klein", "", []uint64{40, 1588, 68516, 2930600}},
	})
}

// Every cell name parses back to its cell, whatever the case, and names
// off the 8×14 grid are refused.
func TestTorusCellNames(t *testing.T) {
	for _, id := range torusIDs {
		g := MustVariant(id).Geo
		if g.N != 112 {
			t.Fatalf("%s: %d cells", id, g.N)
		}
		for c := 0; c < g.N; c++ {
			nm := g.Name(c)
			if want := fmt.Sprintf("%c%d", 'a'+c%8, c/8+1); nm != want {
				t.Errorf("%s: cell %d named %s, want %s", id, c, nm, want)
			}
			if g.Cell(nm) != c || g.Cell(strings.ToUpper(nm)) != c {
				t.Errorf("%s: %s does not round-trip", id, nm)
			}
		}
		for _, bad := range []string{"a0", "a15", "i1", "h", "14", "a1'", ""} {
			if g.Cell(bad) >= 0 {
				t.Errorf("%s: %q parsed as a cell", id, bad)
			}
		}
	}
}

// The start of RULES §4, written out, and its position string round trip.
func TestTorusStart(t *testing.T) {
	for _, id := range torusIDs {
		v := MustVariant(id)
		p := v.StartPosition()
		s := p.String()
		for _, tok := range []string{"Ra1", "Ke1", "Rh1", "P+a2", "P+h2", "P-a14", "P-h14", "ra8", "ke8", "qd8", "p-a7", "p-h7", "p+a9", "p+h9"} {
			if !strings.Contains(","+strings.Fields(s)[1]+",", ","+tok+",") {
				t.Errorf("%s: start lacks %s: %s", id, tok, s)
			}
		}
		if strings.Count(s, ",") != 47 || p.Castle != CastleWK|CastleWQ|CastleBK|CastleBQ {
			t.Errorf("%s: start %s", id, s)
		}
		q, err := v.ParsePosition(s)
		if err != nil || q.String() != s || q.Hash != p.Hash {
			t.Errorf("%s: start does not round-trip: %v", id, err)
		}
		if v.Name == "" || v.Short == "" || !strings.Contains(v.Rules, "rank 8") || !strings.Contains(v.Rules, "rank 1") {
			t.Errorf("%s: name, summary or rules text missing", id)
		}
	}
}

// Make/Unmake restore the position and keep the incremental hash, across
// wraps and the seam, for two plies from a middle-game-like position.
func TestTorusMakeUnmake(t *testing.T) {
	for _, id := range torusIDs {
		p := MustVariant(id).StartPosition()
		torusPlay(t, p, "e2-e4", "e9-e11", "d14-d12", "d7-d5")
		var walk func(d int)
		walk = func(d int) {
			if p.Hash != p.computeHash() {
				t.Fatalf("%s: hash drift at %s", id, p)
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
					t.Fatalf("%s: unmake of %s: %s != %s", id, p.Canonical(m), p, before)
				}
			}
		}
		walk(2)
	}
}

// The layout draws 112 unit squares, coordinates, glue marks on the edges
// that are joined and, on the Klein bottle, an opening at the seam holding
// the mirrored file letters.
func TestTorusLayout(t *testing.T) {
	for _, tc := range []struct {
		id          string
		glue, seams int
	}{{"toroidal", 4, 0}, {"cylindrical", 2, 0}, {"klein", 4, 2}} {
		l := MustVariant(tc.id).Geo.Layout
		gap := 0.0
		if tc.seams > 0 {
			gap = kleinGap
		}
		if l.MinX != 0 || l.MinY != 0 || l.MaxX != 8 || l.MaxY != 14+gap {
			t.Errorf("%s: bounds %v %v %v %v, want the 8×14 grid", tc.id, l.MinX, l.MinY, l.MaxX, l.MaxY)
		}
		seen := map[int]bool{}
		for _, s := range l.Shapes {
			seen[s.Cell] = true
			x, y := s.Cell%8, s.Cell/8
			fy := float64(y)
			if y > kleinSeamY {
				fy += gap
			}
			if s.Poly[0] != (Point{float64(x), fy}) || s.Dark != ((x+y)%2 == 0) {
				t.Errorf("%s: cell %d drawn at %v", tc.id, s.Cell, s.Poly[0])
			}
		}
		if len(seen) != 112 || len(l.Shapes) != 112 {
			t.Errorf("%s: %d shapes for %d cells", tc.id, len(l.Shapes), len(seen))
		}
		kinds := map[string]int{}
		for _, m := range l.Marks {
			kinds[m.Kind]++
		}
		if kinds["glue"] != tc.glue || kinds["seam"] != tc.seams {
			t.Errorf("%s: marks %v", tc.id, kinds)
		}
		texts := map[string]bool{}
		var small []string
		for _, lb := range l.Labels {
			if lb.Small {
				if lb.At.Y > 11 && lb.At.Y < 11+kleinGap {
					small = append(small, lb.Text)
				}
				continue
			}
			texts[lb.Text] = true
		}
		if !texts["a"] || !texts["h"] || !texts["1"] || !texts["14"] {
			t.Errorf("%s: coordinates missing", tc.id)
		}
		if tc.seams > 0 && strings.Join(small, "") != "hgfedcba" {
			t.Errorf("%s: mirrored letters in the seam read %q", tc.id, strings.Join(small, ""))
		}
	}
}

// appendLegal asks for the full make-and-test only for pieces really
// pinned (Position.pinned); on random playouts its moves must be exactly the
// pseudo-legal moves that do not leave the king attacked.
func TestLegalMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	games := 20
	if raceEnabled || testing.Short() {
		games = 3
	}
	for _, id := range append([]string{"standard"}, torusIDs...) {
		v := MustVariant(id)
		for game := 0; game < games; game++ {
			p := v.StartPosition()
			for ply := 0; ply < 150; ply++ {
				var want []string
				for _, m := range p.genPseudo(nil) {
					u := p.Make(m)
					k := p.King[p.Side.Other()]
					if k < 0 || !p.Attacked(int(k), p.Side) {
						want = append(want, p.Canonical(m))
					}
					p.Unmake(m, u)
				}
				sort.Strings(want)
				if got := p.CanonicalMoves(); !torusSame(got, want) {
					t.Fatalf("%s %s:\n got  %v\n want %v", id, p, got, want)
				}
				ms := p.LegalMoves()
				if len(ms) == 0 {
					break
				}
				p.Make(ms[r.Intn(len(ms))])
			}
		}
	}
}
