package engine

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// cellsOf parses names (any alias) into sorted cells, failing on unknown names.
func cellsOf(t *testing.T, g *Geometry, names ...string) []int {
	t.Helper()
	var out []int
	for _, nm := range names {
		c := g.Cell(nm)
		if c < 0 {
			t.Fatalf("no cell %q", nm)
		}
		out = append(out, c)
	}
	sort.Ints(out)
	return out
}

func namesOf(g *Geometry, cells []int) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = g.Name(c)
	}
	return out
}

func sorted16(s []int16) []int {
	out := make([]int, len(s))
	for i, x := range s {
		out[i] = int(x)
	}
	sort.Ints(out)
	return out
}

// cubeOf returns the variant and the 3-D board it was built from (built
// again here; the numbering is deterministic).
func cubeOf(t *testing.T, id string) (*Variant, *cubeBoard) {
	t.Helper()
	v := MustVariant(id)
	n := 8
	if id == "cube5" {
		n = 5
	}
	b := newCubeBoard(n)
	b.buildSteps()
	if len(b.pts) != v.Geo.N {
		t.Fatalf("board has %d points, geometry %d cells", len(b.pts), v.Geo.N)
	}
	return v, b
}

func TestCubeCells(t *testing.T) {
	for _, tc := range []struct {
		id                string
		n, cells          int
		interior, edge, v int
	}{
		// 6 faces of (n−2)² inner cells, 12 edges of n−2 cells, 8 corners.
		{"cube", 8, 296, 216, 72, 8},
		{"cube5", 5, 98, 54, 36, 8},
	} {
		t.Run(tc.id, func(t *testing.T) {
			v, b := cubeOf(t, tc.id)
			g := v.Geo
			if g.N != tc.cells {
				t.Fatalf("%d cells, want %d", g.N, tc.cells)
			}
			var count [4]int
			for c := range b.pts {
				k := popcount8(b.faces[c])
				count[k]++
				want := 8
				if k == 3 {
					want = 6
				}
				if len(g.KingSteps[c]) != want {
					t.Errorf("%s has %d king steps, want %d", g.Name(c), len(g.KingSteps[c]), want)
				}
				if len(g.Aliases(c)) != k {
					t.Errorf("%s has names %v, want %d", g.Name(c), g.Aliases(c), k)
				}
			}
			if count[1] != tc.interior || count[2] != tc.edge || count[3] != tc.v {
				t.Errorf("face-interior/edge/corner cells = %v, want %d/%d/%d", count[1:], tc.interior, tc.edge, tc.v)
			}
		})
	}
}

func TestCubeNames(t *testing.T) {
	g := MustVariant("cube").Geo
	for _, tc := range []struct {
		canon   string
		aliases []string
	}{
		// (0,7,7): face 1 file x rank y, face 4 rank 7−z, face 5 file 7−y.
		{"1a8", []string{"4a1", "5a8", "1A8", " 4A1 "}},
		// (7,0,0): 2h1, face 3 rank 7−y, face 6 file 7−y rank 7−z.
		{"2h1", []string{"3h8", "6h8"}},
		// (0,7,6): an edge cell of faces 4 and 5.
		{"4a2", []string{"5a7"}},
		{"1d4", nil},
	} {
		c := g.Cell(tc.canon)
		if c < 0 || g.Name(c) != tc.canon {
			t.Fatalf("%s: cell %d named %q", tc.canon, c, g.Name(c))
		}
		for _, a := range tc.aliases {
			if g.Cell(a) != c {
				t.Errorf("%q is cell %d (%s), want %s", a, g.Cell(a), g.Name(g.Cell(a)), tc.canon)
			}
		}
	}
	for _, bad := range []string{"", "0a1", "7a1", "1i1", "1a9", "1a0", "a1", "1a", "11a", "1a8'", "zz"} {
		if c := g.Cell(bad); c >= 0 {
			t.Errorf("%q parsed as %s", bad, g.Name(c))
		}
	}
	if c := MustVariant("cube5").Geo.Cell("1e6"); c >= 0 {
		t.Errorf("cube5 has no rank 6, but 1e6 parsed")
	}
}

