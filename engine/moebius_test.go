package engine

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

var moebiusIDs = []string{"moebius", "moebius-nierse"}

func mustPos(t *testing.T, id, s string) *Position {
	t.Helper()
	p, err := MustVariant(id).ParsePosition(s)
	if err != nil {
		t.Fatalf("%s: %q: %v", id, s, err)
	}
	return p
}

func mustPlay(t *testing.T, p *Position, mv string) *Position {
	t.Helper()
	m, err := p.ParseCanonical(mv)
	if err != nil {
		t.Fatalf("%s in %s: %v", mv, p, err)
	}
	return p.Play(m)
}

func isLegal(p *Position, mv string) bool {
	return slices.Contains(p.CanonicalMoves(), mv)
}

// RULES §3: x < 8 is a1…h8 (rank y+1); x ≥ 8 is primed, rank 8−y.
func TestMoebiusCellNames(t *testing.T) {
	g := MustVariant("moebius").Geo
	if g.N != 128 {
		t.Fatalf("%d cells, want 128", g.N)
	}
	// The seed's bottom and top rows, left to right.
	bottom := strings.Fields("a1 b1 c1 d1 e1 f1 g1 h1 a8' b8' c8' d8' e8' f8' g8' h8'")
	top := strings.Fields("a8 b8 c8 d8 e8 f8 g8 h8 a1' b1' c1' d1' e1' f1' g1' h1'")
	for x := 0; x < 16; x++ {
		if got := g.Name(moebiusCell(x, 0)); got != bottom[x] {
			t.Errorf("(%d,0) is %s, want %s", x, got, bottom[x])
		}
		if got := g.Name(moebiusCell(x, 7)); got != top[x] {
			t.Errorf("(%d,7) is %s, want %s", x, got, top[x])
		}
	}
	for c := 0; c < g.N; c++ {
		if g.Cell(g.Name(c)) != c {
			t.Errorf("round trip of %s failed", g.Name(c))
		}
	}
	a5p := g.Cell("a5'")
	if a5p != moebiusCell(8, 3) {
		t.Fatalf("a5' is cell %d, want (8,3)", a5p)
	}
	for _, s := range []string{"a5’", "a5′", "a5p", "A5P", "a5`", " A5' "} {
		if got := g.Cell(s); got != a5p {
			t.Errorf("Cell(%q) = %d, want a5' (%d)", s, got, a5p)
		}
	}
	for _, s := range []string{"", "a9", "a0'", "i1", "a9'", "a5''", "a5pp", "p", "'"} {
		if got := g.Cell(s); got != -1 {
			t.Errorf("Cell(%q) = %s, want no cell", s, g.Name(got))
		}
	}
}

// twin(x, y) = ((x+8) mod 16, 7−y): the same name with the prime toggled.
func TestMoebiusTwin(t *testing.T) {
	g := MustVariant("moebius").Geo
	for c := 0; c < g.N; c++ {
		tw := int(g.Twin[c])
		if int(g.Twin[tw]) != c || tw == c {
			t.Errorf("twin of %s is %s, whose twin is %s", g.Name(c), g.Name(tw), g.Name(int(g.Twin[tw])))
		}
		n, tn := g.Name(c), g.Name(tw)
		if strings.TrimSuffix(n, "'") != strings.TrimSuffix(tn, "'") || strings.HasSuffix(n, "'") == strings.HasSuffix(tn, "'") {
			t.Errorf("twin of %s is %s", n, tn)
		}
	}
}

