package engine

import (
	"fmt"
)

// A deliberately naive second implementation of RULES.md §1, §3 and §4 for
// the Möbius strip and the three 8×14 boards, written from the rule text
// alone. It shares nothing with the engine's move generation: its own
// (x, y) coordinates and cell names, its own step functions, ray walks,
// generic knights, attack test (by generating the attacker's captures),
// castling, en passant, promotion, phasing and mate rules. It reads an
// engine position only through Board/Side/Castle/EPSkip/EPPawn and cell
// names, so that a shared misreading cannot hide a bug on both sides.
// Speed does not matter here; literalness does.

type xrBoardKind int

const (
	xrMoebius xrBoardKind = iota
	xrTorus
	xrCylinder
	xrKlein
)

// Mate rules of RULES §3.
const (
	xrNoMateRule = iota
	xrInventor
	xrNierse
)

type xrPt struct{ x, y int }

// xrPc is a piece: kind letter (0 for an empty cell), colour and, for
// pawns, direction ('+' toward larger y).
type xrPc struct {
	k     byte
	white bool
	plus  bool
}

type xrVariant struct {
	id     string
	board  xrBoardKind
	w, h   int
	mate   int
	names  [16][14]string
	byName map[string]xrPt
	knight [16][14][]xrPt
	near   [16][14][]xrPt // king-step neighbours
	// stats counts the legal moves of each special kind the reference has
	// produced, so the tests can show what they covered.
	stats map[string]int
}

var xrDirs = [8][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}

var xrRookDirs, xrBishopDirs = [][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}, [][2]int{{1, 1}, {1, -1}, {-1, -1}, {-1, 1}}

func xrMod(a, n int) int { return ((a % n) + n) % n }

func newXrVariant(id string) *xrVariant {
	v := &xrVariant{id: id, byName: map[string]xrPt{}, stats: map[string]int{}}
	switch id {
	case "moebius":
		v.board, v.w, v.h, v.mate = xrMoebius, 16, 8, xrInventor
	case "moebius-nierse":
		v.board, v.w, v.h, v.mate = xrMoebius, 16, 8, xrNierse
	case "toroidal":
		v.board, v.w, v.h = xrTorus, 8, 14
	case "cylindrical":
		v.board, v.w, v.h = xrCylinder, 8, 14
	case "klein":
		v.board, v.w, v.h = xrKlein, 8, 14
	default:
		panic("xr: no such variant " + id)
	}
	for x := 0; x < v.w; x++ {
		for y := 0; y < v.h; y++ {
			var n string
			switch {
			case v.board != xrMoebius:
				n = fmt.Sprintf("%c%d", 'a'+x, y+1)
			case x < 8:
				n = fmt.Sprintf("%c%d", 'a'+x, y+1)
			default:
				// RULES §3: back half primed, ranks counted from the top.
				n = fmt.Sprintf("%c%d'", 'a'+x-8, 8-y)
			}
			v.names[x][y] = n
			v.byName[n] = xrPt{x, y}
		}
	}
	for x := 0; x < v.w; x++ {
		for y := 0; y < v.h; y++ {
			v.near[x][y] = v.neighbours(xrPt{x, y})
			v.knight[x][y] = v.genericKnight(xrPt{x, y})
		}
	}
	return v
}

func (v *xrVariant) name(p xrPt) string { return v.names[p.x][p.y] }

// step is RULES §3/§4 "Steps": where one step in direction (dx, dy)
// lands and the direction a ray continues in.
func (v *xrVariant) step(p xrPt, dx, dy int) (xrPt, int, int, bool) {
	switch v.board {
	case xrMoebius:
		ny := p.y + dy
		if ny < 0 || ny > 7 {
			return xrPt{}, 0, 0, false
		}
		return xrPt{xrMod(p.x+dx, 16), ny}, dx, dy, true
	case xrTorus:
		return xrPt{xrMod(p.x+dx, 8), xrMod(p.y+dy, 14)}, dx, dy, true
	case xrCylinder:
		nx := p.x + dx
		if nx < 0 || nx > 7 {
			return xrPt{}, 0, 0, false
		}
		return xrPt{nx, xrMod(p.y+dy, 14)}, dx, dy, true
	default: // Klein
		nx, ny := xrMod(p.x+dx, 8), xrMod(p.y+dy, 14)
		// Crossing between rank 11 (y=10) and rank 12 (y=11).
		if (p.y == 10 && dy == 1) || (p.y == 11 && dy == -1) {
			return xrPt{7 - nx, ny}, -dx, dy, true
		}
		return xrPt{nx, ny}, dx, dy, true
	}
}

func (v *xrVariant) twin(p xrPt) xrPt { return xrPt{(p.x + 8) % 16, 7 - p.y} }

