package search

import (
	"context"
	"math"
	"math/bits"
	"runtime"
	"sync"

	"topochess/engine"
)

// Tuning learns a variant's weight vector from finished games: every quiet
// position of a game is a sample labelled with the game's result, and the
// weights are moved so that a logistic function of the evaluation predicts
// the results better (least squares on the predicted score). The
// evaluation is linear in its weights once the position's phase is known,
// so a sample is stored as its list of (weight pair, count) entries.

// Dataset holds the samples of one variant.
type Dataset struct {
	v  *engine.Variant
	bi *boardInfo
	s  *Searcher
	// Per sample: its entries are idx/val[start[i]:start[i+1]].
	start  []uint32
	idx    []uint32 // index of the middlegame weight of a pair
	val    []float32
	phase  []float32 // middlegame share, 0..1
	drawn  []uint8   // drawnClass under the tuner's own weights
	fixed  []float32 // the terms outside the weights, White's view
	result []float32 // 1 White won, 0.5 draw, 0 Black won
	// Skipped counts positions refused as not quiet.
	Skipped int
}

// NewDataset starts an empty dataset for v.
func NewDataset(v *engine.Variant) *Dataset {
	s := newSearcher(10)
	// The weights are fitted to what the weighted terms alone say, so the
	// quiescence search that picks the quiet positions uses them alone.
	s.termsOnly = true
	return &Dataset{v: v, bi: infoFor(v), s: s, start: []uint32{0}}
}

// Len is the number of samples.
func (d *Dataset) Len() int { return len(d.result) }

// DrawnCounts is the number of positions in each drawn class (drawnClass;
// index 0: none).
func (d *Dataset) DrawnCounts() []int {
	n := make([]int, drawnClasses+1)
	for _, c := range d.drawn {
		n[c]++
	}
	return n
}

// Add adds a position with its game's result (1, 0.5 or 0 for White) and
// reports whether it was taken: a position in check, or where the side to
// move wins or loses material at once (its quiescence search differs from
// its evaluation), says little about the evaluation and is left out.
func (d *Dataset) Add(p *engine.Position, result float64) bool {
	if !d.Quiet(p) {
		d.Skipped++
		return false
	}
	ph, fixed, drawn := features(p, d.bi, func(i int, v float32) {
		d.idx = append(d.idx, uint32(i))
		d.val = append(d.val, v)
	})
	d.start = append(d.start, uint32(len(d.idx)))
	d.phase = append(d.phase, ph)
	d.drawn = append(d.drawn, uint8(drawn))
	d.fixed = append(d.fixed, fixed)
	d.result = append(d.result, float32(result))
	return true
}

// Quiet reports whether a position is taken as a sample: not in check,
// and its quiescence search agrees with its evaluation.
func (d *Dataset) Quiet(p *engine.Position) bool {
	if p.InCheck() {
		return false
	}
	static, q := d.s.quietScore(p)
	return static == q
}

// quietScore returns the static evaluation and the quiescence search's
// score of p, for the side to move.
func (s *Searcher) quietScore(p *engine.Position) (static, q int32) {
	root := p.Clone()
	s.prepare(context.Background(), root, Config{Nodes: 200_000})
	static = evaluate(root, s.bi)
	q = s.quiesce(0, qEvasionDepth, -infinity, infinity)
	s.ctx, s.pos = nil, nil
	return static, q
}