func TestMoebiusSteps(t *testing.T) {
	g := MustVariant("moebius").Geo
	names := func(cs []int16) []string {
		var out []string
		for _, c := range cs {
			out = append(out, g.Name(int(c)))
		}
		slices.Sort(out)
		return out
	}
	tests := []struct {
		cell string
		king []string
	}{
		// Files wrap: a1 (0,0) is beside h8' (15,0); the bottom row is an edge.
		{"a1", []string{"a2", "b1", "b2", "h7'", "h8'"}},
		// The middle seam: h1 (7,0) beside a8' (8,0).
		{"h1", []string{"a7'", "a8'", "g1", "g2", "h2"}},
		// a8 (0,7) beside h1' (15,7), top edge.
		{"a8", []string{"a7", "b7", "b8", "h1'", "h2'"}},
		{"e4'", []string{"d3'", "d4'", "d5'", "e3'", "e5'", "f3'", "f4'", "f5'"}},
	}
	for _, tc := range tests {
		want := slices.Clone(tc.king)
		slices.Sort(want)
		if got := names(g.KingSteps[g.Cell(tc.cell)]); !slices.Equal(got, want) {
			t.Errorf("king steps of %s: %v, want %v", tc.cell, got, want)
		}
	}
	// Phasing is not a king step, so the knight is the flat one, wrapped.
	if got, want := names(g.Knight[g.Cell("b1")]), []string{"a3", "c3", "d2", "h7'"}; !slices.Equal(got, want) {
		t.Errorf("knight from b1: %v, want %v", got, want)
	}
}

// perft.md's hand check: 20 FIDE moves, 14 rook moves round the strip
// (a1-e8' and h1-e8' would mate by phasing), b1-h7' and g1-a7' across the
// glued ends, and 15 phasing moves (e1' is on the black rooks' row).
func TestMoebiusStartMoves(t *testing.T) {
	var want []string
	for _, f := range "abcdefgh" {
		want = append(want, fmt.Sprintf("%c2-%c3", f, f), fmt.Sprintf("%c2-%c4", f, f), fmt.Sprintf("%c2-%c2'", f, f))
	}
	want = append(want, "b1-a3", "b1-c3", "g1-f3", "g1-h3", "b1-h7'", "g1-a7'")
	for _, f := range "abcdfgh" {
		want = append(want, fmt.Sprintf("%c1-%c1'", f, f))
	}
	for _, f := range "abcdfgh" { // the eighth row of the back, minus e8'
		want = append(want, fmt.Sprintf("a1-%c8'", f), fmt.Sprintf("h1-%c8'", f))
	}
	slices.Sort(want)
	if len(want) != 51 {
		t.Fatalf("test table has %d moves", len(want))
	}
	for _, id := range moebiusIDs {
		got := MustVariant(id).StartPosition().CanonicalMoves()
		if !slices.Equal(got, want) {
			t.Errorf("%s start moves:\n got %v\nwant %v", id, got, want)
		}
	}
}

// The seed's example: a1-e8' would mate (h1 guards e8', the king is boxed
// in and a phasing check cannot be blocked), so both rules forbid it;
// a1-f8' only attacks Black's own bishop on f8.
func TestMoebiusSeedExample(t *testing.T) {
	for _, id := range moebiusIDs {
		p := MustVariant(id).StartPosition()
		for mv, legal := range map[string]bool{"a1-e8'": false, "h1-e8'": false, "a1-f8'": true, "h1-f8'": true} {
			if isLegal(p, mv) != legal {
				t.Errorf("%s: %s legal = %v, want %v", id, mv, !legal, legal)
			}
		}
		// The reason: the position after a1-e8' is checkmate.
		after := mustPos(t, id, "b Nb1,Bc1,Qd1,Ke1,Bf1,Ng1,Rh1,Pa2,Pb2,Pc2,Pd2,Pe2,Pf2,Pg2,Ph2,Re8',"+
			"pa7,pb7,pc7,pd7,pe7,pf7,pg7,ph7,ra8,nb8,bc8,qd8,ke8,bf8,ng8,rh8 Kkq - 1 1")
		if !after.InCheck() || len(after.LegalMoves()) != 0 {
			t.Errorf("%s: after a1-e8' Black should be mated: check %v, moves %v", id, after.InCheck(), after.CanonicalMoves())
		}
	}
}

