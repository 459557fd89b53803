package engine

import (
	"fmt"
	"sort"
	"sync"
)

// Castling rights bits.
const (
	CastleWK uint8 = 1 << iota
	CastleWQ
	CastleBK
	CastleBQ
)

// CastleDef is one castling move of a variant.
type CastleDef struct {
	Color    Color
	Right    uint8
	KingFrom int16
	KingTo   int16
	RookFrom int16
	RookTo   int16
	// Empty: cells strictly between king and rook. Safe: cells that must
	// not be attacked (the king's cell, the cell it passes, where it lands).
	Empty []int16
	Safe  []int16

	// recheck: the king's safety after castling must be tested again,
	// because the king's target is not among Safe or because a line to it
	// opens when the king or the rook leaves its cell.
	recheck bool
}

// Mate rules on the Möbius strip (RULES §3).
const (
	MateRuleNone = iota
	MateRuleMoebius
	MateRuleNierse
)

// Variant is a geometry plus the rule hooks that differ between boards.
type Variant struct {
	ID    string
	Name  string
	Short string
	// Rules is the players' rules text shown by /rules.
	Rules string
	Geo   *Geometry
	// Start is the start position as a position string.
	Start    string
	Castling []CastleDef
	MateRule int
	// FEN: ordinary FEN is accepted (8×8 boards).
	FEN bool
	// Observation: Heisenberg chess (RULES §5).
	Observation bool

	castleMask []uint8
}

func (v *Variant) init() {
	v.castleMask = make([]uint8, v.Geo.N)
	for i := range v.castleMask {
		v.castleMask[i] = 0xF
	}
	for _, cd := range v.Castling {
		all := CastleWK | CastleWQ
		if cd.Color == Black {
			all = CastleBK | CastleBQ
		}
		v.castleMask[cd.KingFrom] &^= all
		v.castleMask[cd.RookFrom] &^= cd.Right
	}
	for i := range v.Castling {
		v.Castling[i].recheck = v.Geo.castleOpensLine(&v.Castling[i])
	}
}

var (
	registryMu    sync.Mutex
	registryOrder []string
	builders      = map[string]func() *Variant{}
	built         = map[string]*Variant{}
)

// register adds a variant builder; variants are built on first use.
func register(id string, build func() *Variant) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := builders[id]; dup {
		panic("engine: variant registered twice: " + id)
	}
	builders[id] = build
	registryOrder = append(registryOrder, id)
}

// variantOrder is the order variants are listed in for players.
var variantOrder = []string{"standard", "moebius", "moebius-nierse", "toroidal", "cylindrical", "klein", "heisenberg", "cube", "cube5", "chess66"}

// Variants lists the registered variant ids, in the order players see them.
func Variants() []string {
	registryMu.Lock()
	defer registryMu.Unlock()
	rank := map[string]int{}
	for i, id := range variantOrder {
		rank[id] = i + 1
	}
	out := append([]string(nil), registryOrder...)
	sort.SliceStable(out, func(i, j int) bool {
		ri, rj := rank[out[i]], rank[out[j]]
		if ri == 0 {
			ri = 1000
		}
		if rj == 0 {
			rj = 1000
		}
		return ri < rj
	})
	return out
}

// GetVariant returns the variant with this id, building it once.
func GetVariant(id string) (*Variant, error) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if v, ok := built[id]; ok {
		return v, nil
	}
	b, ok := builders[id]
	if !ok {
		return nil, fmt.Errorf("unknown variant %q", id)
	}
	v := b()
	v.init()
	built[id] = v
	return v, nil
}

// MustVariant is GetVariant for ids known to exist.
func MustVariant(id string) *Variant {
	v, err := GetVariant(id)
	if err != nil {
		panic(err)
	}
	return v
}

// StartPosition returns a fresh start position.
func (v *Variant) StartPosition() *Position {
	p, err := v.ParsePosition(v.Start)
	if err != nil {
		panic(fmt.Sprintf("engine: bad start position for %s: %v", v.ID, err))
	}
	return p
}
