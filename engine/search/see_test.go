package search

import (
	"context"
	"math/rand/v2"
	"testing"

	"topochess/engine"
)

// seeOf evaluates the exchange a canonical move starts in a position.
func seeOf(t *testing.T, variant, pos, move string) int32 {
	t.Helper()
	p, err := engine.MustVariant(variant).ParsePosition(pos)
	if err != nil {
		t.Fatalf("%s: %v", pos, err)
	}
	m, err := p.ParseCanonical(move)
	if err != nil {
		t.Fatalf("%s in %s: %v", move, pos, err)
	}
	if !p.IsNoisy(m) {
		t.Fatalf("%s in %s is not noisy", move, pos)
	}
	s := NewSearcher()
	s.prepare(context.Background(), p, Config{})
	before := p.String()
	v := s.see(m)
	if p.String() != before {
		t.Fatalf("see changed the position: %s, was %s", p, before)
	}
	return v
}

func TestSEE(t *testing.T) {
	cases := []struct {
		name, variant, pos, move string
		want                     int32
	}{
		{"undefended pawn", "standard", "w Ke1,Rd1,ke8,pd5 - - 0 1", "d1-d5", 100},
		{"pawn defended by a pawn", "standard", "w Ke1,Rd1,ke8,pd5,pe6 - - 0 1", "d1-d5", -400},
		{"pawn takes defended knight", "standard", "w Ke1,Pc4,ke8,nd5,pe6 - - 0 1", "c4-d5", 300 - 100},
		{"rooks doubled behind", "standard", "w Ke1,Rd1,Rd2,kh8,rd8,pd5 - - 0 1", "d2-d5", 100},
		// Qxd5 Rxd5 Rxd5: the queen is lost for a rook and a pawn.
		{"queen first loses", "standard", "w Ke1,Qd2,Rd1,kh8,rd8,pd5 - - 0 1", "d2-d5", 100 - 900 + 500},
		{"defender pinned", "standard", "w Ke1,Rd1,Be5,kh8,nf6,pd5 - - 0 1", "d1-d5", 100},
		{"defender not pinned", "standard", "w Ke1,Rd1,kh8,nf6,pd5 - - 0 1", "d1-d5", -400},
		{"king takes back", "standard", "w Ke1,Rd1,kc6,pd5 - - 0 1", "d1-d5", -400},
		{"king cannot take a defended piece", "standard", "w Ke4,Rd1,kc6,pd5 - - 0 1", "d1-d5", 100},
		{"queen promotion to a guarded cell", "standard", "w Ke1,Pb7,kh8,ra8 - - 0 1", "b7-b8=Q", -100},
		{"promoting capture", "standard", "w Ke1,Pb7,kh8,ra8 - - 0 1", "b7-a8=Q", 500 + 800},
		{"promoting recapture", "standard", "w Kh8,Rb5,kh6,nb1,pa2 - - 0 1", "b5-b1", 300 - 500 - 800},
		// Möbius: the black rook on d4' takes back on d4 by phasing.
		{"moebius phasing recapture", "moebius", "w Kh1,Qd1,kh8,bd4,rd4' - - 0 1", "d1-d4", 320 - 900},
		{"moebius no phasing defender", "moebius", "w Kh1,Qd1,kh8,bd4 - - 0 1", "d1-d4", 320},
		// The white rook captures on its twin cell by phasing, into a
		// knight's guard.
		{"moebius phasing capture, defended", "moebius", "w Kh1,Ra1,ke5,na1',nc2' - - 0 1", "a1-a1'", 300 - 500},
		// On the top row h8 is next to a1': the king takes back.
		{"moebius king across the seam", "moebius", "w Kh1,Ra1,kh8,na1' - - 0 1", "a1-a1'", 300 - 500},
		{"moebius phasing capture", "moebius", "w Kh1,Ra1,ke5,na1' - - 0 1", "a1-a1'", 300},
		// Chess 66: the knight in the switch half 4 is guarded by the rook
		// on a8 through a5.
		{"chess66 switch, guarded", "chess66", "w Kh1,Ra1,kh8,n4,ra8 - - 0 1", "a1-4", 300 - 500},
		{"chess66 switch", "chess66", "w Kh1,Ra1,kh8,n4 - - 0 1", "a1-4", 300},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := seeOf(t, tc.variant, tc.pos, tc.move); got != tc.want {
				t.Errorf("see(%s) = %d, want %d", tc.move, got, tc.want)
			}
			p, _ := engine.MustVariant(tc.variant).ParsePosition(tc.pos)
			m, _ := p.ParseCanonical(tc.move)
			s := NewSearcher()
			s.prepare(context.Background(), p, Config{})
			for _, thr := range []int32{tc.want - 1, tc.want, tc.want + 1} {
				if ge := s.seeGE(m, thr); ge != (tc.want >= thr) {
					t.Errorf("seeGE(%s, %d) = %v", tc.move, thr, ge)
				}
			}
		})
	}
}

