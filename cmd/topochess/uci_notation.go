package main

import (
	"errors"
	"fmt"
	"strings"

	"topochess/engine"
)

// uciMoveText writes a move for the UCI protocol: the plain long algebraic
// form (e2e4, e7e8q) on the 8×8 boards that take ordinary FEN, which every
// chess GUI and engine reads, and the canonical notation (RULES §1.2:
// a1-a8', 1a7-1a5, e7-e8=Q) on the other boards, whose cell names are not
// two characters and could not be split back reliably.
func uciMoveText(p *engine.Position, m engine.Move) string {
	if !p.V.FEN {
		return p.Canonical(m)
	}
	g := p.Geo()
	return g.Name(int(m.From)) + g.Name(int(m.To)) + strings.ToLower(m.Promo.Letter())
}

// parseUCIMove reads a move of either form on any board: canonical
// (from-to[=P]) or concatenated cell names with an optional promotion
// letter (e2e4, e7e8q).
func parseUCIMove(p *engine.Position, s string) (engine.Move, error) {
	switch {
	case s == "":
		return engine.Move{}, errors.New("empty move")
	case len(s) > 64:
		return engine.Move{}, fmt.Errorf("move %q… is too long", s[:20])
	case s == "0000" || s == "(none)":
		return engine.Move{}, errors.New("null moves are not part of any topochess game")
	case strings.Contains(s, "-"):
		return p.ParseCanonical(s)
	}
	legal := p.LegalMoves()
	g := p.Geo()
	find := func(body string, promo engine.Kind) (engine.Move, bool) {
		for i := 1; i < len(body); i++ {
			from, to := g.Cell(body[:i]), g.Cell(body[i:])
			if from < 0 || to < 0 {
				continue
			}
			for _, m := range legal {
				if int(m.From) == from && int(m.To) == to && m.Promo == promo {
					return m, true
				}
			}
		}
		return engine.Move{}, false
	}
	if m, ok := find(s, engine.NoKind); ok {
		return m, nil
	}
	if k := engine.KindFromLetter(s[len(s)-1]); k >= engine.Knight && k <= engine.Queen {
		if m, ok := find(s[:len(s)-1], k); ok {
			return m, nil
		}
	}
	return engine.Move{}, fmt.Errorf("%q is not a legal move here (legal: %s)", s, legalSample(p, legal))
}

// legalSample lists a few legal moves in UCI form, to show the notation.
func legalSample(p *engine.Position, legal []engine.Move) string {
	if len(legal) == 0 {
		return "none, the game is over"
	}
	var parts []string
	for i, m := range legal {
		if i == 6 {
			parts = append(parts, fmt.Sprintf("… %d in all", len(legal)))
			break
		}
		parts = append(parts, uciMoveText(p, m))
	}
	return strings.Join(parts, " ")
}
