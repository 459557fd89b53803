package search

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"topochess/engine"
)

// randomPositions plays random legal moves from the start and keeps the
// positions it passes, stopping at the end of a game.
func randomPositions(v *engine.Variant, rng *rand.Rand, games, plies int) []*engine.Position {
	var out []*engine.Position
	for g := 0; g < games; g++ {
		pos := v.StartPosition()
		n := rng.IntN(plies + 1)
		for i := 0; i < n; i++ {
			ms := pos.LegalMoves()
			if len(ms) == 0 {
				break
			}
			pos.Make(ms[rng.IntN(len(ms))])
		}
		if len(pos.LegalMoves()) > 0 {
			out = append(out, pos)
		}
	}
	return out
}

func isLegal(p *engine.Position, m engine.Move) bool {
	for _, l := range p.LegalMoves() {
		if l.Same(m) {
			return true
		}
	}
	return false
}

// TestOnlyLegalMoves searches positions reached by random playouts in
// every variant, at every level with small budgets.
func TestOnlyLegalMoves(t *testing.T) {
	for _, id := range engine.Variants() {
		t.Run(id, func(t *testing.T) {
			v := engine.MustVariant(id)
			rng := rand.New(rand.NewPCG(7, uint64(len(id))))
			s := NewSearcher()
			for i, pos := range randomPositions(v, rng, 3, 80) {
				for level := MinLevel; level <= MaxLevel; level++ {
					cfg, err := Level(level)
					if err != nil {
						t.Fatal(err)
					}
					cfg.Time, cfg.Nodes = 0, 400
					before := pos.Hash
					m, info, err := s.Search(context.Background(), pos, cfg, rng)
					if err != nil {
						t.Fatalf("position %d level %d: %v", i, level, err)
					}
					if pos.Hash != before {
						t.Fatalf("position %d level %d: the search changed the position", i, level)
					}
					if !isLegal(pos, m) {
						t.Errorf("position %d level %d (%s): illegal move %d→%d", i, level, pos, m.From, m.To)
					}
					q := pos.Clone()
					for _, pm := range info.PV {
						if !isLegal(q, pm) {
							t.Errorf("position %d level %d: illegal move in the line %s", i, level, info.Line(pos))
							break
						}
						q.Make(pm)
					}
				}
			}
		})
	}
}

// TestAppendNoisy checks the quiescence generator against the rules: the
// legal captures and queen promotions, no more, no fewer.
func TestAppendNoisy(t *testing.T) {
	for _, id := range engine.Variants() {
		t.Run(id, func(t *testing.T) {
			v := engine.MustVariant(id)
			rng := rand.New(rand.NewPCG(11, uint64(len(id))))
			for _, pos := range randomPositions(v, rng, 30, 120) {
				want := map[[3]int]bool{}
				for _, m := range pos.LegalMoves() {
					if pos.IsNoisy(m) {
						want[[3]int{int(m.From), int(m.To), int(m.Promo)}] = true
					}
				}
				got := map[[3]int]bool{}
				for _, m := range pos.AppendNoisy(nil) {
					k := [3]int{int(m.From), int(m.To), int(m.Promo)}
					if got[k] {
						t.Errorf("%s: %s twice", pos, pos.Canonical(m))
					}
					got[k] = true
					if !want[k] {
						t.Errorf("%s: %s is not a legal capture or queen promotion", pos, pos.Canonical(m))
					}
				}
				if len(got) != len(want) {
					t.Errorf("%s: %d noisy moves, want %d", pos, len(got), len(want))
				}
			}
		})
	}
}

