package engine

import "strings"

// SAN writes a legal move in standard algebraic notation, with + or #.
func (p *Position) SAN(m Move) string {
	pc := p.Board[m.From]
	var sb strings.Builder
	if m.Flags&FlagCastle != 0 {
		cd := p.castleDef(pc.Color(), m.To)
		if cd != nil && (cd.Right == CastleWQ || cd.Right == CastleBQ) {
			sb.WriteString("O-O-O")
		} else {
			sb.WriteString("O-O")
		}
	} else {
		legal := p.LegalMoves()
		from, to := p.g.Written(int(m.From)), p.g.Written(int(m.To))
		capture := p.Board[m.To] != 0 || m.Flags&FlagEnPassant != 0
		if pc.Kind() == Pawn && !capture && p.ambiguousBy(legal, m, func(int) string { return "" }) && !p.readsBack(to+promoSuffix(m), m) {
			// Two pawns can step to one cell on some boards (the cube,
			// Heisenberg reappearances) and the plain step does not name
			// this one: write the move out in full.
			sb.WriteString(from + "-")
		} else if pc.Kind() == Pawn {
			if capture {
				_, file, _ := cellParts(p.g.Name(int(m.From)))
				if file == "" || !p.singlesOut(legal, m, file) {
					file = from
				}
				sb.WriteString(file)
			}
		} else {
			sb.WriteString(pc.Kind().Letter())
			dis := p.sanDisambiguator(legal, m)
			sb.WriteString(dis)
			if !capture && dis != "" && p.g.Cell(dis+to) >= 0 {
				// The disambiguator and the destination must not read as
				// one cell.
				sb.WriteByte('-')
			}
		}
		if capture {
			sb.WriteByte('x')
		}
		sb.WriteString(to)
		if m.Promo != NoKind {
			sb.WriteString("=" + m.Promo.Letter())
		}
	}
	u := p.Make(m)
	if p.InCheck() {
		if len(p.LegalMoves()) == 0 {
			sb.WriteByte('#')
		} else {
			sb.WriteByte('+')
		}
	}
	p.Unmake(m, u)
	return sb.String()
}

// ambiguousBy reports whether another legal move of the same kind to the
// same cell has an origin with the same key.
func (p *Position) ambiguousBy(legal []Move, m Move, key func(int) string) bool {
	k := key(int(m.From))
	for _, o := range legal {
		if o.To == m.To && o.From != m.From && o.Promo == m.Promo && p.Board[o.From].Kind() == p.Board[m.From].Kind() && key(int(o.From)) == k {
			return true
		}
	}
	return false
}

func (p *Position) sanDisambiguator(legal []Move, m Move) string {
	others := false
	for _, o := range legal {
		if o.To == m.To && o.From != m.From && p.Board[o.From].Kind() == p.Board[m.From].Kind() {
			others = true
			break
		}
	}
	if !others {
		return ""
	}
	from := p.g.Name(int(m.From))
	face, file, rank := cellParts(from)
	if face == "" && file != "" && p.singlesOut(legal, m, file) {
		return file
	}
	// A bishop's rank would turn "B1d2" into the coordinates b1-d2.
	bishopRank := p.Board[m.From].Kind() == Bishop && p.g.Cell("b"+rank) >= 0
	if face == "" && rank != "" && file != "" && !bishopRank && p.singlesOut(legal, m, rank) {
		return rank
	}
	return p.g.Written(int(m.From))
}

// singlesOut reports whether the disambiguator d, read the way ParseMove
// reads it (any of a cell's names may match), names m's origin and no
// other origin of a same-kind move to the same cell.
func (p *Position) singlesOut(legal []Move, m Move, d string) bool {
	kind := p.Board[m.From].Kind()
	match := p.disMatch(legal, kind, int(m.To), d)
	if !match(int(m.From)) {
		return false
	}
	for _, o := range legal {
		if o.To == m.To && o.From != m.From && o.Promo == m.Promo && p.Board[o.From].Kind() == kind && match(int(o.From)) {
			return false
		}
	}
	return true
}

// disMatch is how a SAN disambiguator d selects origins of kind's moves to
// cell to. A full cell name means that cell when a piece there can make
// the move ("f1" is not f12 on a 14-rank board, and Chess 66's "4" is the
// cell 4 before it is rank 4); otherwise any of a cell's names may match
// by file, rank or face.
func (p *Position) disMatch(legal []Move, kind Kind, to int, d string) func(c int) bool {
	if d == "" {
		return func(int) bool { return true }
	}
	if dc := p.g.Cell(d); dc >= 0 && p.Board[dc].Kind() == kind {
		for _, m := range legal {
			if int(m.From) == dc && int(m.To) == to {
				return func(c int) bool { return c == dc }
			}
		}
	}
	return func(c int) bool { return p.g.disambiguates(c, d) }
}

func promoSuffix(m Move) string {
	if m.Promo == NoKind {
		return ""
	}
	return "=" + m.Promo.Letter()
}

// readsBack reports whether the text parses as exactly this move.
func (p *Position) readsBack(text string, m Move) bool {
	back, err := p.ParseMove(text)
	return err == nil && back.Same(m)
}
