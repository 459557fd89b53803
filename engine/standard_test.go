package engine

import "testing"

// perftCase is a position and its published or reasoned leaf counts.
type perftCase struct {
	name    string
	variant string
	pos     string   // "" for the start position
	counts  []uint64 // by depth from 1; 0 where no value is published
}

// deepNodes is how many leaves a case may have before it only runs in the
// deep (non-race, non-short) pass.
const deepNodes = 3_000_000

func runPerftCases(t *testing.T, cases []perftCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := MustVariant(tc.variant)
			pos := v.StartPosition()
			if tc.pos != "" {
				var err error
				if pos, err = v.ParsePosition(tc.pos); err != nil {
					t.Fatal(err)
				}
			}
			for i, want := range tc.counts {
				if want == 0 {
					continue // not published at this depth
				}
				if want > deepNodes && (raceEnabled || testing.Short()) {
					t.Logf("depth %d skipped (deep pass only)", i+1)
					continue
				}
				if got := pos.Perft(i + 1); got != want {
					t.Errorf("depth %d: got %d, want %d", i+1, got, want)
				}
			}
		})
	}
}

// The chess programming community's published suite (../shared/rules/perft.md).
func TestPerftStandard(t *testing.T) {
	runPerftCases(t, []perftCase{
		{"start", "standard", "", []uint64{20, 400, 8902, 197281, 4865609}},
		{"kiwipete", "standard", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", []uint64{48, 2039, 97862, 4085603}},
		{"pos3", "standard", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", []uint64{14, 191, 2812, 43238, 674624}},
		{"pos4", "standard", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", []uint64{6, 264, 9467, 422333}},
		{"pos4mirrored", "standard", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", []uint64{6, 264, 9467, 422333}},
		{"pos5", "standard", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", []uint64{44, 1486, 62379, 2103487}},
		{"pos6", "standard", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", []uint64{46, 2079, 89890, 3894594}},
		{"sedlak-discovered", "standard", "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", []uint64{0, 0, 0, 0, 0, 1134888}},
		{"sedlak-ep-pin", "standard", "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", []uint64{0, 0, 0, 0, 0, 1440467}},
		{"sedlak-short-castle", "standard", "5k2/8/8/8/8/8/8/4K2R w K - 0 1", []uint64{0, 0, 0, 0, 0, 661072}},
		{"sedlak-long-castle", "standard", "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", []uint64{0, 0, 0, 0, 0, 803711}},
	})
}

func TestIncrementalHash(t *testing.T) {
	v := MustVariant("standard")
	pos, err := v.ParsePosition("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	var walk func(d int)
	walk = func(d int) {
		if pos.Hash != pos.computeHash() {
			t.Fatalf("hash drift at %s", pos)
		}
		if d == 0 {
			return
		}
		for _, m := range pos.LegalMoves() {
			before := pos.String()
			u := pos.Make(m)
			walk(d - 1)
			pos.Unmake(m, u)
			if pos.String() != before {
				t.Fatalf("unmake of %s broke the position: %s != %s", pos.Canonical(m), pos, before)
			}
		}
	}
	walk(2)
}
