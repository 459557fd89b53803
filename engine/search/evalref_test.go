package search

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"topochess/engine"
)

// evaluate's bit sets, piece lists and flat tables are there for speed
// only: it must return exactly what the terms say, computed the plain way
// (cell by cell, Attacked for attacks, the geometry's move lists for pawn
// structure), on every board and with any weights.
func TestEvaluateMatchesPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	eachWeights(rng, func(id string, v *engine.Variant, weights []*boardInfo) {
		ps := randomPositions(v, rng, 400, 120)
		if len(ps) < 300 {
			t.Fatalf("%s: only %d positions", id, len(ps))
		}
		for _, p := range ps {
			for _, bi := range weights {
				if got, want := evaluate(p, bi), evaluatePlain(p, bi); got != want {
					t.Fatalf("%s %s: evaluate %d, plain %d", id, p.String(), got, want)
				}
			}
		}
	})
}

// eachWeights calls f for every board with its shipped weights and with
// random ones (every term on), drawn from rng.
func eachWeights(rng *rand.Rand, f func(id string, v *engine.Variant, weights []*boardInfo)) {
	for _, id := range engine.Variants() {
		v, _ := engine.GetVariant(id)
		shipped := infoFor(v)
		random := randomWeights(shipped, rng)
		f(id, v, []*boardInfo{shipped, &random})
	}
}

// The pawn table changes no score: along random games, where most moves
// keep the pawns where they were, each position is evaluated through a
// small table that the earlier positions filled (so with the pawns' part
// of a position with other pieces and kings) and compared with the plain
// evaluation; the table must have answered a good share of them.
func TestPawnTableMatchesPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	eachWeights(rng, func(id string, v *engine.Variant, weights []*boardInfo) {
		for _, bi := range weights {
			table := make([]pawnSlot, 8)
			hits, evals := 0, 0
			for g := 0; g < 3; g++ {
				pos := v.StartPosition()
				for ply := 0; ply < 40; ply++ {
					ms := pos.LegalMoves()
					if len(ms) == 0 {
						break
					}
					corrKey, key := pawnKeys(pos)
					slot := &table[key%uint64(len(table))]
					if slot.set && slot.key == key {
						hits++
					}
					evals++
					got, gotKey := evaluateWith(pos, bi, table)
					if want := evaluatePlain(pos, bi); got != want {
						t.Fatalf("%s %s: through the pawn table %d, plain %d", id, pos.String(), got, want)
					}
					if gotKey != corrKey {
						t.Fatalf("%s %s: pawn key %x, pawnKeys %x", id, pos.String(), gotKey, corrKey)
					}
					if !slot.set || slot.key != key {
						t.Fatalf("%s %s: the table does not hold the position's pawns after its evaluation", id, pos.String())
					}
					pos.Make(ms[rng.IntN(len(ms))])
				}
			}
			if hits < evals/4 {
				t.Errorf("%s: the pawn table answered %d of %d evaluations", id, hits, evals)
			}
		}
	})
}