func (v *xrVariant) neighbours(p xrPt) []xrPt {
	var out []xrPt
	for _, d := range xrDirs {
		if q, _, _, ok := v.step(p, d[0], d[1]); ok && q != p && !xrHas(out, q) {
			out = append(out, q)
		}
	}
	return out
}

func xrHas(s []xrPt, p xrPt) bool {
	for _, q := range s {
		if q == p {
			return true
		}
	}
	return false
}

// genericKnight is RULES §1.1's knight: two king steps, minus the origin,
// its king-step neighbours and the first two cells of every rook and
// bishop ray on an empty board.
func (v *xrVariant) genericKnight(o xrPt) []xrPt {
	excl := append([]xrPt{o}, v.neighbours(o)...)
	for _, d := range xrDirs {
		c1, dx, dy, ok := v.step(o, d[0], d[1])
		if !ok || c1 == o {
			continue
		}
		excl = append(excl, c1)
		if c2, _, _, ok := v.step(c1, dx, dy); ok && c2 != o && c2 != c1 {
			excl = append(excl, c2)
		}
	}
	var out []xrPt
	for _, a := range v.neighbours(o) {
		for _, b := range v.neighbours(a) {
			if !xrHas(excl, b) && !xrHas(out, b) {
				out = append(out, b)
			}
		}
	}
	return out
}

// Pawn rules: direction decides the forward step; promotion and double
// steps by RULES §3 (by direction) and §4 (promotion by colour, double
// steps by colour and direction).
func (v *xrVariant) promoCell(white, plus bool, p xrPt) bool {
	if v.board == xrMoebius {
		if plus {
			return p.y == 7
		}
		return p.y == 0
	}
	if white {
		return p.y == 7 // rank 8
	}
	return p.y == 0 // rank 1
}

func (v *xrVariant) doubleCell(white, plus bool, p xrPt) bool {
	if v.board == xrMoebius {
		if plus {
			return p.y == 1
		}
		return p.y == 6
	}
	switch {
	case white && plus:
		return p.y == 1 // rank 2
	case white:
		return p.y == 13 // rank 14
	case !plus:
		return p.y == 6 // rank 7
	default:
		return p.y == 8 // rank 9
	}
}

func xrFwd(plus bool) int {
	if plus {
		return 1
	}
	return -1
}

// xrPos is a position of the reference: a value, so playing a move copies.
type xrPos struct {
	v      *xrVariant
	b      [16][14]xrPc
	white  bool    // White to move
	castle [4]bool // K, Q, k, q
	ep     bool
	epSkip xrPt
	epPawn xrPt
}

func (s *xrPos) at(p xrPt) xrPc     { return s.b[p.x][p.y] }
func (s *xrPos) set(p xrPt, c xrPc) { s.b[p.x][p.y] = c }
func (s *xrPos) empty(p xrPt) bool  { return s.b[p.x][p.y].k == 0 }
func (s *xrPos) enemy(p xrPt, white bool) bool {
	c := s.b[p.x][p.y]
	return c.k != 0 && c.white != white
}

func (s *xrPos) king(white bool) (xrPt, bool) {
	for x := 0; x < s.v.w; x++ {
		for y := 0; y < s.v.h; y++ {
			if c := s.b[x][y]; c.k == 'K' && c.white == white {
				return xrPt{x, y}, true
			}
		}
	}
	return xrPt{}, false
}

// ray walks from o in direction (dx, dy): every cell up to and including
// the first occupied one, stopping at an edge and before any cell already
// on the ray (the origin included).
func (s *xrPos) ray(o xrPt, dx, dy int) []xrPt {
	var seen [16][14]bool
	seen[o.x][o.y] = true
	var out []xrPt
	cur := o
	for {
		q, ndx, ndy, ok := s.v.step(cur, dx, dy)
		if !ok || seen[q.x][q.y] {
			return out
		}
		seen[q.x][q.y] = true
		out = append(out, q)
		if !s.empty(q) {
			return out
		}
		cur, dx, dy = q, ndx, ndy
	}
}

func xrRiderDirs(k byte) [][2]int {
	switch k {
	case 'R':
		return xrRookDirs
	case 'B':
		return xrBishopDirs
	}
	return xrDirs[:]
}

// pawnCaps are a pawn's capture steps: the two forward diagonals.
func (s *xrPos) pawnCaps(o xrPt, plus bool) []xrPt {
	var out []xrPt
	for _, dx := range []int{-1, 1} {
		if q, _, _, ok := s.v.step(o, dx, xrFwd(plus)); ok && !xrHas(out, q) {
			out = append(out, q)
		}
	}
	return out
}

