package bot

import (
	"topochess/engine"
)

// explainObservation is the default Explainer (Heisenberg chess). The
// engine already words an observed move and lists its replacements in the
// MoveError; what it does not hand back is where the move was seen and by
// whom, which the picture shows. The observation whose description is the
// error's message is found by asking Explain about the candidate moves:
// the refused piece is where every choice starts (or, with no choices,
// any piece of the side to move).
func explainObservation(pos *engine.Position, input string, me *engine.MoveError) (Explanation, bool) {
	if me == nil || !pos.V.Observation {
		return Explanation{}, false
	}
	var froms []int
	if len(me.Choices) > 0 {
		if cells := lastMove(pos.V, me.Choices[0]); cells != nil {
			froms = []int{cells[0]}
		}
	} else {
		for c, pc := range pos.Board {
			if pc != 0 && pc.Color() == pos.Side {
				froms = append(froms, c)
			}
		}
	}
	for _, from := range froms {
		for to := range pos.Board {
			ob, err := pos.Explain(from, to)
			if err != nil || !ob.Observed || ob.Describe(pos) != me.Msg {
				continue
			}
			ex := Explanation{Text: me.Msg, Choices: me.Choices, Observed: []int{ob.S}, Observers: ob.Observers, Piece: []int{from}}
			for _, ch := range me.Choices {
				m, err := pos.ParseCanonical(ch)
				if err != nil {
					ex.Labels = nil
					break
				}
				ex.Labels = append(ex.Labels, observedChoiceLabel(pos, ob, m))
			}
			return ex, true
		}
	}
	return Explanation{}, false
}