// rayNames is the ray of kind k from a cell whose first cell is first.
func rayNames(t *testing.T, g *Geometry, k Kind, from, first string) []string {
	t.Helper()
	f := g.Cell(first)
	for _, path := range g.RayPaths(k, g.Cell(from)) {
		if path[0] == f {
			return namesOf(g, path)
		}
	}
	t.Fatalf("no %s ray from %s through %s", k.Name(), from, first)
	return nil
}

// canonNames rewrites names to canonical spellings.
func canonNames(t *testing.T, g *Geometry, names ...string) []string {
	t.Helper()
	out := make([]string, len(names))
	for i, nm := range names {
		c := g.Cell(nm)
		if c < 0 {
			t.Fatalf("no cell %q", nm)
		}
		out[i] = g.Name(c)
	}
	return out
}

func TestCubeRays(t *testing.T) {
	g := MustVariant("cube").Geo
	seq := func(face int, file byte, r0, r1 int) []string {
		var out []string
		for r := r0; r <= r1; r++ {
			out = append(out, cubeName(face, int(file-'a'), r-1))
		}
		return out
	}
	cat := func(parts ...[]string) []string { return slices.Concat(parts...) }
	for _, tc := range []struct {
		name      string
		kind      Kind
		from, dir string // dir: the first cell of the ray
		want      []string
	}{
		// Up file d of face 1, over the 1/4 edge down face 4, over 4/3 along
		// face 3, over 3/2 up face 2 and back onto face 1: the 28-cell loop
		// x = 3 less the origin. Every edge cell is counted once.
		{"rook round the cube", Rook, "1d4", "1d5", cat(seq(1, 'd', 5, 8), seq(4, 'd', 2, 8), seq(3, 'd', 2, 8), seq(2, 'd', 2, 8), seq(1, 'd', 2, 3))},
		// The same loop for a queen: no corner on it, so no turn.
		{"queen round the cube", Queen, "1d4", "1d5", cat(seq(1, 'd', 5, 8), seq(4, 'd', 2, 8), seq(3, 'd', 2, 8), seq(2, 'd', 2, 8), seq(1, 'd', 2, 3))},
		// The diagonal 1e5–1h8 reaches the corner 1h8 = (7,7,7) of faces
		// 1, 4, 6. A bishop stops there.
		{"bishop stops at a corner", Bishop, "1e5", "1f6", []string{"1f6", "1g7", "1h8"}},
		// A queen crosses both other faces' planes: their components are
		// dropped, face 1's normal is subtracted, so it runs down the
		// opposite edge x = y = 7 (4h2…4h8), turns again at the corner 4h8
		// = (7,7,0) onto the diagonal of face 3 toward (0,0,0) = 3a8, turns
		// up the edge x = y = 0 (2a2…2a8) and comes back onto face 1 on the
		// diagonal 1b2–1d4, stopping before its own cell.
		{"queen diagonal turns at corners", Queen, "1e5", "1f6", cat([]string{"1f6", "1g7", "1h8"}, seq(4, 'h', 2, 8),
			[]string{"3g2", "3f3", "3e4", "3d5", "3c6", "3b7", "3a8"}, seq(2, 'a', 2, 8), []string{"1b2", "1c3", "1d4"})},
		// Along the home edge a rook stops on the corner rook's cell…
		{"rook stops at a corner", Rook, "1e8", "1f8", []string{"1f8", "1g8", "1h8"}},
		// …and a queen crossing face 6's plane there goes on down the
		// diagonal of face 6 (direction −y −z, away from faces 1 and 4) to
		// the far corner 6h8 = 2h1, along the 2/3 edge to 2a1, up the
		// diagonal of face 5 to 1a8 and back along the home edge.
		{"queen edge turns into a diagonal", Queen, "1e8", "1f8", []string{"1f8", "1g8", "1h8", "6b2", "6c3", "6d4", "6e5", "6f6", "6g7", "6h8",
			"2g1", "2f1", "2e1", "2d1", "2c1", "2b1", "2a1", "5g2", "5f3", "5e4", "5d5", "5c6", "5b7", "5a8", "1b8", "1c8", "1d8"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := canonNames(t, g, tc.want...)
			got := rayNames(t, g, tc.kind, tc.from, tc.dir)
			if !slices.Equal(got, want) {
				t.Errorf("ray %s→%s:\n got %v\nwant %v", tc.from, tc.dir, got, want)
			}
		})
	}
	// Both rook loops through 1d4 (x = 3 and y = 3) meet again only on the
	// opposite cell 3d5 = (3,3,0): 27 + 27 − 1 cells.
	if n := len(g.RayCells(Rook, g.Cell("1d4"))); n != 53 {
		t.Errorf("rook on 1d4 reaches %d cells, want 53", n)
	}
}