// TestSEEBounds checks every noisy move of random positions on every board
// (cube vertices, Heisenberg observation, switches, twins): the exchange
// is worth at most what the move takes, at least that minus the piece
// then standing on the cell, exactly what it takes when no legal reply
// captures there, and the position comes back unchanged; the threshold
// test seeGE agrees with it.
func TestSEEBounds(t *testing.T) {
	for _, id := range engine.Variants() {
		t.Run(id, func(t *testing.T) {
			v := engine.MustVariant(id)
			rng := rand.New(rand.NewPCG(11, uint64(len(id))))
			s := NewSearcher()
			n, kept := 0, 0
			for _, pos := range randomPositions(v, rng, 30, 60) {
				s.prepare(context.Background(), pos, Config{})
				before := pos.String()
				for _, m := range pos.AppendNoisy(nil) {
					gain := victimValue(pos, m)
					onTarget := value[pos.Board[m.From].Kind()]
					if m.Promo != engine.NoKind {
						gain += value[m.Promo] - value[engine.Pawn]
						onTarget = value[m.Promo]
					}
					got := s.see(m)
					if pos.String() != before {
						t.Fatalf("see(%s) changed %s", pos.Canonical(m), before)
					}
					for _, thr := range []int32{-900, -400, -100, 0, 1, 100, 200, 500} {
						if ge := s.seeGE(m, thr); ge != (got >= thr) || pos.String() != before {
							t.Fatalf("%s: seeGE(%s, %d) = %v, see = %d", before, pos.Canonical(m), thr, ge, got)
						}
					}
					// The replies it keeps are the noisy moves after m.
					if s.seeGE(m, 0); s.seeRepliesOK {
						want := pos.Play(m).AppendNoisy(nil)
						if len(want) != len(s.seeReplies) {
							t.Fatalf("%s: %d replies kept after %s, want %d", before, len(s.seeReplies), pos.Canonical(m), len(want))
						}
						for i := range want {
							if !want[i].Same(s.seeReplies[i]) || want[i].Flags != s.seeReplies[i].Flags {
								t.Fatalf("%s: reply %d after %s differs", before, i, pos.Canonical(m))
							}
						}
						kept++
					}
					if got > gain || got < min(gain, gain-onTarget) {
						t.Fatalf("%s: see(%s) = %d, outside [%d, %d]", before, pos.Canonical(m), got, min(gain, gain-onTarget), gain)
					}
					q := pos.Play(m)
					recapture := false
					for _, r := range q.LegalMoves() {
						if r.To == m.To && q.IsNoisy(r) {
							recapture = true
						}
					}
					if !recapture && got != gain {
						t.Fatalf("%s: see(%s) = %d with no recapture, want %d", before, pos.Canonical(m), got, gain)
					}
					n++
				}
			}
			if n < 20 {
				t.Fatalf("only %d noisy moves checked", n)
			}
			t.Logf("%d noisy moves, replies kept for %d", n, kept)
		})
	}
}
