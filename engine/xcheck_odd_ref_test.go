package engine

// A deliberately naive reference move generator for the cube boards and
// Chess 66, written from RULES.md §1, §6 and §7 alone. It shares no table,
// step function or generator with the engine: each board is rebuilt here
// from the rule text (xcheck_odd_cube_test.go, xcheck_odd_c66_test.go) into
// an xoGeo of plain cell lists, and moves are found by walking those lists
// over a board of FEN letters. From the engine it reads only a Position's
// fields and the cell names, so a divergence points at one side or the
// other, never at shared code.

import (
	"fmt"
	"sort"
	"strings"
)

// xoCastle is one castling move as the rule book words it.
type xoCastle struct {
	right                              uint8 // CastleWK … CastleBQ: the bit the position string's KQkq sets
	col                                int
	kingFrom, kingTo, rookFrom, rookTo int
	between                            []int // strictly between king and rook: must be empty
	safe                               []int // king's cell, the cell it passes, where it lands
}

// xoGeo is a board as plain lists on the reference's own cell numbering.
type xoGeo struct {
	id      string
	names   []string       // canonical name by reference cell
	byName  map[string]int // every accepted spelling, lower case
	aliases [][]string     // every spelling of a cell, canonical first
	partner []int          // other half of a switch, or -1
	king    [][]int        // cells one king step reaches (an entered switch: both halves)
	knight  [][]int
	// paths[kind][cell]: the rays on an empty board, each fork expanded
	// into its own linear path.
	paths  map[byte][][][]int
	push   [2][][]int    // forward-step arrivals by colour
	capt   [2][][]int    // capture-step arrivals by colour
	double [2][][][2]int // (skipped, landing) of double steps by colour
	promo  [2][]bool     // promotion cells by colour
	starts [2][]bool     // double-step (starting pawn) cells by colour
	castle []xoCastle
	// special lists the cells random positions favour (vertices, edges,
	// switches and their surroundings).
	special []int

	// Links to the engine's numbering, by name only.
	eng []int // reference cell → engine cell
	ref []int // engine cell → reference cell
}

// xoPos is a position of the reference: FEN letters by cell (0 = empty).
type xoPos struct {
	b              []byte
	side           int // 0 White, 1 Black
	castle         uint8
	epSkip, epPawn int
}

type xoMove struct {
	from, to int
	promo    byte // 'Q', 'R', 'B', 'N' or 0
	epTaken  int  // the pawn an en-passant capture removes, or -1
	skip     int  // the cell a double step skipped, or -1
	castle   *xoCastle
}

func xoColor(pc byte) int {
	if pc >= 'a' {
		return 1
	}
	return 0
}

func xoKind(pc byte) byte { return pc &^ 0x20 }

func xoLetter(col int, kind byte) byte {
	if col == 1 {
		return kind | 0x20
	}
	return kind
}

// attach links the reference cells to the engine's by their names and
// checks that both sides name every cell alike.
func (g *xoGeo) attach(eg *Geometry) error {
	if eg.N != len(g.names) {
		return fmt.Errorf("%s: engine has %d cells, the rule book %d", g.id, eg.N, len(g.names))
	}
	g.eng = make([]int, len(g.names))
	g.ref = make([]int, eg.N)
	for i := range g.ref {
		g.ref[i] = -1
	}
	for c, nm := range g.names {
		e := eg.Cell(nm)
		if e < 0 {
			return fmt.Errorf("%s: engine does not know cell %s", g.id, nm)
		}
		if eg.Name(e) != nm {
			return fmt.Errorf("%s: engine calls %s %s, the rule book's canonical name is %s", g.id, nm, eg.Name(e), nm)
		}
		if g.ref[e] >= 0 {
			return fmt.Errorf("%s: engine maps %s and %s to one cell", g.id, nm, g.names[g.ref[e]])
		}
		for _, a := range g.aliases[c] {
			if eg.Cell(a) != e {
				return fmt.Errorf("%s: engine reads %s as %s, not %s", g.id, a, eg.Name(eg.Cell(a)), nm)
			}
		}
		g.eng[c], g.ref[e] = e, c
	}
	return nil
}

// read takes a position from the engine's fields.
func (g *xoGeo) read(p *Position) *xoPos {
	q := &xoPos{b: make([]byte, len(g.names)), side: int(p.Side), castle: p.Castle, epSkip: -1, epPawn: -1}
	for e, pc := range p.Board {
		if pc == 0 {
			continue
		}
		q.b[g.ref[e]] = xoLetter(int(pc.Color()), pc.Kind().Letter()[0])
	}
	if p.EPSkip >= 0 {
		q.epSkip, q.epPawn = g.ref[p.EPSkip], g.ref[p.EPPawn]
	}
	return q
}