// TestCubeRayInvariants checks every ray of both cubes against the rules
// that define them.
func TestCubeRayInvariants(t *testing.T) {
	for _, id := range []string{"cube", "cube5"} {
		v, b := cubeOf(t, id)
		g := v.Geo
		isOrtho := func(a, c int) bool { return containsCell(b.ortho[a], int16(c)) }
		isDiag := func(a, c int) bool { return containsCell(b.diag[a], int16(c)) }
		for o := 0; o < g.N; o++ {
			for _, k := range []Kind{Rook, Bishop, Queen} {
				paths := g.RayPaths(k, o)
				want := 0
				for _, c := range g.KingSteps[o] {
					if (k == Rook && isOrtho(o, int(c))) || (k == Bishop && isDiag(o, int(c))) || k == Queen {
						want++
					}
				}
				// One ray per neighbour of the right kind.
				if len(paths) != want {
					t.Errorf("%s %s on %s: %d rays, want %d", id, k.Name(), g.Name(o), len(paths), want)
				}
				for _, path := range paths {
					prev := o
					seen := map[int]bool{o: true}
					for i, c := range path {
						ok := containsCell(g.KingSteps[prev], int16(c))
						if k == Rook {
							ok = isOrtho(prev, c)
						} else if k == Bishop {
							ok = isDiag(prev, c)
						}
						if !ok {
							t.Fatalf("%s %s ray from %s: bad step %s→%s", id, k.Name(), g.Name(o), g.Name(prev), g.Name(c))
						}
						if seen[c] {
							t.Fatalf("%s %s ray from %s enters %s twice", id, k.Name(), g.Name(o), g.Name(c))
						}
						seen[c] = true
						if k != Queen && b.isVertex(c) && i != len(path)-1 {
							t.Fatalf("%s %s ray from %s passes the corner %s", id, k.Name(), g.Name(o), g.Name(c))
						}
						prev = c
					}
				}
			}
		}
	}
}

func TestCubeKnights(t *testing.T) {
	g := MustVariant("cube").Geo
	for _, tc := range []struct {
		from string
		want []string
	}{
		// In the middle of a face: the FIDE knight.
		{"1d4", []string{"1b3", "1b5", "1c2", "1c6", "1e2", "1e6", "1f3", "1f5"}},
		// Next to an edge the face unfolds flat: two targets on the home
		// edge, two on face 4 one row past it.
		{"1d7", []string{"1b6", "1f6", "1c5", "1e5", "1b8", "1f8", "4c2", "4e2"}},
	} {
		got := namesOf(g, sorted16(g.Knight[g.Cell(tc.from)]))
		want := namesOf(g, cellsOf(t, g, tc.want...))
		if !slices.Equal(got, want) {
			t.Errorf("knight on %s: got %v, want %v", tc.from, got, want)
		}
	}
	// RULES §6: the bishop's diagonal 1g7–1h8 stops at the corner, so the
	// cell 4h2 just past it on the queen's turned line is a knight target.
	if !containsCell(g.Knight[g.Cell("1g7")], int16(g.Cell("4h2"))) {
		t.Errorf("knight on 1g7 should reach 4h2 past the corner, has %v", namesOf(g, sorted16(g.Knight[g.Cell("1g7")])))
	}
}

