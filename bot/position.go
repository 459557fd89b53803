package bot

import (
	"fmt"
	"strings"

	"topochess/engine"
)

// Games from a set position: /challenge … position:"<position string>"
// (RULES §1; an ordinary FEN too for the 8×8 boards). Such games are
// never rated: a chosen position says nothing about strength.

// parseStart reads a position: option for a variant. It returns the
// position in the engine's own form ("" when none was given) or a
// friendly refusal.
func parseStart(v *engine.Variant, s string) (start, refusal string) {
	s = strings.TrimSpace(strings.Trim(strings.TrimSpace(s), `"“”`))
	if s == "" {
		return "", ""
	}
	example := `position:"w Ke1,Qd1,ke8 - -" (side to move, pieces, castling, en passant)`
	if v.FEN {
		example += ` or a FEN such as position:"4k3/8/8/8/8/8/8/3QK3 w - - 0 1"`
	}
	pos, err := v.ParsePosition(s)
	if err != nil {
		return "", fmt.Sprintf("I cannot read that position for %s: %v. Write it as %s.", v.Name, err, example)
	}
	var kings [2]int
	pieces := 0
	for cell, pc := range pos.Board {
		if pc == 0 {
			continue
		}
		pieces++
		switch pc.Kind() {
		case engine.King:
			kings[pc.Color()]++
		case engine.Pawn:
			if pos.Geo().Promo[pc.Color()][pc.Dir()][cell] {
				return "", fmt.Sprintf("The pawn on %s stands where it would already have promoted; put a piece there instead.", pos.Geo().Name(cell))
			}
		}
	}
	for c, n := range kings {
		if n != 1 {
			return "", fmt.Sprintf("Each side needs exactly one king; %s has %d.", colorName(engine.Color(c).String()), n)
		}
	}
	if pieces == 2 {
		return "", "With only the two kings left the game would be drawn before it begins; add some pieces."
	}
	if len(pos.LegalMoves()) == 0 {
		what := "stalemated"
		if pos.InCheck() {
			what = "checkmated"
		}
		return "", fmt.Sprintf("In that position %s is already %s; choose one where the game can go on.", colorName(pos.Side.String()), what)
	}
	return pos.String(), ""
}

// startPosition is where a game begins: its set position, or the
// variant's start.
func startPosition(v *engine.Variant, start string) *engine.Position {
	if start != "" {
		if pos, err := v.ParsePosition(start); err == nil {
			return pos
		}
	}
	return v.StartPosition()
}

// maxPlayOnPosition bounds the position a "play on" button carries: the
// command it sends must stay under the input length limit.
const maxPlayOnPosition = 200

// playOnButton starts a game against the computer from a position, the
// presser playing the side to move; none when the position is too long
// to carry.
func playOnButton(pos *engine.Position) []Button {
	start := pos.String()
	if len(start) > maxPlayOnPosition || len(pos.LegalMoves()) == 0 {
		return nil
	}
	return []Button{{Label: "Play on against the computer", Command: "challenge", Style: "secondary",
		Args: map[string]string{"opponent": "bot", "variant": pos.V.ID, "position": start, "color": pos.Side.String()}}}
}
