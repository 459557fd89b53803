package search

import (
	"io/fs"
	"maps"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"topochess/engine"
)

// randomWeights is base with every weight drawn from -100..100 and every
// term switched on, so that no term hides behind a zero weight.
func randomWeights(base *boardInfo, rng *rand.Rand) boardInfo {
	bi := *base
	bi.w = make([]int32, weightCount(bi.classes))
	for i := range bi.w {
		bi.w[i] = int32(rng.IntN(201) - 100)
	}
	for i := range drawnClasses {
		bi.w[wDrawn+i] = int32(rng.IntN(65))
	}
	bi.pawnStructure, bi.mobTable, bi.hanging, bi.threats, bi.kingDistTerms, bi.safeMob, bi.lineTerms, bi.passFree, bi.kingKinds = true, true, true, true, true, true, true, true, true
	return bi
}

// The tuner's linear model of a position must be the evaluation itself:
// with random weights, the weighted sum of a position's features equals
// evaluate up to the rounding of its integer divisions.
func TestFeaturesMatchEvaluate(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, id := range engine.Variants() {
		v, _ := engine.GetVariant(id)
		bi := randomWeights(infoFor(v), rng)
		wf := toFloat(bi.w)
		checked := 0
		for _, p := range randomPositions(v, rng, 80, 60) {
			var idx []int
			var val []float32
			ph, fixed, drawn := features(p, &bi, func(i int, x float32) {
				idx = append(idx, i)
				val = append(val, x)
			})
			e := float64(fixed)
			eg := egShare(wf, float64(ph), drawn)
			for j, i := range idx {
				e += float64(val[j]) * (wf[i]*float64(ph) + wf[i+1]*eg)
			}
			got := float64(evaluate(p, &bi))
			if p.Side == engine.Black {
				got = -got
			}
			if math.Abs(got-e) > 6 {
				t.Fatalf("%s: evaluate %v, features give %.1f on %s", id, got, e, p.String())
			}
			checked++
		}
		if checked < 50 {
			t.Fatalf("%s: only %d positions", id, checked)
		}
	}
}

// Every shipped weight file loads for its variant.
func TestWeightFiles(t *testing.T) {
	names, err := fs.Glob(weightFiles, "weights/*.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		id := strings.TrimSuffix(strings.TrimPrefix(name, "weights/"), ".json")
		v, err := engine.GetVariant(id)
		if err != nil {
			t.Fatalf("%s: no such variant", name)
		}
		data, _ := weightFiles.ReadFile(name)
		if _, err := parseWeights(data, v, infoFor(v).classes); err != nil {
			t.Fatal(err)
		}
	}
}

// Fitting on games whose results follow a known rule moves the weights
// that way: positions where White has an extra knight are won by White, so
// the knight's value goes up from a deliberately low start.
func TestFitLearns(t *testing.T) {
	v, _ := engine.GetVariant("standard")
	d := NewDataset(v)
	rng := rand.New(rand.NewPCG(7, 8))
	for _, p := range randomPositions(v, rng, 2000, 30) {
		var knights [2]int
		for _, pc := range p.Board {
			if pc.Kind() == engine.Knight {
				knights[pc.Color()]++
			}
		}
		r := 0.5
		switch {
		case knights[0] > knights[1]:
			r = 1
		case knights[0] < knights[1]:
			r = 0
		}
		d.Add(p, r)
	}
	if d.Len() < 100 {
		t.Fatalf("only %d quiet samples", d.Len())
	}
	w0 := DefaultWeights(v)
	w0[wMaterial+2*int(engine.Knight)] = 50
	w0[wMaterial+2*int(engine.Knight)+1] = 50
	before := d.Loss(w0, 1, nil)
	w := d.Fit(w0, 1, nil, TuneOptions{Iterations: 200, Rate: 5})
	after := d.Loss(w, 1, nil)
	if after >= before {
		t.Fatalf("loss went from %.4f to %.4f", before, after)
	}
	if kn := w[wMaterial+2*int(engine.Knight)]; kn <= 50 {
		t.Fatalf("knight's middlegame value %d, want above the start of 50", kn)
	}
	// A term met in fewer samples than MinSeen keeps its value: with the
	// knight's material (in most samples) allowed, everything rarer stays.
	seen := 0
	for i := range d.Len() {
		for j := d.start[i]; j < d.start[i+1]; j++ {
			if d.idx[j] == uint32(wMaterial+2*int(engine.Knight)) {
				seen++
			}
		}
	}
	w = d.Fit(w0, 1, nil, TuneOptions{Iterations: 50, Rate: 5, MinSeen: seen})
	moved := 0
	for i := range w {
		if w[i] != w0[i] {
			moved++
		}
	}
	if w[wMaterial+2*int(engine.Knight)] == 50 || w[wHanging+2*int(engine.Queen)] != w0[wHanging+2*int(engine.Queen)] {
		t.Fatalf("MinSeen %d: knight %d, hanging queen %d", seen, w[wMaterial+2*int(engine.Knight)], w[wHanging+2*int(engine.Queen)])
	}
	if moved > 20 {
		t.Fatalf("MinSeen %d: %d weights moved, want only those of terms in as many samples as the knight's", seen, moved)
	}
}

