package engine

import (
	"strings"
	"testing"
)

// Handcrafted corner cases for the cross-check. Each is compared with the
// reference in full; the must/mustNot moves and the move counts are what
// the rule book says, reasoned out in the comment (they do not come from
// either implementation's output).
type xrCase struct {
	name    string
	ids     []string
	pos     string
	must    []string
	mustNot []string
	from    string // when set, the number of legal moves from this cell ...
	nFrom   int    // ... must be nFrom
}

var (
	xrStrips = []string{"moebius", "moebius-nierse"}
	xrTori   = []string{"toroidal", "cylindrical", "klein"}
)

var xrCases = []xrCase{
	// RULES §3 example and perft.md: from the start a1-e8' (rook leftwards
	// round the strip, guarded by h1) would mate by phasing and is illegal
	// in both rules, a1-f8' is legal; the king may not phase to e1', which
	// the h8 rook sees along the top row (h8, a1', b1', …).
	{name: "strip start", ids: xrStrips, pos: "",
		must: []string{"a1-f8'", "b1-h7'", "g1-a7'", "e2-e2'"}, mustNot: []string{"a1-e8'", "h1-e8'", "e1-e1'"}},
	// Nierse's example (perft.md): h4'-e4' checks by phasing; the king on
	// e4 simply steps away, so it is no mate: legal under the inventor's
	// rule, illegal under Nierse's.
	{name: "Nierse example", ids: []string{"moebius"}, pos: "w Ka1,Rh4',ke4 - -", must: []string{"h4'-e4'"}},
	{name: "Nierse example", ids: []string{"moebius-nierse"}, pos: "w Ka1,Rh4',ke4 - -", mustNot: []string{"h4'-e4'"}},
	// e2-e4 lands on e4, the twin of the black king on e4' (12,4), whose
	// eight neighbours hold black pawns. The king cannot phase to e4 (d3
	// guards it) and nothing else takes e4, so it would be mate — except
	// that the pawn on d4 takes e4 en passant (d4 is a king-step
	// neighbour of e4 with a capture step onto e3), which removes the
	// checking pawn. Not mate: legal for the inventor, illegal for Nierse.
	{name: "mate by phasing escaped en passant", ids: []string{"moebius"},
		pos:  "w Ka1,Pe2,Pd3,ke4',p-d5',p-e5',p-f5',p-d4',p-f4',p-d3',p-e3',p-f3',p-d4 - -",
		must: []string{"e2-e4", "e2-e3"}},
	{name: "mate by phasing escaped en passant", ids: []string{"moebius-nierse"},
		pos:  "w Ka1,Pe2,Pd3,ke4',p-d5',p-e5',p-f5',p-d4',p-f4',p-d3',p-e3',p-f3',p-d4 - -",
		must: []string{"e2-e3"}, mustNot: []string{"e2-e4"}},
	// The same without the d4 pawn: e2-e4 is mate by phasing, illegal
	// under both rules.
	{name: "mate by phasing", ids: xrStrips,
		pos:  "w Ka1,Pe2,Pd3,ke4',p-d5',p-e5',p-f5',p-d4',p-f4',p-d3',p-e3',p-f3' - -",
		must: []string{"e2-e3"}, mustNot: []string{"e2-e4"}},
	// The black king on d1' attacks its twin d1 through the paper, so
	// White may not castle long (the king would pass d1); short castling
	// is fine. (Castling onto the enemy king's twin is therefore never
	// possible: the rook lands on the cell the king passes.)
	{name: "castling past a cell attacked by phasing", ids: xrStrips, pos: "w Ke1,Ra1,Rh1,kd1' KQ -",
		must: []string{"e1-g1"}, mustNot: []string{"e1-c1"}},
	// A '+' pawn on the bottom row (reachable only from a position string)
	// steps up but has no double step (row 1 is the double-step row); its
	// phase to c1' makes it a '-' pawn on the top row, which is no
	// promotion cell for '-' pawns. A '-' pawn on d7' (row 1) promotes on
	// d8' (row 0); phasing to d7 makes it '+' on row 6: no promotion.
	{name: "strip pawns against the usual direction", ids: xrStrips, pos: "w Ka1,P+c1,P-d7',kh5 - -",
		must:    []string{"c1-c2", "c1-c1'", "d7'-d8'=Q", "d7'-d8'=R", "d7'-d8'=B", "d7'-d8'=N", "d7'-d7"},
		mustNot: []string{"c1-c3", "c1-c1'=Q", "d7'-d8'", "d7'-d7=Q"}},
	// Promotion cells go by direction, not colour: a black '+' pawn on g7
	// promotes on g8.
	{name: "black pawn promoting upward", ids: xrStrips, pos: "b Ka1,kh5,p+g7 - -",
		must: []string{"g7-g8=Q", "g7-g8=N", "g7-g7'"}, mustNot: []string{"g7-g8"}},
	// En passant across the glued ends: a2-a4 skipped a3, and h5' (15,3)
	// has a capture step onto a3 (0,2) and is a king-step neighbour of a4.
	{name: "strip en passant across the glue", ids: xrStrips, pos: "b Ke1,P+a4,ke8,p-h5' - a3/a4",
		must: []string{"h5'-a3"}},
	// The mirror: h7'-h5' skipped h6' (15,2); a4 (0,3) takes it, the
	// short form of the en-passant field names only the skipped cell.
	{name: "strip en passant across the glue, short form", ids: xrStrips, pos: "b Ke1,P+h5',ke8,p-a4 - h6p",
		must: []string{"a4-h6'"}},
	// Double steps go by row and direction: a black '+' pawn on c7' (row
	// 1) and a white '-' pawn on a2' (row 6) both double-step.
	{name: "strip double steps on the back", ids: xrStrips, pos: "b Ke1,ke8,p+c7' - -",
		must: []string{"c7'-c6'", "c7'-c5'"}},
	{name: "strip double steps on the back, white", ids: xrStrips, pos: "w Ke1,ke8,P-a2' - -",
		must: []string{"a2'-a3'", "a2'-a4'"}},
	// A rook on an open row of 16 cells reaches each of the other 15 once
	// (both ways round give the same cells), plus a2, a3, a5–a8 and its
	// twin a4': 22 distinct moves.
	{name: "strip rook round the row", ids: xrStrips, pos: "w Ra4,Ka1,kh8 - -", from: "a4", nFrom: 22},

	// perft.md worked examples: the torus bishop sees 55 cells, the Klein
	// rook 33 (files d and e, rank 5; e5 once).
	{name: "torus bishop", ids: []string{"toroidal"}, pos: "w Bf1,Kd4,kd12 - -", from: "f1", nFrom: 55},
	{name: "klein rook", ids: []string{"klein"}, pos: "w Rd5,Ka3,kh10 - -", from: "d5", nFrom: 33},
	// Long castling moves the a1 rook away and opens h1-a1-b1-c1 round
	// the glued files: the king would stand in check on c1 (RULES §1).
	// On the cylinder files a and h are not glued and castling is fine.
	{name: "castling opens a line round the edge", ids: []string{"toroidal", "klein"}, pos: "w Ke1,Ra1,Nf1,rh1,ke8 Q -",
		mustNot: []string{"e1-c1"}},
	{name: "castling opens a line round the edge", ids: []string{"cylindrical"}, pos: "w Ke1,Ra1,Nf1,rh1,ke8 Q -",
		must: []string{"e1-c1"}},
	// The b1 bishop's up-right and down-right rays both run into the h1
	// rook after 14 cells and, past h1, would go on to f1
	// (…-h1-a2-…-e14-f1 and …-h1-a14-…-e2-f1); its other two rays end on
	// the black king on e8 without meeting e1, f1 or g1. So f1 is attacked
	// only through the rook's corner. In the position as it stands f1 is not
	// attacked (RULES §1: "neither the cell it passes nor the cell it lands
	// on attacked", FIDE's reading), and after castling the rook stands on
	// f1 and g1 is safe, so short castling is legal. (See
	// TestXcheckRectCastlingThroughRook for the other reading.)
	{name: "castling past a cell seen through the rook", ids: []string{"toroidal"}, pos: "w Ke1,Rh1,bb1,ke8 K -",
		must: []string{"e1-g1"}},
	// §4 pawns: White promotes on rank 8 whichever way it goes (c9, '-'),
	// not on rank 1 (h14 '+' wraps to h1; b2 '-' steps to b1). Rank 14 is
	// a double-step rank only for '-' White pawns, rank 2 only for '+'.
	{name: "torus white pawns", ids: xrTori, pos: "w Ka1,P-c9,P+h14,P-b2,kf5 - -",
		must:    []string{"c9-c8=Q", "c9-c8=N", "h14-h1", "b2-b1"},
		mustNot: []string{"c9-c8", "h14-h1=Q", "h14-h2", "b2-b1=Q", "b2-b14"}},
	// Black promotes on rank 1 both ways (c14 '+' over the wrap, d2 '-');
	// '+' Black pawns double-step from rank 9, '-' ones only from rank 7.
	{name: "torus black pawns", ids: xrTori, pos: "b Kh5,ka3,p+c14,p-d2,p+g9,p-b9 - -",
		must:    []string{"c14-c1=Q", "c14-c1=B", "d2-d1=N", "g9-g10", "g9-g11", "b9-b8"},
		mustNot: []string{"c14-c1", "d2-d1", "b9-b7"}},
	// En passant the other way up: White's '-' pawn went e14-e12 over e13;
	// Black's '+' pawn on d12 has a capture step onto e13.
	{name: "en passant downward", ids: xrTori, pos: "b Ka1,ke8,P-e12,p+d12 - e13/e12",
		must: []string{"d12-e13"}},
	// En passant over the glued files: h4 takes a3 on the torus and the
	// Klein bottle (rank 3 wraps as on the torus); the cylinder has no
	// such step.
	{name: "en passant round the files", ids: []string{"toroidal", "klein"}, pos: "b Ke1,ke8,P+a4,p-h4 - a3",
		must: []string{"h4-a3"}},
	{name: "en passant round the files", ids: []string{"cylindrical"}, pos: "b Ke1,ke8,P+a4,p-h4 - a3",
		mustNot: []string{"h4-a3"}},
	// Klein seam: a11 is glued to h12, so the '+' pawn on a11 steps to h12
	// and its capture steps land on a12 and g12 (the diagonal neighbours
	// of h12); the '-' pawn on h12 steps down to a11.
	{name: "pawns across the Klein seam", ids: []string{"klein"}, pos: "w Ka1,ke5,P+a11,pa12,pg12 - -",
		must: []string{"a11-h12", "a11-a12", "a11-g12"}},
	{name: "pawn down across the Klein seam", ids: []string{"klein"}, pos: "w Ka1,ke5,P-h12 - -",
		must: []string{"h12-a11"}},
	// RULES §4: a bishop going up-right from a11 lands on g12 and goes on
	// up-left: f13, e14, d1.
	{name: "bishop across the Klein seam", ids: []string{"klein"}, pos: "w Ba11,Ka1,ke5 - -",
		must: []string{"a11-g12", "a11-f13", "a11-e14", "a11-d1"}},
	// Files a and h of the cylinder are edges: a knight on h4 has the
	// four flat-board targets f3, f5, g2, g6; on the torus also a2, a6,
	// b3, b5.
	{name: "knight at the cylinder's edge", ids: []string{"cylindrical"}, pos: "w Ka1,Nh4,kc8 - -", from: "h4", nFrom: 4},
	{name: "knight round the torus", ids: []string{"toroidal"}, pos: "w Ka1,Nh4,kc8 - -", from: "h4", nFrom: 8,
		must: []string{"h4-a2", "h4-a6", "h4-b3", "h4-b5"}},
}

