package engine

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// MoveError explains why typed input is not a legal move, in words a
// player understands. Choices, when set, are the legal moves the player
// may have meant (canonical notation), e.g. the four promotions.
type MoveError struct {
	Msg     string
	Choices []string
}

func (e *MoveError) Error() string { return e.Msg }

func moveErr(format string, a ...any) *MoveError { return &MoveError{Msg: fmt.Sprintf(format, a...)} }

// cellParts splits a cell name into its leading digits (a cube face),
// letters (file) and the rest (rank with primes): "1e4" → "1", "e", "4".
func cellParts(name string) (face, file, rank string) {
	i := 0
	for i < len(name) && name[i] >= '0' && name[i] <= '9' {
		i++
	}
	j := i
	for j < len(name) && name[j] >= 'a' && name[j] <= 'z' {
		j++
	}
	if j == i { // a name of digits only (Chess 66's "4"): no face part
		return "", "", name
	}
	return name[:i], name[i:j], name[j:]
}

// disambiguates reports whether a SAN disambiguator d names cell c.
func (g *Geometry) disambiguates(c int, d string) bool {
	for _, a := range g.Aliases(c) {
		if a == d {
			return true
		}
		face, file, rank := cellParts(a)
		if file == d || rank == d || face+file == d || (file != "" && strings.HasPrefix(a, d) && len(d) > 0) {
			return true
		}
	}
	return false
}

// pieceName says "the knight on g1".
func (p *Position) pieceName(c int) string {
	return fmt.Sprintf("the %s on %s", p.Board[c].Kind().Name(), p.g.Name(c))
}