// features writes the position's evaluation as weight-pair entries from
// White's side (emit(index of the pair's middlegame weight, count), Black's
// counts negative) and returns the middlegame share of the blend, the
// terms outside the weights and the drawnClass that bi's weights give. It
// follows evaluate term by term; a test checks the two agree.
func features(p *engine.Position, bi *boardInfo, emitTo func(int, float32)) (phase, fixed float32, drawn int) {
	var egWhite float64 // the endgame score under bi.w, for the drawn class
	emit := func(i int, x float32) {
		egWhite += float64(x) * float64(bi.w[i+1])
		emitTo(i, x)
	}
	g := p.Geo()
	b := p.Board
	var mat, force [2]int32
	var kinds [2][engine.King]int32
	sign := [2]float32{1, -1}
	ps := &pawnSets{}
	ps.fill(p, bi)
	kindSets := [2][7][]uint64{kindAttackSets(p, engine.White, bi.words), kindAttackSets(p, engine.Black, bi.words)}
	groupSets := [2][attackGroups][]uint64{groupAttackSets(kindSets[0]), groupAttackSets(kindSets[1])}
	// Every cell each side attacks, from the sets by kind.
	var attacked [2][]uint64
	for c := range attacked {
		attacked[c] = make([]uint64, bi.words)
		for _, set := range kindSets[c] {
			for i, x := range set {
				attacked[c][i] |= x
			}
		}
	}
	for c, pc := range b {
		if pc == 0 {
			continue
		}
		col := pc.Color()
		k := pc.Kind()
		mat[col] += value[k]
		emit(bi.pstIndex(col, k, c), sign[col])
		switch k {
		case engine.Pawn:
			if d := bi.promoDist[col][pc.Dir()][c]; d > 0 && int(d) < len(pawnBonus) {
				emit(wProgress+2*int(d), sign[col])
				if bi.passed(ps, col, pc.Dir(), c) {
					emit(wPassed+2*int(d), sign[col])
					for i, k := range [2]int16{p.King[col], p.King[col.Other()]} {
						if k >= 0 {
							emit(passKingIndex(i == 1, bi.kingDist[int(k)*bi.n+c]), sign[col])
						}
					}
					if i, ok := bi.passFreeIndex(p, c, attacked[col.Other()]); ok {
						emit(i, sign[col])
					}
				}
			}
			guarded, stacked, hits := bi.pawnFacts(p, ps, col, pc.Dir(), c)
			for _, f := range [...]struct {
				i int
				n int32
			}{{wGuarded, guarded}, {wStacked, stacked}, {wPawnHit, hits}} {
				if f.n != 0 {
					emit(f.i, sign[col]*float32(f.n))
				}
			}
		case engine.King:
			continue
		}
		kinds[col][k]++
		if k == engine.Pawn {
			for i, kc := range [2]int16{p.King[col], p.King[col.Other()]} {
				if kc >= 0 {
					emit(pawnKingIndex(i == 1, bi.kingDist[int(kc)*bi.n+c]), sign[col])
				}
			}
		} else if kc := p.King[col.Other()]; kc >= 0 {
			emit(tropismIndex(k, bi.kingDist[int(kc)*bi.n+c]), sign[col])
		}
		if k != engine.Pawn && k != engine.King {
			them := col.Other()
			one := make([]uint64, bi.words)
			p.MobilityAttacksOf(col, []int16{int16(c)}, one, nil)
			m := 0
			for t := 0; t < g.N; t++ {
				if setHas(one, t) && !setHas(kindSets[them][engine.Pawn], t) {
					if x := b[t]; x == 0 || x.Color() != col {
						m++
					}
				}
			}
			emit(safeMobIndex(k, m), sign[col])
		}
		if k != engine.Pawn && p.Attacked(c, col.Other()) && !p.Attacked(c, col) {
			emit(wHanging+2*int(k), sign[col])
		}
		if k != engine.King {
			them := col.Other()
			for g, set := range groupSets[them] {
				if set[c>>6]&(1<<(uint(c)&63)) != 0 {
					emit(threatIndex(g, k, p.Attacked(c, col)), sign[them])
				}
			}
		}
		emit(wMaterial+2*int(k), sign[col])
		if k != engine.Pawn {
			force[col] += value[k]
		}
	}
	for c := 0; c < 2; c++ {
		col := engine.Color(c)
		if kinds[c][engine.Bishop] >= 2 {
			emit(wBishops, sign[c])
		}
		count := func(i int, n int32) { emit(i, sign[c]*float32(n)) }
		imbalanceCounts(&kinds, c, count)
		pairCounts(&kinds, c, count)
		mob, buckets := p.MobilityAttacks(col, make([]uint64, bi.words), nil)
		for k, cnt := range mob {
			if cnt != 0 {
				emit(wMobility+2*k, sign[c]*float32(cnt))
			}
		}
		for _, m := range buckets {
			emit(wMobTable+int(m)*2, sign[c])
		}
		if k := p.King[c]; k >= 0 {
			hits, shield := 0, 0
			them := col.Other()
			for _, t := range g.KingSteps[k] {
				if p.Attacked(int(t), them) {
					hits++
				}
				if x := b[t]; x != 0 && x.Kind() == engine.Pawn && x.Color() == col {
					shield++
				}
			}
			scale := float32(min(force[them], bi.startForce)) / float32(bi.startForce)
			if hits > 0 {
				emit(wKingZone, sign[c]*float32(hits)*scale)
			}
			for g, set := range groupSets[them] {
				n := 0
				for i, z := range bi.zone[int(k)*bi.words : int(k+1)*bi.words] {
					n += bits.OnesCount64(z & set[i])
				}
				if n > 0 {
					emit(wKingGroup+2*g, sign[c]*float32(n)*scale)
				}
			}
			emit(wKingTable+2*min(hits, kingTableSize-1), sign[c]*scale)
			weak := 0
			for t := 0; t < g.N; t++ {
				if !setHas(bi.zone[int(k)*bi.words:int(k+1)*bi.words], t) || !p.Attacked(t, them) {
					continue
				}
				defended := false
				for kind := engine.Pawn; kind < engine.King; kind++ {
					if setHas(kindSets[c][kind], t) {
						defended = true
					}
				}
				if !defended {
					weak++
				}
			}
			emit(wKingWeak+2*min(weak, kingWeakSize-1), sign[c]*scale)
			set := 0
			for kind := engine.Knight; kind <= engine.Queen; kind++ {
				for i, z := range bi.zone[int(k)*bi.words : int(k+1)*bi.words] {
					if z&kindSets[them][kind][i] != 0 {
						set |= 1 << (kind - engine.Knight)
					}
				}
			}
			emit(wKingKinds+2*set, sign[c]*scale)
			for kind := engine.Knight; kind <= engine.Queen; kind++ {
				reach := checkReach(p, int(k), kind, bi.words)
				for t := 0; t < g.N; t++ {
					if !setHas(reach, t) || !setHas(kindSets[them][kind], t) {
						continue
					}
					if x := b[t]; x != 0 && x.Color() == them {
						continue
					}
					emit(checkIndex(kind, p.Attacked(t, col)), sign[c]*scale)
				}
			}
			if shield > 0 {
				emit(wShield, sign[c]*float32(shield))
			}
		}
	}
	lineFeatures(p, bi, ps, func(c engine.Color, i int, n int32) {
		if n != 0 {
			emit(i, sign[c]*float32(n))
		}
	})
	emit(wTempo, sign[p.Side])
	pawns := [2]int32{kinds[0][engine.Pawn], kinds[1][engine.Pawn]}
	phaseNum := min(force[0]+force[1], 2*bi.startForce)
	phase = float32(phaseNum) / float32(2*bi.startForce)
	var score [2]int32
	extraTerms(p, bi, mat, force, pawns, &score)
	return phase, float32(score[0] - score[1]), drawnClass(p, bi, int32(math.Round(egWhite)), force, pawns, [2]int32{kinds[0][engine.Bishop], kinds[1][engine.Bishop]})
}