func (g *xoGeo) canon(m xoMove) string {
	s := g.names[m.from] + "-" + g.names[m.to]
	if m.promo != 0 {
		s += "=" + string(m.promo)
	}
	return s
}

// free: a piece may stop on an empty cell unless the switch it belongs to
// already holds a piece (RULES §7: a switch holds at most one piece).
func (g *xoGeo) free(p *xoPos, c int) bool {
	return p.b[c] == 0 && (g.partner[c] < 0 || p.b[g.partner[c]] == 0)
}

func (g *xoGeo) addPawn(ms []xoMove, col, from, to int, epTaken int) []xoMove {
	if g.promo[col][to] {
		for _, k := range []byte("QRBN") {
			ms = append(ms, xoMove{from: from, to: to, promo: k, epTaken: epTaken, skip: -1})
		}
		return ms
	}
	return append(ms, xoMove{from: from, to: to, epTaken: epTaken, skip: -1})
}

// pseudo lists the moves of side col that ignore the own king's safety.
// Castling and en passant are left out when withSpecial is false (attack
// tests only need ordinary captures).
func (g *xoGeo) pseudo(p *xoPos, col int, withSpecial bool) []xoMove {
	var ms []xoMove
	enemy := func(c int) bool { return p.b[c] != 0 && xoColor(p.b[c]) != col }
	for c, pc := range p.b {
		if pc == 0 || xoColor(pc) != col {
			continue
		}
		switch xoKind(pc) {
		case 'K', 'N':
			tgts := g.king[c]
			if xoKind(pc) == 'N' {
				tgts = g.knight[c]
			}
			for _, t := range tgts {
				if enemy(t) || g.free(p, t) {
					ms = append(ms, xoMove{from: c, to: t, epTaken: -1, skip: -1})
				}
			}
		case 'R', 'B', 'Q':
			for _, path := range g.paths[xoKind(pc)][c] {
				for _, t := range path {
					if enemy(t) {
						ms = append(ms, xoMove{from: c, to: t, epTaken: -1, skip: -1})
						break
					}
					if !g.free(p, t) {
						break // own piece, or an occupied switch: no stop, no passage
					}
					ms = append(ms, xoMove{from: c, to: t, epTaken: -1, skip: -1})
				}
			}
		case 'P':
			for _, t := range g.push[col][c] {
				if g.free(p, t) {
					ms = g.addPawn(ms, col, c, t, -1)
				}
			}
			if g.starts[col][c] {
				for _, d := range g.double[col][c] {
					if g.free(p, d[0]) && g.free(p, d[1]) {
						ms = append(ms, xoMove{from: c, to: d[1], epTaken: -1, skip: d[0]})
					}
				}
			}
			for _, t := range g.capt[col][c] {
				if enemy(t) {
					ms = g.addPawn(ms, col, c, t, -1)
				}
			}
		}
	}
	if !withSpecial {
		return ms
	}
	// En passant, RULES §1: a pawn that is a king-step neighbour of c (the
	// double-stepped pawn) with a capture step onto b (the skipped cell).
	if p.epSkip >= 0 && p.b[p.epSkip] == 0 {
		for c, pc := range p.b {
			if pc != xoLetter(col, 'P') {
				continue
			}
			if !xoHas(g.king[p.epPawn], c) && !xoHas(g.king[c], p.epPawn) {
				continue
			}
			if xoHas(g.capt[col][c], p.epSkip) {
				ms = g.addPawn(ms, col, c, p.epSkip, p.epPawn)
			}
		}
	}
	for i := range g.castle {
		cd := &g.castle[i]
		if cd.col != col || p.castle&cd.right == 0 || p.b[cd.kingFrom] != xoLetter(col, 'K') || p.b[cd.rookFrom] != xoLetter(col, 'R') {
			continue
		}
		ok := true
		for _, c := range cd.between {
			ok = ok && p.b[c] == 0
		}
		for _, c := range cd.safe {
			ok = ok && !g.attacked(p, c, 1-col)
		}
		if ok {
			ms = append(ms, xoMove{from: cd.kingFrom, to: cd.kingTo, epTaken: -1, skip: -1, castle: cd})
		}
	}
	return ms
}

func xoHas(s []int, c int) bool {
	for _, x := range s {
		if x == c {
			return true
		}
	}
	return false
}

// attacked: side by has a capture move onto c (RULES §1), found by walking
// each attacker's own moves forward, never by looking back from c. An empty
// cell gets a stand-in piece of the other side so that "capture move" means
// something; the stand-in cannot change any line to c itself.
func (g *xoGeo) attacked(p *xoPos, c int, by int) bool {
	q := p
	if p.b[c] == 0 {
		q = p.clone()
		q.b[c] = xoLetter(1-by, 'P')
	}
	for o, pc := range q.b {
		if pc != 0 && xoColor(pc) == by && g.captures(q, o, c) {
			return true
		}
	}
	return false
}