// evaluatePlain is evaluate written term by term without its shortcuts.
func evaluatePlain(p *engine.Position, bi *boardInfo) int32 {
	g := p.Geo()
	b := p.Board
	w := bi.w
	var mat, force, pawns, mg, eg [2]int32
	var bishops [2]int
	var kinds [2][7]int32
	add := func(col engine.Color, i int, n int32) {
		mg[col] += n * w[i]
		eg[col] += n * w[i+1]
	}
	for c, pc := range b {
		if pc == 0 {
			continue
		}
		col, k := pc.Color(), pc.Kind()
		mat[col] += value[k]
		add(col, bi.pstIndex(col, k, c), 1)
		if k == engine.King {
			continue
		}
		// Pawns by both kings' distances to them, pieces by the enemy
		// king's.
		for _, side := range []engine.Color{col, col.Other()} {
			kc := p.King[side]
			if kc < 0 || (k != engine.Pawn && side == col) {
				continue
			}
			d := plainKingDistance(g, int(kc), c)
			if k == engine.Pawn {
				add(col, pawnKingIndex(side != col, d), 1)
			} else {
				add(col, tropismIndex(k, d), 1)
			}
		}
		add(col, wMaterial+2*int(k), 1)
		kinds[col][k]++
		if k == engine.Bishop {
			bishops[col]++
		}
		if k == engine.Pawn {
			pawns[col]++
			d := bi.promoDist[col][pc.Dir()][c]
			progress := d > 0 && int(d) < len(pawnBonus)
			if progress {
				add(col, wProgress+2*int(d), 1)
			}
			if bi.pawnStructure {
				passed, guarded, stacked, hits := plainPawn(p, c)
				if progress && passed {
					add(col, wPassed+2*int(d), 1)
					// The kings' distances to the passed pawn, by a
					// breadth-first search of king steps.
					for _, side := range []engine.Color{col, col.Other()} {
						if k := p.King[side]; k >= 0 {
							add(col, passKingIndex(side != col, plainKingDistance(g, int(k), c)), 1)
						}
					}
					// Its push cells: none free, or every free one
					// attacked by the enemy; else its way, empty and
					// unattacked.
					free, safe := 0, 0
					for _, t := range g.PawnPush[col][pc.Dir()][c] {
						if b[t] == 0 {
							free++
							if !p.Attacked(int(t), col.Other()) {
								safe++
							}
						}
					}
					clear := true
					for _, t := range pawnWay(g.PawnPush[col][pc.Dir()], g.Promo[col][pc.Dir()], c) {
						clear = clear && b[t] == 0 && !p.Attacked(int(t), col.Other())
					}
					switch {
					case free == 0:
						add(col, wPassFree+2*int(d), 1)
					case safe == 0:
						add(col, wPassFree+2*7+2*int(d), 1)
					case clear:
						add(col, wPassFree+2*14+2*int(d), 1)
					}
				}
				add(col, wGuarded, guarded)
				add(col, wStacked, stacked)
				add(col, wPawnHit, hits)
			}
			continue
		}
		force[col] += value[k]
		// Safe destinations: the cells the piece attacks that hold no own
		// piece and no enemy pawn attacks.
		one := make([]uint64, bi.words)
		p.MobilityAttacksOf(col, []int16{int16(c)}, one, nil)
		pawnHits := kindAttackSets(p, col.Other(), bi.words)[engine.Pawn]
		safe := 0
		for t := range b {
			if setHas(one, t) && !setHas(pawnHits, t) && (b[t] == 0 || b[t].Color() != col) {
				safe++
			}
		}
		add(col, safeMobIndex(k, safe), 1)
		if bi.hanging && p.Attacked(c, col.Other()) && !p.Attacked(c, col) {
			add(col, wHanging+2*int(k), 1)
		}
	}
	if bi.threats {
		// Each enemy piece each group attacks, attacks gathered piece by
		// piece, defence by Attacked.
		for c, pc := range b {
			if pc == 0 || pc.Kind() == engine.King {
				continue
			}
			col := pc.Color()
			them := col.Other()
			for g, set := range groupAttackSets(kindAttackSets(p, them, bi.words)) {
				if set[c/64]>>(c%64)&1 != 0 {
					add(them, threatIndex(g, pc.Kind(), p.Attacked(c, col)), 1)
				}
			}
		}
	}
	for c := engine.White; c <= engine.Black; c++ {
		mob, list := p.MobilityAttacks(c, make([]uint64, bi.words), nil)
		for k, n := range mob {
			add(c, wMobility+2*k, int32(n))
		}
		if bi.mobTable {
			for _, m := range list {
				add(c, wMobTable+2*int(m), 1)
			}
		}
		if bishops[c] >= 2 {
			add(c, wBishops, 1)
		}
		for k := engine.Knight; k <= engine.Queen; k++ {
			add(c, imbalanceIndex(k, false), kinds[c][k]*pawns[c])
			add(c, imbalanceIndex(k, true), kinds[c][k]*pawns[c.Other()])
		}
		// Pairs, counted one by one.
		for a := engine.Knight; a <= engine.Queen; a++ {
			for b := engine.Knight; b <= engine.Queen; b++ {
				for i := range kinds[c][a] {
					for j := range kinds[c][b] {
						if a < b || (a == b && i < j) {
							add(c, pairIndex(a, b, false), 1)
						}
					}
					if a < b {
						add(c, pairIndex(a, b, true), kinds[c.Other()][b])
					}
				}
			}
		}
		if k := p.King[c]; k >= 0 {
			them := c.Other()
			var hits, shield int32
			var seen []int16
			for _, t := range g.KingSteps[k] {
				if !slices.Contains(seen, t) && p.Attacked(int(t), them) {
					hits++
				}
				seen = append(seen, t)
				if x := b[t]; x != 0 && x.Kind() == engine.Pawn && x.Color() == c {
					shield++
				}
			}
			scale := min(force[them], bi.startForce)
			kt := wKingTable + 2*int(min(hits, kingTableSize-1))
			zmg, zeg := hits*w[wKingZone]+w[kt], hits*w[wKingZone+1]+w[kt+1]
			if bi.threats {
				for g, set := range groupAttackSets(kindAttackSets(p, them, bi.words)) {
					var n int32
					for i, t := range seen {
						if !slices.Contains(seen[:i], t) {
							n += int32(set[t/64] >> (t % 64) & 1)
						}
					}
					zmg += n * w[wKingGroup+2*g]
					zeg += n * w[wKingGroup+2*g+1]
				}
				// Checks: cell by cell, the enemy's attacks piece by piece.
				kinds := kindAttackSets(p, them, bi.words)
				for kind := engine.Knight; kind <= engine.Queen; kind++ {
					reach := checkReach(p, int(k), kind, bi.words)
					for t := 0; t < g.N; t++ {
						if !setHas(reach, t) || !setHas(kinds[kind], t) || (b[t] != 0 && b[t].Color() == them) {
							continue
						}
						j := checkIndex(kind, p.Attacked(t, c))
						zmg += w[j]
						zeg += w[j+1]
					}
				}
				// Weak cells: attacked, and defended by no own piece
				// but the king.
				ours := kindAttackSets(p, c, bi.words)
				weak := 0
				for i, t := range seen {
					if slices.Contains(seen[:i], t) || !p.Attacked(int(t), them) {
						continue
					}
					defended := false
					for kind := engine.Pawn; kind <= engine.Queen; kind++ {
						defended = defended || setHas(ours[kind], int(t))
					}
					if !defended {
						weak++
					}
				}
				j := wKingWeak + 2*min(weak, kingWeakSize-1)
				zmg += w[j]
				zeg += w[j+1]
				// The kinds of the enemy pieces, one by one, that
				// attack a cell next to the king.
				set := 0
				for o, pc := range b {
					if pc == 0 || pc.Color() != them || pc.Kind() < engine.Knight || pc.Kind() > engine.Queen {
						continue
					}
					one := make([]uint64, bi.words)
					p.MobilityAttacksOf(them, []int16{int16(o)}, one, nil)
					for _, t := range seen {
						if setHas(one, int(t)) {
							set |= 1 << (pc.Kind() - engine.Knight)
						}
					}
				}
				zmg += w[wKingKinds+2*set]
				zeg += w[wKingKinds+2*set+1]
			}
			mg[c] += zmg * scale / bi.startForce
			eg[c] += zeg * scale / bi.startForce
			add(c, wShield, shield)
		}
	}
	plainLines(p, add)
	add(p.Side, wTempo, 1)
	phaseNum := min(force[0]+force[1], 2*bi.startForce)
	phaseDen := 2 * bi.startForce
	share := int32(64)
	if c := drawnClass(p, bi, eg[0]-eg[1], force, pawns, [2]int32{kinds[0][engine.Bishop], kinds[1][engine.Bishop]}); c != 0 {
		share = w[wDrawn+c-1]
	}
	var score [2]int32
	for c := range score {
		score[c] = blend(mg[c], eg[c], phaseNum, phaseDen, share)
	}
	extraTerms(p, bi, mat, force, pawns, &score)
	return score[p.Side] - score[p.Side.Other()]
}

