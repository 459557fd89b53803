package engine

import (
	"math/rand"
	"slices"
	"testing"
)

// noisyByFilter is AppendNoisy as the legal-move filter defines it: the
// captures and queen promotions among the pseudo-legal moves, filtered.
func (p *Position) noisyByFilter() []Move {
	var ms []Move
	for _, m := range p.genPseudo(nil) {
		if m.Flags&FlagCapture != 0 || m.Promo == Queen {
			ms = append(ms, m)
		}
	}
	return p.filterLegal(ms, 0)
}

type listing struct {
	legal, noisy, filtered []Move
	mob                    [2][7]int
	each                   [2][]uint16
	att                    [2][]uint64
}

func listAll(pos *Position) listing {
	var l listing
	l.legal = pos.LegalMoves()
	l.noisy = pos.AppendNoisy(nil)
	l.filtered = pos.noisyByFilter()
	for c := range 2 {
		l.att[c] = make([]uint64, (pos.g.N+63)/64)
		l.mob[c], l.each[c] = pos.MobilityAttacks(Color(c), l.att[c], nil)
	}
	return l
}

// TestBitListingMatchesWalk plays random games on every board and checks,
// where the board has the bit path, at each position that the legal moves, the noisy moves
// and the mobility read from the bits equal, in the same order, what the
// table walks give with the bit path switched off, and that the noisy
// moves are the filtered legal ones (on every board). The search's node counts depend on
// the order of the moves, not only on the set.
func TestBitListingMatchesWalk(t *testing.T) {
	games := 6
	if raceEnabled || testing.Short() {
		games = 2
	}
	for _, id := range Variants() {
		v := MustVariant(id)
		bitBoard := v.Geo.bitBoard
		rng := rand.New(rand.NewSource(int64(len(id)) * 13))
		checked, noisy := 0, 0
		randomGames(t, v, games, 120, func(pos *Position) bool {
			got := listAll(pos)
			v.Geo.bitBoard = false
			want := listAll(pos)
			v.Geo.bitBoard = bitBoard
			if !slices.Equal(got.legal, want.legal) {
				t.Fatalf("%s: %s: legal moves from bits\n%v\nfrom the walk\n%v", id, pos.String(), got.legal, want.legal)
			}
			if v.Observation {
				// Observation turns moves into others: AppendNoisy
				// filters the legal moves there.
				want.filtered = want.noisy
			}
			if !slices.Equal(got.noisy, want.filtered) || !slices.Equal(want.noisy, want.filtered) {
				t.Fatalf("%s: %s: noisy moves from bits\n%v\nfrom the walk\n%v\nby filtering\n%v", id, pos.String(), got.noisy, want.noisy, want.filtered)
			}
			for c := range 2 {
				if got.mob[c] != want.mob[c] || !slices.Equal(got.each[c], want.each[c]) || !slices.Equal(got.att[c], want.att[c]) {
					t.Fatalf("%s: %s: mobility of %v from bits %v %v %x, from the walk %v %v %x", id, pos.String(), Color(c),
						got.mob[c], got.each[c], got.att[c], want.mob[c], want.each[c], want.att[c])
				}
			}
			checked++
			noisy += len(got.noisy)
			return randomMove(pos, got.legal, rng)
		})
		if checked < 100 || noisy == 0 {
			t.Errorf("%s: only %d positions and %d noisy moves checked", id, checked, noisy)
		}
	}
}

