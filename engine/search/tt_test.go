package search

import (
	"testing"

	"topochess/engine"
)

// TestTTPacking packs and unpacks every field at its extremes.
func TestTTPacking(t *testing.T) {
	scores := []int32{0, 1, -1, 100, -100, mateBound + 1, -mateBound - 1,
		mateScore + maxPly, -mateScore - maxPly, infinity, -infinity, infinity + maxPly, -infinity - maxPly}
	cells := []int16{-1, 0, 1, 255, 256, 510, 511}
	promos := []engine.Kind{engine.NoKind, engine.Pawn, engine.Knight, engine.Bishop, engine.Rook, engine.Queen, engine.King}
	depths := []int8{-128, -1, 0, 1, maxDepth, 127}
	bounds := []uint8{0, boundExact, boundLower, boundUpper}
	n := 0
	for _, sc := range scores {
		for _, from := range cells {
			for _, to := range cells {
				for _, pr := range promos {
					for _, d := range depths {
						for _, b := range bounds {
							for _, g := range []uint8{0, 1, 62, ttGenMask} {
								e := ttEntry{score: sc, from: from, to: to, promo: pr, depth: d, bound: b, gen: g}
								if got := unpack(pack(e)); got != e {
									t.Fatalf("%+v came back as %+v", e, got)
								}
								n++
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d entries round-tripped", n)
}

// TestTTStoreProbe: the table gives back what was stored, with mate scores
// moved to the ply of the probe, and keeps the replacement policy.
func TestTTStoreProbe(t *testing.T) {
	tb := newTable(10)
	key := uint64(0xdeadbeefcafe1234)
	m := engine.Move{From: 511, To: 0, Promo: engine.Queen}
	tb.store(key, 7, mateScore-10, boundExact, m, 4)
	e, ok := tb.probe(key)
	if !ok || e.from != 511 || e.to != 0 || e.promo != engine.Queen || e.depth != 7 || e.bound != boundExact {
		t.Fatalf("probe: %+v %v", e, ok)
	}
	if got := fromTT(e.score, 6); got != mateScore-12 {
		t.Errorf("mate score at ply 6: %d, want %d", got, mateScore-12)
	}
	if _, ok := tb.probe(key ^ 1<<20); ok {
		t.Error("another key with the same slot hits")
	}
	// A shallower bound does not replace a deeper entry; a move-less store
	// of the same position keeps the hash move.
	tb.store(key, 3, 5, boundLower, engine.Move{From: 1, To: 2}, 0)
	if e, _ := tb.probe(key); e.depth != 7 || e.from != 511 {
		t.Errorf("a shallower bound replaced the entry: %+v", e)
	}
	tb.store(key, 9, 5, boundUpper, engine.Move{}, 0)
	if e, _ := tb.probe(key); e.depth != 9 || e.score != 5 || e.from != 511 || e.to != 0 || e.promo != engine.Queen {
		t.Errorf("deeper move-less store: %+v", e)
	}
}

// TestTTTornWrite: a slot whose two words come from two different writes
// (another thread wrote between the reads) is a miss for both keys.
func TestTTTornWrite(t *testing.T) {
	tb := newTable(4)
	a, b := uint64(0x1234_5678_9abc_0003), uint64(0x0fed_cba9_8765_0003) // same bucket
	tb.store(a, 5, 42, boundExact, engine.Move{From: 10, To: 20}, 0)
	tb.store(b, 6, -42, boundLower, engine.Move{From: 30, To: 40}, 0)
	_, ia, oka := tb.load(a)
	_, ib, okb := tb.load(b)
	if !oka || !okb || ia == ib {
		t.Fatalf("the two keys are not both in the bucket: slots %d %d, found %v %v", ia, ib, oka, okb)
	}
	sa, sb := tb.slots[ia], tb.slots[ib]
	tb.slots[ia] = ttSlot{check: sa.check, data: sb.data}
	tb.slots[ib] = ttSlot{check: sb.check, data: sa.data}
	for _, key := range []uint64{a, b} {
		if e, ok := tb.probe(key); ok {
			t.Errorf("a torn slot hits key %x: %+v", key, e)
		}
	}
}

// TestTTBucket: a bucket holds two positions; a third replaces the
// shallower entry of the same search, and an entry of an earlier search
// before any entry of this one, however deep.
func TestTTBucket(t *testing.T) {
	tb := newTable(4)
	key := func(i uint64) uint64 { return i<<32 | 0x0006 } // one bucket
	m := engine.Move{From: 1, To: 2}
	tb.store(key(1), 9, 10, boundExact, m, 0)
	tb.store(key(2), 3, 20, boundExact, m, 0)
	tb.store(key(3), 5, 30, boundExact, m, 0)
	if _, ok := tb.probe(key(2)); ok {
		t.Error("the shallower entry survived a third position")
	}
	for _, k := range []uint64{1, 3} {
		if _, ok := tb.probe(key(k)); !ok {
			t.Errorf("position %d lost", k)
		}
	}
	tb.newSearch()
	tb.store(key(4), 1, 40, boundExact, m, 0) // replaces one of the old search
	tb.store(key(5), 1, 50, boundExact, m, 0) // and the other
	for k, want := range map[uint64]bool{1: false, 3: false, 4: true, 5: true} {
		if _, ok := tb.probe(key(k)); ok != want {
			t.Errorf("after a new search, position %d found %v, want %v", k, ok, want)
		}
	}
	tb.store(key(6), 2, 60, boundExact, m, 0) // same search: the shallower goes
	if _, ok := tb.probe(key(6)); !ok {
		t.Error("the new position was not stored")
	}
}

// TestQuiescenceStores: a quiescence node leaves its score in the table at
// depth 0, exact when inside the window, with the capture that made it.
func TestQuiescenceStores(t *testing.T) {
	v, _ := engine.GetVariant("standard")
	// White's pawn on d4 takes the queen on e5.
	p, err := v.ParsePosition("w Ka1,Pd4,qe5,kh8 - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	s := NewSearcher()
	static, q := s.quietScore(p)
	if q < static+500 {
		t.Fatalf("quiescence %d does not see the queen won (static %d)", q, static)
	}
	e, ok := s.tt.probe(p.Hash)
	if !ok || e.depth != 0 || e.bound != boundExact || fromTT(e.score, 0) != q {
		t.Fatalf("table entry %+v (hit %v), want depth 0, exact, score %d", e, ok, q)
	}
	if e.from != 27 || e.to != 36 {
		t.Errorf("stored move %d-%d, want d4-e5 (27-36)", e.from, e.to)
	}
	// The entry settles the node the next time.
	if _, again := s.quietScore(p); again != q {
		t.Errorf("second quiescence search %d, want %d", again, q)
	}
}