// perft.md: in `w Ka1,Rh4',ke4` (White to move) h4'-e4' checks by phasing
// without mating — legal under the inventor's rule, not under Nierse's.
func TestMoebiusNierseExample(t *testing.T) {
	const pos = "w Ka1,Rh4',ke4 - - 0 1"
	for id, legal := range map[string]bool{"moebius": true, "moebius-nierse": false} {
		p := mustPos(t, id, pos)
		if got := isLegal(p, "h4'-e4'"); got != legal {
			t.Errorf("%s: h4'-e4' legal = %v, want %v", id, got, legal)
		}
		if !isLegal(p, "h4'-f4'") || !isLegal(p, "h4'-h4") {
			t.Errorf("%s: other rook moves should stay legal: %v", id, p.CanonicalMoves())
		}
	}
	after := mustPlay(t, mustPos(t, "moebius", pos), "h4'-e4'")
	if !after.InCheck() {
		t.Fatal("after h4'-e4' Black should be in check by phasing")
	}
	// Not mate: among others the king takes the rook by phasing.
	if !isLegal(after, "e4-e4'") || !isLegal(after, "e4-d4") {
		t.Errorf("Black's replies: %v", after.CanonicalMoves())
	}
}

// The inventor's rule only forbids mates given from the twin: a smothered
// mate by a knight stays legal under both rules. Black's king on a8 is
// walled in by its own rook b8, pawns a7 b7 h1' h2' (h1' and h2' are its
// neighbours across the glued ends) and a knight on its twin a8', so it
// cannot phase either. Nd5-c7 checks; nothing black attacks c7 (the rook
// b8 moves along row 8 and is stopped by b7, the pawns capture downward,
// the knight on a8' reaches g2 h3 b6' c7', nobody stands on c7's twin c7').
func TestMoebiusOrdinaryMateAllowed(t *testing.T) {
	const pos = "w Ke1,Nd5,ka8,rb8,pa7,pb7,ph1',ph2',na8' - - 0 1"
	for _, id := range moebiusIDs {
		p := mustPos(t, id, pos)
		if !isLegal(p, "d5-c7") {
			t.Fatalf("%s: d5-c7 should be legal: %v", id, p.CanonicalMoves())
		}
		after := mustPlay(t, p, "d5-c7")
		if !after.InCheck() || len(after.LegalMoves()) != 0 {
			t.Errorf("%s: d5-c7 should mate: check %v, replies %v", id, after.InCheck(), after.CanonicalMoves())
		}
	}
}

