package search

import (
	"math/bits"
	"slices"
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
	// class[colour][cell] groups the cells that look alike from a side's
	// point of view (cellClasses); the cell tables of the weights are by
	// class, so that they are learned from fewer games.
	class   [2][]int32
	classes int
	// pawnStructure: some pawn-structure weight is not zero (else its
	// terms are not computed); so for mobTable and hanging.
	pawnStructure, mobTable, hanging bool
	// threats: some threat, king-zone-by-group, check or weak king-zone
	// weight is not zero (then the attacks are collected by attacking
	// kind); kingDistTerms: some tropism or pawn-king weight is not;
	// safeMob: some safe-mobility weight is not (then threats is set too).
	threats, kingDistTerms, safeMob bool
	// lineTerms: some line, outpost, isolated-pawn, push-threat or
	// phalanx weight is not zero (then the pawn sets are collected too).
	lineTerms bool
	// passFree: some weight of passed pawns' way is not zero (then
	// pawnStructure is set too); kingKinds: some weight of the kinds
	// attacking the king's zone is not (then threats is set too).
	passFree, kingKinds bool
	// shade[cell] numbers the set of cells joined to the cell by bishop
	// moves (a colour of the standard board; below 64); promoCorner[colour][dir][cell]
	// is the corner (a cell with three king steps) on which a pawn there
	// promotes when its pushes never branch, else -1.
	shade       []uint8
	promoCorner [2][2][]int16
	// zone[cell*words:(cell+1)*words] is the bit set of the cells next to
	// the cell (a king's zone).
	zone []uint64
	// pawnWay[colour][dir][cell*words:(cell+1)*words] are the cells a pawn
	// there still has to cross (by pushes, up to the promotion cells), as a
	// bit set; pawnStop adds the cells from which an enemy pawn attacks one
	// of them or the pawn itself: with no enemy pawn there, the pawn is
	// passed. One array per table keeps them in few cache lines.
	pawnWay, pawnStop [2][2][]uint64
	// pawnCap[colour][dir] are the cells a pawn attacks, laid out as
	// pawnWay (the capture tables never list a cell twice).
	pawnCap [2][2][]uint64
	// line[cell*words:(cell+1)*words] is the cell's line: the cell and
	// the ways of pawns of either colour and direction through it (a file
	// on the standard board, both ways); adjLine the cells of the lines
	// through the cell's king steps and those of its line's other cells,
	// less its own line (the neighbouring files).
	line, adjLine []uint64
	// beside[colour][dir][cell*words:(cell+1)*words] are the king steps
	// from the cell as many pushes from promotion as the cell, for a pawn
	// of that colour and direction.
	beside [2][2][]uint64
	// pushReach[colour][dir][cell*words:(cell+1)*words] are the cells a
	// pawn there would attack after a single push.
	pushReach [2][2][]uint64
	// outpostStop[colour][dir][cell*words:(cell+1)*words] are the cells
	// from which a pawn of that colour and direction attacks the cell, at
	// once or after pushes.
	outpostStop [2][2][]uint64
	// words is the length of a bit set of cells.
	words int
	// net, when the variant ships one, is added to the weighted terms in
	// the search, or replaces them (docs/ai.md, "A network evaluation on
	// top of the weighted terms").
	net *Net
	// alone, when the variant ships one, is a network that replaces the
	// weighted terms, for the searches with Config.NetAlone (level 5).
	alone *Net
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
	bi := &boardInfo{n: n, words: (n + 63) / 64}
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
	bi.class, bi.classes = cellClasses(bi, g, start)
	bi.w = weightsFor(v, bi.classes)
	bi.net = netFor(v)
	bi.alone = netFile(v, ".alone.net")
	if n > 512 {
		panic("search: boards of more than 512 cells need larger pawn sets")
	}
	pawnTables(bi, g)
	for _, x := range slices.Concat(bi.w[wPassed:wMobTable], bi.w[wPassKing:wCheck]) {
		bi.pawnStructure = bi.pawnStructure || x != 0
	}
	for _, x := range bi.w[wMobTable:wHanging] {
		bi.mobTable = bi.mobTable || x != 0
	}
	for _, x := range bi.w[wHanging:wKingTable] {
		bi.hanging = bi.hanging || x != 0
	}
	for _, x := range slices.Concat(bi.w[wThreat:wPassKing], bi.w[wCheck:wTropism], bi.w[wKingWeak:wSafeMob]) {
		bi.threats = bi.threats || x != 0
	}
	for _, x := range bi.w[wSafeMob:wLines] {
		bi.safeMob = bi.safeMob || x != 0
	}
	for _, x := range bi.w[wLines:wPassFree] {
		bi.lineTerms = bi.lineTerms || x != 0
	}
	for _, x := range bi.w[wPassFree:wKingKinds] {
		bi.passFree = bi.passFree || x != 0
	}
	for _, x := range bi.w[wKingKinds:wImbalance] {
		bi.kingKinds = bi.kingKinds || x != 0
	}
	bi.pawnStructure = bi.pawnStructure || bi.passFree
	bi.threats = bi.threats || bi.kingKinds || bi.safeMob
	for _, x := range bi.w[wTropism:wKingWeak] {
		bi.kingDistTerms = bi.kingDistTerms || x != 0
	}
	bi.shade, bi.promoCorner = shadesAndCorners(g)
	words := (n + 63) / 64
	bi.zone = make([]uint64, n*words)
	for c := 0; c < n; c++ {
		for _, t := range g.KingSteps[c] {
			bi.zone[c*words+int(t)>>6] |= 1 << (uint(t) & 63)
		}
	}
	return bi
}

