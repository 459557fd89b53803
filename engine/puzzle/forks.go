package puzzle

import "topochess/engine"

// SwitchFork reports whether m, just played (p is the position after it),
// is a fork through a Chess 66 switch: the piece that moved attacks at
// least two targets, and at least one of those attacks passes through a
// switch. A target is the enemy king, or an enemy piece other than a pawn
// that is worth more than the attacker or is not defended. An attack
// passes through a switch when the attacker stands on a half of one, or,
// for a bishop, rook or queen, when a cell between it and the target is a
// half of one (the ray forks there, so one line reaches two ways).
func SwitchFork(p *engine.Position, m engine.Move) bool {
	g := p.Geo()
	c := int(m.To)
	pc := p.Board[c]
	if pc == 0 || g.Partner == nil {
		return false
	}
	us := pc.Color()
	onSwitch := g.Partner[c] >= 0
	// via: each target attacked, and whether some attack on it passes a
	// switch.
	via := map[int]bool{}
	hit := func(t int, viaSwitch bool) {
		x := p.Board[t]
		if x == 0 || x.Color() == us || !isTarget(p, pc, t) {
			return
		}
		via[t] = via[t] || viaSwitch || onSwitch
	}
	switch pc.Kind() {
	case engine.Bishop, engine.Rook, engine.Queen:
		for _, path := range g.RayPaths(pc.Kind(), c) {
			passed := false
			for _, x := range path {
				if p.Board[x] != 0 {
					hit(x, passed)
					break
				}
				if pp := g.Partner[x]; pp >= 0 {
					if p.Board[pp] != 0 {
						break // an occupied switch blocks both halves
					}
					passed = true
				}
			}
		}
	case engine.Knight:
		for _, t := range g.Knight[c] {
			hit(int(t), false)
		}
	case engine.King:
		for _, t := range g.KingSteps[c] {
			hit(int(t), false)
		}
	case engine.Pawn:
		for _, t := range g.PawnCap[us][pc.Dir()][c] {
			hit(int(t), false)
		}
	}
	through := false
	for _, v := range via {
		through = through || v
	}
	return len(via) >= 2 && through
}

// isTarget reports whether the enemy piece on t is worth forking for the
// attacker a: the king, a piece worth more, or an undefended piece (not a
// pawn).
func isTarget(p *engine.Position, a engine.Piece, t int) bool {
	x := p.Board[t]
	switch {
	case x.Kind() == engine.King:
		return true
	case x.Kind() == engine.Pawn:
		return false
	case a.Kind() != engine.King && pieceValue[x.Kind()] > pieceValue[a.Kind()]:
		return true
	}
	return !p.Attacked(t, x.Color())
}
