package engine

import "fmt"

// Möbius chess (RULES §3): an 8×8 board drawn on both sides of a strip of
// paper that is twisted once and glued. Unrolled, the strip is a 16×8
// cylinder: columns 0–7 are the front (a1…h8), columns 8–15 the back
// (primed names, ranks counted from the other edge).

func init() {
	register("moebius", func() *Variant { return newMoebius("moebius", MateRuleMoebius) })
	register("moebius-nierse", func() *Variant { return newMoebius("moebius-nierse", MateRuleNierse) })
}

const (
	moebiusW = 16
	moebiusH = 8
)

// moebiusCell is the index of (x, y), row by row.
func moebiusCell(x, y int) int { return y*moebiusW + x }

// moebiusName names (x, y) as RULES §3 does: a1…h8 on the front, and on the
// back the file with a prime and rank 8−y, so that a cell and its twin
// share a name up to the prime.
func moebiusName(x, y int) string {
	if x < 8 {
		return fmt.Sprintf("%c%d", 'a'+x, y+1)
	}
	return fmt.Sprintf("%c%d'", 'a'+x-8, 8-y)
}

// moebiusStep wraps files (the glued ends) and stops at the top and bottom
// rows, the two edges of the strip.
func moebiusStep(c, d int) []Arrival {
	x, y := c%moebiusW+DirVec[d][0], c/moebiusW+DirVec[d][1]
	if y < 0 || y >= moebiusH {
		return nil
	}
	x = (x + moebiusW) % moebiusW
	return []Arrival{{moebiusCell(x, y), d}}
}

func newMoebiusGeometry() *Geometry {
	names := make([]string, moebiusW*moebiusH)
	for y := 0; y < moebiusH; y++ {
		for x := 0; x < moebiusW; x++ {
			names[moebiusCell(x, y)] = moebiusName(x, y)
		}
	}
	// Cell() folds ’ ′ ` and a trailing p to "'", so the canonical names
	// are the only aliases needed.
	g := newGeometry(names)
	g.buildFromSteps(moebiusStep)
	g.buildPawns(moebiusStep, moebiusPawns)
	g.Twin = make([]int16, g.N)
	for y := 0; y < moebiusH; y++ {
		for x := 0; x < moebiusW; x++ {
			g.Twin[moebiusCell(x, y)] = int16(moebiusCell((x+8)%moebiusW, moebiusH-1-y))
		}
	}
	// A rook on an open row reaches every cell of it both ways round.
	g.MayDup = true
	g.PawnDirs = true
	g.Layout = moebiusLayout()
	g.finish()
	return g
}

// moebiusPawns goes by a pawn's direction, never its colour: a phased pawn
// keeps running the way it faces. '+' pawns head for row 7, double-step
// from row 1 and promote on row 7; '-' pawns mirror that.
var moebiusPawns = pawnRule{
	forward:  upDownForward,
	captures: upDownCaptures,
	double: func(_ Color, dir int, cell int) bool {
		return cell/moebiusW == [2]int{1, moebiusH - 2}[dir]
	},
	promotion: func(_ Color, dir int, cell int) bool {
		return cell/moebiusW == [2]int{moebiusH - 1, 0}[dir]
	},
}

// moebiusGap is the room between the two halves of the folded strip, for
// the front half's file letters.
const moebiusGap = 0.75