// shadesAndCorners numbers the shades of the board (the sets of cells
// bishop moves join; from the 64th on they share number 63, so that a
// shade is a bit of a word — every board has one or two) and finds the corner on which
// a pawn on each cell promotes (boardInfo.promoCorner).
func shadesAndCorners(g *engine.Geometry) (shade []uint8, corner [2][2][]int16) {
	n := g.N
	shade = make([]uint8, n)
	seen := make([]bool, n)
	next := 0
	for s := 0; s < n; s++ {
		if seen[s] {
			continue
		}
		seen[s] = true
		queue := []int{s}
		for len(queue) > 0 {
			c := queue[0]
			queue = queue[1:]
			shade[c] = uint8(min(next, 63))
			for _, t := range g.RayCells(engine.Bishop, c) {
				if !seen[t] {
					seen[t] = true
					queue = append(queue, t)
				}
			}
		}
		next++
	}
	for c := 0; c < 2; c++ {
		for d := 0; d < 2; d++ {
			corner[c][d] = make([]int16, n)
			push, promo := g.PawnPush[c][d], g.Promo[c][d]
			for s := range corner[c][d] {
				corner[c][d][s] = -1
				if push == nil || promo == nil {
					continue
				}
				at := s
				for range n {
					if promo[at] || len(push[at]) != 1 {
						break
					}
					at = int(push[at][0])
				}
				if promo[at] && len(g.KingSteps[at]) == 3 {
					corner[c][d][s] = int16(at)
				}
			}
		}
	}
	return shade, corner
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
	v, _ := evaluateWith(p, bi, nil)
	return v
}