func TestXcheckRectCases(t *testing.T) {
	for _, tc := range xrCases {
		for _, id := range tc.ids {
			v, rv := MustVariant(id), xrV(id)
			str := tc.pos
			if str == "" {
				str = v.Start
			}
			p, err := v.ParsePosition(str)
			if err != nil {
				t.Errorf("%s %s: engine rejects %q: %v", id, tc.name, str, err)
				continue
			}
			want, err := rv.parse(str)
			if err != nil {
				t.Fatalf("%s %s: %v", id, tc.name, err)
			}
			if got, _ := xrFromEngine(rv, p); !got.same(&want) {
				t.Errorf("%s %s: engine reads %q as %s", id, tc.name, str, got.String())
				continue
			}
			_, ref, _, _ := xrCheck(t, rv, p, tc.name)
			has := map[string]bool{}
			for _, m := range p.CanonicalMoves() {
				has[m] = true
			}
			for _, m := range tc.must {
				if !has[m] {
					t.Errorf("%s %s: %s should be legal", id, tc.name, m)
				}
			}
			for _, m := range tc.mustNot {
				if has[m] {
					t.Errorf("%s %s: %s should be illegal", id, tc.name, m)
				}
			}
			if tc.from != "" {
				n := 0
				for _, m := range ref {
					if strings.HasPrefix(m, tc.from+"-") {
						n++
					}
				}
				if n != tc.nFrom {
					t.Errorf("%s %s: %d moves from %s, want %d", id, tc.name, n, tc.from, tc.nFrom)
				}
			}
		}
	}
}

// TestXcheckRectCastlingThroughRook documents the one reading RULES §1
// leaves open on the torus: in "w Ke1,Rh1,bb1,ke8 K -" the cell f1 the
// king passes is attacked only through its own rook's corner. Castling is
// legal under the rule book's wording (attacked in the position as it
// stands) and would be illegal if the passing cell were judged with the
// rook already lifted; this test pins down that the line really exists.
func TestXcheckRectCastlingThroughRook(t *testing.T) {
	rv := xrV("toroidal")
	with, _ := rv.parse("w Ke1,Rh1,bb1,ke8 K -")
	without, _ := rv.parse("w Ke1,bb1,ke8 - -")
	after, _ := rv.parse("b Kg1,Rf1,bb1,ke8 - -")
	f1, g1, e1 := rv.byName["f1"], rv.byName["g1"], rv.byName["e1"]
	if with.attacked(f1, false) || with.attacked(g1, false) || with.attacked(e1, false) {
		t.Error("with the rook on h1, e1, f1 and g1 should all be safe")
	}
	if !without.attacked(f1, false) {
		t.Error("without the rook, b1 should see f1 through h1")
	}
	if after.attacked(g1, false) {
		t.Error("after castling the king on g1 should be safe")
	}
}
