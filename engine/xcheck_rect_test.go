package engine

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"
)

// Cross-check of the engine's move generation on the Möbius strip and the
// 8×14 boards against the naive reference in xcheck_rect_ref_test.go:
// random playouts from the start, random positions from position strings,
// handcrafted corner cases and perft.

var xrIDs = []string{"moebius", "moebius-nierse", "toroidal", "cylindrical", "klein"}

var xrVariants = map[string]*xrVariant{}

func xrV(id string) *xrVariant {
	if v, ok := xrVariants[id]; ok {
		return v
	}
	v := newXrVariant(id)
	xrVariants[id] = v
	return v
}

// xrLoad scales the random parts: full without -race/-short, lighter
// with them.
func xrLoad(n int) int {
	if raceEnabled {
		return max(1, n/8)
	}
	if testing.Short() {
		return max(1, n/3)
	}
	return n
}

// xrCheck compares the engine's legal moves in p with the reference's and
// returns the reference position and its moves. Every disagreement is a
// test error naming the position.
func xrCheck(t *testing.T, v *xrVariant, p *Position, label string) (xrPos, []string, map[string]xrMove, bool) {
	t.Helper()
	s, err := xrFromEngine(v, p)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	ref, by := s.moveStrings()
	eng := p.CanonicalMoves()
	onlyRef, onlyEng := xrDiff(ref, eng)
	ok := len(onlyRef) == 0 && len(onlyEng) == 0
	if !ok {
		t.Errorf("%s %s: %s\n  only in the rule book: %v\n  only in the engine (or repeated): %v", v.id, label, p, onlyRef, onlyEng)
	}
	if s.inCheck() {
		v.stats["positions in check"]++
	}
	if p.InCheck() != s.inCheck() {
		t.Errorf("%s %s: %s: engine says in check %v, rule book %v", v.id, label, p, p.InCheck(), s.inCheck())
		ok = false
	}
	return s, ref, by, ok
}

// xrPlayBoth plays the canonical move c in the engine position and the
// reference one and checks they agree on the result (board with pawn
// directions, side, castling rights, en-passant right).
func xrPlayBoth(t *testing.T, v *xrVariant, p *Position, s xrPos, m xrMove, c string) (xrPos, bool) {
	t.Helper()
	before := p.String()
	em, err := p.ParseCanonical(c)
	if err != nil {
		t.Errorf("%s %s: engine rejects %s: %v", v.id, before, c, err)
		return s, false
	}
	p.Make(em)
	n := s.play(m)
	got, err := xrFromEngine(v, p)
	if err != nil {
		t.Fatal(err)
	}
	if !got.same(&n) {
		t.Errorf("%s %s: after %s the engine has\n  %s\n  the rule book\n  %s", v.id, before, c, got.String(), n.String())
		return n, false
	}
	return n, true
}

// xrStart is each start position written from RULES §3 and §4.
func xrStart(v *xrVariant) string {
	var toks []string
	for i, k := range "RNBQKBNR" {
		f := string(rune('a' + i))
		toks = append(toks, string(k)+f+"1", strings.ToLower(string(k))+f+"8")
		if v.board == xrMoebius {
			toks = append(toks, "P+"+f+"2", "p-"+f+"7")
		} else {
			toks = append(toks, "P+"+f+"2", "P-"+f+"14", "p-"+f+"7", "p+"+f+"9")
		}
	}
	return "w " + strings.Join(toks, ",") + " KQkq -"
}

func xrLogStats(t *testing.T, v *xrVariant) {
	t.Helper()
	var parts []string
	for k, n := range v.stats {
		parts = append(parts, fmt.Sprintf("%s %d", k, n))
	}
	sort.Strings(parts)
	t.Logf("%s: legal moves seen: %s", v.id, strings.Join(parts, ", "))
	v.stats = map[string]int{}
}

func TestXcheckRectBoard(t *testing.T) {
	for _, id := range xrIDs {
		v, rv := MustVariant(id), xrV(id)
		g := v.Geo
		seen := map[xrPt]bool{}
		for c := 0; c < g.N; c++ {
			q, ok := rv.byName[strings.ToLower(g.Name(c))]
			if !ok || seen[q] {
				t.Errorf("%s: engine cell %d named %q is not a distinct rule-book cell", id, c, g.Name(c))
			}
			seen[q] = true
		}
		want, err := rv.parse(xrStart(rv))
		if err != nil {
			t.Fatal(err)
		}
		got, err := xrFromEngine(rv, v.StartPosition())
		if err != nil {
			t.Fatal(err)
		}
		if !got.same(&want) {
			t.Errorf("%s: start is %s, the rule book says %s", id, got.String(), want.String())
		}
	}
}