// plainKingDistance is the number of king steps from one cell to another.
func plainKingDistance(g *engine.Geometry, from, to int) uint8 {
	dist := map[int]uint8{from: 0}
	queue := []int{from}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		if x == to {
			return dist[x]
		}
		for _, t := range g.KingSteps[x] {
			if _, ok := dist[int(t)]; !ok {
				dist[int(t)] = dist[x] + 1
				queue = append(queue, int(t))
			}
		}
	}
	return noDistance
}

// plainPawn tells of the pawn on cell: whether it is passed (no enemy pawn
// on its way or where a pawn of its colour, in either direction, would
// capture on its way or on it), guarded by an own
// pawn, stacked behind an own pawn on its way, and how many enemy pieces
// other than pawns and the king it attacks.
func plainPawn(p *engine.Position, cell int) (passed bool, guarded, stacked, hits int32) {
	g := p.Geo()
	b := p.Board
	pc := b[cell]
	col, dir := pc.Color(), pc.Dir()
	var way []int16
	if g.PawnPush[col][dir] != nil {
		way = pawnWay(g.PawnPush[col][dir], g.Promo[col][dir], cell)
	}
	path := append([]int16{int16(cell)}, way...)
	passed = true
	for x, y := range b {
		if y == 0 || y.Kind() != engine.Pawn || x == cell {
			continue
		}
		onWay := slices.Contains(way, int16(x))
		if y.Color() == col {
			if onWay {
				stacked = 1
			}
			if slices.Contains(g.PawnCap[col][y.Dir()][x], int16(cell)) {
				guarded = 1
			}
			continue
		}
		if onWay {
			passed = false
		}
		for _, caps := range g.PawnCap[y.Color()] { // either direction
			if caps == nil {
				continue
			}
			for _, t := range caps[x] {
				if slices.Contains(path, t) {
					passed = false
				}
			}
		}
	}
	for _, t := range g.PawnCap[col][dir][cell] {
		if y := b[t]; y != 0 && y.Color() != col && y.Kind() != engine.Pawn && y.Kind() != engine.King {
			hits++
		}
	}
	return passed, guarded, stacked, hits
}