// TestMobilityAttacksByKind checks on random games of every board that
// MobilityAttacksByKind counts and marks what MobilityAttacks does, and
// that the cells it gives each kind are the union of what that kind's
// pieces attack one by one, and that a piece's safe destinations are the
// cells it attacks that hold no own piece and are not to be avoided.
func TestMobilityAttacksByKind(t *testing.T) {
	games := 4
	if raceEnabled || testing.Short() {
		games = 1
	}
	for _, id := range Variants() {
		v := MustVariant(id)
		words := (v.Geo.N + 63) / 64
		rng := rand.New(rand.NewSource(int64(len(id)) * 17))
		cellRng := rand.New(rand.NewSource(int64(len(id)) * 19)) // apart, so the games stay what they were
		checked := 0
		randomGames(t, v, games, 100, func(pos *Position) bool {
			for c := White; c <= Black; c++ {
				var cells []int16
				var want [7][8]uint64
				var avoid [8]uint64 // some random cells
				for w := range words {
					avoid[w] = cellRng.Uint64() & cellRng.Uint64()
				}
				var wantSafe []uint16
				for o, pc := range pos.Board {
					if pc == 0 || pc.Color() != c {
						continue
					}
					cells = append(cells, int16(o))
					one := make([]uint64, words)
					pos.MobilityAttacksOf(c, []int16{int16(o)}, one, nil)
					safe := 0
					for t := range pos.Board {
						if one[t/64]>>(t%64)&1 != 0 && avoid[t/64]>>(t%64)&1 == 0 && (pos.Board[t] == 0 || pos.Board[t].Color() != c) {
							safe++
						}
					}
					if pc.Kind() != Pawn {
						wantSafe = append(wantSafe, uint16(int(pc.Kind())*MobilityBuckets+min(safe, MobilityBuckets-1)))
					}
					for w := range one {
						want[pc.Kind()][w] |= one[w]
					}
				}
				att, wantAtt := make([]uint64, words), make([]uint64, words)
				var kinds [7][8]uint64
				n, each, safe := pos.MobilityAttacksByKind(c, cells, att, &kinds, nil, &avoid, nil)
				wantN, wantEach := pos.MobilityAttacksOf(c, cells, wantAtt, nil)
				if n != wantN || !slices.Equal(each, wantEach) || !slices.Equal(att, wantAtt) || kinds != want || !slices.Equal(safe, wantSafe) {
					t.Fatalf("%s: %s: %v by kind: %v %v %x %x safe %v, want %v %v %x %x safe %v", id, pos.String(), c, n, each, att, kinds, safe, wantN, wantEach, wantAtt, want, wantSafe)
				}
			}
			checked++
			return randomMove(pos, pos.LegalMoves(), rng)
		})
		if checked < 50 {
			t.Errorf("%s: only %d positions checked", id, checked)
		}
	}
}

// TestAttacksAs checks the cells AttacksAs gives on the standard start
// position (the pieces of the first row standing as they do), and on
// random games of every board that its bit path gives what
// MobilityAttacksOf gives for such a piece and that it leaves the
// position as it was.
func TestAttacksAs(t *testing.T) {
	v := MustVariant("standard")
	pos := v.StartPosition()
	e1 := v.Geo.Cell("e1")
	cells := func(names ...string) []uint64 {
		set := make([]uint64, 1)
		for _, n := range names {
			c := v.Geo.Cell(n)
			set[c>>6] |= 1 << (uint(c) & 63)
		}
		return set
	}
	for _, tc := range []struct {
		k    Kind
		want []uint64
	}{
		{Knight, cells("c2", "d3", "f3", "g2")},
		{Bishop, cells("d2", "f2")},
		{Rook, cells("d1", "f1", "e2")},
		{Queen, cells("d1", "f1", "e2", "d2", "f2")},
	} {
		got := make([]uint64, 1)
		pos.AttacksAs(e1, tc.k, got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%v from e1: %x, want %x", tc.k, got, tc.want)
		}
	}
	for _, id := range Variants() {
		v := MustVariant(id)
		rng := rand.New(rand.NewSource(int64(len(id)) * 19))
		randomGames(t, v, 2, 60, func(pos *Position) bool {
			before, hash := pos.String(), pos.Hash
			words := (pos.g.N + 63) / 64
			for c := 0; c < pos.g.N; c++ {
				if pos.Board[c] != 0 {
					for k := Knight; k <= Queen; k++ {
						got, want := make([]uint64, words), make([]uint64, words)
						pos.AttacksAs(c, k, got)
						pos.attacksBySwap(c, k, want)
						if !slices.Equal(got, want) {
							t.Fatalf("%s: %s: a %v on %s attacks %x by the bits, %x by the walk", id, pos.String(), k, pos.g.Name(c), got, want)
						}
					}
				}
			}
			if pos.String() != before || pos.Hash != hash {
				t.Fatalf("%s: AttacksAs changed %s into %s", id, before, pos.String())
			}
			checkOcc(t, pos, "after AttacksAs")
			return randomMove(pos, pos.LegalMoves(), rng)
		})
	}
}