// The pawn-structure terms, built from the push and capture tables alone,
// say on the standard board what a chess player would.
func TestPawnStructure(t *testing.T) {
	v, _ := engine.GetVariant("standard")
	bi := infoFor(v)
	// White: a5 is passed (c6 covers b5 and d5 only), e5 is not (d7 can
	// take on e6); g4 has its own pawn g5 ahead (still passed: only enemy
	// pawns stop a pawn) and is guarded by h3; g5 attacks the knight on f6.
	// Black: c6 is passed and guarded by d7; d7 is not passed (e5 covers d6).
	pos, err := v.ParsePosition("4k3/3p4/2p2n2/P3P1P1/6P1/7P/8/4K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	cell := func(name string) int {
		c := pos.Geo().Cell(name)
		if c < 0 {
			t.Fatalf("no cell %s", name)
		}
		return c
	}
	b := pos.Board
	for _, tc := range []struct {
		cell   string
		col    engine.Color
		passed bool
	}{
		{"a5", engine.White, true},
		{"e5", engine.White, false},
		{"g5", engine.White, true},
		{"g4", engine.White, true},
		{"d7", engine.Black, false},
		{"c6", engine.Black, true},
	} {
		want := tc.passed
		if got := bi.passed(pawnsOf(pos, bi), tc.col, b[cell(tc.cell)].Dir(), cell(tc.cell)); got != want {
			t.Errorf("%s passed: %v, want %v", tc.cell, got, want)
		}
	}
	g, s, h := bi.pawnFacts(pos, pawnsOf(pos, bi), engine.White, 0, cell("g4"))
	if g != 1 || s != 1 || h != 0 {
		t.Errorf("g4: guarded %d stacked %d hits %d, want 1 1 0", g, s, h)
	}
	g, s, h = bi.pawnFacts(pos, pawnsOf(pos, bi), engine.White, 0, cell("g5"))
	if g != 0 || s != 0 || h != 1 {
		t.Errorf("g5: guarded %d stacked %d hits %d, want 0 0 1", g, s, h)
	}
	g, _, _ = bi.pawnFacts(pos, pawnsOf(pos, bi), engine.Black, b[cell("c6")].Dir(), cell("c6"))
	if g != 1 {
		t.Errorf("c6 guarded %d, want 1 (by d7)", g)
	}
}

func pawnsOf(p *engine.Position, bi *boardInfo) *pawnSets {
	ps := &pawnSets{}
	ps.fill(p, bi)
	return ps
}

// The line, outpost, isolated-pawn, phalanx and push-threat terms mean
// on the standard board what their chess names say.
func TestLineTerms(t *testing.T) {
	v, _ := engine.GetVariant("standard")
	bi := infoFor(v)
	// White: the rook on e1 has an open file, the king on g1 its own g2
	// pawn in front; the knight on e5 is an outpost (no black pawn can
	// ever attack e5) guarded by d4; d4 is isolated; a2-b2 and f2-g2-h2
	// stand side by side; g2-g3 would attack the knight on f4 on a cell
	// f2 guards. Black: the rook on c8 has an open file, the one on f8 a
	// half-open one (White's f2), the king on e8 an open one; the knight
	// on f4 is no outpost (g2-g3 reaches it); d5 is isolated; a7-b7 and
	// g7-h7 stand side by side; no push of Black's attacks a piece.
	pos, err := v.ParsePosition("2r1kr2/pp4pp/8/3pN3/3P1n2/8/PP3PPP/4R1K1 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	got := map[[2]int]int32{}
	ps := pawnsOf(pos, bi)
	lineFeatures(pos, bi, ps, func(c engine.Color, i int, n int32) {
		got[[2]int{int(c), i}] += n
	})
	want := map[[2]int]int32{
		{0, lineIndex(engine.Rook, true)}:      1,
		{0, outpostIndex(engine.Knight, true)}: 1,
		{0, wIsolated}:                         1,
		{0, wPushHit}:                          1,
		{1, lineIndex(engine.Rook, true)}:      1,
		{1, lineIndex(engine.Rook, false)}:     1,
		{1, lineIndex(engine.King, true)}:      1,
		{1, wIsolated}:                         1,
		{1, wPushHit}:                          0,
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("colour %d, weight %d: %d, want %d", k[0], k[1], got[k], n)
		}
	}
	for k, n := range got {
		if _, ok := want[k]; !ok && n != 0 && (k[1] < wPhalanx || k[1] >= wPST) {
			t.Errorf("colour %d, weight %d: %d, want none", k[0], k[1], n)
		}
	}
	// Side by side: five white pawns and four black ones, six pushes
	// from promotion each.
	for c, n := range []int32{5, 4} {
		for d := 1; d <= 6; d++ {
			w := int32(0)
			if d == 6 {
				w = n
			}
			if g := got[[2]int{c, wPhalanx + 2*d}]; g != w {
				t.Errorf("colour %d: %d pawns side by side %d pushes from promotion, want %d", c, g, d, w)
			}
		}
	}
}