// Phasing (RULES §3): any piece may move to its twin if it is empty or
// holds an enemy piece, which is captured; so every piece attacks its twin.
func TestMoebiusPhasing(t *testing.T) {
	tests := []struct {
		name, pos, move string
		legal           bool
		after           string // position after the move, when legal
	}{
		{"knight captures on its twin", "w Ke1,Nd4,ke8,bd4' - - 0 1", "d4-d4'", true, "b Ke1,ke8,Nd4' - - 0 1"},
		{"bishop cannot phase onto its own piece", "w Ke1,Bd4,Nd4',ke8 - - 0 1", "d4-d4'", false, ""},
		{"queen phases from the back to the front", "w Ke1,Qc6',ke8 - - 0 1", "c6'-c6", true, "b Ke1,Qc6,ke8 - - 1 1"},
		// The pawn keeps its heading on the paper, so on the picture it now
		// runs the other way.
		{"pawn captures on its twin and turns", "w Ke1,Pc3,ke8,rc3' - - 0 1", "c3-c3'", true, "b Ke1,ke8,P-c3' - - 0 1"},
		{"black pawn phases and turns", "b Ke1,ke8,pf5 - - 3 7", "f5-f5'", true, "w Ke1,ke8,p+f5' - - 0 8"},
		// e1' is on row 8 of the picture, attacked by the rook a8 round the
		// glued ends (a8, h1', g1', f1', e1').
		{"king may not phase onto an attacked twin", "w Ke1,ke8,ra8 - - 0 1", "e1-e1'", false, ""},
		{"king may phase onto a safe twin", "w Ke1,ke8 - - 0 1", "e1-e1'", true, "b Ke1',ke8 - - 1 1"},
		{"king takes a checking pawn on its twin", "w Ke4,ke8,pe4' - - 0 1", "e4-e4'", true, "b Ke4',ke8 - - 0 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, id := range moebiusIDs {
				p := mustPos(t, id, tc.pos)
				if got := isLegal(p, tc.move); got != tc.legal {
					t.Fatalf("%s: %s legal = %v, want %v; moves %v", id, tc.move, got, tc.legal, p.CanonicalMoves())
				}
				if !tc.legal {
					continue
				}
				want := mustPos(t, id, tc.after)
				if got := mustPlay(t, p, tc.move); got.String() != want.String() || got.Hash != want.Hash {
					t.Errorf("%s: after %s: %s, want %s", id, tc.move, got, want)
				}
			}
		})
	}
	p := mustPos(t, "moebius", "w Ke4,ke8,pe4' - - 0 1")
	if !p.InCheck() {
		t.Error("a pawn on the king's twin gives check")
	}
	g := p.Geo()
	for c, want := range map[string]bool{"e4": true, "d5'": true, "f5'": true, "e5'": false, "d3'": false, "f3'": false} {
		// The black '-' pawn on e4' (12,4) attacks its twin and its two
		// forward diagonals d5' (11,3), f5' (13,3) — primed ranks grow
		// downward — but not the cell ahead, e5', nor the cells behind.
		if got := p.Attacked(g.Cell(c), Black); got != want {
			t.Errorf("%s attacked by the pawn e4': %v, want %v", c, got, want)
		}
	}
}

// Pawns go by direction, not colour: '+' pawns promote on the top row
// (ranks 8 and 1') and double-step from the second row (ranks 2 and 7');
// '-' pawns promote on the bottom row (ranks 1 and 8') and double-step from
// the seventh (ranks 7 and 2').
func TestMoebiusPawnDirections(t *testing.T) {
	promos := func(from, to string) []string {
		var out []string
		for _, k := range "BNQR" {
			out = append(out, fmt.Sprintf("%s-%s=%c", from, to, k))
		}
		return out
	}
	tests := []struct {
		name, pos, pawn string
		want            []string
	}{
		// A white pawn that phased from e2 to e2' heads down, and e2' is on
		// its double-step row.
		{"phased white pawn double-steps down", "w Ka1,P-e2',kh8 - - 0 1", "e2'", []string{"e2'-e2", "e2'-e3'", "e2'-e4'"}},
		// The same cell heading up: the next row is the top one, so it
		// promotes on e1'; phasing back to e2 turns it '-' on row 2, no promotion.
		{"'+' pawn promotes on the top row", "w Ka1,P+e2',kh8 - - 0 1", "e2'", append(promos("e2'", "e1'"), "e2'-e2")},
		{"'-' white pawn promotes on the bottom row", "w Ka1,P-c7',kh8 - - 0 1", "c7'", append(promos("c7'", "c8'"), "c7'-c7")},
		{"black '+' pawn promotes on rank 8", "b Ka1,p+d7,kh5 - - 0 1", "d7", append(promos("d7", "d8"), "d7-d7'")},
		{"black '+' pawn double-steps from rank 2", "b Ka1,p+d2,kh5 - - 0 1", "d2", []string{"d2-d2'", "d2-d3", "d2-d4"}},
		{"'+' pawn on rank 7' double-steps up", "w Ka1,Pd7',kh5 - - 0 1", "d7'", []string{"d7'-d5'", "d7'-d6'", "d7'-d7"}},
		// On White's home rank but heading down: no double step, and the
		// next cell is on its promotion row.
		{"'-' white pawn on rank 2", "w Ka1,P-d2,kh5 - - 0 1", "d2", append(promos("d2", "d1"), "d2-d2'")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, "moebius", tc.pos)
			var got []string
			for _, m := range p.CanonicalMoves() {
				if strings.HasPrefix(m, tc.pawn+"-") {
					got = append(got, m)
				}
			}
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("pawn %s: %v, want %v", tc.pawn, got, want)
			}
		})
	}
	// After e2-e2' from the start, White's pawn on e2' runs downward.
	p := mustPlay(t, MustVariant("moebius").StartPosition(), "e2-e2'")
	if !strings.Contains(p.String(), "P-e2'") {
		t.Errorf("after e2-e2': %s", p)
	}
	p = mustPlay(t, p, "e7-e5")
	if !isLegal(p, "e2'-e4'") || isLegal(p, "e2'-e1'") {
		t.Errorf("the phased pawn should double-step down: %v", p.CanonicalMoves())
	}
}

