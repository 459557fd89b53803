package search

import (
	"context"
	"testing"

	"topochess/engine"
)

// TestHistoryStaysBounded: repeated bonuses and maluses approach the cap
// without passing it, and a bonus after maluses moves the score up; the
// same for a continuation score, kept in 16 bits.
func TestHistoryStaysBounded(t *testing.T) {
	s := NewSearcher()
	pos := engine.MustVariant("standard").StartPosition()
	s.prepare(context.Background(), pos, Config{})
	s.lastKey[1] = int32(engine.Pawn)*int32(s.cells) + 28
	c1, _ := s.contRows(1)
	ci := int(engine.Knight)*s.cells + 20
	for i := 0; i < 1000; i++ {
		s.addHistory(engine.White, engine.Knight, 20, 1600, c1, nil)
	}
	for _, h := range []int32{s.history[engine.White][engine.Knight][20], int32(c1[ci])} {
		if h > historyCap || h < historyCap*9/10 {
			t.Fatalf("after many bonuses history is %d, want just under %d", h, historyCap)
		}
	}
	for i := 0; i < 1000; i++ {
		s.addHistory(engine.White, engine.Knight, 20, -1600, c1, nil)
	}
	h := s.history[engine.White][engine.Knight][20]
	for _, h := range []int32{h, int32(c1[ci])} {
		if h < -historyCap || h > -historyCap*9/10 {
			t.Fatalf("after many maluses history is %d, want just above %d", h, -historyCap)
		}
	}
	hc := c1[ci]
	s.addHistory(engine.White, engine.Knight, 20, 16, c1, nil)
	if s.history[engine.White][engine.Knight][20] <= h || c1[ci] <= hc {
		t.Fatalf("a bonus did not raise a negative history")
	}
}

// TestRememberQuiet: a quiet cutoff makes the move a killer and the counter
// move to the opponent's last move, raises its history and lowers that of
// the quiet moves tried before it; the counter move is then ordered right
// after the killers.
func TestRememberQuiet(t *testing.T) {
	v := engine.MustVariant("standard")
	pos := v.StartPosition()
	e4, _ := pos.ParseCanonical("e2-e4")
	pos.Make(e4)
	s := NewSearcher()
	s.prepare(context.Background(), pos, Config{})
	const ply = 3
	s.lastTo[ply] = e4.To
	s.lastKey[ply] = int32(engine.Pawn)*int32(s.cells) + int32(e4.To)
	s.lastKey[ply-1] = -1
	nf6, _ := pos.ParseCanonical("g8-f6")
	a6, _ := pos.ParseCanonical("a7-a6")
	h6, _ := pos.ParseCanonical("h7-h6")
	s.rememberQuiet(nf6, []engine.Move{a6, h6}, ply, 4)
	if !s.killers[ply][0].Same(nf6) {
		t.Errorf("killer is %v, want g8-f6", s.killers[ply][0])
	}
	if c := s.counter[engine.Black][engine.Pawn][e4.To]; !c.Same(nf6) {
		t.Errorf("counter move to e2-e4 is %v, want g8-f6", c)
	}
	if h := s.history[engine.Black][engine.Knight][nf6.To]; h <= 0 {
		t.Errorf("history of the cutoff move is %d", h)
	}
	for _, m := range []engine.Move{a6, h6} {
		if h := s.history[engine.Black][engine.Pawn][m.To]; h >= 0 {
			t.Errorf("history of %s, tried in vain, is %d", pos.Canonical(m), h)
		}
	}
	// The continuation scores as answers to e2-e4: up for the cutoff
	// move, down for the others; no follow-up row (no move two plies up).
	c1, c2 := s.contRows(ply)
	if c2 != nil {
		t.Errorf("a follow-up row without a move two plies before")
	}
	if c := c1[int(engine.Knight)*s.cells+int(nf6.To)]; c <= 0 {
		t.Errorf("continuation score of g8-f6 after e2-e4 is %d", c)
	}
	if c := c1[int(engine.Pawn)*s.cells+int(a6.To)]; c >= 0 {
		t.Errorf("continuation score of a7-a6 after e2-e4 is %d", c)
	}
	// Another ply has other killers: there the counter move comes first
	// among the quiet moves.
	s.lastTo[ply+1] = e4.To
	ms := pos.LegalMoves()
	sc := make([]int32, len(ms))
	s.scoreMoves(ms, sc, engine.Move{From: -1, To: -1}, ply+1)
	pickNext(ms, sc, 0)
	if !ms[0].Same(nf6) || sc[0] != orderKiller-2 {
		t.Errorf("first move %s with key %d, want the counter move g8-f6", pos.Canonical(ms[0]), sc[0])
	}
}

// TestLosingCaptureOrderedLate: in the main search's order a capture that
// loses its exchange comes after the quiet moves, a winning one first.
func TestLosingCaptureOrderedLate(t *testing.T) {
	pos, err := engine.MustVariant("standard").ParsePosition("w Ke1,Qd1,Nb1,kh8,pd5,pe6,pa3 - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	s := NewSearcher()
	s.prepare(context.Background(), pos, Config{})
	ms := pos.LegalMoves()
	sc := make([]int32, len(ms))
	s.scoreMoves(ms, sc, engine.Move{From: -1, To: -1}, 1)
	var order []string
	for i := range ms {
		s.pickNext(ms, sc, i)
		order = append(order, pos.Canonical(ms[i]))
	}
	if order[0] != "b1-a3" {
		t.Errorf("first move %s, want the winning capture b1-a3 (order %v)", order[0], order)
	}
	if order[len(order)-1] != "d1-d5" {
		t.Errorf("last move %s, want the losing capture d1-d5 (order %v)", order[len(order)-1], order)
	}
}

// TestAspirationFindsMate: an aspiration window around a quiet score
// fails high on a forced mate and widens until the mate score is exact.
func TestAspirationFindsMate(t *testing.T) {
	pos, err := engine.MustVariant("standard").ParsePosition("k7/8/2K5/8/8/8/8/7R w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	s := NewSearcher()
	s.prepare(context.Background(), pos, Config{})
	rs := newRootMoves(s, pos.LegalMoves(), make([]int32, len(pos.LegalMoves())))
	for depth := 1; depth <= 4; depth++ {
		if _, ok := s.searchRoot(rs, depth, -infinity, infinity); !ok {
			t.Fatal("stopped")
		}
	}
	score, ok := s.aspire(rs, 5, 0, true)
	if !ok || score != mateScore-3 {
		t.Fatalf("aspiration search scored %d (ok %v), want mate in 2 (%d)", score, ok, mateScore-3)
	}
	if q := pos.Play(rs.moves[0].m); !mated(q, 2) {
		t.Fatalf("best move %s does not mate in 2", pos.Canonical(rs.moves[0].m))
	}
	// A window far above the truth fails low and keeps the order.
	before := rs.moves[0].m
	score, ok = s.searchRoot(rs, 3, mateScore-2, mateScore-1)
	if !ok || score > mateScore-2 || rs.bestChanged || !rs.moves[0].m.Same(before) {
		t.Fatalf("a window above the truth gave %d, changed %v", score, rs.bestChanged)
	}
}
