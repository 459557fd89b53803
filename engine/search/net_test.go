package search

import (
	"bytes"
	"io/fs"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"topochess/engine"
)

// randomNet is a net with random weights for the variant.
func randomNet(t *testing.T, v *engine.Variant, hidden, buckets int, seed uint64) *Net {
	t.Helper()
	n, err := NewNet(v, hidden, buckets)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	for _, xs := range [][]float32{n.W1, n.B1, n.W2, n.B2} {
		for i := range xs {
			xs[i] = float32(rng.NormFloat64() * 0.2)
		}
	}
	return n
}

// TestNetBuckets: the output bucket follows the pieces left, the start
// position's 32 in equal shares, and each bucket's own weights score the
// boards in it.
func TestNetBuckets(t *testing.T) {
	v := mustVariant(t, "standard")
	n := randomNet(t, v, 4, 8, 9)
	for pieces, want := range map[int]int{32: 7, 29: 7, 28: 6, 5: 1, 4: 0, 2: 0, 40: 7} {
		if got := n.bucket(pieces); got != want {
			t.Errorf("%d pieces: bucket %d, want %d", pieces, got, want)
		}
	}
	if m := randomNet(t, v, 4, 1, 9); m.bucket(32) != 0 || m.bucket(2) != 0 {
		t.Error("a net of one bucket uses another")
	}
	// Only bucket 0's bias changes: a king-and-pawn ending moves by it,
	// the start position does not.
	end, _ := v.ParsePosition("w Ke1,Pe2,ke8 - - 0 1")
	start := v.StartPosition()
	e0, s0 := n.Evaluate(end), n.Evaluate(start)
	n.B2[0] += 1
	if e1, s1 := n.Evaluate(end), n.Evaluate(start); e1-e0 != 100 || s1 != s0 {
		t.Errorf("bucket 0's bias +1 pawn: ending %d → %d, start %d → %d", e0, e1, s0, s1)
	}
	if _, err := NewNet(v, 4, 0); err == nil {
		t.Error("a net of no buckets was made")
	}
}

