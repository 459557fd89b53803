package search

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"topochess/engine"
)

// mates reports whether the side to move can force mate within n moves,
// by plain exhaustive search over LegalMoves: the independent check of
// every puzzle below and of the move the engine picks.
func mates(p *engine.Position, n int) bool {
	for _, m := range p.LegalMoves() {
		u := p.Make(m)
		ok := mated(p, n)
		p.Unmake(m, u)
		if ok {
			return true
		}
	}
	return false
}

// mated reports whether the side to move is checkmated now or, with n > 1,
// gets mated within n-1 more moves whatever it plays.
func mated(p *engine.Position, n int) bool {
	ms := p.LegalMoves()
	if len(ms) == 0 {
		return p.InCheck()
	}
	if n <= 1 {
		return false
	}
	for _, m := range ms {
		u := p.Make(m)
		ok := mates(p, n-1)
		p.Unmake(m, u)
		if !ok {
			return false
		}
	}
	return true
}

// mateBudget keeps the tests deterministic: a node budget, no clock.
const mateBudget = 300_000

type mateCase struct {
	name, variant, pos string
	n                  int
}

// Hand-made puzzles; the reasoning is in each comment and the exhaustive
// search re-checks it (exactly mate in n, not fewer).
var mateCases = []mateCase{
	// Back rank: the g8 king is walled in by its own pawns; Ra8 checks
	// along the 8th rank, f8 and h8 are on that rank too, nothing can
	// capture on a8 or interpose.
	{"back rank", "standard", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1},
	// King and rook against king: after 1.Kb6 the a8 king only has b8
	// (a7, b7 are the white king's), and 1...Kb8 2.Rh8# (a7, b7, c7 covered
	// by the king, a8 and c8 by the rook). No mate in one: 1.Rh8+ Kb7 or Ka7.
	{"king and rook", "standard", "k7/8/2K5/8/8/8/8/7R w - - 0 1", 2},
	// Heisenberg: the same back-rank mate. The rook's path a2..a8 is watched
	// by no black piece (king g8, pawns f7 g7 h7 look at rank 8 and rank 6),
	// so the move is not observed, and check is ordinary.
	{"heisenberg back rank", "heisenberg", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1},
	// Heisenberg king and rook: the black king's moves are never observed,
	// so the defence is the standard one; White's king moves are never
	// observed either, and Rh8 runs along rank 8, which only the black king
	// watches near it.
	{"heisenberg king and rook", "heisenberg", "k7/8/2K5/8/8/8/8/7R w - - 0 1", 2},
	// Cylinder: files a and h are not glued, so the a-file is an edge. Qb5
	// (along the b-file from b10, round the rank wrap or not) checks a5 and
	// covers a4, a6, b4, b6; the c6 king guards b5. Far from the rank wrap.
	{"cylinder edge", "cylindrical", "w Kc6,Qb10,ka5 - - 0 1", 1},
	// Torus smothered mate: the e8 king's eight neighbours hold black pawns
	// moving down (they capture toward rank 7, never onto g9); Ne10-g9 gives
	// a check nothing can capture or block. Far from every wrap.
	{"torus smothered", "toroidal", "w Ka2,Ne10,ke8,pd7,pe7,pf7,pd8,pf8,pd9,pe9,pf9 - - 0 1", 1},
	// Klein bottle: the same smothered mate; the seam between ranks 11 and
	// 12 is not crossed by any move involved.
	{"klein smothered", "klein", "w Ka2,Ne10,ke8,pd7,pe7,pf7,pd8,pf8,pd9,pe9,pf9 - - 0 1", 1},
	// Möbius smothered mate: black pawns (moving down, capturing toward
	// rank 3) fill the e4 king's neighbours and a black pawn stands on its
	// twin e4', so it cannot phase away; Ne6-g5 checks, g5's twin g5' is
	// empty so nothing phases onto the knight, and g5 is not e4' (the mate
	// rule).
	{"moebius smothered", "moebius", "w Ka1,Ne6,ke4,pd3,pe3,pf3,pd4,pf4,pd5,pe5,pf5,pe4' - - 0 1", 1},
	{"moebius-nierse smothered", "moebius-nierse", "w Ka1,Ne6,ke4,pd3,pe3,pf3,pd4,pf4,pd5,pe5,pf5,pe4' - - 0 1", 1},
	// Chess 66 smothered mate in the lower half (column X = file+1 there,
	// X = file above the split): black pawns fill the e3 king's neighbours
	// (d2..f4), the knight jumps f5 (X 5, rank 5) to g4 (X 7, rank 4), a
	// flat knight move in (X, rank); black pawns capture downward only.
	// Chess 66, king and rook in the a1 corner (the lower half is an
	// ordinary grid there; the switch cell 4 is out of reach). The rook on
	// rank 2 keeps the a1 king off a2 and b2; 1.Kb3 takes a2, b2, c2 and
	// leaves only 1...Kb1, then 2.Rh1# along rank 1 (a1 and c1 by the rook,
	// the second rank by the king). No mate in one: after 1.Rh1+ the king
	// steps to a2.
	{"chess66 king and rook", "chess66", "w Kc3,Rh2,ka1 - - 0 1", 2},
	{"chess66 smothered", "chess66", "w Ka8,Nf5,ke3,pd2,pe2,pf2,pd3,pf3,pd4,pe4,pf4 - - 0 1", 1},
}