// Castling as in FIDE; the cells the king crosses may not be attacked, and
// a piece attacks the twin of its cell by phasing.
func TestMoebiusCastling(t *testing.T) {
	tests := []struct {
		name, pos, move string
		legal           bool
	}{
		{"free king side", "w Ke1,Rh1,Ra1,ke8 KQ - 0 1", "e1-g1", true},
		{"free queen side", "w Ke1,Rh1,Ra1,ke8 KQ - 0 1", "e1-c1", true},
		// f1' is f1's twin: the knight there attacks f1 by phasing only.
		{"passed cell attacked by phasing", "w Ke1,Rh1,ke8,nf1' K - 0 1", "e1-g1", false},
		{"landing cell attacked by phasing", "w Ke1,Rh1,ke8,ng1' K - 0 1", "e1-g1", false},
		{"queen side passed cell attacked by phasing", "w Ke1,Ra1,ke8,bd1' Q - 0 1", "e1-c1", false},
		// b1 need not be safe, only empty. The knight on b1' attacks b1 by
		// phasing and otherwise only d2', h7, c3', a3'.
		{"rook's path attacked by phasing is fine", "w Ke1,Ra1,ke8,nb1' Q - 0 1", "e1-c1", true},
		{"black, passed cell attacked by phasing", "b Ke1,ke8,rh8,Bf8' k - 0 1", "e8-g8", false},
		{"black, control", "b Ke1,ke8,rh8,Bc8' k - 0 1", "e8-g8", true},
		// The rook leaving h1 does not open the row round the glued ends:
		// "between" is along the row as drawn, so h8' beside a1 is no concern.
		{"a piece round the wrap is not between", "w Ke1,Ra1,Nh8',ke8 Q - 0 1", "e1-c1", true},
		// A king on the twin of the rook's landing cell attacks the cell the
		// king passes, so castling can never put the rook on the enemy
		// king's twin.
		{"enemy king on the twin of f1", "w Ke1,Rh1,kf1' K - 0 1", "e1-g1", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, id := range moebiusIDs {
				p := mustPos(t, id, tc.pos)
				if got := isLegal(p, tc.move); got != tc.legal {
					t.Errorf("%s: %s legal = %v, want %v; moves %v", id, tc.move, got, tc.legal, p.CanonicalMoves())
				}
			}
		})
	}
	p := mustPlay(t, mustPos(t, "moebius", "w Ke1,Rh1,ke8 K - 0 1"), "e1-g1")
	if want := "b Rf1,Kg1,ke8 - - 1 1"; p.String() != mustPos(t, "moebius", want).String() {
		t.Errorf("after castling: %s, want %s", p, want)
	}
}