// captures: the piece on o has a capture move onto c, which holds an enemy.
// The same walks as pseudo, for one destination.
func (g *xoGeo) captures(p *xoPos, o, c int) bool {
	pc := p.b[o]
	switch k := xoKind(pc); k {
	case 'K':
		return xoHas(g.king[o], c)
	case 'N':
		return xoHas(g.knight[o], c)
	case 'P':
		return xoHas(g.capt[xoColor(pc)][o], c)
	default:
		for _, path := range g.paths[k][o] {
			for _, t := range path {
				if t == c {
					return true
				}
				if !g.free(p, t) {
					break
				}
			}
		}
	}
	return false
}

func (p *xoPos) clone() *xoPos {
	q := *p
	q.b = append([]byte(nil), p.b...)
	return &q
}

func (p *xoPos) kingOf(col int) int {
	k := xoLetter(col, 'K')
	for c, pc := range p.b {
		if pc == k {
			return c
		}
	}
	return -1
}

// apply plays a move on a copy: the reference's own Make.
func (g *xoGeo) apply(p *xoPos, m xoMove) *xoPos {
	q := p.clone()
	pc := q.b[m.from]
	if cd := m.castle; cd != nil {
		q.b[cd.kingFrom], q.b[cd.rookFrom] = 0, 0
		q.b[cd.kingTo], q.b[cd.rookTo] = xoLetter(cd.col, 'K'), xoLetter(cd.col, 'R')
	} else {
		if m.epTaken >= 0 {
			q.b[m.epTaken] = 0
		}
		q.b[m.from] = 0
		if m.promo != 0 {
			pc = xoLetter(p.side, m.promo)
		}
		q.b[m.to] = pc
	}
	q.epSkip, q.epPawn = -1, -1
	if m.skip >= 0 {
		q.epSkip, q.epPawn = m.skip, m.to
	}
	// A castling right dies when its king or its rook leaves its cell or
	// something lands there.
	for _, cd := range g.castle {
		for _, c := range []int{m.from, m.to} {
			if c == cd.kingFrom || c == cd.rookFrom {
				q.castle &^= cd.right
			}
		}
	}
	q.side = 1 - p.side
	return q
}

// legal lists the moves that do not leave the mover's king attacked.
func (g *xoGeo) legal(p *xoPos) []xoMove {
	var out []xoMove
	for _, m := range g.pseudo(p, p.side, true) {
		q := g.apply(p, m)
		if k := q.kingOf(p.side); k >= 0 && g.attacked(q, k, 1-p.side) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// moves is the sorted, distinct canonical move list (RULES §1.2).
func (g *xoGeo) moves(p *xoPos) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range g.legal(p) {
		s := g.canon(m)
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// distinct keeps one move per canonical string (a rider reaching a cell
// along two lines makes one legal move).
func (g *xoGeo) distinct(ms []xoMove) []xoMove {
	seen := map[string]bool{}
	var out []xoMove
	for _, m := range ms {
		if s := g.canon(m); !seen[s] {
			seen[s] = true
			out = append(out, m)
		}
	}
	return out
}

func (g *xoGeo) perft(p *xoPos, depth int) uint64 {
	ms := g.distinct(g.legal(p))
	if depth == 1 {
		return uint64(len(ms))
	}
	var n uint64
	for _, m := range ms {
		n += g.perft(g.apply(p, m), depth-1)
	}
	return n
}

// diffBoards describes where an engine position differs from a reference
// one ("" when they agree on pieces, side, castling and en passant).
func (g *xoGeo) diffBoards(p *Position, q *xoPos) string {
	r := g.read(p)
	var d []string
	for c := range q.b {
		if r.b[c] != q.b[c] {
			d = append(d, fmt.Sprintf("%s: engine %q, rule book %q", g.names[c], r.b[c], q.b[c]))
		}
	}
	if r.side != q.side {
		d = append(d, "side to move")
	}
	if r.castle != q.castle {
		d = append(d, fmt.Sprintf("castling: engine %04b, rule book %04b", r.castle, q.castle))
	}
	if r.epSkip != q.epSkip || r.epPawn != q.epPawn {
		d = append(d, fmt.Sprintf("en passant: engine %d/%d, rule book %d/%d", r.epSkip, r.epPawn, q.epSkip, q.epPawn))
	}
	return strings.Join(d, "; ")
}

// xoDiff lists the moves only one side has.
func xoDiff(engine, ref []string) (onlyEngine, onlyRef []string) {
	in := func(s []string) map[string]bool {
		m := map[string]bool{}
		for _, x := range s {
			m[x] = true
		}
		return m
	}
	e, r := in(engine), in(ref)
	for _, x := range engine {
		if !r[x] {
			onlyEngine = append(onlyEngine, x)
		}
	}
	for _, x := range ref {
		if !e[x] {
			onlyRef = append(onlyRef, x)
		}
	}
	return
}
