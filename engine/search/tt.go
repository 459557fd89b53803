package search

import "topochess/engine"

// Bound kinds of a transposition-table score.
const (
	boundExact uint8 = iota + 1
	boundLower
	boundUpper
)

// ttEntry is one slot of the transposition table. The move is stored as its
// (from, to, promotion) triple only: a hash move is matched against the
// generated moves, never played from the table, so a collision can cost
// ordering but never legality.
type ttEntry struct {
	key      uint64
	score    int32
	from, to int16
	promo    engine.Kind
	depth    int8
	bound    uint8
}

type table struct {
	slots []ttEntry
	mask  uint64
}

func newTable(bits int) *table {
	return &table{slots: make([]ttEntry, 1<<bits), mask: 1<<bits - 1}
}

func (t *table) clear() { clear(t.slots) }

func (t *table) probe(key uint64) (ttEntry, bool) {
	e := t.slots[key&t.mask]
	return e, e.key == key && e.bound != 0
}

// store keeps the deeper result when two searches of the same position
// compete for a slot, and otherwise the newer one.
func (t *table) store(key uint64, depth int, score int32, bound uint8, m engine.Move, ply int) {
	e := &t.slots[key&t.mask]
	if e.key == key && int(e.depth) > depth && bound != boundExact {
		return
	}
	if m.From == m.To { // no move: keep an older hash move of this position
		if e.key == key {
			m = engine.Move{From: e.from, To: e.to, Promo: e.promo}
		}
	}
	*e = ttEntry{key: key, score: toTT(score, ply), from: m.From, to: m.To, promo: m.Promo, depth: int8(depth), bound: bound}
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