// plainCache keeps what the plain evaluation asks of a board's geometry
// many times per position: by kind of question, board and cell.
var plainCache struct {
	sync.Mutex
	m map[plainKey][]int16
}

type plainKey struct {
	what string
	g    *engine.Geometry
	cell int
}

// cached returns compute(), computed once per question, board and cell.
func cached(what string, g *engine.Geometry, cell int, compute func() []int16) []int16 {
	k := plainKey{what, g, cell}
	plainCache.Lock()
	v, ok := plainCache.m[k]
	plainCache.Unlock()
	if ok {
		return v
	}
	v = compute()
	plainCache.Lock()
	if plainCache.m == nil {
		plainCache.m = map[plainKey][]int16{}
	}
	plainCache.m[k] = v
	plainCache.Unlock()
	return v
}

// plainLine is the cell's line: the cell and every cell a pawn of either
// colour and direction would cross from it.
func plainLine(g *engine.Geometry, cell int) []int16 {
	return cached("line", g, cell, func() []int16 { return computeLine(g, cell) })
}

// plainNextLines are the cells of the lines through the king steps of
// the cell's line, less that line.
func plainNextLines(g *engine.Geometry, cell int) []int16 {
	return cached("next", g, cell, func() []int16 {
		line := plainLine(g, cell)
		var next []int16
		for _, x := range line {
			for _, y := range g.KingSteps[x] {
				for _, z := range plainLine(g, int(y)) {
					if !slices.Contains(line, z) && !slices.Contains(next, z) {
						next = append(next, z)
					}
				}
			}
		}
		return next
	})
}

// plainWay is pawnWay for a pawn of colour col and direction dir (nil
// when such pawns never move).
func plainWay(g *engine.Geometry, col engine.Color, dir, cell int) []int16 {
	return cached(fmt.Sprint("way", col, dir), g, cell, func() []int16 {
		if g.PawnPush[col][dir] == nil {
			return nil
		}
		return pawnWay(g.PawnPush[col][dir], g.Promo[col][dir], cell)
	})
}