// En passant (RULES §1): right after a double step a→b→c, a pawn that is a
// king-step neighbour of c with a capture step onto b may take on b —
// including across the middle seam (h ↔ a') and the glued ends (a ↔ h').
func TestMoebiusEnPassant(t *testing.T) {
	tests := []struct {
		name, pos, double, ep, gone string
	}{
		{"on the front", "b Ke1,Pd5,ke8,pe7 - - 0 1", "e7-e5", "d5-e6", "e5"},
		// a2' is (8,6): a '-' pawn's double-step row. h5 (7,4) is beside a4'
		// (8,4) and captures up-right onto a3' (8,5).
		{"across the middle seam", "b Ke1,Ph5,ke8,pa2' - - 0 1", "a2'-a4'", "h5-a3'", "a4'"},
		// h2' is (15,6); a5 (0,4) is beside h4' (15,4) across the glued ends
		// and captures up-left onto h3' (15,5).
		{"across the glued ends", "b Ke1,Pa5,ke8,ph2' - - 0 1", "h2'-h4'", "a5-h3'", "h4'"},
		// White's '+' pawn on d7' (row 2 of the picture) double-steps up
		// through d6' to d5'; Black's '-' pawn on c5' beside it takes
		// down-right onto d6'.
		{"reversed pawns on the back", "w Ke1,P+d7',ke8,p-c5' - - 0 1", "d7'-d5'", "c5'-d6'", "d5'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, id := range moebiusIDs {
				p := mustPlay(t, mustPos(t, id, tc.pos), tc.double)
				if !isLegal(p, tc.ep) {
					t.Fatalf("%s: %s should be legal after %s (%s): %v", id, tc.ep, tc.double, p, p.CanonicalMoves())
				}
				q := mustPlay(t, p, tc.ep)
				if pc := q.Board[q.Geo().Cell(tc.gone)]; pc != 0 {
					t.Errorf("%s: after %s the pawn on %s is still there: %s", id, tc.ep, tc.gone, q)
				}
				// The right lasts one move only: two king moves later the
				// pawn can no longer be taken.
				r := p.Play(kingMove(t, p))
				r = r.Play(kingMove(t, r))
				if isLegal(r, tc.ep) {
					t.Errorf("%s: %s still legal two plies later (%s)", id, tc.ep, r)
				}
			}
		})
	}
}

// kingMove is some legal move of the side to move's king.
func kingMove(t *testing.T, p *Position) Move {
	t.Helper()
	for _, m := range p.LegalMoves() {
		if m.From == p.King[p.Side] {
			return m
		}
	}
	t.Fatalf("no king move in %s", p)
	return Move{}
}

// A rook on an open row reaches each of its 15 other cells both ways round;
// each must be listed once (legal moves are distinct triples).
func TestMoebiusRookRoundTheStrip(t *testing.T) {
	for _, id := range moebiusIDs {
		p := mustPos(t, id, "w Ra4,Ke1,ke8 - - 0 1")
		var rook []string
		for _, m := range p.CanonicalMoves() {
			if strings.HasPrefix(m, "a4-") {
				rook = append(rook, m)
			}
		}
		// Row 4 of the picture: 15 cells; the a-file: 7; the twin a4'.
		if len(rook) != 23 || len(slices.Compact(slices.Clone(rook))) != 23 {
			t.Errorf("%s: rook a4 has %d moves %v, want 23 distinct", id, len(rook), rook)
		}
		for _, mv := range []string{"a4-h4", "a4-a4'", "a4-h5'", "a4-a5'", "a4-a8", "a4-a1"} {
			if !slices.Contains(rook, mv) {
				t.Errorf("%s: %s missing", id, mv)
			}
		}
	}
}

// Reference values from ../shared/rules/perft.md (an independent
// implementation; d1 is the hand check of TestMoebiusStartMoves).
func TestPerftMoebius(t *testing.T) {
	runPerftCases(t, []perftCase{
		{"start", "moebius", "", []uint64{51, 2596, 143708, 7923070}},
		{"nierse-start", "moebius-nierse", "", []uint64{51, 2559, 141907, 7779514}},
	})
}