// reaches: the piece on o has a capture move onto t, were an enemy there
// (RULES §1 "Attack": king steps, knight targets, rays up to and
// including their first occupied cell, pawn capture steps, and on the
// strip phasing).
func (s *xrPos) reaches(o, t xrPt) bool {
	pc := s.at(o)
	if s.v.board == xrMoebius && s.v.twin(o) == t {
		return true
	}
	switch pc.k {
	case 'K':
		return xrHas(s.v.near[o.x][o.y], t)
	case 'N':
		return xrHas(s.v.knight[o.x][o.y], t)
	case 'P':
		for _, dx := range []int{-1, 1} {
			if q, _, _, ok := s.v.step(o, dx, xrFwd(pc.plus)); ok && q == t {
				return true
			}
		}
		return false
	}
	for _, d := range xrRiderDirs(pc.k) {
		var seen [16][14]bool
		seen[o.x][o.y] = true
		cur, dx, dy := o, d[0], d[1]
		for {
			q, ndx, ndy, ok := s.v.step(cur, dx, dy)
			if !ok || seen[q.x][q.y] {
				break
			}
			if q == t {
				return true
			}
			if !s.empty(q) {
				break
			}
			seen[q.x][q.y] = true
			cur, dx, dy = q, ndx, ndy
		}
	}
	return false
}

func (s *xrPos) attacked(t xrPt, byWhite bool) bool {
	for x := 0; x < s.v.w; x++ {
		for y := 0; y < s.v.h; y++ {
			if c := s.b[x][y]; c.k != 0 && c.white == byWhite && s.reaches(xrPt{x, y}, t) {
				return true
			}
		}
	}
	return false
}

func (s *xrPos) inCheck() bool {
	k, ok := s.king(s.white)
	return ok && s.attacked(k, !s.white)
}

type xrMoveKind int

const (
	xrNormal xrMoveKind = iota
	xrDouble
	xrPhase
	xrEP
	xrCastle
)

type xrMove struct {
	from, to xrPt
	promo    byte
	kind     xrMoveKind
	mid      xrPt // skipped cell of a double step
	castle   int  // index into xrCastles
}

func (s *xrPos) canonical(m xrMove) string {
	out := s.v.name(m.from) + "-" + s.v.name(m.to)
	if m.promo != 0 {
		out += "=" + string(m.promo)
	}
	return out
}

// xrCastles, in the order K, Q, k, q: colour, home row and rook file;
// the king starts on file e (x=4) of its home row.
var xrCastles = [4]struct {
	white bool
	y     int
	rookX int
}{{true, 0, 7}, {true, 0, 0}, {false, 7, 7}, {false, 7, 0}}

// pawnMoves adds m, or its four promotions when to is a promotion cell
// for the pawn as it stands after the move.
func (s *xrPos) pawnMoves(out []xrMove, m xrMove, white, plusAfter bool) []xrMove {
	if s.v.promoCell(white, plusAfter, m.to) {
		for _, k := range []byte("QRBN") {
			m.promo = k
			out = append(out, m)
		}
		return out
	}
	return append(out, m)
}

// pseudo lists every move of the side to move that obeys the movement
// rules, before the king-safety and mate-rule tests.
func (s *xrPos) pseudo() []xrMove {
	var out []xrMove
	us := s.white
	for x := 0; x < s.v.w; x++ {
		for y := 0; y < s.v.h; y++ {
			o := xrPt{x, y}
			pc := s.at(o)
			if pc.k == 0 || pc.white != us {
				continue
			}
			switch pc.k {
			case 'K', 'N':
				ts := s.v.near[x][y]
				if pc.k == 'N' {
					ts = s.v.knight[x][y]
				}
				for _, t := range ts {
					if s.empty(t) || s.enemy(t, us) {
						out = append(out, xrMove{from: o, to: t})
					}
				}
			case 'P':
				fwd := xrFwd(pc.plus)
				if a, dx, dy, ok := s.v.step(o, 0, fwd); ok && s.empty(a) {
					out = s.pawnMoves(out, xrMove{from: o, to: a}, us, pc.plus)
					if s.v.doubleCell(us, pc.plus, o) {
						if b, _, _, ok := s.v.step(a, dx, dy); ok && b != o && s.empty(b) {
							out = s.pawnMoves(out, xrMove{from: o, to: b, kind: xrDouble, mid: a}, us, pc.plus)
						}
					}
				}
				for _, t := range s.pawnCaps(o, pc.plus) {
					if s.enemy(t, us) {
						out = s.pawnMoves(out, xrMove{from: o, to: t}, us, pc.plus)
					}
				}
			default:
				for _, d := range xrRiderDirs(pc.k) {
					for _, t := range s.ray(o, d[0], d[1]) {
						if s.empty(t) || s.enemy(t, us) {
							out = append(out, xrMove{from: o, to: t})
						}
					}
				}
			}
			if s.v.board == xrMoebius {
				t := s.v.twin(o)
				if s.empty(t) || s.enemy(t, us) {
					m := xrMove{from: o, to: t, kind: xrPhase}
					if pc.k == 'P' {
						// A phasing pawn reverses its direction.
						out = s.pawnMoves(out, m, us, !pc.plus)
					} else {
						out = append(out, m)
					}
				}
			}
		}
	}
	// En passant: a pawn of ours that is a king-step neighbour of c and has
	// a capture step onto b.
	if s.ep && s.empty(s.epSkip) {
		for _, n := range s.v.neighbours(s.epPawn) {
			pc := s.at(n)
			if pc.k == 'P' && pc.white == us && xrHas(s.pawnCaps(n, pc.plus), s.epSkip) {
				out = append(out, xrMove{from: n, to: s.epSkip, kind: xrEP})
			}
		}
	}
	for i, c := range xrCastles {
		if c.white != us || !s.castle[i] {
			continue
		}
		k, r := xrPt{4, c.y}, xrPt{c.rookX, c.y}
		if s.at(k) != (xrPc{k: 'K', white: us}) || s.at(r).k != 'R' || s.at(r).white != us {
			continue
		}
		dir := 1
		if c.rookX < 4 {
			dir = -1
		}
		clear := true
		for x := 4 + dir; x != c.rookX; x += dir {
			if !s.empty(xrPt{x, c.y}) {
				clear = false
			}
		}
		if !clear {
			continue
		}
		if s.attacked(k, !us) || s.attacked(xrPt{4 + dir, c.y}, !us) || s.attacked(xrPt{4 + 2*dir, c.y}, !us) {
			continue
		}
		out = append(out, xrMove{from: k, to: xrPt{4 + 2*dir, c.y}, kind: xrCastle, castle: i})
	}
	return out
}

