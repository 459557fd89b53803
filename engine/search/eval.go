package search

import (
	"sync"

	"topochess/engine"
)

// Piece values in centipawns, by kind. The king's value only orders
// captures; kings are never captured.
var value = [7]int32{0, 100, 300, 320, 500, 900, 2000}

// Mobility weight per pseudo-legal destination, by kind. Counting moves
// rather than scoring squares is what lets one evaluation serve every
// board: wrap-around, seams, cube faces and switches change the counts by
// themselves.
var mobWeight = [7]int32{0, 0, 4, 4, 2, 1, 0}

const (
	tempo        = 10
	kingZoneHit  = 12 // per attacked cell next to the king, at full enemy force
	switchHold   = 15 // a piece standing in a Chess 66 switch
	switchWatch  = 6  // attacking a switch (either half)
	noDistance   = 255
	mopUpAdvance = 400 // material lead from which the lone-king chase starts
)

// pawnBonus is the pawn-progress bonus by remaining pushes to promotion, at
// full weight (endgame); the middlegame uses a third of it.
var pawnBonus = [...]int32{0, 110, 70, 42, 24, 12, 6}

// boardInfo is what the evaluation precomputes once per variant.
type boardInfo struct {
	// promoDist[colour][dir][cell]: pushes a pawn needs to reach a
	// promotion cell, by backward search over the pawn push tables.
	promoDist [2][2][]uint8
	// kingDist is the king-step distance between two cells (n*n).
	kingDist []uint8
	n        int
	// switches are Chess 66's switch pairs.
	switches [][2]int
	// startForce is one side's non-pawn material at the start.
	startForce int32
	// w is the variant's weight vector (weights.go).
	w []int32
}

var boardCache sync.Map // *engine.Variant → *boardInfo

func infoFor(v *engine.Variant) *boardInfo {
	if bi, ok := boardCache.Load(v); ok {
		return bi.(*boardInfo)
	}
	bi, _ := boardCache.LoadOrStore(v, buildInfo(v))
	return bi.(*boardInfo)
}

func buildInfo(v *engine.Variant) *boardInfo {
	g := v.Geo
	n := g.N
	bi := &boardInfo{n: n}
	for c := 0; c < 2; c++ {
		for d := 0; d < 2; d++ {
			bi.promoDist[c][d] = promotionDistance(n, g.PawnPush[c][d], g.Promo[c][d])
		}
	}
	bi.kingDist = make([]uint8, n*n)
	queue := make([]int, 0, n)
	for s := 0; s < n; s++ {
		row := bi.kingDist[s*n : (s+1)*n]
		for i := range row {
			row[i] = noDistance
		}
		row[s] = 0
		queue = append(queue[:0], s)
		for len(queue) > 0 {
			c := queue[0]
			queue = queue[1:]
			for _, t := range g.KingSteps[c] {
				if row[t] == noDistance {
					row[t] = row[c] + 1
					queue = append(queue, int(t))
				}
			}
		}
	}
	for c := 0; c < n; c++ {
		if p := int(g.Partner[c]); p > c {
			bi.switches = append(bi.switches, [2]int{c, p})
		}
	}
	start := v.StartPosition()
	var force [2]int32
	for _, pc := range start.Board {
		if k := pc.Kind(); k != engine.NoKind && k != engine.Pawn && k != engine.King {
			force[pc.Color()] += value[k]
		}
	}
	bi.startForce = max(force[0], force[1], 1)
	bi.w = weightsFor(v)
	return bi
}

// promotionDistance runs a backward breadth-first search from the
// promotion cells over the push table (nil when pawns of this colour and
// direction never move).
func promotionDistance(n int, push [][]int16, promo []bool) []uint8 {
	dist := make([]uint8, n)
	for i := range dist {
		dist[i] = noDistance
	}
	if push == nil || promo == nil {
		return dist
	}
	from := make([][]int, n)
	for o, ts := range push {
		for _, t := range ts {
			from[t] = append(from[t], o)
		}
	}
	var queue []int
	for c := 0; c < n; c++ {
		if promo[c] {
			dist[c] = 0
			queue = append(queue, c)
		}
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, o := range from[c] {
			if dist[o] == noDistance && dist[c] < noDistance-1 {
				dist[o] = dist[c] + 1
				queue = append(queue, o)
			}
		}
	}
	return dist
}

