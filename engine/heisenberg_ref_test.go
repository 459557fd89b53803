package engine

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// A slow, literal reading of RULES §5 on x/y coordinates, sharing nothing
// with the generator but Make, Attacked and castling (FIDE core, checked by
// the standard perft suite). The engine must agree with it everywhere.

var (
	refOrtho  = [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	refDiag   = [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	refAll    = append(append([][2]int{}, refOrtho...), refDiag...)
	refKnight = [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
)

func refCell(x, y int) int {
	if x < 0 || x > 7 || y < 0 || y > 7 {
		return -1
	}
	return y*8 + x
}

func refDirs(k Kind) [][2]int {
	switch k {
	case Rook:
		return refOrtho
	case Bishop:
		return refDiag
	}
	return refAll
}

func refForward(c Color) int {
	if c == White {
		return 1
	}
	return -1
}

// refRange: the cells the piece of colour col and kind k on o could capture
// on, given the board b.
func refRange(b []Piece, o int, k Kind, col Color) []int {
	x, y := o%8, o/8
	var out []int
	add := func(c int) {
		if c >= 0 {
			out = append(out, c)
		}
	}
	switch k {
	case Pawn:
		add(refCell(x-1, y+refForward(col)))
		add(refCell(x+1, y+refForward(col)))
	case Knight:
		for _, d := range refKnight {
			add(refCell(x+d[0], y+d[1]))
		}
	case King:
		for _, d := range refAll {
			add(refCell(x+d[0], y+d[1]))
		}
	default:
		for _, d := range refDirs(k) {
			for i := 1; ; i++ {
				c := refCell(x+i*d[0], y+i*d[1])
				if c < 0 {
					break
				}
				out = append(out, c)
				if b[c] != 0 {
					break
				}
			}
		}
	}
	return out
}

func refObservers(p *Position, c int) int {
	n := 0
	for o, pc := range p.Board {
		if pc != 0 && pc.Color() != p.Side && slices.Contains(refRange(p.Board, o, pc.Kind(), pc.Color()), c) {
			n++
		}
	}
	return n
}

type refFide struct {
	m    Move
	path []int
}

// refFIDEMoves: the FIDE moves of the non-king piece on o, with paths.
func refFIDEMoves(p *Position, o int) []refFide {
	b := p.Board
	pc := b[o]
	us := pc.Color()
	x, y := o%8, o/8
	var out []refFide
	mv := func(t int, fl uint8, path ...int) {
		if b[t] != 0 {
			fl |= FlagCapture
		}
		out = append(out, refFide{Move{From: int16(o), To: int16(t), Flags: fl, Mid: -1}, path})
	}
	enemy := func(c int) bool { return c >= 0 && b[c] != 0 && b[c].Color() != us }
	switch pc.Kind() {
	case Pawn:
		f := refForward(us)
		if t := refCell(x, y+f); t >= 0 && b[t] == 0 {
			mv(t, 0, t)
			home := 1
			if us == Black {
				home = 6
			}
			if t2 := refCell(x, y+2*f); y == home && b[t2] == 0 {
				out = append(out, refFide{Move{From: int16(o), To: int16(t2), Flags: FlagDouble, Mid: int16(t)}, []int{t, t2}})
			}
		}
		for _, dx := range []int{-1, 1} {
			t := refCell(x+dx, y+f)
			if enemy(t) {
				mv(t, 0, t)
			}
			if t >= 0 && int(p.EPSkip) == t && b[t] == 0 && int(p.EPPawn) == refCell(x+dx, y) {
				mv(t, FlagEnPassant|FlagCapture, t)
			}
		}
	case Knight:
		for _, d := range refKnight {
			t := refCell(x+d[0], y+d[1])
			if t < 0 || (b[t] != 0 && !enemy(t)) {
				continue
			}
			fx, fy := x, y
			if d[0] == 2 || d[0] == -2 {
				fx += d[0] / 2
			} else {
				fy += d[1] / 2
			}
			mv(t, 0, refCell(fx, fy))
		}
	default:
		for _, d := range refDirs(pc.Kind()) {
			var path []int
			for i := 1; ; i++ {
				t := refCell(x+i*d[0], y+i*d[1])
				if t < 0 || (b[t] != 0 && !enemy(t)) {
					break
				}
				path = append(path, t)
				mv(t, 0, slices.Clone(path)...)
				if b[t] != 0 {
					break
				}
			}
		}
	}
	return out
}

// refContinue: destinations of a piece of colour us continuing from s as
// kind k with the origin o empty (never o, never a king, never own).
func refContinue(p *Position, o, s int, k Kind, us Color) []int {
	b := slices.Clone(p.Board)
	b[o] = 0
	ok := func(t int) bool { return t >= 0 && t != o && (b[t] == 0 || b[t].Color() != us && b[t].Kind() != King) }
	var out []int
	x, y := s%8, s/8
	switch k {
	case Pawn:
		if t := refCell(x, y+refForward(us)); t >= 0 && b[t] == 0 && ok(t) {
			out = append(out, t)
		}
		for _, dx := range []int{-1, 1} {
			if t := refCell(x+dx, y+refForward(us)); t >= 0 && b[t] != 0 && ok(t) {
				out = append(out, t)
			}
		}
	case Knight:
		for _, d := range refKnight {
			if t := refCell(x+d[0], y+d[1]); ok(t) {
				out = append(out, t)
			}
		}
	default:
		for _, d := range refDirs(k) {
			for i := 1; ; i++ {
				t := refCell(x+i*d[0], y+i*d[1])
				if t < 0 {
					break
				}
				if ok(t) {
					out = append(out, t)
				}
				if b[t] != 0 {
					break
				}
			}
		}
	}
	return out
}

func refLegal(p *Position) []string {
	us := p.Side
	var cands []Move
	push := func(o, t int, fl uint8) {
		pc := p.Board[o]
		if p.Board[t] != 0 {
			fl |= FlagCapture
		}
		if pc.Kind() == Pawn && (t/8 == 7 && us == White || t/8 == 0 && us == Black) {
			for _, k := range []Kind{Queen, Rook, Bishop, Knight} {
				cands = append(cands, Move{From: int16(o), To: int16(t), Promo: k, Flags: fl, Mid: -1})
			}
			return
		}
		cands = append(cands, Move{From: int16(o), To: int16(t), Flags: fl, Mid: -1})
	}
	next := map[Kind]Kind{Queen: Rook, Rook: Bishop, Bishop: Knight, Knight: Pawn}
	for o, pc := range p.Board {
		if pc == 0 || pc.Color() != us {
			continue
		}
		if pc.Kind() == King {
			for _, t := range refRange(p.Board, o, King, us) {
				if p.Board[t] == 0 || p.Board[t].Color() != us {
					push(o, t, 0)
				}
			}
			continue
		}
		fide := refFIDEMoves(p, o)
		for _, f := range fide {
			s := -1
			for _, c := range f.path {
				if refObservers(p, c) > 0 {
					s = c
					break
				}
			}
			if s < 0 {
				if f.m.Flags&(FlagDouble|FlagEnPassant) != 0 {
					cands = append(cands, f.m)
				} else {
					push(o, int(f.m.To), 0)
				}
				continue
			}
			if nk, ok := next[pc.Kind()]; ok && p.Board[s] == 0 {
				for _, t := range refContinue(p, o, s, nk, us) {
					if t != s {
						cands = append(cands, Move{From: int16(o), To: int16(t), Mid: -1, Flags: map[bool]uint8{true: FlagCapture}[p.Board[t] != 0]})
					}
				}
			}
			n := refObservers(p, s)
			for t := 0; t < 64; t++ {
				dx, dy := t%8-s%8, t/8-s/8
				if max(dx, -dx, dy, -dy) != n || t == o || slices.ContainsFunc(fide, func(f refFide) bool { return int(f.m.To) == t }) {
					continue
				}
				if x := p.Board[t]; x == 0 || x.Color() != us && x.Kind() != King {
					push(o, t, 0)
				}
			}
		}
	}
	cands = p.genCastling(cands)
	seen := map[string]bool{}
	var out []string
	for _, m := range cands {
		s := p.Canonical(m)
		if seen[s] {
			continue
		}
		u := p.Make(m)
		ok := !p.Attacked(int(p.King[us]), us.Other())
		p.Unmake(m, u)
		if ok {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

func TestHeisenbergAgreesWithReference(t *testing.T) {
	starts := []string{
		"",
		"w Rc3,Be3,Kh1,na5,pe7,bf7,kh8 - - 0 1",
		"w Nc3,Ra4,Be4,Kh1,na5,bf7,kh8 - - 0 1",
		// Promotions, captures on the last ranks, both sides.
		"w Ke1,Qd1,Pb7,Pg7,Pc2,Pd4,ra8,nh8,ke8,pb2,pe3,pc5,Nf3,bb4 - - 0 1",
		// En-passant rights set by hand (an adjacent enemy pawn always
		// watches the skipped cell, so they never arise in play).
		"b Pe4,Kf2,pd4,pf4,kh8,Rb1,ra8 - e3 0 1",
		"w Ke1,Pe5,pd5,Ra1,Rh1,ke8,ra8,rh8,qc6 KQkq d6 0 1",
		"rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
	}
	plies := 60
	if testing.Short() || raceEnabled {
		plies = 20
	}
	rng := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for _, st := range starts {
		for game := 0; game < 6; game++ {
			v := MustVariant("heisenberg")
			p := v.StartPosition()
			if st != "" {
				var err error
				if p, err = v.ParsePosition(st); err != nil {
					t.Fatal(err)
				}
			}
			for ply := 0; ply < plies; ply++ {
				want := refLegal(p)
				got := p.CanonicalMoves()
				checked++
				if !slices.Equal(got, want) {
					t.Fatalf("%s:\nengine    %v\nreference %v", p, got, want)
				}
				ms := p.LegalMoves()
				if len(ms) == 0 || p.King[0] < 0 || p.King[1] < 0 {
					break
				}
				p.Make(ms[rng.IntN(len(ms))])
				if p.Hash != p.computeHash() {
					t.Fatalf("hash drift at %s", p)
				}
			}
		}
	}
	t.Logf("%d positions compared", checked)
}
