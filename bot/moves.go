package bot

import (
	"fmt"
	"strings"

	"topochess/engine"
	"topochess/render"
	"topochess/storage"
)

// movesText answers /moves for the piece on from, of either side: where
// it can go (marked on opt), whose it is and, for the side not to move,
// that these are the moves it would have on its turn — studying the
// opponent's threats is what these boards need most. On the Klein bottle
// it adds where the piece's lines cross the mirror.
func (s *Service) movesText(c *call, rec *storage.Game, pos *engine.Position, from int, opt *render.Options) string {
	g := pos.Geo()
	pc := pos.Board[from]
	owner := playerOf(rec, pc.Color())
	piece := fmt.Sprintf("the %s %s on %s", pc.Color(), pc.Kind().Name(), g.Name(from))
	turn := pc.Color() == pos.Side
	q := pos
	if !turn {
		// The same board with the other side to move: its moves as they
		// would be on its turn (no en-passant right carries over).
		q = pos.Clone()
		q.MakeNull()
	}
	var dests []string
	seen := map[int]bool{}
	for _, m := range q.LegalMoves() {
		to := int(m.To)
		if int(m.From) != from || seen[to] {
			continue
		}
		seen[to] = true
		if q.Board[to].Kind() == engine.King {
			continue // the king in check now: the capture is the check itself
		}
		if q.Board[to] != 0 || m.Flags&engine.FlagEnPassant != 0 {
			opt.Rings = append(opt.Rings, to)
			dests = append(dests, "x"+g.Name(to))
		} else {
			opt.Dots = append(opt.Dots, to)
			dests = append(dests, g.Name(to))
		}
	}
	where := "has no legal moves"
	if len(dests) > 0 {
		where = "can go to " + strings.Join(dests, ", ")
	}
	var text string
	switch {
	case turn && owner.ID != c.User.ID:
		text = fmt.Sprintf("%s: %s is %s's (%s), who is to move; it %s.", rec.ID, piece, owner.Name, colorName(pc.Color().String()), where)
	case turn:
		text = fmt.Sprintf("%s: %s %s.", rec.ID, piece, where)
	default:
		side := colorName(pc.Color().String())
		whose, notTurn, their := fmt.Sprintf("%s's (%s)", owner.Name, side), "it is not "+side+"'s turn", "On "+side+"'s turn"
		if owner.ID == c.User.ID {
			whose, notTurn, their = "yours", "it is not your turn", "On your turn"
		}
		mover := playerOf(rec, pos.Side)
		text = fmt.Sprintf("%s: %s is %s, and %s: %s (%s) is to move. %s it %s.", rec.ID, piece, whose, notTurn, mover.Name, colorName(pos.Side.String()), their, strings.NewReplacer("can go", "could go", "has no", "would have no").Replace(where))
	}
	if pos.V.ID == "klein" {
		text += kleinSeamNote(q, from)
	}
	return text
}

// kleinRank is the rank of a Klein cell name ("d12" → 12).
func kleinRank(g *engine.Geometry, c int) int {
	var file byte
	var rank int
	fmt.Sscanf(g.Name(c), "%c%d", &file, &rank)
	return rank
}

// kleinNaive is where a newcomer expects a step that crosses the Klein
// mirror to land: the same rank, the file mirrored back (RULES §4 sends
// file x to 7 − x across it).
func kleinNaive(g *engine.Geometry, c int) string {
	n := g.Name(c)
	return string('a'+'h'-n[0]) + n[1:]
}

// crossesMirror reports whether a step or a jump from a to b goes
// between ranks 11 and 12 (not around the 14–1 edge, which only wraps).
func crossesMirror(g *engine.Geometry, a, b int) bool {
	ra, rb := kleinRank(g, a), kleinRank(g, b)
	if ra > rb {
		ra, rb = rb, ra
	}
	return ra <= 11 && rb >= 12 && rb-ra <= 2
}

// kleinSeamNote explains where the lines of the piece on from cross the
// Klein mirror, which swaps the files (a↔h, b↔g, c↔f, d↔e) between ranks
// 11 and 12: "b11→g12 (not b12)"; for a pawn "the cell ahead of d12 is
// e11, not d11" and "it captures on f11, not c11". A move that stops or
// is blocked there surprises a newcomer who expects the cell of the same
// file. "" when nothing of the piece's reaches the mirror.
func kleinSeamNote(pos *engine.Position, from int) string {
	g := pos.Geo()
	pc := pos.Board[from]
	var paths [][]int
	captures := map[int]bool{} // a pawn's capture cells
	switch k := pc.Kind(); k {
	case engine.Bishop, engine.Rook, engine.Queen:
		paths = g.RayPaths(k, from)
	case engine.King:
		for _, t := range g.KingSteps[from] {
			paths = append(paths, []int{int(t)})
		}
	case engine.Knight:
		for _, t := range g.Knight[from] {
			paths = append(paths, []int{int(t)})
		}
	case engine.Pawn:
		dir := pc.Dir()
		for _, t := range g.PawnPush[pc.Color()][dir][from] {
			paths = append(paths, []int{int(t)})
		}
		for _, t := range g.PawnCap[pc.Color()][dir][from] {
			paths = append(paths, []int{int(t)})
			captures[int(t)] = true
		}
	}
	var notes []string
	seen := map[string]bool{}
	for _, path := range paths {
		prev := from
		for _, c := range path {
			if crossesMirror(g, prev, c) {
				note := fmt.Sprintf("%s→%s (not %s)", g.Name(prev), g.Name(c), kleinNaive(g, c))
				switch {
				case captures[c]:
					note = fmt.Sprintf("it captures on %s, not %s", g.Name(c), kleinNaive(g, c))
				case pc.Kind() == engine.Pawn:
					note = fmt.Sprintf("the cell ahead of %s is %s, not %s", g.Name(from), g.Name(c), kleinNaive(g, c))
				}
				if occ := pos.Board[c]; occ != 0 {
					note += fmt.Sprintf(", where %s %s stands", article(occ, pos.Side), occ.Kind().Name())
				}
				if !seen[note] {
					seen[note] = true
					notes = append(notes, note)
				}
				break
			}
			if pos.Board[c] != 0 {
				break // the line stops before the mirror
			}
			prev = c
		}
	}
	if len(notes) == 0 {
		return ""
	}
	return " Across the Klein mirror between ranks 11 and 12 the files swap (a↔h, b↔g, c↔f, d↔e): " + strings.Join(notes, "; ") + "."
}

// article says whose a blocking piece is, from the mover's side.
func article(occ engine.Piece, mover engine.Color) string {
	if occ.Color() == mover {
		return "its own"
	}
	return "an enemy"
}
