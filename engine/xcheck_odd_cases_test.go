package engine

// Hand-made positions for the cross-check: the corners of RULES §6 and §7
// where a careless reading goes wrong, each compared with the reference
// and checked against what the rule book itself requires.

import (
	"slices"
	"testing"
)

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