// evaluateWith is evaluate with a pawn table (a power of two long, or
// nil): when the table holds the position's pawns (by pawnKeys' table
// key), the terms of the pawns alone are taken from it, else computed and
// left in it. It also returns the correction history's pawn key.
func evaluateWith(p *engine.Position, bi *boardInfo, table []pawnSlot) (int32, uint64) {
	g := p.Geo()
	b := p.Board
	w := bi.w
	var mat, force [2]int32
	var mg, eg [2]int32
	var count [2][engine.King]int32 // pieces by colour and kind
	var pieceBuf, pawnBuf [64]int16
	var ownBuf [2][64]int16
	pieces := pieceBuf[:0] // cells of the knights, bishops, rooks and queens
	pawnCells := pawnBuf[:0]
	own := [2][]int16{ownBuf[0][:0], ownBuf[1][:0]} // every piece's cell, by colour
	var splitBuf [2][2][64]int16
	// The cells of the pawns, and of the other pieces, by colour (with
	// bi.safeMob).
	pawnsOf := [2][]int16{splitBuf[0][0][:0], splitBuf[1][0][:0]}
	piecesOf := [2][]int16{splitBuf[0][1][:0], splitBuf[1][1][:0]}
	var ps pawnSets
	var prey [2][8]uint64 // the knights, bishops, rooks and queens, by colour
	// The pieces but kings, by colour and kind (for the threats).
	var kindSets [2][victimKinds + 1][8]uint64
	structure := bi.pawnStructure || bi.lineTerms
	var pawnKey, minusKey uint64 // pawnKeys'
	// The occupied cells in order, from the position's bits where it
	// keeps them.
	occ := p.Occupied()
	if occ == nil {
		var o [8]uint64
		for c, pc := range b {
			if pc != 0 {
				o[c>>6&7] |= 1 << (uint(c) & 63)
			}
		}
		occ = o[:bi.words]
	}
	for wi, x := range occ {
		for ; x != 0; x &= x - 1 {
			c := wi<<6 | bits.TrailingZeros64(x)
			pc := b[c]
			col := pc.Color()
			k := pc.Kind()
			own[col] = append(own[col], int16(c))
			if bi.safeMob {
				if k == engine.Pawn {
					pawnsOf[col] = append(pawnsOf[col], int16(c))
				} else {
					piecesOf[col] = append(piecesOf[col], int16(c))
				}
			}
			mat[col] += value[k]
			i := bi.pstIndex(col, k, c)
			mg[col] += w[i]
			eg[col] += w[i+1]
			if bi.kingDistTerms && k != engine.King {
				if k == engine.Pawn {
					for i, kc := range [2]int16{p.King[col], p.King[col.Other()]} {
						if kc >= 0 {
							j := pawnKingIndex(i == 1, bi.kingDist[int(kc)*bi.n+c])
							mg[col] += w[j]
							eg[col] += w[j+1]
						}
					}
				} else if kc := p.King[col.Other()]; kc >= 0 {
					j := tropismIndex(k, bi.kingDist[int(kc)*bi.n+c])
					mg[col] += w[j]
					eg[col] += w[j+1]
				}
			}
			switch k {
			case engine.Pawn:
				x := pawnMix(c, col)
				pawnKey += x
				if pc.Dir() != 0 {
					minusKey += minusMix(x)
				}
				if structure {
					ps.on[col][pc.Dir()][c>>6] |= 1 << (uint(c) & 63)
					pawnCells = append(pawnCells, int16(c))
				}
				if d := bi.promoDist[col][pc.Dir()][c]; d > 0 && int(d) < len(pawnBonus) {
					mg[col] += w[wProgress+2*int(d)]
					eg[col] += w[wProgress+2*int(d)+1]
				}
			case engine.King:
				continue
			}
			count[col][k]++
			kindSets[col][k][c>>6] |= 1 << (uint(c) & 63)
			if k != engine.Pawn {
				prey[col][c>>6] |= 1 << (uint(c) & 63)
			}
			if k != engine.Pawn && bi.hanging {
				pieces = append(pieces, int16(c))
			}
			mg[col] += w[wMaterial+2*int(k)]
			eg[col] += w[wMaterial+2*int(k)+1]
			if k != engine.Pawn {
				force[col] += value[k]
			}
		}
	}
	var pe *pawnEval // with structure
	if structure {
		key := pawnKey ^ minusKey
		var slot *pawnSlot
		if table != nil {
			slot = &table[key&uint64(len(table)-1)]
		} else {
			slot = new(pawnSlot)
		}
		pe = &slot.pawnEval
		if !slot.set || slot.key != key {
			slot.set = false
			bi.fillPawnEval(p, &ps, pawnCells, pe, &mg, &eg)
			slot.key, slot.set = key, table != nil && !pe.overflow && pe.nPassed >= 0
		} else {
			for i := 0; i < bi.words; i++ {
				for col := range ps.att {
					pl := &pe.planes[i][col]
					ps.att[col][i] = pl[0] | pl[1] | pl[2]
				}
			}
			for _, c := range pe.passed[:pe.nPassed] {
				col := b[c].Color()
				for i, k := range [2]int16{p.King[col], p.King[col.Other()]} {
					if k >= 0 {
						j := passKingIndex(i == 1, bi.kingDist[int(k)*bi.n+int(c)])
						mg[col] += w[j]
						eg[col] += w[j+1]
					}
				}
			}
		}
		// The pieces each side's pawns attack, counted once per pawn.
		var hits [2]int32
		if pe.overflow {
			for _, c := range pawnCells {
				pc := b[c]
				col := pc.Color()
				hits[col] += bi.pawnAttack(&ps, &prey[col.Other()], col, pc.Dir(), int(c))
			}
		} else {
			for i := 0; i < bi.words; i++ {
				for col := range hits {
					pl, x := &pe.planes[i][col], prey[1-col][i]
					hits[col] += int32(bits.OnesCount64(pl[0]&x) + 2*bits.OnesCount64(pl[1]&x) + 4*bits.OnesCount64(pl[2]&x))
				}
			}
		}
		for col := range hits {
			mg[col] += hits[col]*w[wPawnHit] + pe.mg[col]
			eg[col] += hits[col]*w[wPawnHit+1] + pe.eg[col]
		}
	}
	pawns := [2]int32{count[0][engine.Pawn], count[1][engine.Pawn]}
	phaseNum := min(force[0]+force[1], 2*bi.startForce)
	phaseDen := 2 * bi.startForce

	// Mobility and the cells each side attacks, in one walk per side.
	var att [2][8]uint64
	var katt *[2][7][8]uint64 // by attacking kind, with bi.threats
	if bi.threats {
		katt = new([2][7][8]uint64)
	}
	words := bi.words
	if bi.safeMob {
		// The pawns first: a piece's safe destinations are those no enemy
		// pawn attacks. The pawn sets already hold them when the board has
		// no cells with a twin (a pawn also attacks its own twin).
		for c := 0; c < 2; c++ {
			if structure && g.Twin == nil {
				katt[c][engine.Pawn] = ps.att[c]
				att[c] = ps.att[c]
			} else {
				p.MobilityAttacksByKind(engine.Color(c), pawnsOf[c], att[c][:words], &katt[c], nil, nil, nil)
			}
		}
	}
	for c := 0; c < 2; c++ {
		var bucketBuf, safeBuf [64]uint16
		var mob [7]int
		var buckets []uint16
		if bi.safeMob {
			var safe []uint16
			mob, buckets, safe = p.MobilityAttacksByKind(engine.Color(c), piecesOf[c], att[c][:words], &katt[c], bucketBuf[:0], &katt[1-c][engine.Pawn], safeBuf[:0])
			for _, m := range safe {
				if k := engine.Kind(m / engine.MobilityBuckets); k != engine.King {
					i := safeMobIndex(k, int(m%engine.MobilityBuckets))
					mg[c] += w[i]
					eg[c] += w[i+1]
				}
			}
		} else if bi.threats {
			mob, buckets, _ = p.MobilityAttacksByKind(engine.Color(c), own[c], att[c][:words], &katt[c], bucketBuf[:0], nil, nil)
		} else {
			mob, buckets = p.MobilityAttacksOf(engine.Color(c), own[c], att[c][:words], bucketBuf[:0])
		}
		for k, cnt := range mob {
			mg[c] += w[wMobility+2*k] * int32(cnt)
			eg[c] += w[wMobility+2*k+1] * int32(cnt)
		}
		if bi.mobTable {
			for _, m := range buckets {
				i := wMobTable + int(m)*2
				mg[c] += w[i]
				eg[c] += w[i+1]
			}
		}
	}
	// Pieces the enemy attacks and no own piece defends.
	for _, o := range pieces {
		pc := b[o]
		col := pc.Color()
		bit := uint64(1) << (uint(o) & 63)
		if att[col.Other()][o>>6]&bit != 0 && att[col][o>>6]&bit == 0 {
			mg[col] += w[wHanging+2*int(pc.Kind())]
			eg[col] += w[wHanging+2*int(pc.Kind())+1]
		}
	}
	var kinds *[2][victimKinds + 1][8]uint64 // with bi.threats
	if bi.threats {
		kinds = &kindSets
		threatTerms(bi, kinds, &att, katt, &mg, &eg)
	}
	if bi.lineTerms {
		// The pieces other than pawns are listed apart with bi.safeMob.
		lists := own
		if bi.safeMob {
			lists = piecesOf
		}
		lineTerms(p, bi, &ps, lists, pawnCells, &prey, &att, &mg, &eg)
	}
	for c := 0; c < 2; c++ {
		col := engine.Color(c)
		if count[c][engine.Bishop] >= 2 {
			mg[c] += w[wBishops]
			eg[c] += w[wBishops+1]
		}
		add := func(i int, n int32) {
			mg[c] += n * w[i]
			eg[c] += n * w[i+1]
		}
		imbalanceCounts(&count, c, add)
		pairCounts(&count, c, add)
		if k := p.King[c]; k >= 0 {
			hits, shield := int32(0), int32(0)
			them := col.Other()
			zone := bi.zone[int(k)*words : int(k+1)*words]
			for i, z := range zone {
				hits += int32(bits.OnesCount64(z & att[them][i]))
			}
			for _, t := range g.KingSteps[k] {
				if x := b[t]; x != 0 && x.Kind() == engine.Pawn && x.Color() == col {
					shield++
				}
			}
			scale := min(force[them], bi.startForce)
			kt := wKingTable + 2*int(min(hits, kingTableSize-1))
			zmg, zeg := hits*w[wKingZone]+w[kt], hits*w[wKingZone+1]+w[kt+1]
			if bi.threats {
				for g, ks := range groupKinds {
					n := int32(0)
					for i, z := range zone {
						n += int32(bits.OnesCount64(z & (katt[them][ks[0]][i] | katt[them][ks[1]][i])))
					}
					zmg += n * w[wKingGroup+2*g]
					zeg += n * w[wKingGroup+2*g+1]
				}
				cmg, ceg := checkTerms(p, bi, int(k), &kinds[them], p.King[them], &att[c], &katt[them])
				zmg += cmg
				zeg += ceg
				// Cells next to the king the enemy attacks and no own
				// piece but the king defends.
				weak := 0
				ka := &katt[c]
				for i, z := range zone {
					def := ka[engine.Pawn][i] | ka[engine.Knight][i] | ka[engine.Bishop][i] | ka[engine.Rook][i] | ka[engine.Queen][i]
					weak += bits.OnesCount64(z & att[them][i] &^ def)
				}
				j := wKingWeak + 2*min(weak, kingWeakSize-1)
				zmg += w[j]
				zeg += w[j+1]
			}
			if bi.kingKinds {
				// Which kinds of enemy pieces reach the king's zone.
				set := 0
				for k := engine.Knight; k <= engine.Queen; k++ {
					for i, z := range zone {
						if z&katt[them][k][i] != 0 {
							set |= 1 << (k - engine.Knight)
							break
						}
					}
				}
				zmg += w[wKingKinds+2*set]
				zeg += w[wKingKinds+2*set+1]
			}
			mg[c] += zmg * scale / bi.startForce
			eg[c] += zeg * scale / bi.startForce
			mg[c] += shield * w[wShield]
			eg[c] += shield * w[wShield+1]
		}
	}
	if bi.passFree {
		if pe.nPassed >= 0 {
			for _, c := range pe.passed[:pe.nPassed] {
				bi.passFreeTerm(p, int(c), &att, &mg, &eg)
			}
		} else {
			for _, c := range pawnCells {
				pc := b[c]
				col, dir := pc.Color(), pc.Dir()
				if d := bi.promoDist[col][dir][c]; d > 0 && int(d) < len(pawnBonus) && bi.passed(&ps, col, dir, int(c)) {
					bi.passFreeTerm(p, int(c), &att, &mg, &eg)
				}
			}
		}
	}
	mg[p.Side] += w[wTempo]
	eg[p.Side] += w[wTempo+1]
	share := int32(64)
	if c := drawnClass(p, bi, eg[0]-eg[1], force, pawns, [2]int32{count[0][engine.Bishop], count[1][engine.Bishop]}); c != 0 {
		share = w[wDrawn+c-1]
	}
	var score [2]int32
	for c := range score {
		score[c] = blend(mg[c], eg[c], phaseNum, phaseDen, share)
	}
	extraTerms(p, bi, mat, force, pawns, &score)
	return score[p.Side] - score[p.Side.Other()], pawnKey
}

