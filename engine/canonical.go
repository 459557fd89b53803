package engine

import (
	"fmt"
	"sort"
	"strings"
)

// Canonical writes a move as RULES §1.2 does: from-to, =Q for promotions,
// castling as the king's move.
func (p *Position) Canonical(m Move) string {
	s := p.g.Name(int(m.From)) + "-" + p.g.Name(int(m.To))
	if m.Promo != NoKind {
		s += "=" + m.Promo.Letter()
	}
	return s
}

// CanonicalMoves lists the legal moves in canonical notation, sorted in
// byte order.
func (p *Position) CanonicalMoves() []string {
	ms := p.LegalMoves()
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = p.Canonical(m)
	}
	sort.Strings(out)
	return out
}

// ParseCanonical finds the legal move written canonically (from-to[=P]).
func (p *Position) ParseCanonical(s string) (Move, error) {
	s = strings.TrimSpace(s)
	if len(s) > 64 {
		return Move{}, fmt.Errorf("move %q is too long", s[:20]+"…")
	}
	body, promo, hasPromo := strings.Cut(s, "=")
	var pk Kind
	if hasPromo {
		if len(promo) != 1 || KindFromLetter(promo[0]) < Knight || KindFromLetter(promo[0]) > Queen {
			return Move{}, fmt.Errorf("bad promotion in %q", s)
		}
		pk = KindFromLetter(promo[0])
	}
	fromName, toName, ok := strings.Cut(body, "-")
	if !ok {
		return Move{}, fmt.Errorf("move %q is not of the form from-to", s)
	}
	from, to := p.g.Cell(fromName), p.g.Cell(toName)
	if from < 0 {
		return Move{}, fmt.Errorf("no cell %q on this board", fromName)
	}
	if to < 0 {
		return Move{}, fmt.Errorf("no cell %q on this board", toName)
	}
	for _, m := range p.LegalMoves() {
		if int(m.From) == from && int(m.To) == to && m.Promo == pk {
			return m, nil
		}
	}
	return Move{}, fmt.Errorf("illegal move %s", s)
}
