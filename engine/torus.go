package engine

import (
	"fmt"
	"strings"
)

// The 8×14 boards of RULES §4: one grid, three ways of gluing its edges.

func init() {
	register("toroidal", func() *Variant { return newTorusFamily(glueTorus) })
	register("cylindrical", func() *Variant { return newTorusFamily(glueCylinder) })
	register("klein", func() *Variant { return newTorusFamily(glueKlein) })
}

type gluing int

const (
	glueTorus    gluing = iota // both pairs of edges glued straight
	glueCylinder               // ranks wrap, files a and h are edges
	glueKlein                  // as the torus, with a mirrored seam between ranks 11 and 12
)

const (
	torusW = 8
	torusH = 14
	// kleinSeamY is the row of rank 11: a step between it and the row
	// above crosses the Klein seam.
	kleinSeamY = 10
)

// mirrorDir flips the horizontal component of a direction, as crossing
// the Klein seam does to the direction a ray continues in.
var mirrorDir = [8]int{DirN, DirNW, DirW, DirSW, DirS, DirSE, DirE, DirNE}

// torusStep is the step function of one gluing (RULES §4, Steps).
func torusStep(gl gluing) StepFunc {
	return func(c, d int) []Arrival {
		x, y := c%torusW, c/torusW
		dx, dy := DirVec[d][0], DirVec[d][1]
		nx := x + dx
		if gl == glueCylinder {
			if nx < 0 || nx >= torusW {
				return nil
			}
		} else {
			nx = (nx + torusW) % torusW
		}
		ny := (y + dy + torusH) % torusH
		nd := d
		if gl == glueKlein && ((y == kleinSeamY && dy == 1) || (y == kleinSeamY+1 && dy == -1)) {
			nx = torusW - 1 - nx
			nd = mirrorDir[d]
		}
		return []Arrival{{ny*torusW + nx, nd}}
	}
}

// torusPawns: direction is the pawn's own for life ('+' up, '-' down);
// colour alone decides the promotion rank (White 8, Black 1), and each of
// the four starting ranks is a double-step rank for the pawns that start
// there.
var torusPawns = pawnRule{
	forward:  upDownForward,
	captures: upDownCaptures,
	double: func(c Color, dir int, cell int) bool {
		y := cell / torusW
		switch {
		case c == White && dir == 0:
			return y == 1 // rank 2
		case c == White:
			return y == 13 // rank 14
		case dir == 1:
			return y == 6 // rank 7
		default:
			return y == 8 // rank 9
		}
	},
	promotion: func(c Color, dir int, cell int) bool {
		if c == White {
			return cell/torusW == 7
		}
		return cell/torusW == 0
	},
}

// torusStart is the start of RULES §4: the orthodox back ranks on 1 and 8,
// and four pawn rows, two per side, facing each other across the wrap.
func torusStart() string {
	var toks []string
	for i, k := range "RNBQKBNR" {
		f := 'a' + i
		toks = append(toks,
			fmt.Sprintf("%c%c1", k, f),
			fmt.Sprintf("P+%c2", f),
			fmt.Sprintf("P-%c14", f),
			fmt.Sprintf("%c%c8", k|0x20, f),
			fmt.Sprintf("p-%c7", f),
			fmt.Sprintf("p+%c9", f))
	}
	return "w " + strings.Join(toks, ",") + " KQkq - 0 1"
}

// kleinGap is the room the Klein bottle's picture leaves at its mirrored
// seam, for the letters of the files met across it.
const kleinGap = 0.75

// torusLayout draws the 8×14 grid with coordinates and glue marks on the
// joined edges. The Klein bottle's grid opens at the mirrored seam, and in
// the opening each column names the file it meets on the other side
// (h g f … a), so a reader sees where a piece crossing there arrives.
func torusLayout(gl gluing) *Layout {
	gap := 0.0
	if gl == glueKlein {
		gap = kleinGap
	}
	rowY := func(y int) float64 {
		if y > kleinSeamY {
			return float64(y) + gap
		}
		return float64(y)
	}
	w, h := float64(torusW), float64(torusH)+gap
	l := &Layout{MinX: 0, MinY: 0, MaxX: w, MaxY: h}
	for y := 0; y < torusH; y++ {
		for x := 0; x < torusW; x++ {
			fx, fy := float64(x), rowY(y)
			l.Shapes = append(l.Shapes, CellShape{
				Cell: y*torusW + x,
				Poly: []Point{{fx, fy}, {fx + 1, fy}, {fx + 1, fy + 1}, {fx, fy + 1}},
				Dark: (x+y)%2 == 0,
			})
		}
	}
	for x := 0; x < torusW; x++ {
		l.Labels = append(l.Labels, Label{At: Point{float64(x) + 0.5, -0.3}, Text: string(rune('a' + x))})
	}
	for y := 0; y < torusH; y++ {
		l.Labels = append(l.Labels, Label{At: Point{-0.3, rowY(y) + 0.5}, Text: fmt.Sprint(y + 1)})
	}
	l.Marks = append(l.Marks,
		Mark{From: Point{0, h}, To: Point{w, h}, Kind: "glue", Text: "↕ rank 1"},
		Mark{From: Point{0, 0}, To: Point{w, 0}, Kind: "glue", Text: "↕ rank 14"})
	if gl != glueCylinder {
		l.Marks = append(l.Marks,
			Mark{From: Point{0, 0}, To: Point{0, h}, Kind: "glue", Text: "↔ file h"},
			Mark{From: Point{w, 0}, To: Point{w, h}, Kind: "glue", Text: "↔ file a"})
	}
	if gl == glueKlein {
		lo := float64(kleinSeamY + 1)
		seam := lo + gap/2
		l.Marks = append(l.Marks,
			Mark{From: Point{0, lo}, To: Point{w, lo}, Kind: "seam"},
			Mark{From: Point{0, lo + gap}, To: Point{w, lo + gap}, Kind: "seam"})
		// Across the seam file x meets file 7−x.
		for x := 0; x < torusW; x++ {
			other := string(rune('a' + torusW - 1 - x))
			l.Labels = append(l.Labels, Label{At: Point{float64(x) + 0.5, seam}, Text: other, Small: true})
		}
	}
	return l
}