// moebiusLayout draws the strip folded in two, the way a phone shows it
// best: the front half (a1…h8) above the back half (a1'…h8'), each drawn
// with its own names in the usual order, so a cell's twin (a5 ↔ a5')
// stands at the same place in the other half. The back half is tinted.
// Where the strip's ends are glued the rows meet reversed: the front's
// right edge runs on into the back's left edge (h1 beside a8'), the back's
// right edge into the front's left edge (h1' beside a8). The glue marks
// come in colour pairs with arrows that run the same way, and right of
// every row a label names the cell it runs on into ("↔a8'").
func moebiusLayout() *Layout {
	const top = moebiusH + moebiusGap // the front half's lowest edge
	l := &Layout{MinX: 0, MinY: 0, MaxX: 8, MaxY: top + moebiusH}
	for y := 0; y < moebiusH; y++ {
		for x := 0; x < moebiusW; x++ {
			c := moebiusCell(x, y)
			fx, fy, back := float64(x), top+float64(y), x >= 8
			if back {
				// Back cell (x, y) is named file x−8, rank 8−y.
				fx, fy = float64(x-8), float64(moebiusH-1-y)
			}
			l.Shapes = append(l.Shapes, CellShape{
				Cell: c,
				Poly: []Point{{fx, fy}, {fx + 1, fy}, {fx + 1, fy + 1}, {fx, fy + 1}},
				// One checkerboard over the strip: a1 dark, and twins
				// (x+8, 7−y) alike, so bishops keep their colour.
				Dark: (x+y)%2 == 0,
				Tint: back,
				// '+' pawns head for the strip's row 7: up on the front,
				// down on the back as drawn.
				Down: back,
			})
		}
	}
	for x := 0; x < 8; x++ {
		f := string(rune('a' + x))
		l.Labels = append(l.Labels,
			Label{At: Point{float64(x) + 0.5, top - 0.3}, Text: f},
			Label{At: Point{float64(x) + 0.5, -0.3}, Text: f + "'"})
	}
	for r := 1; r <= 8; r++ {
		l.Labels = append(l.Labels,
			Label{At: Point{-0.3, top + float64(r) - 0.5}, Text: fmt.Sprint(r)},
			Label{At: Point{-0.3, float64(r) - 0.5}, Text: fmt.Sprintf("%d'", r)})
	}
	// Right of each row, the cell the row runs on into past the h-file.
	for r := 1; r <= 8; r++ {
		l.Labels = append(l.Labels,
			Label{At: Point{8.3, top + float64(r) - 0.5}, Text: fmt.Sprintf("↔a%d'", 9-r)},
			Label{At: Point{8.3, float64(r) - 0.5}, Text: fmt.Sprintf("↔a%d", 9-r)})
	}
	l.Marks = append(l.Marks,
		Mark{From: Point{8, top}, To: Point{8, top + 8}, Kind: "glue"},
		Mark{From: Point{0, 8}, To: Point{0, 0}, Kind: "glue"},
		Mark{From: Point{8, 0}, To: Point{8, 8}, Kind: "glue"},
		Mark{From: Point{0, top + 8}, To: Point{0, top}, Kind: "glue"})
	return l
}

const moebiusRulesCommon = "• The board is a Möbius strip: an 8×8 board drawn on both sides of a twisted, glued strip of paper, drawn folded: the front half (a1…h8) above the back half (a1'…h8'), so a cell's twin stands at the same place in the other half. The ends of the strip are glued with a twist: h1 continues on a8', h8 on a1', and h1' on a8. The top and bottom rows are edges.\n" +
	"• Pieces move as usual and may run round the strip: a rook on an open row reaches every cell of it, a knight can jump across the glued ends.\n" +
	"• Phasing: any piece, king and pawns included, may instead move straight through the paper to its twin cell — the same name with or without the prime (a5 ↔ a5') — if that cell is empty or holds an enemy piece, which it captures. So every piece attacks its twin cell, and a king can be in check from its twin.\n" +
	"• A pawn that phases reverses its direction on the picture (it keeps its heading on the paper). Pawns moving up promote on the top row and double-step from the second row; pawns moving down promote on the bottom row and double-step from the seventh. En passant works as usual, also across the glued ends.\n"

const moebiusRulesEnd = "• Start: the usual position on the unprimed half; castling as usual along rank 1 and rank 8 (never round the glued ends).\n" +
	"• Checkmate wins, stalemate is a draw. Draws are automatic on threefold repetition, after 100 half-moves without a capture or pawn move, and when only the two kings remain. You can always resign or agree a draw.\n" +
	"• Type moves as e2-e4, Nf3, O-O or a1-f8' (a prime may also be typed ’, ′ or p: a1-f8p)."

