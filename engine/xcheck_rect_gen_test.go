package engine

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
)

// Random positions for the cross-check: both kings, a handful of pieces
// anywhere, pawns of either direction on any cell that is not a promotion
// cell for them, castling rights wherever king and rook stand right, and
// en-passant rights that a double step can really have produced. Often the
// generator first sets up castling or en passant on purpose, since a
// uniform scatter rarely meets their conditions.

func (v *xrVariant) randomCell(r *rand.Rand) xrPt { return xrPt{r.Intn(v.w), r.Intn(v.h)} }

// freeCell finds a random empty cell (ok false on a full board).
func (s *xrPos) freeCell(r *rand.Rand) (xrPt, bool) {
	for i := 0; i < 200; i++ {
		if p := s.v.randomCell(r); s.empty(p) {
			return p, true
		}
	}
	return xrPt{}, false
}

// placePawn puts a pawn of this colour on a random empty cell that is not
// a promotion cell for its direction.
func (s *xrPos) placePawn(r *rand.Rand, white bool) {
	for i := 0; i < 50; i++ {
		p, ok := s.freeCell(r)
		plus := r.Intn(2) == 0
		if ok && !s.v.promoCell(white, plus, p) {
			s.set(p, xrPc{k: 'P', white: white, plus: plus})
			return
		}
	}
}

// setupEP places a pawn of the side not to move just after a double step
// and, usually, a pawn of the side to move able to take it en passant.
func (s *xrPos) setupEP(r *rand.Rand) (xrPt, bool) {
	them := !s.white
	for try := 0; try < 30; try++ {
		a := s.v.randomCell(r)
		plus := r.Intn(2) == 0
		if !s.v.doubleCell(them, plus, a) || !s.empty(a) {
			continue
		}
		b, dx, dy, ok := s.v.step(a, 0, xrFwd(plus))
		if !ok || !s.empty(b) {
			continue
		}
		c, _, _, ok := s.v.step(b, dx, dy)
		if !ok || !s.empty(c) || c == a {
			continue
		}
		s.set(c, xrPc{k: 'P', white: them, plus: plus})
		s.ep, s.epSkip, s.epPawn = true, b, c
		if r.Intn(5) > 0 {
			type cand struct {
				at   xrPt
				plus bool
			}
			// Usually a king-step neighbour of c, sometimes any cell with a
			// capture step onto b, so that pawns which may not take (those
			// running the same way as the double-stepper) show up too.
			var cs, near []cand
			for nx := 0; nx < s.v.w; nx++ {
				for ny := 0; ny < s.v.h; ny++ {
					n := xrPt{nx, ny}
					for _, pl := range []bool{true, false} {
						if s.empty(n) && n != a && !s.v.promoCell(s.white, pl, n) && xrHas(s.pawnCaps(n, pl), b) {
							cs = append(cs, cand{n, pl})
							if xrHas(s.v.near[c.x][c.y], n) {
								near = append(near, cand{n, pl})
							}
						}
					}
				}
			}
			if len(near) > 0 && r.Intn(3) > 0 {
				cs = near
			}
			if len(cs) > 0 {
				k := cs[r.Intn(len(cs))]
				s.set(k.at, xrPc{k: 'P', white: s.white, plus: k.plus})
			}
		}
		return a, true
	}
	return xrPt{}, false
}

// findEP gives a position without a deliberate set-up an en-passant right
// when one of the side-not-to-move's pawns can have just double-stepped.
func (s *xrPos) findEP(r *rand.Rand) {
	type cand struct{ b, c xrPt }
	var cs []cand
	for x := 0; x < s.v.w; x++ {
		for y := 0; y < s.v.h; y++ {
			c := xrPt{x, y}
			pc := s.at(c)
			if pc.k != 'P' || pc.white == s.white {
				continue
			}
			// Walk back two steps: the double step must lead a→b→c.
			for ax := 0; ax < s.v.w; ax++ {
				for ay := 0; ay < s.v.h; ay++ {
					a := xrPt{ax, ay}
					if !s.v.doubleCell(pc.white, pc.plus, a) || !s.empty(a) {
						continue
					}
					b, dx, dy, ok := s.v.step(a, 0, xrFwd(pc.plus))
					if !ok || !s.empty(b) {
						continue
					}
					if c2, _, _, ok := s.v.step(b, dx, dy); ok && c2 == c {
						cs = append(cs, cand{b, c})
					}
				}
			}
		}
	}
	if len(cs) > 0 {
		k := cs[r.Intn(len(cs))]
		s.ep, s.epSkip, s.epPawn = true, k.b, k.c
	}
}

var xrKinds = []byte("PPPPNNBBRRQ")