// passFreeIndex is the index of the middlegame weight of the passed pawn
// on cell by what stands in its way (enemy: the cells the enemy attacks,
// as a bit set): it cannot push at all (every push cell holds a piece),
// or every free push cell is attacked by the enemy, or else its whole way
// to promotion is empty and unattacked; false when none holds.
func (bi *boardInfo) passFreeIndex(p *engine.Position, cell int, enemy []uint64) (int, bool) {
	b := p.Board
	pc := b[cell]
	col, dir := pc.Color(), pc.Dir()
	free, safe := false, false
	for _, t := range p.Geo().PawnPush[col][dir][cell] {
		if b[t] != 0 {
			continue
		}
		free = true
		if !setHas(enemy, int(t)) {
			safe = true
			break
		}
	}
	d := int(bi.promoDist[col][dir][cell])
	switch {
	case !free:
		return wPassFree + 2*d, true
	case !safe:
		return wPassFree + 14 + 2*d, true
	}
	for i, x := range bi.pawnWay[col][dir][cell*bi.words : (cell+1)*bi.words] {
		if x&enemy[i] != 0 {
			return 0, false
		}
		for ; x != 0; x &= x - 1 {
			if b[i<<6|bits.TrailingZeros64(x)] != 0 {
				return 0, false
			}
		}
	}
	return wPassFree + 28 + 2*d, true
}

// passFreeTerm adds the passed pawn on cell's way term.
func (bi *boardInfo) passFreeTerm(p *engine.Position, cell int, att *[2][8]uint64, mg, eg *[2]int32) {
	col := p.Board[cell].Color()
	if i, ok := bi.passFreeIndex(p, cell, att[col.Other()][:bi.words]); ok {
		mg[col] += bi.w[i]
		eg[col] += bi.w[i+1]
	}
}

// threatTerms adds the threats: each enemy pawn, knight, bishop, rook and
// queen that a group of a side's pieces attacks, by group, kind and
// whether an enemy piece defends it (katt are the cells each side attacks
// by attacking kind, att their union).
func threatTerms(bi *boardInfo, kinds *[2][victimKinds + 1][8]uint64, att *[2][8]uint64, katt *[2][7][8]uint64, mg, eg *[2]int32) {
	w := bi.w
	words := bi.words
	for c := 0; c < 2; c++ {
		them := 1 - c
		for k := 1; k <= victimKinds; k++ {
			// Most kinds have no piece attacked at all.
			hit := false
			for i := 0; i < words; i++ {
				if kinds[them][k][i]&att[c][i] != 0 {
					hit = true
					break
				}
			}
			if !hit {
				continue
			}
			for g, ks := range groupKinds {
				a, b := &katt[c][ks[0]], &katt[c][ks[1]]
				var def, open int32
				for i := 0; i < words; i++ {
					if x := (a[i] | b[i]) & kinds[them][k][i]; x != 0 {
						def += int32(bits.OnesCount64(x & att[them][i]))
						open += int32(bits.OnesCount64(x &^ att[them][i]))
					}
				}
				if def|open != 0 {
					j := threatIndex(g, engine.Kind(k), false)
					mg[c] += open*w[j] + def*w[j+2]
					eg[c] += open*w[j+1] + def*w[j+3]
				}
			}
		}
	}
}