func TestFindsMates(t *testing.T) {
	for _, tc := range mateCases {
		t.Run(tc.name, func(t *testing.T) {
			v, err := engine.GetVariant(tc.variant)
			if err != nil {
				t.Skipf("variant not on this branch: %v", err)
			}
			pos, err := v.ParsePosition(tc.pos)
			if err != nil {
				t.Fatal(err)
			}
			checkMatePuzzle(t, pos, tc.n)
		})
	}
}

// TestFindsSmotheredMateEverywhere builds a smothered mate from each
// variant's own tables, so every board is covered, cube faces and vertices
// included: a black king whose every neighbour holds a black pawn, and a
// white knight one jump from a cell that checks the king and that no black
// piece attacks. A knight check cannot be blocked, the king cannot move, so
// the jump mates; the exhaustive search confirms it.
func TestFindsSmotheredMateEverywhere(t *testing.T) {
	for _, id := range engine.Variants() {
		t.Run(id, func(t *testing.T) {
			v := engine.MustVariant(id)
			pos := smothered(v)
			if pos == nil {
				t.Fatal("no cell of the board allows a smothered mate")
			}
			t.Logf("%s", pos)
			checkMatePuzzle(t, pos, 1)
		})
	}
}

func checkMatePuzzle(t *testing.T, pos *engine.Position, n int) {
	t.Helper()
	checkMatePuzzleThreads(t, NewSearcher(), pos, n, 1)
}

// checkMatePuzzleThreads solves the puzzle with s using threads threads.
func checkMatePuzzleThreads(t *testing.T, s *Searcher, pos *engine.Position, n, threads int) {
	t.Helper()
	if !mates(pos, n) {
		t.Fatalf("the puzzle is wrong: no forced mate in %d", n)
	}
	if n > 1 && mates(pos, n-1) {
		t.Fatalf("the puzzle is wrong: there is a mate in %d", n-1)
	}
	cfg, _ := Level(5)
	cfg.Time, cfg.Nodes, cfg.Threads = 0, mateBudget, threads
	before := pos.String()
	m, info, err := s.Search(context.Background(), pos, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pos.String() != before {
		t.Fatalf("the search changed its position")
	}
	if info.Mate != n {
		t.Errorf("%s: want mate in %d", info, n)
	}
	q := pos.Clone()
	q.Make(m)
	if !mated(q, n) {
		t.Errorf("%s does not force mate in %d (line %s)", pos.Canonical(m), n, info.Line(pos))
	}
}

// smothered returns the first smothered-mate position the board allows, or
// nil. The king's cell is tried from the highest index down, so that black
// pawns sit toward their own start rather than their promotion cells.
func smothered(v *engine.Variant) *engine.Position {
	g := v.Geo
	for k := g.N - 1; k >= 0; k-- {
		if g.Partner[k] >= 0 {
			continue
		}
		var toks []string
		toks = append(toks, "k"+g.Name(k))
		occupied := map[int]bool{k: true}
		for _, c := range g.KingSteps[k] {
			toks = append(toks, "p"+g.Name(int(c)))
			occupied[int(c)] = true
		}
		if g.Twin != nil {
			// Keep the king from phasing away.
			tw := int(g.Twin[k])
			if !occupied[tw] {
				toks = append(toks, "p"+g.Name(tw))
				occupied[tw] = true
			}
		}
		// The white king goes on the first free cell (from index 0, far
		// from the black king).
		wk := -1
		for c := 0; c < g.N && wk < 0; c++ {
			if !occupied[c] && g.Partner[c] < 0 {
				wk = c
			}
		}
		for _, to := range g.Knight[k] {
			if occupied[int(to)] || int(to) == wk || g.Partner[to] >= 0 {
				continue
			}
			for _, from := range g.Knight[to] {
				if occupied[int(from)] || int(from) == wk || int(from) == k || g.Partner[from] >= 0 {
					continue
				}
				s := fmt.Sprintf("w K%s,N%s,%s - - 0 1", g.Name(wk), g.Name(int(from)), strings.Join(toks, ","))
				pos, err := v.ParsePosition(s)
				if err != nil || pos.InCheck() || pos.Attacked(int(to), engine.Black) {
					continue
				}
				// Nor may the black king be in check already.
				p2 := pos.Clone()
				p2.Side = engine.Black
				if p2.InCheck() {
					continue
				}
				if knightMates(pos, from, to) && mates(pos, 1) {
					return pos
				}
			}
		}
	}
	return nil
}

// knightMates is the quick test of the candidate: the jump is legal and
// leaves Black in check without a move.
func knightMates(p *engine.Position, from, to int16) bool {
	for _, m := range p.LegalMoves() {
		if m.From == from && m.To == to {
			u := p.Make(m)
			ok := p.InCheck() && len(p.LegalMoves()) == 0
			p.Unmake(m, u)
			return ok
		}
	}
	return false
}