func TestCubePawns(t *testing.T) {
	for _, tc := range []struct {
		variant, pawn      string
		push, capture, dbl []string
	}{
		// White's distance to 2a1–2h1 = (x,0,0) is y+z. On face 5 both y
		// and z shrink: two forward cells and one forward diagonal.
		{"cube", "P5b7", []string{"5b6", "5c7"}, []string{"5c6"}, []string{"5b5", "5d7"}},
		{"cube", "P6b2", []string{"6b3", "6c2"}, []string{"6c3"}, []string{"6b4", "6d2"}},
		// Black's distance to (x,7,7) is 14−y−z: the mirror on face 6.
		{"cube", "p6g7", []string{"6f7", "6g6"}, []string{"6f6"}, []string{"6e7", "6g5"}},
		{"cube", "p5g2", []string{"5f2", "5g3"}, []string{"5f3"}, []string{"5e2", "5g4"}},
		// On face 1 an ordinary pawn walking toward face 2.
		{"cube", "P1d7", []string{"1d6"}, []string{"1c6", "1e6"}, []string{"1d5"}},
		// The edge pawn 1a7 = (0,6,7) is also 5b8: it may go down face 1 or
		// onto face 5; 4a2 = (0,7,6) forward is 4a3 or 5b7.
		{"cube", "P1a7", []string{"1a6", "5b7"}, []string{"1b6", "5c7"}, []string{"1a5", "5b6"}},
		{"cube", "P4a2", []string{"4a3", "5b7"}, []string{"4b3", "5b6"}, []string{"4a4", "5c7"}},
		// A Black face-4 pawn walks toward rank 1 of face 4.
		{"cube", "p4e4", []string{"4e3"}, []string{"4d3", "4f3"}, nil},
		// cube5: White's distance is z (promotion on face 3); the corner
		// pawn 1a1 = (0,0,4) steps down the edge.
		{"cube5", "P1a1", []string{"2a4"}, []string{"2b4", "5d4"}, []string{"2a3"}},
		{"cube5", "P1c5", []string{"4c2"}, []string{"4b2", "4d2"}, []string{"4c3"}},
		{"cube5", "p3c5", []string{"2c2"}, []string{"2b2", "2d2"}, []string{"2c3"}},
	} {
		t.Run(tc.variant+"/"+tc.pawn, func(t *testing.T) {
			g := MustVariant(tc.variant).Geo
			col, dir := White, 0
			if tc.pawn[0] == 'p' {
				col, dir = Black, 1
			}
			o := g.Cell(tc.pawn[1:])
			for d := 0; d < 2; d++ {
				if !slices.Equal(sorted16(g.PawnPush[col][d][o]), sorted16(g.PawnPush[col][dir][o])) {
					t.Errorf("direction slots differ")
				}
			}
			if got, want := sorted16(g.PawnPush[col][dir][o]), cellsOf(t, g, tc.push...); !slices.Equal(got, want) {
				t.Errorf("forward: got %v, want %v", namesOf(g, got), namesOf(g, want))
			}
			if got, want := sorted16(g.PawnCap[col][dir][o]), cellsOf(t, g, tc.capture...); !slices.Equal(got, want) {
				t.Errorf("captures: got %v, want %v", namesOf(g, got), namesOf(g, want))
			}
			var dbl []int
			for _, md := range g.PawnDouble[col][dir][o] {
				dbl = append(dbl, int(md[1]))
			}
			sort.Ints(dbl)
			if want := cellsOf(t, g, tc.dbl...); !slices.Equal(dbl, want) {
				t.Errorf("double steps: got %v, want %v", namesOf(g, dbl), namesOf(g, want))
			}
		})
	}
}