// TestNetMirror: Black sees the board turned over, so a position and its
// colour-swapped mirror image score the same for the side to move.
func TestNetMirror(t *testing.T) {
	v, _ := engine.GetVariant("standard")
	n := randomNet(t, v, 16, 1, 1)
	for _, s := range []string{
		"w Ke1,Qd1,Pe4,ke8,pd7 - - 0 1",
		"w Kg1,Rf1,Nc3,Pa2,Pb2,kg8,qd8,bc5,pf7,pg7 - - 0 1",
	} {
		p, err := v.ParsePosition(s)
		if err != nil {
			t.Fatal(err)
		}
		q := v.StartPosition()
		for c := range q.Board {
			q.Board[c] = 0
		}
		// The mirror image: every piece on the turned-over cell in the
		// other colour, the other side to move.
		mirror, err := netMirror(v)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		b.WriteString("b ")
		first := true
		for c, pc := range p.Board {
			if pc == 0 {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			l := pc.Letter()
			if pc.Color() == engine.White {
				l = string(l[0] | 0x20)
			} else {
				l = string(l[0] &^ 0x20)
			}
			b.WriteString(l + v.Geo.Name(mirror[c]))
		}
		b.WriteString(" - - 0 1")
		m, err := v.ParsePosition(b.String())
		if err != nil {
			t.Fatal(err)
		}
		if a, c := n.Evaluate(p), n.Evaluate(m); a != c {
			t.Errorf("%s scores %d, its mirror image %q %d", s, a, b.String(), c)
		}
	}
	if _, err := netMirror(mustVariant(t, "toroidal")); err != nil {
		t.Logf("toroidal: %v", err)
	}
}

func mustVariant(t *testing.T, id string) *engine.Variant {
	t.Helper()
	v, err := engine.GetVariant(id)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestNetRunningSums: the sums a searcher keeps between evaluations,
// changed only where the board changed, give the same score as sums made
// from scratch, however far apart the positions evaluated in turn are.
func TestNetRunningSums(t *testing.T) {
	v := mustVariant(t, "standard")
	n := randomNet(t, v, 32, 4, 2)
	rng := rand.New(rand.NewPCG(3, 4))
	a := newNetAcc(n)
	for _, p := range randomPositions(v, rng, 300, 120) {
		a.update(p)
		got, want := a.output(p.Side), n.Evaluate(p)
		if d := got - want; d < -1 || d > 1 {
			t.Fatalf("running sums give %d, from scratch %d", got, want)
		}
	}
	// Along a game, as the search meets positions.
	p := v.StartPosition()
	for i := 0; i < 200; i++ {
		ms := p.LegalMoves()
		if len(ms) == 0 {
			break
		}
		mv := ms[rng.IntN(len(ms))]
		u := p.Make(mv)
		a.update(p)
		if got, want := a.output(p.Side), n.Evaluate(p); got-want < -1 || got-want > 1 {
			t.Fatalf("ply %d: running sums give %d, from scratch %d", i, got, want)
		}
		if i%3 == 0 {
			p.Unmake(mv, u)
			a.update(p)
			if got, want := a.output(p.Side), n.Evaluate(p); got-want < -1 || got-want > 1 {
				t.Fatalf("ply %d, taken back: running sums give %d, from scratch %d", i, got, want)
			}
			p.Make(mv)
		}
	}
}

// TestNetFile: a net written and read back is the same net; damaged files
// and files for another board are refused.
func TestNetFile(t *testing.T) {
	v := mustVariant(t, "standard")
	n := randomNet(t, v, 8, 3, 5)
	data, err := n.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseNet(data, v)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := v.ParsePosition("w Kg1,Rf1,Nc3,Pa2,Pb2,kg8,qd8,bc5,pf7,pg7 - - 0 1")
	if n.Evaluate(p) != m.Evaluate(p) || !slices.Equal(m.B2, n.B2) || !slices.Equal(m.W2, n.W2) || m.Hidden != 8 || m.Buckets != 3 {
		t.Fatal("the net read back differs")
	}
	for name, bad := range map[string][]byte{
		"truncated": data[:len(data)-4],
		"too long":  append(append([]byte(nil), data...), 0),
		"not a net": []byte("{}"),
	} {
		if _, err := ParseNet(bad, v); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := ParseNet(data, mustVariant(t, "chess66")); err == nil {
		t.Error("a standard net was accepted for chess66")
	}
}

// TestNetGradient compares the trainer's gradient with the change of the
// loss when one weight moves a little.
func TestNetGradient(t *testing.T) {
	v := mustVariant(t, "standard")
	d, err := NewNetData(v)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(6, 7))
	for i, p := range randomPositions(v, rng, 40, 60) {
		d.Add(p, float64(rng.IntN(600)-300), i%2 == 1)
	}
	n := randomNet(t, v, 8, 3, 8)
	for i := range n.B1 {
		n.B1[i] = 0.5 // most units inside their linear range
	}
	all := make([]int, d.Len())
	for i := range all {
		all[i] = i
	}
	g := [][]float32{make([]float32, len(n.W1)), make([]float32, len(n.B1)), make([]float32, len(n.W2)), make([]float32, len(n.B2))}
	d.gradient(n, all, g)
	loss := func() float64 { return d.Loss(n, all) * float64(len(all)) }
	checked, kinks := 0, 0
	for k, xs := range [][]float32{n.W1, n.B1, n.W2, n.B2} {
		for tries := 0; tries < 200 && checked < 12*(k+1); tries++ {
			j := rng.IntN(len(xs))
			if g[k][j] == 0 {
				continue
			}
			const eps = 2e-3
			x := xs[j]
			xs[j] = x + eps
			up := loss()
			xs[j] = x - eps
			down := loss()
			xs[j] = x
			at := loss()
			num := (up - down) / (2 * eps)
			// A step across a unit's clip (a kink of the loss) shows as
			// slopes that differ on the two sides; no gradient is
			// compared there.
			if right, left := (up-at)/eps, (at-down)/eps; math.Abs(right-left) > 0.5*math.Abs(num)+1e-3 {
				kinks++
				continue
			}
			if math.Abs(num-float64(g[k][j])) > 0.05*math.Abs(num)+1e-3 {
				t.Errorf("layer %d weight %d: gradient %g, by differences %g", k, j, g[k][j], num)
			}
			checked++
		}
	}
	t.Logf("%d weights checked, %d skipped at a kink", checked, kinks)
	if checked < 40 || kinks > checked/4 {
		t.Fatalf("only %d weights with a gradient checked (%d at a kink)", checked, kinks)
	}
}

// TestTrainNetLearns: labels unlike the starting material (a knight
// worth 450, a bishop 300, and 100 more for two bishops, which no sum of
// single pieces gives) are learned, and the result does not depend on the
// number of threads.
func TestTrainNetLearns(t *testing.T) {
	v := mustVariant(t, "standard")
	d, err := NewNetData(v)
	if err != nil {
		t.Fatal(err)
	}
	worth := [...]float64{0, 100, 450, 300, 500, 900, 0}
	label := func(p *engine.Position) float64 {
		var cp float64
		var bishops [2]int
		for _, pc := range p.Board {
			if pc != 0 {
				w := worth[pc.Kind()]
				if pc.Kind() == engine.Bishop {
					bishops[pc.Color()]++
				}
				if pc.Color() == engine.Black {
					w = -w
				}
				cp += w
			}
		}
		for c, n := range bishops {
			if n >= 2 {
				cp += 100 * float64(1-2*c)
			}
		}
		return cp
	}
	rng := rand.New(rand.NewPCG(9, 10))
	var train, test []int
	for i, p := range randomPositions(v, rng, 6000, 100) {
		if i%10 == 9 {
			test = append(test, d.Len())
		} else {
			train = append(train, d.Len())
		}
		d.Add(p, label(p), false)
		if i%10 != 9 && i%2 == 0 {
			train = append(train, d.Len())
			d.Add(p, label(p), true)
		}
	}
	o := NetOptions{Hidden: 16, Epochs: 10, Batch: 64, Rate: 0.003, Seed: 1, Threads: 2}
	n0, _, _ := startNet(v, o)
	n, err := d.TrainNet(v, train, test, o)
	if err != nil {
		t.Fatal(err)
	}
	before, after := d.Loss(n0, test), d.Loss(n, test)
	t.Logf("held-out loss %.6f → %.6f", before, after)
	if after > before/4 {
		t.Errorf("held-out loss %.6f → %.6f: the labels were not learned", before, after)
	}
	for _, c := range []struct {
		pos    string
		lo, hi int32
	}{
		{"w Ke1,Nd1,Pa2,Pb2,Pc2,Pf2,Pg2,Ph2,ke8,bd8,pa7,pb7,pc7,pf7,pg7,ph7 - - 0 1", 20, 300},   // +150
		{"b Ke1,Nd1,Pa2,Pb2,Pc2,Pf2,Pg2,Ph2,ke8,bd8,pa7,pb7,pc7,pf7,pg7,ph7 - - 0 1", -300, -20}, // −150 for Black
		{"w Ke1,Ra1,Pa2,Pb2,Pc2,Pf2,Pg2,Ph2,ke8,nb8,pa7,pb7,pc7,pf7,pg7,ph7 - - 0 1", -20, 120},  // +50
		{"w Ke1,Qd1,Pa2,Pb2,Pc2,Pf2,Pg2,Ph2,ke8,pa7,pb7,pc7,pf7,pg7,ph7 - - 0 1", 650, 1300},     // +900
	} {
		p, err := v.ParsePosition(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		if e := n.Evaluate(p); e < c.lo || e > c.hi {
			t.Errorf("%s scores %d, want %d to %d", c.pos, e, c.lo, c.hi)
		}
	}
	o.Threads = 1
	m, _ := d.TrainNet(v, train, test, o)
	a, _ := n.MarshalBinary()
	b, _ := m.MarshalBinary()
	if !bytes.Equal(a, b) {
		t.Error("one thread and two learned different nets")
	}
}

// TestNetFiles: every shipped network loads for its variant, and plays
// chess: the start is about level, a queen up is far ahead for either
// side, and the searcher's running sums agree with a fresh evaluation.
func TestNetFiles(t *testing.T) {
	names, err := fs.Glob(weightFiles, "weights/*.net")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		id := strings.TrimSuffix(strings.TrimPrefix(name, "weights/"), ".net")
		id, alone := strings.CutSuffix(id, ".alone")
		v := mustVariant(t, id)
		n, loaded := netFor(v), infoFor(v).net
		if alone {
			n, loaded = netFile(v, ".alone.net"), infoFor(v).alone
			if n != nil && n.OnTerms {
				t.Errorf("%s: a network on the weighted terms", name)
			}
		}
		if n == nil || loaded == nil {
			t.Fatalf("%s: not loaded", name)
		}
		// A net on the weighted terms adds to their score.
		score := func(p *engine.Position) int32 {
			e := n.Evaluate(p)
			if n.OnTerms {
				e += evaluate(p, infoFor(v))
			}
			return e
		}
		if e := score(v.StartPosition()); e < -100 || e > 100 {
			t.Errorf("%s: the start scores %d", name, e)
		}
		if id != "standard" {
			continue
		}
		for _, c := range []struct {
			pos  string
			sign int32
		}{
			{"w Kg1,Qd1,Pa2,Pb2,Pc2,Pf2,Pg2,Ph2,kg8,pa7,pb7,pc7,pf7,pg7,ph7 - - 0 1", 1},
			{"b Kg1,Qd1,Pa2,Pb2,Pc2,Pf2,Pg2,Ph2,kg8,pa7,pb7,pc7,pf7,pg7,ph7 - - 0 1", -1},
			{"b Kg1,Pa2,Pb2,Pc2,Pf2,Pg2,Ph2,kg8,qd8,pa7,pb7,pc7,pf7,pg7,ph7 - - 0 1", 1},
		} {
			p, err := v.ParsePosition(c.pos)
			if err != nil {
				t.Fatal(err)
			}
			if e := score(p) * c.sign; e < 500 {
				t.Errorf("%s: %s scores %d for the side to move", name, c.pos, score(p))
			}
		}
	}
}