// lineFeatures emits the line, outpost, isolated-pawn, push-threat and
// phalanx terms cell by cell (ps: the pawns and the cells they attack by their
// capture tables).
func lineFeatures(p *engine.Position, bi *boardInfo, ps *pawnSets, emit func(engine.Color, int, int32)) {
	b := p.Board
	words := bi.words
	pawnOn := func(c engine.Color, set []uint64) bool {
		for x, y := range b {
			if y != 0 && y.Kind() == engine.Pawn && y.Color() == c && setHas(set, x) {
				return true
			}
		}
		return false
	}
	var isolated, hits [2]int32
	for o, pc := range b {
		if pc == 0 {
			continue
		}
		col, k := pc.Color(), pc.Kind()
		them := col.Other()
		switch k {
		case engine.Rook, engine.Queen, engine.King:
			line := bi.line[o*words : (o+1)*words]
			if !pawnOn(col, line) {
				emit(col, lineIndex(k, !pawnOn(them, line)), 1)
			}
		case engine.Knight, engine.Bishop:
			safe := true
			for x, y := range b {
				if y != 0 && y.Kind() == engine.Pawn && y.Color() == them && setHas(bi.outpostStop[them][y.Dir()][o*words:(o+1)*words], x) {
					safe = false
				}
			}
			if safe {
				emit(col, outpostIndex(k, setHas(ps.att[col][:], o)), 1)
			}
		case engine.Pawn:
			if !pawnOn(col, bi.adjLine[o*words:(o+1)*words]) {
				isolated[col]++
			}
			if d := bi.promoDist[col][pc.Dir()][o]; d > 0 && int(d) < len(pawnBonus) {
				for _, t := range p.Geo().KingSteps[o] {
					if y := b[t]; y == pc && bi.promoDist[col][pc.Dir()][t] == d {
						emit(col, wPhalanx+2*int(d), 1)
						break
					}
				}
			}
			push := p.Geo().PawnPush[col][pc.Dir()]
			if push == nil {
				continue
			}
			for _, t := range push[o] {
				if b[t] != 0 || setHas(ps.att[them][:], int(t)) || (p.Attacked(int(t), them) && !p.Attacked(int(t), col)) {
					continue
				}
				for _, x := range p.Geo().PawnCap[col][pc.Dir()][t] {
					if y := b[x]; y != 0 && y.Color() == them && y.Kind() != engine.Pawn && y.Kind() != engine.King {
						hits[col]++
					}
				}
			}
		}
	}
	for c := engine.White; c <= engine.Black; c++ {
		emit(c, wIsolated, isolated[c])
		emit(c, wPushHit, hits[c])
	}
}

