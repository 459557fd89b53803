package puzzle

import "topochess/engine"

// ObservationTrap reports whether a Heisenberg puzzle wins because of what
// observation does to the defender's pieces: at one of the defender's
// turns in the line (after every solver move, the last one included) the
// defender has an ordinary move — legal in ordinary chess in that position
// — that observation takes away (it is not among the legal moves here),
// and that would save the defender if it could be played as in ordinary
// chess: after it the solver no longer mates within the moves left (a
// mate; after the last move, the ordinary move escapes the mate), or no
// longer wins WinMin with the moves left and the exchanges settled (a win
// of material). Undecided within the search budget counts as no trap.
func ObservationTrap(pz Puzzle) bool {
	v, err := engine.GetVariant(pz.Variant)
	if err != nil || !v.Observation {
		return false
	}
	ordinary := engine.MustVariant("standard")
	pos, err := v.ParsePosition(pz.Position)
	if err != nil {
		return false
	}
	mat := newMaterialist(pos, checkLimit)
	for i, mv := range pz.Line {
		m, err := pos.ParseCanonical(mv)
		if err != nil {
			return false
		}
		pos.Make(m)
		if i%2 == 1 {
			continue
		}
		left := pz.Moves() - i/2 - 1
		for _, b := range takenAway(pos, ordinary) {
			if !savesIn(pz, b, left, mat) {
				continue
			}
			return true
		}
	}
	return false
}

// takenAway lists the positions after each ordinary move of the side to
// move that observation takes away, read back as positions of p's variant.
func takenAway(p *engine.Position, ordinary *engine.Variant) []*engine.Position {
	plain, err := ordinary.ParsePosition(p.String())
	if err != nil {
		return nil
	}
	here := map[string]bool{}
	for _, mv := range p.CanonicalMoves() {
		here[mv] = true
	}
	var out []*engine.Position
	for _, m := range plain.LegalMoves() {
		if here[plain.Canonical(m)] {
			continue
		}
		after := plain.Clone()
		after.Make(m)
		back, err := p.V.ParsePosition(after.String())
		if err == nil {
			out = append(out, back)
		}
	}
	return out
}

// savesIn reports whether the defender is saved in q, the solver to move
// with left moves of the puzzle to play.
func savesIn(pz Puzzle, q *engine.Position, left int, mat *materialist) bool {
	if pz.MateIn > 0 {
		s := newMater(5_000_000)
		return !s.has(q, left) && !s.over
	}
	mat.nodes, mat.limit, mat.over = 0, 5_000_000, false
	var v int
	if left == 0 {
		v = mat.settle(q, 0, -MateValue-1, MateValue+1)
	} else {
		v = mat.value(q, left, -MateValue-1, MateValue+1)
	}
	return !mat.over && v-mat.start < WinMin
}
