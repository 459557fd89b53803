package search

import (
	"sync/atomic"

	"topochess/engine"
)

// Bound kinds of a transposition-table score.
const (
	boundExact uint8 = iota + 1
	boundLower
	boundUpper
)

// ttEntry is one decoded slot of the transposition table. The move is
// stored as its (from, to, promotion) triple only: a hash move is matched
// against the generated moves, never played from the table, so a collision
// can cost ordering but never legality.
type ttEntry struct {
	score    int32
	from, to int16
	promo    engine.Kind
	depth    int8
	bound    uint8
	gen      uint8 // the search that wrote it, modulo 64
}

// ttSlot is what the table holds: the entry packed into one word, and the
// position's key XOR that word. Several search threads share the table
// without locks; each word is read and written atomically, so a slot whose
// two words come from different writes fails the key check and is a miss.
type ttSlot struct {
	check, data uint64
}

// Layout of ttSlot.data, from the low bits: score (16 bits, two's
// complement; scores stay within ±(infinity+maxPly)), from and to (10 bits
// each, two's complement: cells 0..511 and -1), promotion kind (8), depth
// (8, as the int8 it always was), bound (2), generation (6).
const (
	ttScoreShift = 0
	ttFromShift  = 16
	ttToShift    = 26
	ttPromoShift = 36
	ttDepthShift = 44
	ttBoundShift = 52
	ttGenShift   = 54
	ttCellMask   = 1<<10 - 1
	ttGenMask    = 1<<6 - 1
)

func pack(e ttEntry) uint64 {
	return uint64(uint16(int16(e.score)))<<ttScoreShift |
		uint64(uint16(e.from)&ttCellMask)<<ttFromShift |
		uint64(uint16(e.to)&ttCellMask)<<ttToShift |
		uint64(e.promo)<<ttPromoShift |
		uint64(uint8(e.depth))<<ttDepthShift |
		uint64(e.bound&3)<<ttBoundShift |
		uint64(e.gen&ttGenMask)<<ttGenShift
}

// cell sign-extends a 10-bit field.
func cell(d uint64, shift uint) int16 {
	return int16(uint16(d>>shift&ttCellMask)<<6) >> 6
}

func unpack(d uint64) ttEntry {
	return ttEntry{
		score: int32(int16(uint16(d >> ttScoreShift))),
		from:  cell(d, ttFromShift),
		to:    cell(d, ttToShift),
		promo: engine.Kind(d >> ttPromoShift),
		depth: int8(uint8(d >> ttDepthShift)),
		bound: uint8(d>>ttBoundShift) & 3,
		gen:   uint8(d>>ttGenShift) & ttGenMask,
	}
}

// table is the transposition table: buckets of two slots. A position may
// sit in either slot of its bucket; a new position takes the slot whose
// entry is worth less, one from an earlier search before one of this
// search, the shallower of two of the same search.
type table struct {
	slots []ttSlot
	mask  uint64 // of a bucket's first slot
	gen   atomic.Uint32
}

func newTable(bits int) *table {
	return &table{slots: make([]ttSlot, 1<<bits), mask: 1<<bits - 2}
}

// clear empties the table; no search may be running on it.
func (t *table) clear() { clear(t.slots) }

// newSearch starts a generation: entries stored before it give way first.
func (t *table) newSearch() { t.gen.Add(1) }

// load finds key in its bucket: the entry and its slot's index.
func (t *table) load(key uint64) (ttEntry, int, bool) {
	i := int(key & t.mask)
	for j := i; j < i+2; j++ {
		sl := &t.slots[j]
		d := atomic.LoadUint64(&sl.data)
		if atomic.LoadUint64(&sl.check)^d == key {
			return unpack(d), j, true
		}
	}
	return ttEntry{}, i, false
}

func (t *table) probe(key uint64) (ttEntry, bool) {
	e, _, ok := t.load(key)
	return e, ok && e.bound != 0
}

// store keeps the deeper result when two searches of the same position
// compete for a slot, and otherwise the newer one.
func (t *table) store(key uint64, depth int, score int32, bound uint8, m engine.Move, ply int) {
	gen := uint8(t.gen.Load()) & ttGenMask
	old, j, same := t.load(key)
	if same && int(old.depth) > depth && bound != boundExact {
		return
	}
	if m.From == m.To && same { // no move: keep an older hash move of this position
		m = engine.Move{From: old.from, To: old.to, Promo: old.promo}
	}
	if !same && t.worth(j+1, gen) < t.worth(j, gen) {
		j++
	}
	d := pack(ttEntry{score: toTT(score, ply), from: m.From, to: m.To, promo: m.Promo, depth: int8(depth), bound: bound, gen: gen})
	sl := &t.slots[j]
	atomic.StoreUint64(&sl.data, d)
	atomic.StoreUint64(&sl.check, key^d)
}

// worth ranks the entry of slot j for replacement: an empty slot lowest,
// then entries of earlier searches, then by depth.
func (t *table) worth(j int, gen uint8) int {
	d := atomic.LoadUint64(&t.slots[j].data)
	e := unpack(d)
	switch {
	case e.bound == 0:
		return -1 << 10
	case e.gen != gen:
		return int(e.depth) - 1<<8
	}
	return int(e.depth)
}

// ttCutoff is the score an entry gives a node at ply searched in (alpha,
// beta), when its bound settles the node: an exact score, or a bound
// outside the window. The caller checks that the entry is deep enough.
func ttCutoff(e ttEntry, ply int, alpha, beta int32) (int32, bool) {
	v := fromTT(e.score, ply)
	switch {
	case e.bound == boundExact,
		e.bound == boundLower && v >= beta,
		e.bound == boundUpper && v <= alpha:
		return v, true
	}
	return 0, false
}

// Mate scores are stored relative to the node, not the root, so that they
// stay right when the position is reached at another ply.
func toTT(s int32, ply int) int32 {
	switch {
	case s > mateBound:
		return s + int32(ply)
	case s < -mateBound:
		return s - int32(ply)
	}
	return s
}

func fromTT(s int32, ply int) int32 {
	switch {
	case s > mateBound:
		return s - int32(ply)
	case s < -mateBound:
		return s + int32(ply)
	}
	return s
}