// kindAttackSets are the cells c's pieces attack, by attacking kind,
// gathered piece by piece.
func kindAttackSets(p *engine.Position, c engine.Color, words int) [7][]uint64 {
	var sets [7][]uint64
	for k := range sets {
		sets[k] = make([]uint64, words)
	}
	for o, pc := range p.Board {
		if pc != 0 && pc.Color() == c {
			p.MobilityAttacksOf(c, []int16{int16(o)}, sets[pc.Kind()], nil)
		}
	}
	return sets
}

// groupAttackSets are the cells a side attacks by attacker group, from
// those it attacks by kind.
func groupAttackSets(kinds [7][]uint64) [attackGroups][]uint64 {
	var sets [attackGroups][]uint64
	for g, ks := range groupKinds {
		sets[g] = make([]uint64, len(kinds[0]))
		for i := range sets[g] {
			sets[g][i] = kinds[ks[0]][i] | kinds[ks[1]][i]
		}
	}
	return sets
}

// checkReach are the cells from which a piece of kind k (knight to
// queen) would attack the king on cell, as AttacksAs gives them; a
// queen's are the bishop's and the rook's.
func checkReach(p *engine.Position, cell int, k engine.Kind, words int) []uint64 {
	reach := make([]uint64, words)
	if k == engine.Queen {
		p.AttacksAs(cell, engine.Bishop, reach)
		p.AttacksAs(cell, engine.Rook, reach)
	} else {
		p.AttacksAs(cell, k, reach)
	}
	return reach
}

