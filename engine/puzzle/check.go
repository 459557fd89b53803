package puzzle

import (
	"context"
	"fmt"

	"topochess/engine"
)

// checkLimit bounds the moves Check may play; every shipped puzzle needs
// far fewer.
const checkLimit = 1 << 40

// Check verifies a puzzle from scratch, as defined for its kind.
//
// A mate in n: the line has 2n-1 moves, all legal, and ends in mate; no
// mate within n-1 moves at the start; at each of the solver's steps the
// line's move is the only move that mates within the moves left; each
// reply is a longest defence (after it no mate comes sooner than the
// moves left).
//
// A win of material: as defined in material.go.
func Check(pz Puzzle) error { return CheckContext(context.Background(), pz) }

// CheckContext is Check, stopped by the context (its error is returned).
func CheckContext(ctx context.Context, pz Puzzle) error {
	v, err := engine.GetVariant(pz.Variant)
	if err != nil {
		return err
	}
	pos, err := v.ParsePosition(pz.Position)
	if err != nil {
		return fmt.Errorf("%s: position: %w", pz.ID, err)
	}
	n := pz.Moves()
	if n <= 0 || (pz.MateIn > 0) == (pz.WinIn > 0) {
		return fmt.Errorf("%s: a puzzle is a mate or a win of material, in at least one move", pz.ID)
	}
	if len(pz.Line) != 2*n-1 {
		return fmt.Errorf("%s: %d solver moves need %d moves in the line, not %d", pz.ID, n, 2*n-1, len(pz.Line))
	}
	if pz.MateIn > 0 {
		err = checkMate(ctx, pz, pos)
	} else {
		err = checkMaterial(ctx, pz, pos)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("%s: %w", pz.ID, err)
	}
	return nil
}

// play makes the line's move at index i in pos.
func play(pos *engine.Position, pz Puzzle, i int) (engine.Move, error) {
	m, err := pos.ParseCanonical(pz.Line[i])
	if err != nil {
		return m, fmt.Errorf("move %d (%s): %w", i+1, pz.Line[i], err)
	}
	pos.Make(m)
	return m, nil
}

func checkMate(ctx context.Context, pz Puzzle, pos *engine.Position) error {
	s := newMater(checkLimit)
	s.ctx = ctx
	if s.has(pos, pz.MateIn-1) {
		return fmt.Errorf("there is a shorter mate")
	}
	for i := range pz.Line {
		left := pz.MateIn - i/2
		if i%2 == 0 {
			ms := s.moves(pos, left)
			if len(ms) != 1 {
				return fmt.Errorf("step %d has %d mating moves, want exactly 1", i/2+1, len(ms))
			}
			if got := pos.Canonical(ms[0]); got != pz.Line[i] {
				return fmt.Errorf("step %d mates with %s, the line says %s", i/2+1, got, pz.Line[i])
			}
		}
		if _, err := play(pos, pz, i); err != nil {
			return err
		}
		if i%2 == 1 && s.has(pos, left-2) {
			return fmt.Errorf("reply %s is not a longest defence", pz.Line[i])
		}
	}
	if !pos.InCheck() || len(pos.LegalMoves()) != 0 {
		return fmt.Errorf("the line does not end in mate")
	}
	return nil
}

func checkMaterial(ctx context.Context, pz Puzzle, pos *engine.Position) error {
	if pz.Gain < WinMin || pz.Gain >= MateValue/2 {
		return fmt.Errorf("a gain of %d is no win of material", pz.Gain)
	}
	s := newMaterialist(pos, checkLimit)
	s.ctx = ctx
	if s.value(pos.Clone(), pz.WinIn-1, -MateValue-1, MateValue+1)-s.start >= WinMin {
		return fmt.Errorf("material is won in fewer moves")
	}
	for i := range pz.Line {
		if i%2 == 0 {
			left := pz.WinIn - i/2
			want, err := pos.ParseCanonical(pz.Line[i])
			if err != nil {
				return fmt.Errorf("move %d (%s): %w", i+1, pz.Line[i], err)
			}
			// Only where each gain lies against the bounds matters: a
			// null window each.
			reaches := func(m engine.Move, g int) bool {
				u := pos.Make(m)
				defer pos.Unmake(m, u)
				t := s.start + g
				return s.value(pos, left-1, t-1, t) >= t
			}
			for _, m := range pos.LegalMoves() {
				switch {
				case m.Same(want) && (!reaches(m, pz.Gain) || reaches(m, pz.Gain+1)):
					return fmt.Errorf("step %d: %s does not gain exactly %d", i/2+1, pz.Line[i], pz.Gain)
				case !m.Same(want) && reaches(m, OtherMax+1):
					return fmt.Errorf("step %d: %s gains more than %d too", i/2+1, pos.Canonical(m), OtherMax)
				}
			}
		}
		if _, err := play(pos, pz, i); err != nil {
			return err
		}
	}
	return nil
}