// lineTerms adds the rooks, queens and kings on lines without own pawns,
// the knights and bishops no enemy pawn can drive away and the pawns that
// could attack a piece by a safe push (own lists at least each side's
// pieces other than pawns, ps filled for every pawn, att the cells each
// side attacks, prey the pieces other than pawns and kings). The isolated
// pawns and those side by side with another are fillPawnEval's.
func lineTerms(p *engine.Position, bi *boardInfo, ps *pawnSets, own [2][]int16, pawnCells []int16, prey, att *[2][8]uint64, mg, eg *[2]int32) {
	b := p.Board
	w := bi.w
	words := bi.words
	for c := 0; c < 2; c++ {
		them := 1 - c
		for _, o := range own[c] {
			j := -1
			switch k := b[o].Kind(); k {
			case engine.Rook, engine.Queen, engine.King:
				line := bi.line[int(o)*words : int(o+1)*words]
				if !ps.any(engine.Color(c), line) {
					j = lineIndex(k, !ps.any(engine.Color(them), line))
				}
			case engine.Knight, engine.Bishop:
				if !meets(bi.outpostStop[them][0][int(o)*words:int(o+1)*words], &ps.on[them][0]) &&
					!meets(bi.outpostStop[them][1][int(o)*words:int(o+1)*words], &ps.on[them][1]) {
					j = outpostIndex(k, setHas(ps.att[c][:], int(o)))
				}
			}
			if j >= 0 {
				mg[c] += w[j]
				eg[c] += w[j+1]
			}
		}
	}
	g := p.Geo()
	var hits [2]int32
	for _, o := range pawnCells {
		pc := b[o]
		c, dir := pc.Color(), pc.Dir()
		them := c.Other()
		push := g.PawnPush[c][dir]
		if push == nil || !meets(bi.pushReach[c][dir][int(o)*words:int(o+1)*words], &prey[them]) {
			continue
		}
		for _, t := range push[o] {
			bit := uint64(1) << (uint(t) & 63)
			i := t >> 6
			if b[t] != 0 || ps.att[them][i]&bit != 0 || (att[them][i]&bit != 0 && att[c][i]&bit == 0) {
				continue
			}
			for i, m := range bi.pawnCap[c][dir][int(t)*words : int(t+1)*words] {
				hits[c] += int32(bits.OnesCount64(m & prey[them][i]))
			}
		}
	}
	for c := 0; c < 2; c++ {
		mg[c] += hits[c] * w[wPushHit]
		eg[c] += hits[c] * w[wPushHit+1]
	}
}

// checkTerms weighs the cells from which an enemy knight, bishop, rook or
// queen could check the king on cell: each that such a piece of the enemy
// (whose pieces are theirs and theirKing) reaches and does not stand on,
// by kind and by whether the king's side defends it (its attacks are
// ours). A queen checks from the bishop's and the rook's cells.
func checkTerms(p *engine.Position, bi *boardInfo, cell int, theirs *[victimKinds + 1][8]uint64, theirKing int16, ours *[8]uint64, katt *[7][8]uint64) (mg, eg int32) {
	words := bi.words
	var occ [8]uint64
	for i := 0; i < words; i++ {
		occ[i] = theirs[engine.Pawn][i] | theirs[engine.Knight][i] | theirs[engine.Bishop][i] | theirs[engine.Rook][i] | theirs[engine.Queen][i]
	}
	if theirKing >= 0 {
		occ[theirKing>>6] |= 1 << (uint(theirKing) & 63)
	}
	var reach [engine.Queen + 1][8]uint64
	p.AttacksAs(cell, engine.Knight, reach[engine.Knight][:words])
	p.AttacksAs(cell, engine.Bishop, reach[engine.Bishop][:words])
	p.AttacksAs(cell, engine.Rook, reach[engine.Rook][:words])
	w := bi.w
	for k := engine.Knight; k <= engine.Queen; k++ {
		var safe, def int32
		for i := 0; i < words; i++ {
			r := reach[k][i]
			if k == engine.Queen {
				r = reach[engine.Bishop][i] | reach[engine.Rook][i]
			}
			if x := r & katt[k][i] &^ occ[i]; x != 0 {
				def += int32(bits.OnesCount64(x & ours[i]))
				safe += int32(bits.OnesCount64(x &^ ours[i]))
			}
		}
		j := checkIndex(k, false)
		mg += safe*w[j] + def*w[j+2]
		eg += safe*w[j+1] + def*w[j+3]
	}
	return mg, eg
}

// meets reports whether the bit sets mask and set share a cell.
func meets(mask []uint64, set *[8]uint64) bool {
	for i, m := range mask {
		if m&set[i&7] != 0 {
			return true
		}
	}
	return false
}

// The pawn table: what the evaluation takes from the pawns alone, by the
// cells, colours and directions of the pawns.
const (
	pawnTableBits = 11
	// pawnPlanes bit planes count a side's pawns attacking a cell (up to
	// 7; a position with more is not kept).
	pawnPlanes = 3
	// maxPassed passed pawns are listed (a position with more is not
	// kept).
	maxPassed = 24
)

// pawnEval is the pawns' part of the evaluation: the sums of the terms of
// nothing but the pawns (passed pawns by distance, guarded, stacked,
// isolated and side-by-side pawns), the passed pawns (their distances to
// the kings are weighed apart) and the count of each side's pawns
// attacking each cell, bit-sliced: planes[word][colour][i] is bit i of the
// counts of the cells of that word (word-major, so that one word's planes
// share a cache line).
type pawnEval struct {
	mg, eg  [2]int32
	planes  [8][2][pawnPlanes]uint64
	passed  [maxPassed]int16
	nPassed int // -1: more than maxPassed
	// overflow: a cell is attacked by more pawns of a side than the
	// planes count (the planes are then wrong).
	overflow bool
}

// pawnSlot is one entry of a searcher's pawn table.
type pawnSlot struct {
	key uint64
	set bool
	pawnEval
}