// TuneOptions steer Fit.
type TuneOptions struct {
	// Iterations of full-batch gradient descent (Adam).
	Iterations int
	// Rate is the step in centipawns.
	Rate float64
	// CellDecay is the L2 penalty on the tables (mobility by count,
	// hanging pieces, king zone by count, cells), which keeps entries
	// rarely seen near zero.
	CellDecay float64
	// MinSeen: a weight whose term occurs in fewer training samples keeps
	// its starting value (a table entry seen a few times would be fitted
	// to those few).
	MinSeen int
	// Frozen weights keep their value (nil: none).
	Frozen []bool
	// Progress, if set, is called every 50 iterations.
	Progress func(iter int, loss float64)
}

// FitK finds the scale of the logistic curve that best predicts the results
// from the weights w: the expected score at evaluation e (centipawns,
// White's view) is 1/(1+10^(-K·e/400)).
func (d *Dataset) FitK(w []int32, samples []int) float64 {
	wf := toFloat(w)
	lo, hi := 0.05, 4.0
	for range 60 {
		m1, m2 := lo+(hi-lo)/3, hi-(hi-lo)/3
		if d.loss(wf, m1, samples) < d.loss(wf, m2, samples) {
			hi = m2
		} else {
			lo = m1
		}
	}
	return (lo + hi) / 2
}

func toFloat(w []int32) []float64 {
	f := make([]float64, len(w))
	for i, x := range w {
		f[i] = float64(x)
	}
	return f
}

// eval is a sample's evaluation from White's side under weights w.
func (d *Dataset) eval(w []float64, i int) float64 {
	ph := float64(d.phase[i])
	eg := egShare(w, ph, int(d.drawn[i]))
	e := float64(d.fixed[i])
	for j := d.start[i]; j < d.start[i+1]; j++ {
		x := d.idx[j]
		e += float64(d.val[j]) * (w[x]*ph + w[x+1]*eg)
	}
	return e
}

// egShare is the endgame weights' share of a position's score at
// middlegame share ph and drawn class drawn.
func egShare(w []float64, ph float64, drawn int) float64 {
	if drawn == 0 {
		return 1 - ph
	}
	return (1 - ph) * w[wDrawn+drawn-1] / 64
}

func sigmoid(k, e float64) float64 { return 1 / (1 + math.Pow(10, -k*e/400)) }

// Loss is the mean squared error of the scores that weights w predict at
// scale k, over the samples (all when samples is nil).
func (d *Dataset) Loss(w []int32, k float64, samples []int) float64 {
	return d.loss(toFloat(w), k, samples)
}

func (d *Dataset) loss(w []float64, k float64, samples []int) float64 {
	sum, cnt := 0.0, 0
	each(d, samples, func(i int) {
		r := sigmoid(k, d.eval(w, i)) - float64(d.result[i])
		sum += r * r
		cnt++
	})
	return sum / float64(max(cnt, 1))
}

func each(d *Dataset, samples []int, f func(int)) {
	if samples == nil {
		for i := range d.result {
			f(i)
		}
		return
	}
	for _, i := range samples {
		f(i)
	}
}

// unfitted are the weights a fit never moves: the king's material, the
// pawn's mobility and the unused first entries of the tables by pushes
// left (1..6).
var unfitted = []int{wMaterial + 2*int(engine.King), wMaterial + 2*int(engine.King) + 1, wMobility, wMobility + 1, wProgress, wProgress + 1, wPassed, wPassed + 1}

// fitChunks is the number of parts the samples are split into for the
// gradient; it is fixed so that a fit gives the same weights everywhere.
const fitChunks = 16

// fitPart is one chunk's share of a gradient pass.
type fitPart struct {
	grad []float64
	loss float64
	cnt  int
}