// xrRandomPosition builds one legal-looking position (the side not to
// move is not in check; kings never touch, on the strip never twins).
func xrRandomPosition(v *xrVariant, r *rand.Rand) xrPos {
	for {
		s := xrPos{v: v, white: r.Intn(2) == 0}
		castly := r.Intn(3) == 0
		for _, white := range []bool{true, false} {
			var k xrPt
			if castly && r.Intn(4) > 0 {
				k = xrPt{4, 0}
				if !white {
					k = xrPt{4, 7}
				}
			} else {
				k, _ = s.freeCell(r)
			}
			if !s.empty(k) {
				k, _ = s.freeCell(r)
			}
			s.set(k, xrPc{k: 'K', white: white})
		}
		if castly {
			for _, c := range xrCastles {
				if r.Intn(3) > 0 && s.empty(xrPt{c.rookX, c.y}) {
					s.set(xrPt{c.rookX, c.y}, xrPc{k: 'R', white: c.white})
				}
			}
		}
		if v.board == xrMoebius && r.Intn(3) == 0 {
			// Hem the side not to move's king in with its own pieces, so
			// that moves onto its twin often mate and the mate rules and
			// their escape test get exercised.
			// Mostly pawns, which cannot reach the twin 8 files away, and
			// a few heavy pieces of the mover to land on or guard it.
			k, _ := s.king(!s.white)
			for _, n := range v.near[k.x][k.y] {
				if r.Intn(10) > 0 && s.empty(n) {
					kind := byte('P')
					if r.Intn(4) == 0 {
						kind = xrKinds[r.Intn(len(xrKinds))]
					}
					plus := r.Intn(2) == 0
					if kind != 'P' || !v.promoCell(!s.white, plus, n) {
						s.set(n, xrPc{k: kind, white: !s.white, plus: plus && kind == 'P'})
					}
				}
			}
			tw := v.twin(k)
			for i := 0; i < 3; i++ {
				p, ok := s.freeCell(r)
				if i < 2 {
					// Beside the twin: one lands there, the other guards.
					near := v.near[tw.x][tw.y]
					p = near[r.Intn(len(near))]
					ok = s.empty(p)
				}
				if ok {
					s.set(p, xrPc{k: "QQRBN"[r.Intn(5)], white: s.white})
				}
			}
		}
		var epFrom xrPt
		if r.Intn(3) == 0 {
			epFrom, _ = s.setupEP(r)
		}
		n := 1 + r.Intn(14)
		if r.Intn(4) == 0 {
			n += 10 + r.Intn(20)
		}
		for i := 0; i < n; i++ {
			white := r.Intn(2) == 0
			k := xrKinds[r.Intn(len(xrKinds))]
			if k == 'P' {
				s.placePawn(r, white)
				continue
			}
			if p, ok := s.freeCell(r); ok {
				s.set(p, xrPc{k: k, white: white})
			}
		}
		if s.ep {
			// The double step came from epFrom over epSkip: both empty.
			if s.at(epFrom).k == 'K' || s.at(s.epSkip).k == 'K' {
				continue
			}
			s.set(epFrom, xrPc{})
			s.set(s.epSkip, xrPc{})
		}
		wk, _ := s.king(true)
		bk, _ := s.king(false)
		if xrHas(v.neighbours(wk), bk) {
			continue
		}
		if v.board == xrMoebius && v.twin(wk) == bk {
			continue
		}
		if k, _ := s.king(!s.white); s.attacked(k, s.white) {
			continue
		}
		for i, c := range xrCastles {
			k, rk := s.at(xrPt{4, c.y}), s.at(xrPt{c.rookX, c.y})
			if k == (xrPc{k: 'K', white: c.white}) && rk == (xrPc{k: 'R', white: c.white}) {
				s.castle[i] = r.Intn(5) > 0
			}
		}
		if !s.ep && r.Intn(2) == 0 {
			s.findEP(r)
		}
		return s
	}
}

// engineString writes s as a position string in one of the spellings
// RULES §1.2 allows: shuffled tokens, default pawn directions left out,
// primes typed four ways, en passant as b/c or (when unambiguous) b.
func (s *xrPos) engineString(r *rand.Rand) string {
	var toks []string
	prime := []string{"'", "’", "′", "p"}[r.Intn(4)]
	nm := func(p xrPt) string {
		n := s.v.name(p)
		if r.Intn(2) == 0 {
			n = strings.ToUpper(n)
		}
		return strings.Replace(n, "'", prime, 1)
	}
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
			if c.k == 'P' && (c.plus != c.white || r.Intn(2) == 0) {
				l += map[bool]string{true: "+", false: "-"}[c.plus]
			}
			toks = append(toks, l+nm(xrPt{x, y}))
		}
	}
	r.Shuffle(len(toks), func(i, j int) { toks[i], toks[j] = toks[j], toks[i] })
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
		ep = nm(s.epSkip) + "/" + nm(s.epPawn)
		if r.Intn(2) == 0 {
			// The short form names the vertical neighbour of b holding a
			// pawn of the side not to move; use it only when that is c.
			var vert []xrPt
			for _, dy := range []int{1, -1} {
				if q, _, _, ok := s.v.step(s.epSkip, 0, dy); ok && s.at(q).k == 'P' && s.at(q).white != s.white {
					vert = append(vert, q)
				}
			}
			if len(vert) == 1 && vert[0] == s.epPawn {
				ep = nm(s.epSkip)
			}
		}
	}
	out := fmt.Sprintf("%s %s %s %s", side, strings.Join(toks, ","), cs, ep)
	if r.Intn(2) == 0 {
		out += fmt.Sprintf(" %d %d", r.Intn(50), 1+r.Intn(80))
	}
	return out
}

// xrDiff lists what only one of two sorted move lists holds (repeats
// included, so a duplicate destination shows up).
func xrDiff(ref, eng []string) (onlyRef, onlyEng []string) {
	count := map[string]int{}
	for _, m := range ref {
		count[m]++
	}
	for _, m := range eng {
		count[m]--
	}
	for m, n := range count {
		for ; n > 0; n-- {
			onlyRef = append(onlyRef, m)
		}
		for ; n < 0; n++ {
			onlyEng = append(onlyEng, m)
		}
	}
	sort.Strings(onlyRef)
	sort.Strings(onlyEng)
	return
}