func TestCubePromotionSets(t *testing.T) {
	for _, tc := range []struct {
		variant string
		col     Color
		count   int
		sample  string
	}{
		{"cube", White, 8, "3d8"}, // 2a1–2h1, also named 3a8–3h8
		{"cube", Black, 8, "4e1"}, // 1a8–1h8
		{"cube5", White, 25, "3c3"},
		{"cube5", Black, 25, "1c3"},
	} {
		g := MustVariant(tc.variant).Geo
		n := 0
		for c := 0; c < g.N; c++ {
			if g.Promo[tc.col][0][c] != g.Promo[tc.col][1][c] {
				t.Errorf("%s: direction slots differ", tc.variant)
			}
			if g.Promo[tc.col][0][c] {
				n++
			}
		}
		if n != tc.count || !g.Promo[tc.col][0][g.Cell(tc.sample)] {
			t.Errorf("%s %s: %d promotion cells (want %d), %s included: %v", tc.variant, tc.col, n, tc.count, tc.sample, g.Promo[tc.col][0][g.Cell(tc.sample)])
		}
	}
}

func TestCubeStart(t *testing.T) {
	for _, tc := range []struct {
		id            string
		pawns, pieces int
	}{
		{"cube", 18, 8},
		{"cube5", 16, 9},
	} {
		p := MustVariant(tc.id).StartPosition()
		var count [2][7]int
		for _, pc := range p.Board {
			if pc != 0 {
				count[pc.Color()][pc.Kind()]++
			}
		}
		for col := 0; col < 2; col++ {
			pieces := 0
			for k := Knight; k <= King; k++ {
				pieces += count[col][k]
			}
			if count[col][Pawn] != tc.pawns || pieces != tc.pieces {
				t.Errorf("%s %s: %d pawns and %d pieces", tc.id, Color(col), count[col][Pawn], pieces)
			}
		}
	}
}

// Perft from the start positions (shared/rules/perft.md).
func TestPerftCube(t *testing.T) {
	runPerftCases(t, []perftCase{
		{"cube", "cube", "", []uint64{48, 2304, 122924, 6531210}},
		{"cube5", "cube5", "", []uint64{37, 1353, 52799, 2038871}},
	})
}