// gradient fills each part with the loss and the gradient of its chunk of
// the samples ids, running the chunks on up to GOMAXPROCS goroutines.
func (d *Dataset) gradient(w []float64, k, c float64, ids []int, parts []fitPart) {
	n := len(parts)
	workers := min(runtime.GOMAXPROCS(0), n)
	var wg sync.WaitGroup
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ci := range next {
				pt := &parts[ci]
				clear(pt.grad)
				pt.loss, pt.cnt = 0, 0
				for _, i := range ids[ci*len(ids)/n : (ci+1)*len(ids)/n] {
					p := sigmoid(k, d.eval(w, i))
					r := p - float64(d.result[i])
					pt.loss += r * r
					pt.cnt++
					g := 2 * r * p * (1 - p) * c
					ph := float64(d.phase[i])
					drawn := int(d.drawn[i])
					eg := egShare(w, ph, drawn)
					egSum := 0.0 // the endgame score before its share
					for j := d.start[i]; j < d.start[i+1]; j++ {
						x := d.idx[j]
						gv := g * float64(d.val[j])
						pt.grad[x] += gv * ph
						pt.grad[x+1] += gv * eg
						egSum += float64(d.val[j]) * w[x+1]
					}
					if drawn != 0 {
						pt.grad[wDrawn+drawn-1] += g * egSum * (1 - ph) / 64
					}
				}
			}
		}()
	}
	wg.Wait()
}

// Fit moves the weights w0 to lower the loss on the samples at scale k and
// returns the rounded result.
func (d *Dataset) Fit(w0 []int32, k float64, samples []int, o TuneOptions) []int32 {
	w := toFloat(w0)
	grad := make([]float64, len(w))
	m := make([]float64, len(w))
	v := make([]float64, len(w))
	const b1, b2, eps = 0.9, 0.999, 1e-8
	c := k * math.Ln10 / 400
	seen := make([]int, len(w))
	each(d, samples, func(i int) {
		for j := d.start[i]; j < d.start[i+1]; j++ {
			seen[d.idx[j]]++
		}
		if d.drawn[i] != 0 {
			seen[wDrawn+int(d.drawn[i])-1]++
		}
	})
	// The gradient is summed over a fixed number of chunks of the samples,
	// at most one goroutine per processor, and the chunks' sums are added
	// in order: the result does not depend on the machine.
	ids := samples
	if ids == nil {
		ids = make([]int, len(d.result))
		for i := range ids {
			ids[i] = i
		}
	}
	parts := make([]fitPart, fitChunks)
	for i := range parts {
		parts[i].grad = make([]float64, len(w))
	}
	for it := 1; it <= o.Iterations; it++ {
		d.gradient(w, k, c, ids, parts)
		clear(grad)
		loss, cnt := 0.0, 0
		for _, pt := range parts {
			loss += pt.loss
			cnt += pt.cnt
			for i, g := range pt.grad {
				grad[i] += g
			}
		}
		inv := 1 / float64(max(cnt, 1))
		for i := range grad {
			grad[i] *= inv
			if i >= wMobTable { // the tables: mobility, hanging, king zone, threats, cells
				grad[i] += 2 * o.CellDecay * w[i]
			}
		}
		for _, i := range unfitted {
			grad[i] = 0
		}
		for i, f := range o.Frozen {
			if f {
				grad[i] = 0
			}
		}
		for i := 0; i < len(seen); i += 2 { // entries name a pair by its first weight
			if seen[i] < o.MinSeen && (i < wDrawn || i >= wDrawn+drawnClasses) {
				grad[i], grad[i+1] = 0, 0
			}
		}
		for i := wDrawn; i < wDrawn+drawnClasses; i++ { // a weight each
			if seen[i] < o.MinSeen {
				grad[i] = 0
			}
		}
		for i := range w {
			m[i] = b1*m[i] + (1-b1)*grad[i]
			v[i] = b2*v[i] + (1-b2)*grad[i]*grad[i]
			mh := m[i] / (1 - math.Pow(b1, float64(it)))
			vh := v[i] / (1 - math.Pow(b2, float64(it)))
			w[i] -= o.Rate * mh / (math.Sqrt(vh) + eps)
		}
		if o.Progress != nil && it%50 == 0 {
			o.Progress(it, loss*inv)
		}
	}
	out := make([]int32, len(w))
	for i, x := range w {
		out[i] = int32(math.Round(x))
	}
	return out
}
