package engine

import (
	"fmt"
	"sort"
	"strings"
)

// The reference's bookkeeping around its move generator: coverage counts,
// the sorted move list, perft, and reading and writing positions (its own
// position-string parser, and the bridge from an engine position).

func (v *xrVariant) count(s *xrPos, m xrMove, n *xrPos) {
	switch m.kind {
	case xrEP:
		v.stats["en passant"]++
	case xrCastle:
		v.stats["castling"]++
	case xrDouble:
		v.stats["double step"]++
	case xrPhase:
		v.stats["phasing"]++
		if s.at(m.from).k == 'P' {
			v.stats["phasing pawn"]++
		}
	}
	if m.promo != 0 {
		v.stats["promotion"]++
	}
	if pc := s.at(m.from); pc.k == 'P' && pc.plus != pc.white {
		v.stats["pawn against its colour's usual direction"]++
	}
	if d := m.to.x - m.from.x; d > 2 || d < -2 {
		if pc := s.at(m.from).k; pc == 'P' || pc == 'K' || pc == 'N' {
			v.stats["short move across a glued edge"]++
		}
	}
	if d := m.to.y - m.from.y; d > 2 || d < -2 {
		if pc := s.at(m.from).k; (pc == 'P' || pc == 'K' || pc == 'N') && m.kind != xrPhase {
			v.stats["short move across a glued edge"]++
		}
	}
}

// moveStrings is the sorted canonical list, each (from, to, promotion)
// once; the map gives one move per string for playing it.
func (s *xrPos) moveStrings() ([]string, map[string]xrMove) {
	by := map[string]xrMove{}
	var out []string
	for _, m := range s.legal() {
		c := s.canonical(m)
		if _, dup := by[c]; dup {
			continue
		}
		by[c] = m
		out = append(out, c)
	}
	sort.Strings(out)
	return out, by
}

func (s *xrPos) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	ms, by := s.moveStrings()
	if depth == 1 {
		return uint64(len(ms))
	}
	var n uint64
	for _, c := range ms {
		q := s.play(by[c])
		n += q.perft(depth - 1)
	}
	return n
}

// String writes the position string of RULES §1.2, directions always
// explicit.
func (s *xrPos) String() string {
	var toks []string
	for x := 0; x < s.v.w; x++ {
		for y := 0; y < s.v.h; y++ {
			c := s.b[x][y]
			if c.k == 0 {
				continue
			}
			l := string(c.k)
			if !c.white {
				l = strings.ToLower(l)
			}
			if c.k == 'P' {
				if c.plus {
					l += "+"
				} else {
					l += "-"
				}
			}
			toks = append(toks, l+s.v.names[x][y])
		}
	}
	side := "b"
	if s.white {
		side = "w"
	}
	cs := ""
	for i, ok := range s.castle {
		if ok {
			cs += string("KQkq"[i])
		}
	}
	if cs == "" {
		cs = "-"
	}
	ep := "-"
	if s.ep {
		ep = s.v.name(s.epSkip) + "/" + s.v.name(s.epPawn)
	}
	pieces := strings.Join(toks, ",")
	if pieces == "" {
		pieces = "-"
	}
	return fmt.Sprintf("%s %s %s %s 0 1", side, pieces, cs, ep)
}

// xrParse reads a position string (RULES §1.2) on its own: primes as
// "'" or a trailing p, default pawn directions, both en-passant forms.
func (v *xrVariant) parse(str string) (xrPos, error) {
	s := xrPos{v: v}
	f := strings.Fields(str)
	if len(f) != 4 && len(f) != 6 {
		return s, fmt.Errorf("xr: %d fields", len(f))
	}
	s.white = f[0] == "w"
	cell := func(n string) (xrPt, error) {
		n = strings.ToLower(n)
		if p, ok := v.byName[n]; ok {
			return p, nil
		}
		if strings.HasSuffix(n, "p") {
			if p, ok := v.byName[n[:len(n)-1]+"'"]; ok {
				return p, nil
			}
		}
		return xrPt{}, fmt.Errorf("xr: no cell %q", n)
	}
	if f[1] != "-" {
		for _, tok := range strings.Split(f[1], ",") {
			c := xrPc{k: tok[0] &^ 0x20, white: tok[0] < 'a'}
			c.plus = c.white
			rest := tok[1:]
			if rest[0] == '+' || rest[0] == '-' {
				c.plus = rest[0] == '+'
				rest = rest[1:]
			}
			if c.k != 'P' {
				c.plus = false
			}
			p, err := cell(rest)
			if err != nil {
				return s, err
			}
			s.set(p, c)
		}
	}
	for i := range s.castle {
		s.castle[i] = strings.IndexByte(f[2], "KQkq"[i]) >= 0
	}
	if f[3] != "-" {
		bs, cs, both := strings.Cut(f[3], "/")
		b, err := cell(bs)
		if err != nil {
			return s, err
		}
		s.ep, s.epSkip = true, b
		if both {
			if s.epPawn, err = cell(cs); err != nil {
				return s, err
			}
		} else {
			// c: the vertical neighbour of b holding a pawn of the side
			// not to move.
			found := 0
			for _, dy := range []int{1, -1} {
				if q, _, _, ok := v.step(b, 0, dy); ok && s.at(q).k == 'P' && s.at(q).white != s.white {
					s.epPawn = q
					found++
				}
			}
			if found != 1 {
				return s, fmt.Errorf("xr: en passant %s names %d pawns", bs, found)
			}
		}
	}
	return s, nil
}

// xrFromEngine reads an engine position through its public fields and
// cell names only.
func xrFromEngine(v *xrVariant, p *Position) (xrPos, error) {
	s := xrPos{v: v}
	g := p.Geo()
	if g.N != v.w*v.h {
		return s, fmt.Errorf("engine board has %d cells, the rule book %d", g.N, v.w*v.h)
	}
	name := func(c int) (xrPt, error) {
		q, ok := v.byName[strings.ToLower(g.Name(c))]
		if !ok {
			return q, fmt.Errorf("engine cell %d is named %q, not a rule-book name", c, g.Name(c))
		}
		return q, nil
	}
	for c, pc := range p.Board {
		if pc == 0 {
			continue
		}
		q, err := name(c)
		if err != nil {
			return s, err
		}
		s.set(q, xrPc{k: "?PNBRQK"[pc.Kind()], white: pc.Color() == White, plus: pc.Kind() == Pawn && !pc.Minus()})
	}
	s.white = p.Side == White
	for i, bit := range []uint8{CastleWK, CastleWQ, CastleBK, CastleBQ} {
		s.castle[i] = p.Castle&bit != 0
	}
	if p.EPSkip >= 0 {
		var err error
		s.ep = true
		if s.epSkip, err = name(int(p.EPSkip)); err != nil {
			return s, err
		}
		if s.epPawn, err = name(int(p.EPPawn)); err != nil {
			return s, err
		}
	}
	return s, nil
}

// same compares everything a position string holds but the clocks.
func (s *xrPos) same(o *xrPos) bool {
	return s.b == o.b && s.white == o.white && s.castle == o.castle && s.ep == o.ep &&
		(!s.ep || (s.epSkip == o.epSkip && s.epPawn == o.epPawn))
}
