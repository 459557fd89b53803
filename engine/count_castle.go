package engine

// countCastling counts the legal castling moves when the side to move is
// not in check and no mate rule applies: the king's own cell is then known
// to be safe, and the position after castling is tested by editing the
// four cells in place. A cell the king may step to is safe with the king
// on its own cell too (the king only blocks lines), so countKing's
// findings spare those tests.
func (p *Position) countCastling(occ *occupancy) int {
	n := 0
	for i := range p.V.Castling {
		if p.castleLegal(&p.V.Castling[i], occ) {
			n++
		}
	}
	return n
}

// appendCastling appends the legal castling moves under countCastling's
// conditions.
func (p *Position) appendCastling(ms []Move) []Move {
	for i := range p.V.Castling {
		if cd := &p.V.Castling[i]; p.castleLegal(cd, nil) {
			ms = append(ms, Move{From: cd.KingFrom, To: cd.KingTo, Flags: FlagCastle, Mid: -1})
		}
	}
	return ms
}

// castleLegal reports whether the side to move may castle by cd, for
// countCastling and appendCastling; occ is the board as bits or nil.
func (p *Position) castleLegal(cd *CastleDef, occ *occupancy) bool {
	us := p.Side
	them := us.Other()
	b := p.Board
	king, rook := MakePiece(us, King, false), MakePiece(us, Rook, false)
	if cd.Color != us || p.Castle&cd.Right == 0 || b[cd.KingFrom] != king || b[cd.RookFrom] != rook {
		return false
	}
	for _, c := range cd.Empty {
		if b[c] != 0 {
			return false
		}
	}
	for _, c := range cd.Safe {
		if c != cd.KingFrom && !containsCell(p.safeSteps[:p.nSafeSteps], c) && p.attackedOcc(int(c), them, occ) {
			return false
		}
	}
	if !cd.recheck {
		return true
	}
	kt, rt := b[cd.KingTo], b[cd.RookTo]
	b[cd.KingFrom], b[cd.RookFrom] = 0, 0
	b[cd.KingTo], b[cd.RookTo] = king, rook
	p.moveBits(us, cd.KingFrom, cd.KingTo)
	p.moveBits(us, cd.RookFrom, cd.RookTo)
	ok := !p.Attacked(int(cd.KingTo), them)
	p.moveBits(us, cd.KingFrom, cd.KingTo)
	p.moveBits(us, cd.RookFrom, cd.RookTo)
	b[cd.KingTo], b[cd.RookTo] = kt, rt
	b[cd.KingFrom], b[cd.RookFrom] = king, rook
	return ok
}

// castleOpensLine reports whether castling cd can leave its king attacked
// although every Safe cell was safe before it: when the king's target is
// not a Safe cell, or when a line toward the target runs through the
// king's or the rook's cell and on beyond it without first meeting the
// rook's target, which the castling rook fills. Attacks by steps do not
// depend on what stands between, so only lines matter.
func (g *Geometry) castleOpensLine(cd *CastleDef) bool {
	if !containsCell(cd.Safe, cd.KingTo) || g.hasPartner {
		return true
	}
	cells := []int16{cd.KingFrom, cd.KingTo, cd.RookFrom, cd.RookTo}
	for i, a := range cells {
		for _, b := range cells[i+1:] {
			if a == b {
				return true
			}
		}
	}
	nodes := g.attackTrie[cd.KingTo]
	for i := 0; i < len(nodes); {
		n := nodes[i]
		if n.Cell == cd.RookTo {
			i = int(n.Skip)
			continue
		}
		if (n.Cell == cd.KingFrom || n.Cell == cd.RookFrom) && int(n.Skip) > i+1 {
			return true
		}
		i++
	}
	return false
}