// fillPawnEval computes pe for the pawns on pawnCells (ps.on filled); it
// fills ps.att, and adds the passed pawns' king-distance terms to mg and
// eg.
func (bi *boardInfo) fillPawnEval(p *engine.Position, ps *pawnSets, pawnCells []int16, pe *pawnEval, mg, eg *[2]int32) {
	b := p.Board
	w := bi.w
	words := bi.words
	pe.mg, pe.eg, pe.nPassed, pe.overflow = [2]int32{}, [2]int32{}, 0, false
	for i := 0; i < words; i++ {
		pe.planes[i] = [2][pawnPlanes]uint64{}
	}
	for _, c := range pawnCells {
		pc := b[c]
		col := pc.Color()
		for i, m := range bi.pawnCap[col][pc.Dir()][int(c)*words : int(c+1)*words] {
			ps.att[col][i&7] |= m
			pl := &pe.planes[i&7][col]
			c0 := pl[0] & m
			pl[0] ^= m
			c1 := pl[1] & c0
			pl[1] ^= c0
			if pl[2]&c1 != 0 {
				pe.overflow = true
			}
			pl[2] ^= c1
		}
	}
	var isolated [2]int32
	for _, c := range pawnCells {
		pc := b[c]
		col, dir := pc.Color(), pc.Dir()
		d := bi.promoDist[col][dir][c]
		far := d > 0 && int(d) < len(pawnBonus)
		if far && bi.passed(ps, col, dir, int(c)) {
			pe.mg[col] += w[wPassed+2*int(d)]
			pe.eg[col] += w[wPassed+2*int(d)+1]
			if pe.nPassed >= 0 && pe.nPassed < maxPassed {
				pe.passed[pe.nPassed] = c
				pe.nPassed++
			} else {
				pe.nPassed = -1
			}
			for i, k := range [2]int16{p.King[col], p.King[col.Other()]} {
				if k >= 0 {
					j := passKingIndex(i == 1, bi.kingDist[int(k)*bi.n+int(c)])
					mg[col] += w[j]
					eg[col] += w[j+1]
				}
			}
		}
		guarded, stacked := bi.pawnShape(ps, col, dir, int(c))
		pe.mg[col] += guarded*w[wGuarded] + stacked*w[wStacked]
		pe.eg[col] += guarded*w[wGuarded+1] + stacked*w[wStacked+1]
		if !bi.lineTerms {
			continue
		}
		if !ps.any(col, bi.adjLine[int(c)*words:int(c+1)*words]) {
			isolated[col]++
		}
		if far && meets(bi.beside[col][dir][int(c)*words:int(c+1)*words], &ps.on[col][dir]) {
			pe.mg[col] += w[wPhalanx+2*int(d)]
			pe.eg[col] += w[wPhalanx+2*int(d)+1]
		}
	}
	for col := range isolated {
		pe.mg[col] += isolated[col] * w[wIsolated]
		pe.eg[col] += isolated[col] * w[wIsolated+1]
	}
}

// pawnSets are the cells of the pawns on the board, by colour and
// direction, and the cells they attack, by colour, as bit sets (boards
// have at most 512 cells).
type pawnSets struct {
	on  [2][2][8]uint64
	att [2][8]uint64
}

// any reports whether a pawn of colour c stands on one of the cells of
// mask.
func (ps *pawnSets) any(c engine.Color, mask []uint64) bool {
	for i, m := range mask {
		if (ps.on[c][0][i]|ps.on[c][1][i])&m != 0 {
			return true
		}
	}
	return false
}

// setHas reports whether cell is in the bit set.
func setHas(set []uint64, cell int) bool { return set[cell>>6]>>(cell&63)&1 != 0 }

// pawnAttack marks the cells the pawn attacks in ps and counts the pieces
// of prey on them.
func (bi *boardInfo) pawnAttack(ps *pawnSets, prey *[8]uint64, col engine.Color, dir, cell int) (hits int32) {
	att := &ps.att[col]
	for i, m := range bi.pawnCap[col][dir][cell*bi.words : (cell+1)*bi.words] {
		att[i&7] |= m
		hits += int32(bits.OnesCount64(m & prey[i&7]))
	}
	return hits
}

// passed reports whether no enemy pawn stands on the pawn's way or where
// it could capture on it.
func (bi *boardInfo) passed(ps *pawnSets, col engine.Color, dir, cell int) bool {
	return !ps.any(col.Other(), bi.pawnStop[col][dir][cell*bi.words:(cell+1)*bi.words])
}

// pawnShape tells of one pawn whether an own pawn guards it and whether an
// own pawn stands on its way (ps.att filled for every pawn).
func (bi *boardInfo) pawnShape(ps *pawnSets, col engine.Color, dir, cell int) (guarded, stacked int32) {
	if ps.att[col][(cell>>6)&7]&(1<<(uint(cell)&63)) != 0 {
		guarded = 1
	}
	if ps.any(col, bi.pawnWay[col][dir][cell*bi.words:(cell+1)*bi.words]) {
		stacked = 1
	}
	return guarded, stacked
}

// pawnFacts counts for one pawn: whether an own pawn guards it, whether an
// own pawn stands on its way, and the enemy pieces other than pawns it
// attacks (ps filled by fill).
func (bi *boardInfo) pawnFacts(p *engine.Position, ps *pawnSets, col engine.Color, dir, cell int) (guarded, stacked, hits int32) {
	guarded, stacked = bi.pawnShape(ps, col, dir, cell)
	var prey [8]uint64
	for c, pc := range p.Board {
		if pc != 0 && pc.Color() != col && pc.Kind() != engine.Pawn && pc.Kind() != engine.King {
			prey[c>>6] |= 1 << (uint(c) & 63)
		}
	}
	var scratch pawnSets
	return guarded, stacked, bi.pawnAttack(&scratch, &prey, col, dir, cell)
}

// fill collects the pawns of the position and the cells they attack.
func (ps *pawnSets) fill(p *engine.Position, bi *boardInfo) {
	var none [8]uint64
	for c, pc := range p.Board {
		if pc != 0 && pc.Kind() == engine.Pawn {
			ps.on[pc.Color()][pc.Dir()][c>>6] |= 1 << (uint(c) & 63)
			bi.pawnAttack(ps, &none, pc.Color(), pc.Dir(), c)
		}
	}
}