// The fit splits its gradient pass over the processors; the weights it
// returns are the same with one processor as with several, and each of its
// steps moves them as one pass over all the samples in order would.
func TestFitSameOnAnyMachine(t *testing.T) {
	v, _ := engine.GetVariant("cube5")
	d := NewDataset(v)
	rng := rand.New(rand.NewPCG(11, 12))
	for _, p := range randomPositions(v, rng, 300, 24) {
		d.Add(p, float64(rng.IntN(3))/2)
	}
	if d.Len() < 50 {
		t.Fatalf("only %d quiet samples", d.Len())
	}
	w0 := DefaultWeights(v)
	train := make([]int, 0, d.Len())
	for i := range d.Len() {
		if i%3 != 0 {
			train = append(train, i)
		}
	}
	o := TuneOptions{Iterations: 20, Rate: 3, CellDecay: 1e-6}
	old := runtime.GOMAXPROCS(1)
	one := d.Fit(w0, 1, train, o)
	runtime.GOMAXPROCS(4)
	four := d.Fit(w0, 1, train, o)
	runtime.GOMAXPROCS(old)
	if !slices.Equal(one, four) {
		t.Fatal("the fit's weights differ between one and four processors")
	}
	if slices.Equal(one, w0) {
		t.Fatal("the fit moved no weight")
	}
	// One step of Adam moves every weight with a non-zero gradient by the
	// rate in the gradient's opposite direction; the gradient, summed in one
	// plain pass, fixes each direction.
	step := d.Fit(w0, 1, train, TuneOptions{Iterations: 1, Rate: 3})
	w := toFloat(w0)
	grad := make([]float64, len(w))
	c := math.Ln10 / 400
	for _, i := range train {
		p := sigmoid(1, d.eval(w, i))
		g := 2 * (p - float64(d.result[i])) * p * (1 - p) * c
		ph := float64(d.phase[i])
		eg := egShare(w, ph, int(d.drawn[i]))
		for j := d.start[i]; j < d.start[i+1]; j++ {
			x := d.idx[j]
			grad[x] += g * float64(d.val[j]) * ph
			grad[x+1] += g * float64(d.val[j]) * eg
			if k := int(d.drawn[i]); k != 0 {
				grad[wDrawn+k-1] += g * float64(d.val[j]) * w[x+1] * (1 - ph) / 64
			}
		}
	}
	frozen := map[int]bool{}
	for _, i := range unfitted {
		frozen[i] = true
	}
	checked := 0
	for i, g := range grad {
		if g /= float64(len(train)); frozen[i] || math.Abs(g) < 1e-6 {
			continue
		}
		want := w0[i] + 3
		if g > 0 {
			want = w0[i] - 3
		}
		if step[i] != want {
			t.Fatalf("weight %d: %d after one step from %d, want %d (gradient %g)", i, step[i], w0[i], want, g)
		}
		checked++
	}
	if checked < 20 {
		t.Fatalf("only %d weights had a gradient", checked)
	}
}