// TestCubeHandChecks derives the depth-2 counts of perft.md from the depth-1
// counts, independently of perft.
func TestCubeHandChecks(t *testing.T) {
	// cube: Black's army is White's mirrored by (x,y,z) → (x,7−z,7−y)
	// (1e8 → 2e1, 1a7 → 2a2, 4a2 → 3a7, 5b7 → 5g2), so Black has as many
	// first moves as White: 40 pawn moves (16 on face 1, 16 on face 4, four
	// each from 5b7 and 6b2) and 8 knight moves. White's first moves end on
	// cells with y+z ≥ 10, Black's replies on y+z ≤ 4, so no White move
	// occupies, blocks or takes a cell a Black move needs. The lines a White
	// move opens (the bishop 1f8 after 1e7-1e5 runs over faces 5 and 2 to
	// 2e2) reach no further than Black's first row of men, so Black is never
	// in check or pinned: every White move leaves Black its 48 moves, and
	// d2 = 48².
	p := MustVariant("cube").StartPosition()
	white := p.LegalMoves()
	if len(white) != 48 {
		t.Fatalf("cube d1 = %d, want 48", len(white))
	}
	for _, m := range white {
		u := p.Make(m)
		if n := len(p.LegalMoves()); n != 48 {
			t.Errorf("after %s Black has %d moves, want 48", p.Canonical(m), n)
		}
		p.Unmake(m, u)
	}

	// cube5: the armies are mirrored by z → 4−z. White's 37 moves include
	// the 16 double steps of its border pawns from z = 4 to the ring z = 2;
	// each Black border pawn at (x,y,0) double-steps to the same ring cell
	// (x,y,2). Nothing else White does reaches z ≤ 2, and Black's other
	// moves stay on z ≤ 1, so each White double step removes exactly one
	// Black reply: d2 = 37² − 16.
	p = MustVariant("cube5").StartPosition()
	white = p.LegalMoves()
	if len(white) != 37 {
		t.Fatalf("cube5 d1 = %d, want 37", len(white))
	}
	doubles := 0
	total := 0
	for _, m := range white {
		u := p.Make(m)
		n := len(p.LegalMoves())
		total += n
		if m.Flags&FlagDouble != 0 {
			doubles++
			if n != 36 {
				t.Errorf("after %s Black has %d moves, want 36", p.Canonical(m), n)
			}
		} else if n != 37 {
			t.Errorf("after %s Black has %d moves, want 37", p.Canonical(m), n)
		}
		p.Unmake(m, u)
	}
	if doubles != 16 || total != 37*37-16 {
		t.Errorf("cube5: %d double steps, d2 = %d", doubles, total)
	}
}

func TestCubeMoves(t *testing.T) {
	for _, tc := range []struct {
		name, variant, pos string
		played             []string // canonical moves played first
		legal, illegal     []string
		pieces             []string // tokens the position string then holds
	}{
		{
			// The black rook on 4f5 = (5,7,3) looks up file f of face 4 over
			// the edge onto 1f8: White may not castle through it.
			name: "castling through an attacked edge cell", variant: "cube",
			pos:     "w K1e8,R1a8,R1h8,r4f5,k3e4 KQ - 0 1",
			legal:   []string{"1e8-1c8"},
			illegal: []string{"1e8-1g8"},
		},
		{
			name: "castling king side", variant: "cube",
			pos:    "w K1e8,R1a8,R1h8,k3e4 KQ - 0 1",
			played: []string{"1e8-1g8"},
			pieces: []string{"K1g8", "R1f8", "R1a8"},
		},
		{
			// Aliases in moves: 5a7 is 4a2, 5a5 is 4a4.
			name: "double step written with aliases", variant: "cube",
			played: []string{"5a7-5a5"},
			legal:  []string{"3a7-3a5"},
		},
		{
			// 4d2-4d4 passes 4d3, which the black pawn on 4e4 captures on
			// (its distance to 1a8–1h8 shrinks toward rank 1 of face 4).
			name: "en passant on face 4", variant: "cube",
			pos:    "w P4d2,K3e4,p4e4,k1e4 - - 0 1",
			played: []string{"4d2-4d4"},
			legal:  []string{"4e4-4d3"},
		},
		{
			name: "promotion on Black's home edge", variant: "cube",
			pos:   "w P2c2,K3e4,k1e4 - - 0 1",
			legal: []string{"2c2-2c1=Q", "2c2-3c8=N"},
		},
		{
			// A rook on a corner may not pass it along the next edge; a
			// queen may.
			name: "rook stops, queen turns", variant: "cube",
			pos:     "w R1e8,Q1e1,K3e4,k3b2 - - 0 1",
			legal:   []string{"1e8-1h8", "1e1-1h1", "1e1-6g2"},
			illegal: []string{"1e8-6b2"},
		},
		{
			name: "cube5 no castling, promotion on face 3", variant: "cube5",
			pos:   "w P2c2,K1c3,k3c3 - - 0 1",
			legal: []string{"2c2-2c1=R", "2c2-3c5=B"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := MustVariant(tc.variant)
			p := v.StartPosition()
			if tc.pos != "" {
				var err error
				if p, err = v.ParsePosition(tc.pos); err != nil {
					t.Fatal(err)
				}
			}
			for _, s := range tc.played {
				m, err := p.ParseCanonical(s)
				if err != nil {
					t.Fatalf("%s: %v", s, err)
				}
				p.Make(m)
			}
			placed := "," + strings.Fields(p.String())[1] + ","
			for _, tok := range tc.pieces {
				if !strings.Contains(placed, ","+tok+",") {
					t.Errorf("%s missing from %s", tok, p)
				}
			}
			for _, s := range tc.legal {
				if _, err := p.ParseCanonical(s); err != nil {
					t.Errorf("%s should be legal: %v (moves %v)", s, err, p.CanonicalMoves())
				}
			}
			for _, s := range tc.illegal {
				if _, err := p.ParseCanonical(s); err == nil {
					t.Errorf("%s should be illegal", s)
				}
			}
		})
	}
}