// cellClasses groups the cells by what a side sees of them on the empty
// board: its own pawns' pushes to promotion from there, the enemy pawns'
// (how far the cell is from its own back rows), the knight and king moves
// from it and its summed king distance to every cell (how central it is).
// On the standard board this ties a cell to its mirror image across the
// middle files, and White's cells to Black's; on boards without edges many
// cells fall into one class.
func cellClasses(bi *boardInfo, g *engine.Geometry, start *engine.Position) (class [2][]int32, count int) {
	n := bi.n
	// The pawn directions each side starts with (both on the torus).
	var dirs [2][]int
	for _, pc := range start.Board {
		if pc.Kind() == engine.Pawn && !slices.Contains(dirs[pc.Color()], pc.Dir()) {
			dirs[pc.Color()] = append(dirs[pc.Color()], pc.Dir())
		}
	}
	dist := func(col, c int) int {
		d := noDistance
		for _, dir := range dirs[col] {
			d = min(d, int(bi.promoDist[col][dir][c]))
		}
		return d
	}
	ecc := make([]int, n)
	for c := 0; c < n; c++ {
		for _, d := range bi.kingDist[c*n : (c+1)*n] {
			ecc[c] += int(min(d, 64))
		}
	}
	ids := map[[5]int]int32{}
	for col := 0; col < 2; col++ {
		class[col] = make([]int32, n)
		for c := 0; c < n; c++ {
			key := [5]int{dist(col, c), dist(1-col, c), len(g.Knight[c]), len(g.KingSteps[c]), ecc[c]}
			id, ok := ids[key]
			if !ok {
				id = int32(len(ids))
				ids[key] = id
			}
			class[col][c] = id
		}
	}
	return class, len(ids)
}

// pawnTables fills the pawn-structure tables of bi from the geometry.
func pawnTables(bi *boardInfo, g *engine.Geometry) {
	n := g.N
	// capFrom[colour][dir][cell]: where a pawn captures onto the cell from.
	var capFrom [2][2][][]int16
	for c := 0; c < 2; c++ {
		for d := 0; d < 2; d++ {
			capFrom[c][d] = make([][]int16, n)
			if g.PawnCap[c][d] == nil {
				continue
			}
			for x, ts := range g.PawnCap[c][d] {
				for _, t := range ts {
					capFrom[c][d][t] = append(capFrom[c][d][t], int16(x))
				}
			}
		}
	}
	words := bi.words
	set := func(m []uint64, cells []int16) {
		for _, x := range cells {
			m[x>>6] |= 1 << (uint(x) & 63)
		}
	}
	for c := 0; c < 2; c++ {
		them := 1 - c
		for d := 0; d < 2; d++ {
			bi.pawnCap[c][d] = make([]uint64, n*words)
			for cell, ts := range g.PawnCap[c][d] {
				m := bi.pawnCap[c][d][cell*words : (cell+1)*words]
				for _, t := range ts {
					if m[t>>6]&(1<<(uint(t)&63)) != 0 {
						panic("search: a pawn capture table lists a cell twice")
					}
				}
				set(m, ts)
			}
			bi.pawnWay[c][d] = make([]uint64, n*words)
			bi.pawnStop[c][d] = make([]uint64, n*words)
			push := g.PawnPush[c][d]
			for cell := 0; cell < n; cell++ {
				var way []int16
				if push != nil {
					way = pawnWay(push, g.Promo[c][d], cell)
				}
				stop := append([]int16(nil), way...)
				for _, t := range append([]int16{int16(cell)}, way...) {
					for ed := 0; ed < 2; ed++ {
						for _, x := range capFrom[them][ed][t] {
							if x != int16(cell) {
								stop = append(stop, x)
							}
						}
					}
				}
				set(bi.pawnWay[c][d][cell*words:(cell+1)*words], way)
				set(bi.pawnStop[c][d][cell*words:(cell+1)*words], stop)
			}
		}
	}
	lineTables(bi, g)
}

// lineTables fills the line, neighbouring-line, beside, push-reach and
// outpost tables of bi (after the pawn tables and promotion distances).
func lineTables(bi *boardInfo, g *engine.Geometry) {
	n, words := g.N, bi.words
	bi.line = make([]uint64, n*words)
	for cell := 0; cell < n; cell++ {
		m := bi.line[cell*words : (cell+1)*words]
		m[cell>>6] |= 1 << (uint(cell) & 63)
		for c := 0; c < 2; c++ {
			for d := 0; d < 2; d++ {
				for i, x := range bi.pawnWay[c][d][cell*words : (cell+1)*words] {
					m[i] |= x
				}
			}
		}
	}
	bi.adjLine = make([]uint64, n*words)
	for cell := 0; cell < n; cell++ {
		own := bi.line[cell*words : (cell+1)*words]
		m := bi.adjLine[cell*words : (cell+1)*words]
		for x := 0; x < n; x++ {
			if !setHas(own, x) {
				continue
			}
			for _, y := range g.KingSteps[x] {
				for i, z := range bi.line[int(y)*words : int(y+1)*words] {
					m[i] |= z
				}
			}
		}
		for i := range m {
			m[i] &^= own[i]
		}
	}
	for c := 0; c < 2; c++ {
		for d := 0; d < 2; d++ {
			bi.beside[c][d] = make([]uint64, n*words)
			for cell := 0; cell < n; cell++ {
				for _, t := range g.KingSteps[cell] {
					if bi.promoDist[c][d][t] == bi.promoDist[c][d][cell] {
						bi.beside[c][d][cell*words+int(t)>>6] |= 1 << (uint(t) & 63)
					}
				}
			}
			bi.outpostStop[c][d] = make([]uint64, n*words)
			bi.pushReach[c][d] = make([]uint64, n*words)
			caps := g.PawnCap[c][d]
			if caps == nil {
				continue
			}
			if push := g.PawnPush[c][d]; push != nil {
				for cell := 0; cell < n; cell++ {
					for _, t := range push[cell] {
						for i, m := range bi.pawnCap[c][d][int(t)*words : int(t+1)*words] {
							bi.pushReach[c][d][cell*words+i] |= m
						}
					}
				}
			}
			for x := 0; x < n; x++ {
				way := bi.pawnWay[c][d][x*words : (x+1)*words]
				for y := 0; y < n; y++ {
					if y != x && !setHas(way, y) {
						continue
					}
					for _, t := range caps[y] {
						bi.outpostStop[c][d][int(t)*words+x>>6] |= 1 << (uint(x) & 63)
					}
				}
			}
		}
	}
}