// Make/Unmake and the incremental hash through phasing, reversed pawns,
// en passant and castling.
func TestMoebiusMakeUnmake(t *testing.T) {
	for _, id := range moebiusIDs {
		pos := mustPos(t, id, "w Ke1,Rh1,Ra1,P+e2',Pd5,Ph5,Qc3,ke8,rh8,pe7,p+c2',pa2',nd4' KQk - 0 1")
		var walk func(d int)
		walk = func(d int) {
			if pos.Hash != pos.computeHash() {
				t.Fatalf("%s: hash drift at %s", id, pos)
			}
			if d == 0 {
				return
			}
			for _, m := range pos.LegalMoves() {
				before := pos.String()
				u := pos.Make(m)
				if back, err := MustVariant(id).ParsePosition(pos.String()); err != nil || back.String() != pos.String() {
					t.Fatalf("%s: position string round trip of %s: %v %v", id, pos, back, err)
				}
				walk(d - 1)
				pos.Unmake(m, u)
				if pos.String() != before {
					t.Fatalf("%s: unmake of %s broke the position: %s != %s", id, pos.Canonical(m), pos, before)
				}
			}
		}
		walk(2)
	}
}

func TestMoebiusLayout(t *testing.T) {
	v := MustVariant("moebius")
	l := v.Geo.Layout
	if l == nil || len(l.Shapes) != 128 {
		t.Fatal("layout should draw 128 cells")
	}
	// Folded: the front half above the back half, each in the usual
	// order, so a cell and its twin stand at the same place in each half.
	const top = moebiusH + moebiusGap
	at := map[int]Point{}
	dark := map[int]bool{}
	for _, s := range l.Shapes {
		name := v.Geo.Name(s.Cell)
		if _, dup := at[s.Cell]; dup {
			t.Errorf("%s drawn twice", name)
		}
		at[s.Cell], dark[s.Cell] = s.Poly[0], s.Dark
		f, r := float64(name[0]-'a'), float64(name[1]-'1')
		want := Point{f, top + r}
		if strings.HasSuffix(name, "'") {
			want = Point{f, r}
		}
		if s.Poly[0] != want {
			t.Errorf("%s drawn at %v, want %v", name, s.Poly[0], want)
		}
		if s.Tint != strings.HasSuffix(name, "'") || s.Down != s.Tint {
			t.Errorf("%s: tint %v, down %v", name, s.Tint, s.Down)
		}
	}
	for c := range at {
		tw := int(v.Geo.Twin[c])
		if d := at[c]; d.X != at[tw].X || math.Abs(d.Y-at[tw].Y) != top {
			t.Errorf("%s and its twin %s are not drawn in the same place", v.Geo.Name(c), v.Geo.Name(tw))
		}
		// The strip's own checkerboard (bishops keep their colour round
		// the glued ends) gives twins opposite colours.
		if x, y := c%moebiusW, c/moebiusW; dark[c] != ((x+y)%2 == 0) {
			t.Errorf("%s: dark %v", v.Geo.Name(c), dark[c])
		}
	}
	if !dark[v.Geo.Cell("a1")] {
		t.Error("a1 is not dark")
	}
	texts := map[string]bool{}
	for _, lb := range l.Labels {
		texts[lb.Text] = true
	}
	for _, want := range []string{"a", "h", "a'", "h'", "1", "8", "1'", "8'"} {
		if !texts[want] {
			t.Errorf("label %q missing", want)
		}
	}
	glue := 0
	for _, m := range l.Marks {
		if m.Kind == "glue" && m.From.X == m.To.X && (m.From.X == 0 || m.From.X == 8) {
			glue++
		}
	}
	if glue != 4 {
		t.Errorf("%d glue marks on the halves' sides, want 4", glue)
	}
	if MustVariant("moebius-nierse").Geo.Layout == nil {
		t.Error("nierse has no layout")
	}
}