func computeLine(g *engine.Geometry, cell int) []int16 {
	line := []int16{int16(cell)}
	for c := engine.White; c <= engine.Black; c++ {
		for d := 0; d < 2; d++ {
			for _, x := range plainWay(g, c, d, cell) {
				if !slices.Contains(line, x) {
					line = append(line, x)
				}
			}
		}
	}
	return line
}

// plainPromoDist is the number of single pushes a pawn of colour col and
// direction dir needs from cell to a promotion cell (255: never).
func plainPromoDist(g *engine.Geometry, col engine.Color, dir, cell int) int {
	push, promo := g.PawnPush[col][dir], g.Promo[col][dir]
	if push == nil {
		return noDistance
	}
	dist := map[int]int{cell: 0}
	queue := []int{cell}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		if promo[x] {
			return dist[x]
		}
		for _, t := range push[x] {
			if _, ok := dist[int(t)]; !ok {
				dist[int(t)] = dist[x] + 1
				queue = append(queue, int(t))
			}
		}
	}
	return noDistance
}

// plainLines adds the line, outpost, isolated-pawn, push-threat and
// phalanx terms cell by cell.
func plainLines(p *engine.Position, add func(engine.Color, int, int32)) {
	g := p.Geo()
	b := p.Board
	pawnIn := func(col engine.Color, cells []int16) bool {
		for _, x := range cells {
			if y := b[x]; y != 0 && y.Kind() == engine.Pawn && y.Color() == col {
				return true
			}
		}
		return false
	}
	// pawnAttacks: a pawn of colour col attacks cell (now).
	pawnAttacks := func(col engine.Color, cell int16) bool {
		for x, y := range b {
			if y != 0 && y.Kind() == engine.Pawn && y.Color() == col && slices.Contains(g.PawnCap[col][y.Dir()][x], cell) {
				return true
			}
		}
		return false
	}
	for o, pc := range b {
		if pc == 0 {
			continue
		}
		col, k := pc.Color(), pc.Kind()
		them := col.Other()
		switch k {
		case engine.Rook, engine.Queen, engine.King:
			line := plainLine(g, o)
			if !pawnIn(col, line) {
				add(col, lineIndex(k, !pawnIn(them, line)), 1)
			}
		case engine.Knight, engine.Bishop:
			reached := false
			for x, y := range b {
				if y == 0 || y.Kind() != engine.Pawn || y.Color() != them || g.PawnPush[them][y.Dir()] == nil {
					continue
				}
				for _, z := range append([]int16{int16(x)}, plainWay(g, them, y.Dir(), x)...) {
					if slices.Contains(g.PawnCap[them][y.Dir()][z], int16(o)) {
						reached = true
					}
				}
			}
			if !reached {
				add(col, outpostIndex(k, pawnAttacks(col, int16(o))), 1)
			}
		case engine.Pawn:
			if !pawnIn(col, plainNextLines(g, o)) {
				add(col, wIsolated, 1)
			}
			// Beside an own pawn of the same direction, as far from
			// promotion (the distance by a breadth-first search here).
			d := plainPromoDist(g, col, pc.Dir(), o)
			for _, t := range g.KingSteps[o] {
				if y := b[t]; d > 0 && d < len(pawnBonus) && y == pc && plainPromoDist(g, col, pc.Dir(), int(t)) == d {
					add(col, wPhalanx+2*d, 1)
					break
				}
			}
			if g.PawnPush[col][pc.Dir()] == nil {
				continue
			}
			for _, t := range g.PawnPush[col][pc.Dir()][o] {
				if b[t] != 0 || pawnAttacks(them, t) || (p.Attacked(int(t), them) && !p.Attacked(int(t), col)) {
					continue
				}
				for _, x := range g.PawnCap[col][pc.Dir()][t] {
					if y := b[x]; y != 0 && y.Color() == them && y.Kind() != engine.Pawn && y.Kind() != engine.King {
						add(col, wPushHit, 1)
					}
				}
			}
		}
	}
}