// TestNullMoveRestores checks MakeNull/UnmakeNull leave no trace.
func TestNullMoveRestores(t *testing.T) {
	v := engine.MustVariant("standard")
	pos, err := v.ParsePosition("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
	if err != nil {
		t.Fatal(err)
	}
	before := pos.String()
	h := pos.Hash
	u := pos.MakeNull()
	if pos.Side != engine.Black || pos.EPSkip != -1 || pos.Hash == h {
		t.Fatalf("null move did not pass the turn: %s", pos)
	}
	pos.UnmakeNull(u)
	if pos.String() != before || pos.Hash != h {
		t.Fatalf("null move not undone: %s", pos)
	}
}

// TestCancel: a cancelled context ends even an unlimited search, which
// returns a legal move. A search that ignored the context would never
// return, so the test waits long enough to tell without timing anything.
func TestCancel(t *testing.T) {
	v := engine.MustVariant("standard")
	pos := v.StartPosition()
	unlimited := Config{Level: 5}
	for _, delay := range []time.Duration{0, 30 * time.Millisecond} {
		ctx, cancel := context.WithCancel(context.Background())
		if delay == 0 {
			cancel()
		} else {
			time.AfterFunc(delay, cancel)
		}
		done := make(chan struct{})
		var m engine.Move
		var info Info
		var err error
		go func() {
			m, info, err = NewSearcher().Search(ctx, pos, unlimited, nil)
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("delay %v: the search ignored the cancelled context", delay)
		}
		cancel()
		if err != nil {
			t.Fatalf("delay %v: %v", delay, err)
		}
		if !isLegal(pos, m) {
			t.Errorf("delay %v: illegal move %d→%d", delay, m.From, m.To)
		}
		if !info.Stopped {
			t.Errorf("delay %v: Info.Stopped not set", delay)
		}
	}
}

// TestDeterministic: with a node budget and the same seed, a search is
// reproducible move for move and node for node.
func TestDeterministic(t *testing.T) {
	v := engine.MustVariant("standard")
	pos := v.StartPosition()
	for _, level := range []int{1, 3, 5} {
		cfg, _ := Level(level)
		cfg.Time, cfg.Nodes = 0, 5000
		var first Info
		var firstMove engine.Move
		for run := 0; run < 2; run++ {
			m, info, err := NewSearcher().Search(context.Background(), pos, cfg, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				t.Fatal(err)
			}
			if run == 0 {
				first, firstMove = info, m
			} else if !m.Same(firstMove) || info.Nodes != first.Nodes || info.Score != first.Score {
				t.Errorf("level %d: %s / %v then %s / %v", level, pos.Canonical(firstMove), first, pos.Canonical(m), info)
			}
		}
	}
}

// TestLevel1PrefersCaptures: with one capture among many moves, level 1
// takes it far more often than one time in the number of moves.
func TestLevel1PrefersCaptures(t *testing.T) {
	v := engine.MustVariant("standard")
	// 1.e4 d5: exd5 is White's only capture among 31 moves.
	pos, err := v.ParsePosition("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	captures := 0
	const tries = 200
	for i := 0; i < tries; i++ {
		m, _, err := Best(context.Background(), pos, 1, rng)
		if err != nil {
			t.Fatal(err)
		}
		if !isLegal(pos, m) {
			t.Fatalf("illegal move %v", m)
		}
		if pos.IsNoisy(m) {
			captures++
		}
	}
	// Expected 3/4 + 1/4·1/31 of the tries; a uniform pick would give 1/31.
	if captures < tries/2 {
		t.Errorf("level 1 captured %d times in %d", captures, tries)
	}
}

func TestLevelsAndErrors(t *testing.T) {
	for _, level := range []int{0, 6, -1} {
		if _, err := Level(level); err == nil {
			t.Errorf("level %d accepted", level)
		}
		if _, _, err := Best(context.Background(), engine.MustVariant("standard").StartPosition(), level, nil); err == nil {
			t.Errorf("Best accepted level %d", level)
		}
	}
	// Fool's mate: White is checkmated and has no move.
	v := engine.MustVariant("standard")
	pos, err := v.ParsePosition("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Best(context.Background(), pos, 5, nil); !errors.Is(err, ErrNoMoves) {
		t.Errorf("no legal move: got %v, want ErrNoMoves", err)
	}
}

// TestDrawRules: a side far behind heads for a draw the rules give it,
// and the search scores it 0.
func TestDrawRules(t *testing.T) {
	v := engine.MustVariant("standard")
	cfg, _ := Level(5)
	cfg.Time, cfg.Nodes = 0, 50_000

	// 100 half-moves: Black (bare king against king and queen) moves with
	// the clock at 99, and no move of Black can be mate, so every move
	// draws.
	pos, err := v.ParsePosition("7k/8/8/8/8/8/8/KQ6 b - - 99 80")
	if err != nil {
		t.Fatal(err)
	}
	if _, info, err := NewSearcher().Search(context.Background(), pos, cfg, nil); err != nil || info.Score != 0 {
		t.Errorf("100 half-moves: score %d (%v), want 0", info.Score, err)
	}

	// Repetition: from P (White Kh1 Qa1, Black Ke8, White to move) the
	// game went Qa2 Ke7 Qa1; Black to move can return to P with Ke8, the
	// only move that does not lose, which the history tells the search.
	p, err := v.ParsePosition("4k3/8/8/8/8/8/8/Q6K w - - 0 50")
	if err != nil {
		t.Fatal(err)
	}
	var history []uint64
	for _, s := range []string{"a1-a2", "e8-e7", "a2-a1"} {
		history = append(history, p.Hash)
		m, err := p.ParseCanonical(s)
		if err != nil {
			t.Fatal(err)
		}
		p.Make(m)
	}
	cfg.History = history
	m, info, err := NewSearcher().Search(context.Background(), p, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Canonical(m); got != "e7-e8" || info.Score != 0 {
		t.Errorf("repetition: played %s with score %d, want e7-e8 with 0", got, info.Score)
	}
	// Without the history the same move is just a king move in a lost
	// ending.
	cfg.History = nil
	if _, info, _ := NewSearcher().Search(context.Background(), p, cfg, nil); info.Score > -300 {
		t.Errorf("without history: score %d, want a lost score", info.Score)
	}
}

func TestGameHistory(t *testing.T) {
	v := engine.MustVariant("standard")
	g, err := engine.NewGame(v, "")
	if err != nil {
		t.Fatal(err)
	}
	var want []uint64
	for _, s := range []string{"g1-f3", "g8-f6", "f3-g1", "f6-g8"} {
		want = append(want, g.Position().Hash)
		m, err := g.Position().ParseCanonical(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	got, err := GameHistory(g)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("got %d hashes, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("hash %d differs", i)
		}
	}
	// The knights went out and back: the current position is the start's.
	if got[0] != g.Position().Hash {
		t.Errorf("the start position should repeat")
	}
}