// destinations lists where the piece on c can legally go.
func (p *Position) destinations(legal []Move, c int) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range legal {
		if int(m.From) == c {
			n := p.g.Name(int(m.To))
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out
}

func (p *Position) illegalFrom(legal []Move, c int) *MoveError {
	d := p.destinations(legal, c)
	if len(d) == 0 {
		return moveErr("illegal: %s has no legal moves", p.pieceName(c))
	}
	return moveErr("illegal: %s can go to %s", p.pieceName(c), strings.Join(d, ", "))
}

func promoKind(s string) Kind {
	s = strings.TrimPrefix(s, "=")
	s = strings.TrimPrefix(s, "/")
	if len(s) != 1 {
		return NoKind
	}
	k := KindFromLetter(s[0])
	if k < Knight || k > Queen {
		return NoKind
	}
	return k
}

// ParseMove reads a move as players type it in chat: canonical (e2-e4,
// e7-e8=Q), coordinates (e2e4, e2 e4, e7e8q), SAN (Nf3, exd5, Qxh3+,
// Nge2, e8=Q, e8Q), castling (O-O, 0-0-0). The error says what is wrong
// and, where it helps, what is possible.
func (p *Position) ParseMove(input string) (Move, error) {
	s := strings.TrimSpace(input)
	orig := s // refusals quote what was typed, not the rewritten text
	if len(s) > 40 {
		return Move{}, moveErr("that is too long to be a move")
	}
	if s == "" {
		return Move{}, moveErr("type a move, for example e2-e4 or Nf3")
	}
	s = strings.NewReplacer("×", "x", "–", "-", "—", "-", ":", "x").Replace(s)
	s = strings.TrimRight(s, "+#!?")
	legal := p.LegalMoves()
	if m, err, ok := p.parseCastling(s, legal); ok {
		return m, err
	}
	if m, err, ok := p.parseCoordinates(s, legal); ok {
		if s[0] != 'B' {
			return m, err
		}
		// "B1d2" is SAN for the bishop from rank 1, but also reads as
		// b1-d2 (and a phone may capitalise "b2b4"): when both readings
		// are legal and differ, ask.
		sm, serr := p.parseSAN(orig, s, legal)
		switch {
		case serr != nil:
			return m, err
		case err != nil || m.Same(sm):
			return sm, nil
		}
		alts := []string{p.Canonical(m), p.Canonical(sm)}
		sort.Strings(alts)
		return Move{}, &MoveError{Msg: fmt.Sprintf("ambiguous: %s could be %s", orig, strings.Join(alts, " or ")), Choices: alts}
	}
	return p.parseSAN(orig, s, legal)
}

func (p *Position) parseCastling(s string, legal []Move) (Move, error, bool) {
	t := strings.ToUpper(strings.ReplaceAll(s, "0", "O"))
	var long bool
	switch t {
	case "O-O", "OO":
	case "O-O-O", "OOO":
		long = true
	default:
		return Move{}, nil, false
	}
	for _, cd := range p.V.Castling {
		if cd.Color != p.Side {
			continue
		}
		isLong := cd.Right == CastleWQ || cd.Right == CastleBQ
		if isLong != long {
			continue
		}
		for _, m := range legal {
			if m.Flags&FlagCastle != 0 && m.From == cd.KingFrom && m.To == cd.KingTo {
				return m, nil, true
			}
		}
	}
	if len(p.V.Castling) == 0 {
		return Move{}, moveErr("there is no castling in %s", p.V.Name), true
	}
	return Move{}, moveErr("illegal: you cannot castle %s now", map[bool]string{false: "short", true: "long"}[long]), true
}

// parseCoordinates handles from-to forms; ok is false when s is not one.
func (p *Position) parseCoordinates(s string, legal []Move) (Move, error, bool) {
	low := normalizeCellName(s)
	var promo Kind
	// A trailing promotion: "=q", "=Q", or a bare letter after a cell.
	if i := strings.LastIndex(low, "="); i > 0 {
		if promo = promoKind(low[i:]); promo == NoKind {
			return Move{}, nil, false
		}
		low = low[:i]
	}
	try := func(a, b string) (int, int, bool) {
		from, to := p.g.Cell(a), p.g.Cell(b)
		return from, to, from >= 0 && to >= 0
	}
	var from, to int
	found := false
	for _, sep := range []string{"-", " ", "x"} {
		if a, b, ok := strings.Cut(low, sep); ok {
			b = strings.TrimSpace(b)
			if f, t, ok := try(strings.TrimSpace(a), b); ok {
				from, to, found = f, t, true
			} else if promo == NoKind && len(b) > 1 {
				if k := promoKind(b[len(b)-1:]); k != NoKind {
					if f, t, ok := try(strings.TrimSpace(a), b[:len(b)-1]); ok {
						from, to, found, promo = f, t, true, k
					}
				}
			}
			if found {
				break
			}
		}
	}
	if !found {
		for i := 1; i < len(low) && !found; i++ {
			if f, t, ok := try(low[:i], low[i:]); ok {
				from, to, found = f, t, true
			} else if promo == NoKind && i < len(low)-1 {
				if k := promoKind(low[len(low)-1:]); k != NoKind {
					if f, t, ok := try(low[:i], low[i:len(low)-1]); ok {
						from, to, found, promo = f, t, true, k
					}
				}
			}
		}
	}
	if !found {
		return Move{}, nil, false
	}
	m, err := p.pickMove(legal, from, to, promo)
	return m, err, true
}

// pickMove finds the legal move from→to, explaining failures.
func (p *Position) pickMove(legal []Move, from, to int, promo Kind) (Move, error) {
	pc := p.Board[from]
	if pc == 0 {
		return Move{}, moveErr("no piece on %s", p.g.Name(from))
	}
	if pc.Color() != p.Side {
		return Move{}, moveErr("%s is %s's; it is %s to move", p.pieceName(from), pc.Color(), p.Side)
	}
	var promos []string
	for _, m := range legal {
		if int(m.From) != from || int(m.To) != to {
			continue
		}
		if m.Promo == promo {
			return m, nil
		}
		if m.Promo != NoKind {
			promos = append(promos, p.Canonical(m))
		}
	}
	if len(promos) > 0 {
		if promo == NoKind {
			return Move{}, &MoveError{Msg: fmt.Sprintf("promotion: say which piece, e.g. %s", promos[0]), Choices: promos}
		}
		return Move{}, &MoveError{Msg: "promote to a queen, rook, bishop or knight", Choices: promos}
	}
	if promo != NoKind {
		return Move{}, moveErr("%s-%s is not a promotion", p.g.Name(from), p.g.Name(to))
	}
	if e := p.refusal(from, to); e != nil {
		return Move{}, e
	}
	return Move{}, p.illegalFrom(legal, from)
}

// refusal explains why a move the piece could make by its own movement is
// not legal here: it leaves the king attacked, it breaks a Möbius mate
// rule, or (Heisenberg) it is observed — then the replacing moves are the
// choices. nil when from→to is not such a move.
func (p *Position) refusal(from, to int) *MoveError {
	if p.V.Observation {
		ob, err := p.Explain(from, to)
		if err != nil || !ob.Observed {
			return nil
		}
		e := &MoveError{Msg: ob.Describe(p)}
		seen := map[string]bool{}
		for _, m := range append(append([]Move(nil), ob.Speed...), ob.Position...) {
			if c := p.Canonical(m); !seen[c] {
				seen[c] = true
				e.Choices = append(e.Choices, c)
			}
		}
		return e
	}
	var buf [256]Move
	for _, m := range p.genPseudo(buf[:0]) {
		if int(m.From) != from || int(m.To) != to {
			continue
		}
		us := p.Side
		u := p.Make(m)
		exposed := p.King[us] >= 0 && p.Attacked(int(p.King[us]), us.Other())
		p.Unmake(m, u)
		what := fmt.Sprintf("%s-%s", p.g.Name(from), p.g.Name(to))
		if exposed {
			if p.InCheck() {
				return moveErr("illegal: %s does not get your king out of check", what)
			}
			return moveErr("illegal: %s would leave your king in check", what)
		}
		switch p.V.MateRule {
		case MateRuleMoebius:
			return moveErr("illegal: %s would checkmate with the piece on the twin of the enemy king's cell, which the Möbius rule forbids", what)
		case MateRuleNierse:
			return moveErr("illegal: %s would end on the twin of the enemy king's cell, which Nierse's rule forbids", what)
		}
		return nil
	}
	return nil
}

func (p *Position) parseSAN(orig, s string, legal []Move) (Move, error) {
	body := s
	var promo Kind
	if i := strings.LastIndex(body, "="); i > 0 {
		if promo = promoKind(body[i:]); promo == NoKind {
			return Move{}, moveErr("%q is not a move I understand; try e2-e4, Nf3 or O-O", orig)
		}
		body = body[:i]
	} else if n := len(body); n >= 3 && strings.ContainsRune("QRBN", rune(body[n-1])) && p.g.Cell(body[:n-1]) >= 0 || n >= 3 && strings.ContainsRune("QRBNqrbn", rune(body[n-1])) && endsWithCell(p.g, body[:n-1]) {
		promo = KindFromLetter(body[n-1])
		body = body[:n-1]
	}
	type reading struct {
		kind Kind
		rest string
	}
	var readings []reading
	if len(body) > 0 && strings.ContainsRune("KQRBN", rune(body[0])) {
		readings = append(readings, reading{KindFromLetter(body[0]), body[1:]})
	}
	if len(body) > 0 && strings.ContainsRune("kqrbn", rune(body[0])) {
		readings = append(readings, reading{KindFromLetter(body[0]), body[1:]})
	}
	if len(body) > 0 && !strings.ContainsRune("KQRBN", rune(body[0])) {
		pawn := reading{Pawn, body}
		if body[0] == 'b' {
			// SAN's "bxc3" is the b-pawn; a lazily typed bishop comes
			// second, so "bxc3" never plays Bxc3 when the pawn can take.
			readings = append([]reading{pawn}, readings...)
		} else {
			readings = append(readings, pawn)
		}
	}
	var firstErr, pawnErr, choiceErr error
	for _, r := range readings {
		m, err, ok := p.sanReading(orig, r.kind, r.rest, promo, legal)
		if ok && err == nil {
			return m, nil
		}
		if !ok {
			continue
		}
		if r.kind == Pawn && pawnErr == nil {
			pawnErr = err // the pawn's explanation goes last, as before
		} else if firstErr == nil {
			firstErr = err
		}
		// A refusal that offers choices (which piece to promote to, which
		// of two pieces) helps more than another reading's "no such piece".
		var me *MoveError
		if choiceErr == nil && errors.As(err, &me) && len(me.Choices) > 0 {
			choiceErr = err
		}
	}
	if choiceErr != nil {
		return Move{}, choiceErr
	}
	if firstErr != nil {
		return Move{}, firstErr
	}
	if pawnErr != nil {
		return Move{}, pawnErr
	}
	return Move{}, moveErr("%q is not a move I understand; try e2-e4, Nf3 or O-O", orig)
}

func endsWithCell(g *Geometry, s string) bool {
	for i := 0; i < len(s); i++ {
		if g.Cell(s[i:]) >= 0 {
			return true
		}
	}
	return false
}

// sanReading tries one reading of SAN: a piece kind, then
// [disambiguator][x]destination. ok is false when the text does not fit.
func (p *Position) sanReading(orig string, kind Kind, rest string, promo Kind, legal []Move) (Move, error, bool) {
	low := normalizeCellName(rest)
	// The destination is the longest suffix that is a cell.
	to, cut := -1, -1
	for i := 0; i < len(low); i++ {
		if c := p.g.Cell(low[i:]); c >= 0 {
			to, cut = c, i
			break
		}
	}
	if to < 0 {
		return Move{}, nil, false
	}
	dis := low[:cut]
	capture := strings.HasSuffix(dis, "x")
	dis = strings.TrimSuffix(dis, "x")
	dis = strings.TrimSuffix(dis, "-")
	var cands []Move
	var anyFrom []int
	match := p.disMatch(legal, kind, to, dis)
	for _, m := range legal {
		pc := p.Board[m.From]
		if pc.Kind() != kind || int(m.To) != to {
			continue
		}
		if !match(int(m.From)) {
			continue
		}
		if m.Promo != promo && !(promo == NoKind && m.Promo != NoKind) {
			continue
		}
		cands = append(cands, m)
	}
	// "x" is accepted whether or not the move captures. A plain pawn
	// step like "e5" means, as in SAN, the pawn of that file, when other
	// pawns could also land there (Heisenberg's reappearances, the cube).
	if kind == Pawn && dis == "" && !capture && len(cands) > 1 {
		toFace, toLetters, _ := cellParts(p.g.Name(to))
		var straight []Move
		for _, m := range cands {
			if face, letters, _ := cellParts(p.g.Name(int(m.From))); face == toFace && letters == toLetters && letters != "" {
				straight = append(straight, m)
			}
		}
		if len(straight) > 0 {
			cands = straight
		}
	}
	if len(cands) == 0 {
		for c, pc := range p.Board {
			if pc.Kind() == kind && pc.Color() == p.Side && match(c) {
				anyFrom = append(anyFrom, c)
			}
		}
		if len(anyFrom) == 0 {
			if kind == Pawn && dis == "" {
				return Move{}, nil, false
			}
			return Move{}, moveErr("you have no %s that fits %q", kind.Name(), orig), true
		}
		for _, c := range anyFrom {
			if e := p.refusal(c, to); e != nil {
				return Move{}, e, true
			}
		}
		if len(anyFrom) == 1 {
			return Move{}, p.illegalFrom(legal, anyFrom[0]), true
		}
		return Move{}, moveErr("illegal: no %s of yours can go to %s", kind.Name(), p.g.Name(to)), true
	}
	// Group by origin: several promotions from one cell are one choice.
	froms := map[int16]bool{}
	for _, m := range cands {
		froms[m.From] = true
	}
	if len(froms) > 1 {
		var alts []string
		for _, m := range cands {
			alts = append(alts, p.Canonical(m))
		}
		sort.Strings(alts)
		return Move{}, &MoveError{Msg: fmt.Sprintf("ambiguous: %s could be %s", orig, strings.Join(alts, " or ")), Choices: alts}, true
	}
	if len(cands) > 1 {
		var alts []string
		for _, m := range cands {
			alts = append(alts, p.Canonical(m))
		}
		return Move{}, &MoveError{Msg: fmt.Sprintf("promotion: say which piece, e.g. %s", alts[0]), Choices: alts}, true
	}
	return cands[0], nil, true
}