func newTorusGeometry(gl gluing) *Geometry {
	g := newGeometry(gridNames(torusW, torusH))
	step := torusStep(gl)
	g.buildFromSteps(step)
	g.buildPawns(step, torusPawns)
	// A rook sees its whole rank both ways round; one destination, one move.
	g.MayDup = true
	g.PawnDirs = true
	g.Layout = torusLayout(gl)
	g.finish()
	return g
}

func newTorusFamily(gl gluing) *Variant {
	g := newTorusGeometry(gl)
	v := &Variant{
		Geo:      g,
		Start:    torusStart(),
		Castling: orthodoxCastling(g),
	}
	switch gl {
	case glueTorus:
		v.ID, v.Name = "toroidal", "Toroidal chess"
		v.Short = "8×14 torus: top meets bottom and left meets right."
		v.Rules = torusRules("Toroidal chess: an 8×14 board whose edges are glued both ways, like a doughnut.\n"+
			"• Rank 14 continues on rank 1 and file h continues on file a. Pieces move straight across the glued edges; there is no edge and no centre. A bishop on an empty board sees every cell of its colour: half the board.", true)
	case glueCylinder:
		v.ID, v.Name = "cylindrical", "Cylindrical chess"
		v.Short = "8×14 cylinder: top meets bottom, files a and h are edges."
		v.Rules = torusRules("Cylindrical chess: an 8×14 board rolled into a tube.\n"+
			"• Rank 14 continues on rank 1; files a and h are ordinary edges.", false)
	case glueKlein:
		v.ID, v.Name = "klein", "Klein-bottle chess"
		v.Short = "8×14 Klein bottle: a torus with a mirrored seam between ranks 11 and 12."
		v.Rules = torusRules("Klein-bottle chess: the 8×14 torus with a twist.\n"+
			"• Rank 14 continues on rank 1 and file h on file a, as on the torus.\n"+
			"• The seam between ranks 11 and 12 is mirrored: a11 touches h12, b11 touches g12, and so on. A piece crossing it lands on the mirrored file and its left and right swap: a bishop going up-right from a11 lands on g12 and carries on up-left, and a rook going up the d-file carries on up the e-file. Pawns keep going the same way.\n"+
			"• The colours do not alternate across the seam (a11 and h12 are both dark), so a bishop that crosses it changes colour.", true)
	}
	return v
}

// torusRules appends what the three gluings share to the board paragraph.
func torusRules(board string, filesWrap bool) string {
	castle := "• Castling is on ranks 1 and 8 as usual: the cells between king and rook must be empty, and the king may not castle out of, through or into check."
	if filesWrap {
		castle = "• Castling is on ranks 1 and 8 as usual: the cells between king and rook are those along the row as drawn, never round the edge. The king may not castle out of, through or into check — nor if the rook leaving its corner opens a line to the king round the edge."
	}
	return board + "\n" +
		"• Rooks, bishops and queens go at most once round: a line stops before it would cross a cell it has already passed (its own cell included).\n" +
		"• Start: the usual back ranks on 1 (White) and 8 (Black). White has pawns on rank 2 moving up (+) and on rank 14 moving down (−); Black has pawns on rank 7 moving down (−) and on rank 9 moving up (+) through rank 14 to rank 1.\n" +
		"• A pawn keeps its direction for life. White promotes on rank 8 and Black on rank 1, whichever way the pawn travels (to queen, rook, bishop or knight). Double steps from the starting ranks (White 2 and 14, Black 7 and 9; so 1. e2-e4 e9-e11 is a fine start), and en passant in both directions.\n" +
		castle + "\n" +
		"• White moves first; checkmate wins, stalemate is a draw. Draws are automatic on threefold repetition, after 100 half-moves without a capture or pawn move, and when only the two kings remain. You can always resign or agree a draw.\n" +
		"• Type moves as e2-e4 (or e2e4), promotions as e7-e8=Q, castling as the king's move e1-g1. Positions write pawn directions: P+e2, p-e7."
}