// evaluate scores the position for the side to move, in centipawns: the
// variant's weighted terms (weights.go), blended from middlegame to endgame
// weights by the pieces left, plus the board-specific terms below.
func evaluate(p *engine.Position, bi *boardInfo) int32 {
	g := p.Geo()
	b := p.Board
	w := bi.w
	n := bi.n
	var mat, force, pawns [2]int32
	var mg, eg [2]int32
	var bishops [2]int
	for c, pc := range b {
		if pc == 0 {
			continue
		}
		col := pc.Color()
		k := pc.Kind()
		mat[col] += value[k]
		i := pstIndex(n, col, k, c)
		mg[col] += w[i]
		eg[col] += w[i+1]
		switch k {
		case engine.Pawn:
			pawns[col]++
			if d := bi.promoDist[col][pc.Dir()][c]; d > 0 && int(d) < len(pawnBonus) {
				mg[col] += w[wProgress+2*int(d)]
				eg[col] += w[wProgress+2*int(d)+1]
			}
		case engine.King:
			continue
		case engine.Bishop:
			bishops[col]++
		}
		mg[col] += w[wMaterial+2*int(k)]
		eg[col] += w[wMaterial+2*int(k)+1]
		if k != engine.Pawn {
			force[col] += value[k]
		}
	}
	phaseNum := min(force[0]+force[1], 2*bi.startForce)
	phaseDen := 2 * bi.startForce

	for c := 0; c < 2; c++ {
		col := engine.Color(c)
		if bishops[c] >= 2 {
			mg[c] += w[wBishops]
			eg[c] += w[wBishops+1]
		}
		mob := p.Mobility(col)
		for k, cnt := range mob {
			mg[c] += w[wMobility+2*k] * int32(cnt)
			eg[c] += w[wMobility+2*k+1] * int32(cnt)
		}
		if k := p.King[c]; k >= 0 {
			hits, shield := int32(0), int32(0)
			them := col.Other()
			for _, t := range g.KingSteps[k] {
				if p.Attacked(int(t), them) {
					hits++
				}
				if x := b[t]; x != 0 && x.Kind() == engine.Pawn && x.Color() == col {
					shield++
				}
			}
			scale := min(force[them], bi.startForce)
			mg[c] += hits * w[wKingZone] * scale / bi.startForce
			eg[c] += hits * w[wKingZone+1] * scale / bi.startForce
			mg[c] += shield * w[wShield]
			eg[c] += shield * w[wShield+1]
		}
	}
	mg[p.Side] += w[wTempo]
	eg[p.Side] += w[wTempo+1]
	var score [2]int32
	for c := range score {
		score[c] = (mg[c]*phaseNum + eg[c]*(phaseDen-phaseNum)) / phaseDen
	}
	extraTerms(p, bi, mat, force, pawns, &score)
	return score[p.Side] - score[p.Side.Other()]
}

// extraTerms are the terms outside the weight vector: Möbius phasing
// threats, Chess 66 switches and the chase of a lone king.
func extraTerms(p *engine.Position, bi *boardInfo, mat, force, pawns [2]int32, score *[2]int32) {
	b := p.Board
	if p.Geo().Twin != nil {
		twinThreats(p, score)
	}
	for _, sw := range bi.switches {
		for _, cell := range sw {
			if pc := b[cell]; pc != 0 && pc.Kind() != engine.Pawn {
				score[pc.Color()] += switchHold
			}
		}
		for c := 0; c < 2; c++ {
			if p.Attacked(sw[0], engine.Color(c)) || p.Attacked(sw[1], engine.Color(c)) {
				score[c] += switchWatch
			}
		}
	}
	mopUp(p, bi, mat, force, pawns, score)
}

// twinThreats scores the Möbius strip's phasing attacks: a piece facing an
// enemy piece on its twin cell attacks it and is attacked by it. The piece
// worth more (or an undefended one) is the one in danger; the side to move
// can still step away, so its danger counts half.
func twinThreats(p *engine.Position, score *[2]int32) {
	g := p.Geo()
	b := p.Board
	for c, pc := range b {
		if pc == 0 || pc.Kind() == engine.King {
			continue
		}
		y := b[g.Twin[c]]
		if y == 0 || y.Color() == pc.Color() {
			continue
		}
		col := pc.Color()
		loss := value[pc.Kind()] - value[y.Kind()]
		if !p.Attacked(c, col) {
			loss = value[pc.Kind()]
		}
		if loss <= 0 {
			continue
		}
		if col == p.Side {
			loss /= 2
		}
		score[col] -= loss / 4
	}
}

// mopUp drives a lone or nearly lone king toward the places with fewest
// escape cells and brings the winning king closer: without it a won ending
// drifts into the 100 half-move rule, on boards with edges or without.
func mopUp(p *engine.Position, bi *boardInfo, mat, force, pawns [2]int32, score *[2]int32) {
	for c := 0; c < 2; c++ {
		them := 1 - c
		if mat[c]-mat[them] < mopUpAdvance || force[them] > value[engine.Rook] || pawns[them] > 1 {
			continue
		}
		wk, lk := p.King[c], p.King[them]
		if wk < 0 || lk < 0 {
			continue
		}
		g := p.Geo()
		free := int32(0)
		for _, t := range g.KingSteps[lk] {
			if !p.Attacked(int(t), engine.Color(c)) {
				if x := p.Board[t]; x == 0 || x.Color() != engine.Color(them) {
					free++
				}
			}
		}
		d := int32(bi.kingDist[int(wk)*bi.n+int(lk)])
		if d == noDistance {
			d = 8
		}
		score[c] += 20*(8-free) + 8*(8-int32(len(g.KingSteps[lk]))) + 10*(8-min(d, 8))
	}
}