// play returns the position after m.
func (s xrPos) play(m xrMove) xrPos {
	n := s
	pc := s.at(m.from)
	n.ep = false
	switch m.kind {
	case xrCastle:
		c := xrCastles[m.castle]
		dir := 1
		if c.rookX < 4 {
			dir = -1
		}
		rook := s.at(xrPt{c.rookX, c.y})
		n.set(m.from, xrPc{})
		n.set(xrPt{c.rookX, c.y}, xrPc{})
		n.set(m.to, pc)
		n.set(xrPt{4 + dir, c.y}, rook)
	case xrEP:
		n.set(m.from, xrPc{})
		n.set(s.epPawn, xrPc{})
		n.set(m.to, pc)
	default:
		np := pc
		if m.kind == xrPhase && pc.k == 'P' {
			np.plus = !np.plus
		}
		if m.promo != 0 {
			np = xrPc{k: m.promo, white: pc.white}
		}
		n.set(m.from, xrPc{})
		n.set(m.to, np)
		if m.kind == xrDouble {
			n.ep, n.epSkip, n.epPawn = true, m.mid, m.to
		}
	}
	// A castling right dies when its king moves or its rook leaves (or is
	// taken on) its corner.
	for i, c := range xrCastles {
		corner := xrPt{c.rookX, c.y}
		if (pc.k == 'K' && pc.white == c.white) || m.from == corner || m.to == corner {
			n.castle[i] = false
		}
	}
	n.white = !s.white
	return n
}

// hasEscape: the side to move has a move that leaves its king unattacked
// (the mate rule is not applied inside this test, RULES §3).
func (s *xrPos) hasEscape() bool {
	for _, m := range s.pseudo() {
		n := s.play(m)
		if k, ok := n.king(s.white); ok && !n.attacked(k, !s.white) {
			return true
		}
	}
	return false
}

// breaksMateRule: n is the position after m was played from s.
func (s *xrPos) breaksMateRule(m xrMove, n *xrPos) bool {
	if s.v.mate == xrNoMateRule {
		return false
	}
	ek, ok := n.king(!s.white)
	if !ok {
		return false
	}
	tw := s.v.twin(ek)
	landed := []xrPt{m.to}
	if m.kind == xrCastle {
		c := xrCastles[m.castle]
		dir := 1
		if c.rookX < 4 {
			dir = -1
		}
		landed = append(landed, xrPt{4 + dir, c.y})
	}
	if !xrHas(landed, tw) {
		return false
	}
	if s.v.mate == xrNierse {
		return true
	}
	// Inventor's rule: illegal only if the opponent is now checkmated.
	return n.inCheck() && !n.hasEscape()
}

func (s *xrPos) legal() []xrMove {
	var out []xrMove
	for _, m := range s.pseudo() {
		n := s.play(m)
		k, ok := n.king(s.white)
		if ok && n.attacked(k, !s.white) {
			continue
		}
		if s.breaksMateRule(m, &n) {
			s.v.stats["refused by the mate rule"]++
			continue
		}
		s.v.count(s, m, &n)
		out = append(out, m)
	}
	return out
}
