package engine

import (
	"fmt"
	"math/bits"
	"strings"
)

// Observation tells what becomes of an intended ordinary move in
// Heisenberg chess, so that a refused move can be explained.
type Observation struct {
	Piece    Piece
	From, To int
	// Observed: a cell of the move's path is watched, so the move is not
	// playable as it is and Speed and Position list the choices.
	Observed bool
	// S is the first watched cell of the path (-1 when not observed), N
	// its number of watchers and Observers their cells.
	S, N      int
	Observers []int
	// SpeedKind is the piece the mover continues as from S, NoKind when no
	// change of speed is offered (a pawn, or S occupied).
	SpeedKind Kind
	// Speed and Position are the legal moves of each choice; a destination
	// reachable both ways is listed in both.
	Speed, Position []Move
}

// Explain says whether the ordinary (FIDE) move from→to of the side to move
// is observed and, if so, where, by whom, and which legal moves replace it.
// It fails when from→to is not an ordinary move of the piece on from.
func (p *Position) Explain(from, to int) (Observation, error) {
	if !p.V.Observation || p.g.N > 64 {
		return Observation{}, fmt.Errorf("%s has no observation", p.V.Name)
	}
	if from < 0 || from >= p.g.N || to < 0 || to >= p.g.N {
		return Observation{}, fmt.Errorf("no such cell")
	}
	pc := p.Board[from]
	if pc == 0 || pc.Color() != p.Side {
		return Observation{}, fmt.Errorf("there is no %s piece on %s", p.Side, p.g.Name(from))
	}
	ob := Observation{Piece: pc, From: from, To: to, S: -1}
	o := int16(from)
	var fideMoves []Move
	var sOf [64]int16
	var w watch
	p.observe(&w)
	if pc.Kind() == King {
		fideMoves = p.genPieceFIDE(nil, o)
		for _, m := range p.genCastling(nil) {
			if m.From == o {
				fideMoves = append(fideMoves, m)
			}
		}
	} else {
		fideMoves = p.watchedFIDE(nil, o, &w, &sOf)
	}
	var fide uint64
	found := -1
	for i, m := range fideMoves {
		fide |= cellBit(m.To)
		if int(m.To) == to && found < 0 {
			found = i
		}
	}
	if found < 0 {
		return Observation{}, fmt.Errorf("%s-%s is not a move of the %s on %s", p.g.Name(from), p.g.Name(to), pc.Kind().Name(), p.g.Name(from))
	}
	if pc.Kind() == King || sOf[found] < 0 {
		return ob, nil
	}
	s := sOf[found]
	ob.Observed, ob.S, ob.N = true, int(s), w.count(s)
	ob.Observers = p.observersOf(int(s))
	if p.Board[s] == 0 {
		ob.SpeedKind = speedKind(pc.Kind())
	}
	var done uint64
	ob.Speed = p.keepLegalAll(p.speedChange(nil, o, s, &w, &done))
	done = 0
	ob.Position = p.keepLegalAll(p.positionChange(nil, o, s, ob.N, fide, &w, &done))
	return ob, nil
}

func (p *Position) keepLegalAll(ms []Move) []Move {
	out := ms[:0]
	for _, m := range ms {
		if p.legal(m) {
			out = append(out, m)
		}
	}
	return out
}

// observersOf lists the cells of the pieces of the side not to move whose
// capture range holds c.
func (p *Position) observersOf(c int) []int {
	var out []int
	for o, pc := range p.Board {
		if pc != 0 && pc.Color() != p.Side && p.captureRange(o)&(1<<uint(c)) != 0 {
			out = append(out, o)
		}
	}
	return out
}

// Observers gives, for every cell, the cells of the enemy pieces (of the
// side not to move) that watch it in Heisenberg chess; nil on boards of
// more than 64 cells.
func (p *Position) Observers() [][]int {
	if p.g.N > 64 {
		return nil
	}
	out := make([][]int, p.g.N)
	for o, pc := range p.Board {
		if pc == 0 || pc.Color() == p.Side {
			continue
		}
		for r := p.captureRange(o); r != 0; r &= r - 1 {
			c := bits.TrailingZeros64(r)
			out[c] = append(out[c], o)
		}
	}
	return out
}

// Describe words an observation for the player who intended the move, e.g.
// "your rook is seen on c4 by the knight on a5 and the bishop on f7:
// continue as a bishop to b5, a6, …, xf7, or reappear on a2, …".
func (ob Observation) Describe(p *Position) string {
	g := p.g
	name := ob.Piece.Kind().Name()
	if !ob.Observed {
		return fmt.Sprintf("your %s is not observed on %s-%s", name, g.Name(ob.From), g.Name(ob.To))
	}
	var by []string
	for _, c := range ob.Observers {
		by = append(by, "the "+p.Board[c].Kind().Name()+" on "+g.Name(c))
	}
	s := fmt.Sprintf("your %s is seen on %s by %s", name, g.Name(ob.S), joinAnd(by))
	dests := func(ms []Move) string {
		var out []string
		for _, m := range ms {
			t := g.Name(int(m.To))
			if m.Flags&FlagCapture != 0 {
				t = "x" + t
			}
			if m.Promo != NoKind {
				if m.Promo != Queen {
					continue // one entry per cell is enough in prose
				}
				t += "=Q/R/B/N"
			}
			out = append(out, t)
		}
		return strings.Join(out, ", ")
	}
	var choices []string
	if len(ob.Speed) > 0 {
		choices = append(choices, "continue as a "+ob.SpeedKind.Name()+" to "+dests(ob.Speed))
	}
	if len(ob.Position) > 0 {
		choices = append(choices, fmt.Sprintf("reappear at distance %d from %s on %s", ob.N, g.Name(ob.S), dests(ob.Position)))
	}
	if len(choices) == 0 {
		return s + ", and it has no legal way to continue"
	}
	return s + ": " + strings.Join(choices, ", or ")
}

func joinAnd(xs []string) string {
	switch len(xs) {
	case 0:
		return "nobody"
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}