func TestCubeCanonicalNaming(t *testing.T) {
	p := MustVariant("cube").StartPosition()
	m, err := p.ParseCanonical("5a7-5a5")
	if err != nil {
		t.Fatal(err)
	}
	if s := p.Canonical(m); s != "4a2-4a4" {
		t.Errorf("canonical %q, want 4a2-4a4", s)
	}
	for _, s := range p.CanonicalMoves() {
		from, to, _ := strings.Cut(s, "-")
		for _, nm := range []string{from, to} {
			c := p.g.Cell(nm)
			if c < 0 || p.g.Aliases(c)[0] != nm {
				t.Errorf("move %s uses %q, not the canonical name", s, nm)
			}
		}
	}
	// The start position survives a round trip through its string.
	q, err := p.V.ParsePosition(p.String())
	if err != nil || q.Hash != p.Hash {
		t.Errorf("round trip of %s: %v", p, err)
	}
}

func TestCubeMakeUnmake(t *testing.T) {
	for _, tc := range []struct{ id, pos string }{
		{"cube", "w K1e8,R1a8,R1h8,Q1d4,B3c3,N6d5,P2c2,P4d2,k2e1,r2a1,q5d5,p4e4,p1b2 KQq - 0 1"},
		{"cube5", ""},
	} {
		v := MustVariant(tc.id)
		p := v.StartPosition()
		if tc.pos != "" {
			var err error
			if p, err = v.ParsePosition(tc.pos); err != nil {
				t.Fatal(err)
			}
		}
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
					t.Fatalf("unmake of %s broke %s", p.Canonical(m), before)
				}
			}
		}
		walk(2)
	}
}

func TestCubeRulesText(t *testing.T) {
	for _, id := range []string{"cube", "cube5"} {
		v := MustVariant(id)
		if v.Name == "" || v.Short == "" {
			t.Errorf("%s: missing name", id)
		}
		for _, s := range []string{"corner", "queen", "promot", "Pawns"} {
			if !strings.Contains(v.Rules, s) {
				t.Errorf("%s rules do not mention %q", id, s)
			}
		}
		// Every cell the text names exists on that board, and an example
		// of aliases names one cell.
		for _, m := range regexp.MustCompile(`\b[1-6][a-h][1-8]\b`).FindAllString(v.Rules, -1) {
			if v.Geo.Cell(m) < 0 {
				t.Errorf("%s rules name %s, not a cell of this board", id, m)
			}
		}
		if al := regexp.MustCompile(`\(([^()]*=[^()]*)\)`).FindStringSubmatch(v.Rules); al == nil {
			t.Errorf("%s rules give no alias example", id)
		} else {
			names := strings.Split(al[1], " = ")
			for _, nm := range names {
				if v.Geo.Cell(nm) != v.Geo.Cell(names[0]) || v.Geo.Cell(nm) < 0 {
					t.Errorf("%s rules: %q are not names of one cell", id, al[1])
				}
			}
		}
	}
}