// The imbalance counts each piece once per own and once per enemy pawn:
// White's knight, bishop and rook with three own pawns against four,
// Black's queen with four own pawns against three.
func TestImbalanceTerm(t *testing.T) {
	v, _ := engine.GetVariant("standard")
	bi := infoFor(v)
	pos, err := v.ParsePosition("3qk3/pp4pp/8/8/3N4/8/PPP2B2/4K2R w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]float32{}
	features(pos, bi, func(i int, x float32) {
		if i >= wImbalance && i < wPairs {
			got[i] += x
		}
	})
	want := map[int]float32{
		imbalanceIndex(engine.Knight, false): 3, imbalanceIndex(engine.Knight, true): 4,
		imbalanceIndex(engine.Bishop, false): 3, imbalanceIndex(engine.Bishop, true): 4,
		imbalanceIndex(engine.Rook, false): 3, imbalanceIndex(engine.Rook, true): 4,
		imbalanceIndex(engine.Queen, false): -4, imbalanceIndex(engine.Queen, true): -3, // Black's, so negative
	}
	if !maps.Equal(got, want) {
		t.Fatalf("imbalance features %v, want %v", got, want)
	}
}

// The pairs count two pieces of one side, and one piece against an enemy
// one of a later kind: White's queen, two bishops and knight against
// Black's two knights and two rooks.
func TestPairsTerm(t *testing.T) {
	v, _ := engine.GetVariant("standard")
	bi := infoFor(v)
	pos, err := v.ParsePosition("1nr1kr2/pppn1ppp/8/8/8/8/PPPBBPPP/3QK1N1 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]float32{}
	features(pos, bi, func(i int, x float32) {
		if i >= wPairs && i < wDrawn {
			got[i] += x
		}
	})
	N, B, R, Q := engine.Knight, engine.Bishop, engine.Rook, engine.Queen
	want := map[int]float32{
		// Two of one side; Black's counted negative.
		pairIndex(N, B, false): 2, pairIndex(N, Q, false): 1, pairIndex(B, B, false): 1, pairIndex(B, Q, false): 2,
		pairIndex(N, N, false): -1, pairIndex(N, R, false): -4, pairIndex(R, R, false): -1,
		// White's knight and bishops against Black's rooks; Black's knights
		// against White's bishops and queen, Black's rooks against the queen.
		pairIndex(N, R, true): 2, pairIndex(B, R, true): 4,
		pairIndex(N, B, true): -4, pairIndex(N, Q, true): -2, pairIndex(R, Q, true): -2,
	}
	if !maps.Equal(got, want) {
		t.Fatalf("pair features %v, want %v", got, want)
	}
	seen := map[int]bool{}
	for a := N; a <= Q; a++ {
		for b := a; b <= Q; b++ {
			seen[pairIndex(a, b, false)] = true
			if a < b {
				seen[pairIndex(a, b, true)] = true
			}
		}
	}
	for i := wPairs; i < wDrawn; i += 2 {
		if !seen[i] {
			t.Fatalf("weight %d of the pairs has no pair", i)
		}
	}
	if len(seen) != (wDrawn-wPairs)/2 {
		t.Fatalf("%d pairs for %d weights", len(seen), wDrawn-wPairs)
	}
}

// The drawn classes: the side ahead has at most a bishop's worth of pieces
// more, and no pawns, or pawns bound for a corner its bishop cannot reach,
// or a bishop against one of the other shade, or few pawns; the endgame
// score is cut to the class's share.
func TestDrawnClass(t *testing.T) {
	v, _ := engine.GetVariant("standard")
	for _, c := range []struct {
		pos  string
		want int
	}{
		{"4k3/8/8/8/8/8/8/3NK3 w - - 0 1", drawnMinor},              // a lone knight
		{"4k3/4b3/8/8/8/8/8/3RK3 w - - 0 1", drawnExchange},         // rook against bishop
		{"4k3/r7/8/8/8/8/8/2BRK3 b - - 0 1", drawnExchange},         // rook and bishop against rook
		{"4k3/4n3/8/8/8/8/8/3QK3 w - - 0 1", 0},                     // queen against knight: a rook's worth more
		{"4k3/4n3/8/8/8/8/4P3/3QK3 w - - 0 1", 0},                   // and with a pawn
		{"3rk3/8/8/8/8/8/8/2N1K3 w - - 0 1", drawnExchange},         // Black ahead: rook against knight
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", drawnMinor},               // bare kings: the tempo's share
		{"4k3/4b3/8/8/8/8/4P3/3RK3 w - - 0 1", drawnPawns + 1},      // the side ahead has a pawn
		{"4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1", drawnPawns + 1},       // a pawn each
		{"4k3/pp6/8/8/8/8/PPP5/4K3 w - - 0 1", drawnPawns + 3},      // three pawns against two
		{"4k3/pp6/8/8/8/8/PPPP4/4K3 w - - 0 1", 0},                  // four pawns
		{"1k6/8/8/8/8/8/P7/B3K3 w - - 0 1", drawnCorner},            // a bishop that cannot reach a8, the king next to it
		{"k7/8/8/8/8/P7/P7/B3K3 b - - 0 1", drawnCorner},            // two pawns on the a-file
		{"k7/8/8/8/8/8/P7/4K3 w - - 0 1", drawnCorner},              // no bishop at all
		{"1k6/8/8/8/8/8/P7/1B2K3 w - - 0 1", drawnPawns + 1},        // the bishop reaches a8
		{"8/8/8/8/8/6k1/P7/B3K3 w - - 0 1", drawnPawns + 1},         // the king is far from a8
		{"1k6/8/8/8/8/8/PP6/B3K3 w - - 0 1", drawnPawns + 2},        // a pawn on b2 promotes on b8
		{"4k3/8/4b3/8/8/8/2PP4/2B1K3 w - - 0 1", drawnBishops},      // bishops of different shades
		{"4k3/8/4b3/8/8/8/PPPP4/2B1K3 w - - 0 1", drawnBishops},     // with four pawns
		{"4k3/8/3b4/8/8/8/2PP4/2B1K3 w - - 0 1", drawnPawns + 2},    // bishops of one shade
		{"r3k3/8/4b3/8/8/8/2PP4/2B1K2R w K - 0 1", drawnBishopsAnd}, // a rook each beside them
		{"r3k3/8/4b3/8/8/8/PPPP4/2B1K1NR w K - 0 1", 0},             // a knight more, four pawns
		{"4k3/8/4b3/8/8/8/PPPP4/2B1KN2 w - - 0 1", 0},               // a knight beside the bishop
	} {
		pos, err := v.ParsePosition(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		bi := *infoFor(v)
		_, _, got := features(pos, &bi, func(int, float32) {})
		if got != c.want {
			t.Errorf("%s: drawn class %d, want %d", c.pos, got, c.want)
		}
		if got == 0 {
			continue
		}
		// The cut: the whole endgame score at 64, none of it at 0.
		bi.w = slices.Clone(bi.w)
		for i := range drawnClasses {
			bi.w[wDrawn+i] = 64
		}
		whole := evaluate(pos, &bi)
		bi.w[wDrawn+got-1] = 0
		none := evaluate(pos, &bi)
		bi.w[wDrawn+got-1] = 32
		half := evaluate(pos, &bi)
		if whole == none || abs32(half-(whole+none)/2) > 2 {
			t.Errorf("%s: evaluation %d with the whole endgame, %d with none, %d with half", c.pos, whole, none, half)
		}
	}
}

// The shades and corners the drawn classes read: two shades on the
// standard board, a1 and b1 apart; a pawn on a file's edge promotes on a
// corner, one in the middle on none; the torus has neither edge nor
// corner.
func TestShadesAndCorners(t *testing.T) {
	v, _ := engine.GetVariant("standard")
	bi := infoFor(v)
	g := v.Geo
	shades := map[uint8]bool{}
	for _, s := range bi.shade {
		shades[s] = true
	}
	if len(shades) != 2 || bi.shade[g.Cell("a1")] == bi.shade[g.Cell("b1")] || bi.shade[g.Cell("a1")] != bi.shade[g.Cell("h8")] {
		t.Errorf("standard shades: %d, a1 %d, b1 %d, h8 %d", len(shades), bi.shade[g.Cell("a1")], bi.shade[g.Cell("b1")], bi.shade[g.Cell("h8")])
	}
	for _, c := range []struct {
		colour engine.Color
		cell   string
		corner string
	}{
		{engine.White, "a2", "a8"}, {engine.White, "h5", "h8"}, {engine.Black, "h7", "h1"}, {engine.White, "e2", ""}, {engine.Black, "b7", ""},
	} {
		want := -1
		if c.corner != "" {
			want = g.Cell(c.corner)
		}
		home := map[engine.Color]string{engine.White: "a2", engine.Black: "a7"}[c.colour]
		d := v.StartPosition().Board[g.Cell(home)].Dir()
		got := int(bi.promoCorner[c.colour][d][g.Cell(c.cell)])
		if got != want {
			t.Errorf("pawn of colour %d on %s: corner %d, want %d", c.colour, c.cell, got, want)
		}
	}
	tv, _ := engine.GetVariant("toroidal")
	tb := infoFor(tv)
	for col := range tb.promoCorner {
		for _, cs := range tb.promoCorner[col] {
			for cell, k := range cs {
				if k >= 0 {
					t.Fatalf("toroidal: cell %d has corner %d", cell, k)
				}
			}
		}
	}
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}