// TestXcheckRectPlayouts plays seeded random games from the start,
// comparing every position on the way and every position a move leads to.
func TestXcheckRectPlayouts(t *testing.T) {
	games, plies := xrLoad(12), 160
	for vi, id := range xrIDs {
		v, rv := MustVariant(id), xrV(id)
		r := rand.New(rand.NewSource(int64(1000 + vi)))
		count := 0
		for gm := 0; gm < games; gm++ {
			p := v.StartPosition()
			s, _ := xrFromEngine(rv, p)
			for ply := 0; ply < plies; ply++ {
				_, ms, by, ok := xrCheck(t, rv, p, fmt.Sprintf("game %d ply %d", gm, ply))
				count++
				if !ok || len(ms) == 0 {
					break
				}
				// Prefer captures, promotions and special moves now and
				// then: they are what random play reaches least.
				c := ms[r.Intn(len(ms))]
				if r.Intn(3) == 0 {
					for _, x := range r.Perm(len(ms)) {
						m := by[ms[x]]
						if m.kind != xrNormal || m.promo != 0 || !s.empty(m.to) {
							c = ms[x]
							break
						}
					}
				}
				if s, ok = xrPlayBoth(t, rv, p, s, by[c], c); !ok {
					break
				}
			}
		}
		t.Logf("%s: %d playout positions compared", id, count)
		xrLogStats(t, rv)
	}
}

// TestXcheckRectRandom builds random positions from position strings,
// compares their moves, the position after each move and, for some, the
// moves of every child.
func TestXcheckRectRandom(t *testing.T) {
	n := xrLoad(500)
	for vi, id := range xrIDs {
		v, rv := MustVariant(id), xrV(id)
		r := rand.New(rand.NewSource(int64(2000 + vi)))
		count, children := 0, 0
		for i := 0; i < n; i++ {
			s := xrRandomPosition(rv, r)
			str := s.engineString(r)
			p, err := v.ParsePosition(str)
			if err != nil {
				t.Errorf("%s: engine rejects %q (rule book: %s): %v", id, str, s.String(), err)
				continue
			}
			got, err := xrFromEngine(rv, p)
			if err != nil {
				t.Fatal(err)
			}
			if !got.same(&s) {
				t.Errorf("%s: %q reads as %s, the rule book says %s", id, str, got.String(), s.String())
				continue
			}
			_, ms, by, ok := xrCheck(t, rv, p, fmt.Sprintf("random %d", i))
			count++
			if !ok {
				continue
			}
			deep := i%4 == 0
			for _, c := range ms {
				q := p.Clone()
				n, ok := xrPlayBoth(t, rv, q, s, by[c], c)
				if ok && deep {
					xrCheck(t, rv, q, fmt.Sprintf("random %d after %s", i, c))
					children++
				}
				_ = n
			}
		}
		t.Logf("%s: %d random positions and %d children compared", id, count, children)
		xrLogStats(t, rv)
	}
}

// TestXcheckRectPerft compares perft with the reference's own perft, and
// the start positions with the reference values of perft.md.
func TestXcheckRectPerft(t *testing.T) {
	// perft.md, "The other variants — reference values", depths 1-3
	// (depth 3 in the full pass only).
	published := map[string][]uint64{
		"moebius":        {51, 2596, 143708},
		"moebius-nierse": {51, 2559, 141907},
		"toroidal":       {40, 1584, 68044},
		"cylindrical":    {40, 1600, 66964},
		"klein":          {40, 1588, 68516},
	}
	for vi, id := range xrIDs {
		v, rv := MustVariant(id), xrV(id)
		start := v.StartPosition()
		s, _ := xrFromEngine(rv, start)
		for d, want := range published[id] {
			if d == 2 && (raceEnabled || testing.Short()) {
				break
			}
			if got := s.perft(d + 1); got != want {
				t.Errorf("%s start: reference perft(%d) = %d, perft.md %d", id, d+1, got, want)
			}
			if got := start.Perft(d + 1); got != want {
				t.Errorf("%s start: engine perft(%d) = %d, perft.md %d", id, d+1, got, want)
			}
		}
		r := rand.New(rand.NewSource(int64(3000 + vi)))
		samples, leaves := xrLoad(12), uint64(0)
		for i := 0; i < samples; i++ {
			s := xrRandomPosition(rv, r)
			p, err := v.ParsePosition(s.String())
			if err != nil {
				t.Fatalf("%s: %v", id, err)
			}
			// Depth 3 where the tree stays small enough for the naive
			// reference; depth 2 elsewhere.
			depth, want := 2, s.perft(2)
			if want < 2500 && !raceEnabled && !testing.Short() {
				depth, want = 3, s.perft(3)
			}
			if got := p.Perft(depth); want != got {
				t.Errorf("%s %s: perft(%d) engine %d, rule book %d", id, s.String(), depth, got, want)
			}
			leaves += want
		}
		t.Logf("%s: perft of %d random positions agrees (%d leaves)", id, samples, leaves)
	}
}