// The players' text must state the rule book's decisions.
func TestMoebiusRulesText(t *testing.T) {
	for id, rule := range map[string]string{"moebius": "checkmates", "moebius-nierse": "Nierse"} {
		v := MustVariant(id)
		if v.Name == "" || v.Short == "" {
			t.Errorf("%s: name or short text missing", id)
		}
		for _, want := range []string{"reverses its direction", rule, "twin", "threefold", "100 half-moves"} {
			if !strings.Contains(v.Rules, want) {
				t.Errorf("%s rules text lacks %q", id, want)
			}
		}
	}
}

// The inventor's rule decides mate with a fast escape test; it must agree
// with full legal move generation (mate rule off, as RULES §3 says) for
// every move onto the enemy king's twin met in a small tree.
func TestMoebiusEscapeTestAgrees(t *testing.T) {
	starts := []string{
		"", // start: a1-e8' and h1-e8' mate
		"w Ke1,Ra1,Qd4,Nf3,Pe2,ke8,rh8,pd7,pf7,nc6,bg4' K - 0 1",
		"b Kg1,Rf1,Pg2,Ph2,Pf2,Qb3',kc8,qd4,rd8,pb7,pc7,pa7,nh6' - - 0 1",
	}
	checked, mates := 0, 0
	for _, s := range starts {
		pos := MustVariant("moebius").StartPosition()
		if s != "" {
			pos = mustPos(t, "moebius", s)
		}
		var walk func(d int)
		walk = func(d int) {
			them := pos.Side.Other()
			if ek := pos.King[them]; ek >= 0 {
				tw := pos.g.Twin[ek]
				for _, m := range pos.genPseudo(nil) {
					if m.To != tw {
						continue
					}
					u := pos.Make(m)
					if !pos.Attacked(int(pos.King[pos.Side.Other()]), pos.Side) {
						full := hasKingSafeMove(pos)
						if got := pos.canEscapeTwinCheck(); got != full {
							t.Errorf("%s: escape test %v, full generation %v", pos, got, full)
						}
						checked++
						if !full {
							mates++
						}
					}
					pos.Unmake(m, u)
				}
			}
			if d == 0 {
				return
			}
			for _, m := range pos.LegalMoves() {
				u := pos.Make(m)
				walk(d - 1)
				pos.Unmake(m, u)
			}
		}
		walk(2)
	}
	if checked < 100 || mates == 0 {
		t.Errorf("only %d twin checks (%d mates) met; the test needs richer positions", checked, mates)
	}
	t.Logf("%d twin checks, %d of them mate", checked, mates)
}

// Chat input takes every prime spelling of RULES §1.2.
func TestMoebiusMoveInput(t *testing.T) {
	p := MustVariant("moebius").StartPosition()
	for in, want := range map[string]string{
		"a1-f8'": "a1-f8'", "a1f8p": "a1-f8'", "Ra1f8’": "a1-f8'", "Rhf8′": "h1-f8'",
		"Nh7'": "b1-h7'", "g1-a7p": "g1-a7'", "e2e2'": "e2-e2'",
	} {
		m, err := p.ParseMove(in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if got := p.Canonical(m); got != want {
			t.Errorf("%q read as %s, want %s", in, got, want)
		}
	}
	// Two rooks reach f8', one each way round; e8' would mate by phasing.
	for _, in := range []string{"Rf8'", "Re8'", "a1-e8p", "Ke1'"} {
		if _, err := p.ParseMove(in); err == nil {
			t.Errorf("%q should be refused", in)
		}
	}
}

// hasKingSafeMove is the plain definition the escape test must agree with:
// some pseudo-legal move leaves the mover's king unattacked (the mate rule
// itself is not applied inside the checkmate test, RULES §3).
func hasKingSafeMove(pos *Position) bool {
	us := pos.Side
	for _, m := range pos.genPseudo(nil) {
		u := pos.Make(m)
		safe := pos.King[us] < 0 || !pos.Attacked(int(pos.King[us]), us.Other())
		pos.Unmake(m, u)
		if safe {
			return true
		}
	}
	return false
}