func newMoebius(id string, rule int) *Variant {
	g := newMoebiusGeometry()
	v := &Variant{
		ID:       id,
		Geo:      g,
		Start:    orthodoxStart,
		Castling: orthodoxCastling(g),
		MateRule: rule,
	}
	switch rule {
	case MateRuleNierse:
		v.Name = "Möbius chess (Nierse's rule)"
		v.Short = "Möbius chess where no piece may ever move onto the twin of the enemy king's cell."
		v.Rules = "Möbius chess with Rob Nierse's rule.\n" + moebiusRulesCommon +
			"• Nierse's rule: you may never move a piece onto the twin of the enemy king's cell (no check by phasing at all, mate or not). With castling this counts for the king and the rook.\n" +
			moebiusRulesEnd
	default:
		v.Name = "Möbius chess"
		v.Short = "Chess on a Möbius strip: a 16×8 board, two sides of one paper, pieces can phase through it."
		v.Rules = "Möbius chess (Menno Dekker's rules).\n" + moebiusRulesCommon +
			"• Mate rule: a move is illegal if it checkmates and the piece that moved (after promotion the new piece; when castling the king or the rook) stands on the twin of the enemy king's cell. Check by phasing is allowed; checkmate by a piece on the king's twin is not. So 1. a1-e8' is illegal: it would mate.\n" +
			moebiusRulesEnd
	}
	return v
}

// canEscapeTwinCheck reports whether the side to move, whose king is
// attacked from its twin cell, has a legal move. It is the checkmate test
// of the inventor's rule (RULES §3), which does not apply the mate rule
// again, and it runs for every candidate move onto the enemy king's twin,
// so it stops at the first escape and allocates nothing.
//
// A check through the paper cannot be blocked: with the king staying put,
// only a capture of the piece on the twin can help (a normal capture there,
// or en passant when that piece is the pawn that just double-stepped).
// Castling is never a way out of check.
func (p *Position) canEscapeTwinCheck() bool {
	us := p.Side
	k := p.King[us]
	tw := p.g.Twin[k]
	var buf [64]Move
	ms := p.genPieceFIDE(buf[:0], k)
	if x := p.Board[tw]; x == 0 || x.Color() != us {
		ms = append(ms, Move{From: k, To: tw, Flags: FlagPhase | FlagCapture, Mid: -1})
	}
	if p.EPPawn == tw {
		ms = p.genEnPassant(ms)
	}
	if p.anyLegal(ms) {
		return true
	}
	// The king is never beside its own twin, so what is left are captures
	// on tw by the other pieces.
	return p.anyLegal(p.appendCapturesOn(buf[:0], tw))
}

// appendCapturesOn appends a capture onto t by every non-king piece of the
// side to move that attacks t (promotion left out: it does not change
// whether the king is safe). Like Attacked, it reads the reverse tables.
func (p *Position) appendCapturesOn(ms []Move, t int16) []Move {
	g := p.g
	b := p.Board
	us := p.Side
	add := func(o int16) { ms = append(ms, Move{From: o, To: t, Flags: FlagCapture, Mid: -1}) }
	kn := MakePiece(us, Knight, false)
	for _, o := range g.knightFrom[t] {
		if b[o] == kn {
			add(o)
		}
	}
	for d := 0; d < 2; d++ {
		pw := MakePiece(us, Pawn, d == 1)
		for _, o := range g.pawnCapFrom[us][d][t] {
			if b[o] == pw {
				add(o)
			}
		}
	}
	nodes := g.attackTrie[t]
	for i := 0; i < len(nodes); {
		n := &nodes[i]
		pc := b[n.Cell]
		if pc == 0 {
			i++
			continue
		}
		if pc.Color() == us && n.Mask&kindBit(pc.Kind()) != 0 {
			add(n.Cell)
		}
		i = int(n.Skip)
	}
	return ms
}

// anyLegal reports whether one of ms leaves the mover's king unattacked.
func (p *Position) anyLegal(ms []Move) bool {
	us := p.Side
	for _, m := range ms {
		u := p.Make(m)
		ok := !p.Attacked(int(p.King[us]), us.Other())
		p.Unmake(m, u)
		if ok {
			return true
		}
	}
	return false
}
