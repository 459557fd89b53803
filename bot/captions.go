package bot

import (
	"fmt"
	"strings"

	"topochess/engine"
)

// checkers lists the cells of the pieces that give check to the side to
// move. Attacked only answers yes or no, so each candidate is asked alone:
// the other pieces of its side are turned into the defender's colour,
// where they still block lines but attack nothing.
func checkers(pos *engine.Position) []int {
	k := int(pos.King[pos.Side])
	if k < 0 {
		return nil
	}
	by := pos.Side.Other()
	var cands []int
	for c, pc := range pos.Board {
		if pc != 0 && pc.Color() == by {
			cands = append(cands, c)
		}
	}
	q := pos.Clone()
	var out []int
	for _, o := range cands {
		copy(q.Board, pos.Board)
		for _, c := range cands {
			if c != o {
				pc := pos.Board[c]
				q.Board[c] = engine.MakePiece(pos.Side, pc.Kind(), pc.Dir() == 1)
			}
		}
		if q.Attacked(k, by) {
			out = append(out, o)
		}
	}
	return out
}

// pieceOn says "the rook on e1'".
func pieceOn(pos *engine.Position, c int) string {
	return fmt.Sprintf("the %s on %s", pos.Board[c].Kind().Name(), pos.Geo().Name(c))
}

// checkText names who gives check in the position after a move:
// "Check from the rook on e1'!". With mate (the game is over) it says
// who gives mate, which on a twisted board may stand far away.
func checkText(after *engine.Position, mate bool) string {
	var by []string
	for _, c := range checkers(after) {
		by = append(by, pieceOn(after, c))
	}
	switch {
	case mate && len(by) == 1:
		return strings.ToUpper(by[0][:1]) + by[0][1:] + " gives mate."
	case mate && len(by) > 1:
		return "Mate from " + strings.Join(by[:len(by)-1], ", ") + " and " + by[len(by)-1] + "."
	case mate:
		return ""
	case len(by) == 0:
		return "Check!"
	case len(by) == 1:
		return "Check from " + by[0] + "!"
	}
	return "Double check, from " + strings.Join(by[:len(by)-1], ", ") + " and " + by[len(by)-1] + "!"
}

// moveStory tells where a move came from when no orthodox piece could
// have made it, so a caption's SAN does not hide a jump: a Möbius piece
// phasing to its twin, a Heisenberg piece that was observed and went on
// as another piece or reappeared elsewhere. "" for ordinary moves. pos is
// the position before the move.
func moveStory(pos *engine.Position, m engine.Move) string {
	g := pos.Geo()
	pc := pos.Board[m.From]
	if pc == 0 {
		return ""
	}
	from, to := int(m.From), int(m.To)
	if m.Flags&engine.FlagPhase != 0 {
		s := fmt.Sprintf("The %s phased from %s to its twin %s", pc.Kind().Name(), g.Name(from), g.Name(to))
		if cap := pos.Board[to]; cap != 0 {
			s += ", taking the " + cap.Kind().Name()
		}
		return s + "."
	}
	if !pos.V.Observation {
		return ""
	}
	if ob, err := pos.Explain(from, to); err == nil && !ob.Observed {
		return "" // an ordinary move nobody watched
	}
	for t := range pos.Board {
		ob, err := pos.Explain(from, t)
		if err != nil || !ob.Observed {
			continue
		}
		seen := fmt.Sprintf("The %s on %s was seen on %s by %s", pc.Kind().Name(), g.Name(from), g.Name(ob.S), observerNames(pos, ob.Observers))
		if containsMove(ob.Speed, m) {
			return fmt.Sprintf("%s and went on as a %s to %s.", seen, ob.SpeedKind.Name(), g.Name(to))
		}
		if containsMove(ob.Position, m) {
			return fmt.Sprintf("%s and jumped from %s to %s (it reappeared at distance %d from %s).", seen, g.Name(from), g.Name(to), ob.N, g.Name(ob.S))
		}
	}
	return ""
}

func observerNames(pos *engine.Position, cells []int) string {
	var by []string
	for _, c := range cells {
		by = append(by, pieceOn(pos, c))
	}
	switch len(by) {
	case 0:
		return "nobody"
	case 1:
		return by[0]
	}
	return strings.Join(by[:len(by)-1], ", ") + " and " + by[len(by)-1]
}

func containsMove(ms []engine.Move, m engine.Move) bool {
	for _, o := range ms {
		if o.Same(m) {
			return true
		}
	}
	return false
}

// moveCaption is the caption of a played move: "g3 · 2. f5 ·", what the
// move did when SAN cannot say it, and who gives check. story comes from
// moveStory before the move was played; after is the position after it.
func moveCaption(gameID string, num int, black bool, san, story string, after *engine.Position, active bool) string {
	dots := "."
	if black {
		dots = "..."
	}
	caption := fmt.Sprintf("%s · %d%s %s ·", gameID, num, dots, san)
	if story != "" {
		caption += " " + story
	}
	if after.InCheck() {
		mate := !active && len(after.LegalMoves()) == 0
		if t := checkText(after, mate); t != "" && (active || mate) {
			caption += " " + t
		}
	}
	return caption
}

// observedChoiceLabel says what a replacement of an observed move is:
// "as a knight: g5", "reappear: a3", "as a bishop: xf7".
func observedChoiceLabel(pos *engine.Position, ob engine.Observation, m engine.Move) string {
	t := pos.Geo().Name(int(m.To))
	if pos.Board[m.To] != 0 {
		t = "x" + t
	}
	if m.Promo != engine.NoKind {
		t += "=" + m.Promo.Letter()
	}
	if containsMove(ob.Speed, m) {
		return fmt.Sprintf("as a %s: %s", ob.SpeedKind.Name(), t)
	}
	return "reappear: " + t
}