// pawnWay is every cell reachable from cell by single pushes before a
// promotion cell (that one included), at most 8 pushes deep.
func pawnWay(push [][]int16, promo []bool, cell int) []int16 {
	var way []int16
	seen := map[int16]bool{int16(cell): true}
	front := []int16{int16(cell)}
	for step := 0; step < 8 && len(front) > 0; step++ {
		var next []int16
		for _, x := range front {
			if x != int16(cell) && promo[x] {
				continue
			}
			for _, t := range push[x] {
				if !seen[t] {
					seen[t] = true
					way = append(way, t)
					next = append(next, t)
				}
			}
		}
		front = next
	}
	return way
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

// evalSlot is one entry of a searcher's evaluation cache.
type evalSlot struct {
	key     uint64
	pawnKey uint64
	v       int32
	set     bool
}

const evalCacheBits = 16

// evaluate is evaluate for the searched position through the searcher's
// cache: re-searches and transpositions meet the same positions again,
// and the evaluation depends on nothing but the position. It also leaves
// the position's pawn key in s.pawnKey for the correction history.
func (s *Searcher) evaluate() int32 {
	pos := s.pos
	e := &s.evalCache[pos.Hash&(1<<evalCacheBits-1)]
	if e.set && e.key == pos.Hash {
		s.pawnKey = e.pawnKey
		return e.v
	}
	if s.pawnTable == nil {
		s.pawnTable = make([]pawnSlot, 1<<pawnTableBits)
	}
	var v int32
	if n := s.net; n != nil && !s.termsOnly {
		if s.netAcc == nil || s.netAcc.net != n {
			s.netAcc = newNetAcc(n)
		}
		s.netAcc.update(pos)
		if n.OnTerms {
			v, s.pawnKey = evaluateWith(pos, s.bi, s.pawnTable)
			v += s.netAcc.output(pos.Side)
		} else {
			v, s.pawnKey = netEnding(pos, s.bi, s.netAcc.output(pos.Side))
		}
	} else {
		v, s.pawnKey = evaluateWith(pos, s.bi, s.pawnTable)
	}
	*e = evalSlot{key: pos.Hash, pawnKey: s.pawnKey, v: v, set: true}
	return v
}

// pawnKey hashes the cells and colours of the pawns.
func pawnKey(pos *engine.Position) uint64 {
	k, _ := pawnKeys(pos)
	return k
}

// pawnKeys hashes the cells and colours of the pawns (the correction
// history's key) and, for the pawn table, also their directions.
func pawnKeys(pos *engine.Position) (k, table uint64) {
	var minus uint64
	for i, pc := range pos.Board {
		if pc != 0 && pc.Kind() == engine.Pawn {
			x := pawnMix(i, pc.Color())
			k += x
			if pc.Dir() != 0 {
				minus += minusMix(x)
			}
		}
	}
	return k, k ^ minus
}

// pawnMix is a pawn's share of the pawn key; minusMix, of the table key
// alone, for a pawn of the second direction.
func pawnMix(cell int, c engine.Color) uint64 {
	x := uint64(cell)<<1 | uint64(c)
	x = (x + 0x9e3779b97f4a7c15) * 0xbf58476d1ce4e5b9
	x ^= x >> 31
	return x * 0x94d049bb133111eb
}

func minusMix(x uint64) uint64 { return (x ^ x>>29) * 0xd6e8feb86659fd93 }

// Correction history: how far the search's scores have fallen from the
// static evaluation at nodes with the same pawns, learned during the
// search and added to the static evaluation for the pruning decisions
// and the quiescence search's stand-pat. Entries are in 1/corrGrain cp.
const (
	corrBits  = 14
	corrGrain = 256
	corrMax   = 32 * corrGrain
)

// correction is the entry of the last evaluated position's pawns, for the
// side to move.
func (s *Searcher) correction() *int32 {
	return &s.corr[s.pos.Side][s.pawnKey&(1<<corrBits-1)]
}

// corrected is the static evaluation with its correction.
func (s *Searcher) corrected() int32 {
	v := s.evaluate()
	return v + *s.correction()/corrGrain
}

// correct moves an entry towards the difference a search of depth found
// between the node's score and its uncorrected static evaluation, faster
// the deeper the search.
func correct(c *int32, static, best int32, depth int) {
	w := int32(min(depth+1, 16))
	diff := max(-corrMax, min((best-static)*corrGrain, corrMax))
	*c = max(-corrMax, min((*c*(256-w)+diff*w)/256, corrMax))
}

// netEnding adds to a network's score v (for the side to move) what the
// weighted terms know of the endings a network alone learns too seldom
// from its games: in the pawnless endings the side ahead seldom wins
// (drawnMinor and drawnExchange) the score is cut to the weights' share
// of it (none when that share is below zero), and a side far ahead
// drives the lone king to the edge (mopUp) so that the search finds the
// mate. It also returns the position's pawn key (pawnKey), from the same
// pass over the board.
func netEnding(p *engine.Position, bi *boardInfo, v int32) (int32, uint64) {
	var mat, force, pawns, bishops [2]int32
	var key uint64
	for i, pc := range p.Board {
		if pc != 0 {
			col, k := pc.Color(), pc.Kind()
			switch k {
			case engine.King:
				continue
			case engine.Pawn:
				pawns[col]++
				key += pawnMix(i, col)
			default:
				force[col] += value[k]
				if k == engine.Bishop {
					bishops[col]++
				}
			}
			mat[col] += value[k]
		}
	}
	white := v
	if p.Side != engine.White {
		white = -v
	}
	if c := drawnClass(p, bi, white, force, pawns, bishops); c == drawnMinor || c == drawnExchange {
		v = v * max(bi.w[wDrawn+c-1], 0) / 64
	}
	var score [2]int32
	mopUp(p, bi, mat, force, pawns, &score)
	return v + score[p.Side] - score[p.Side.Other()], key
}
