package search

import (
	"math"
	"math/rand/v2"
	"sync"

	"topochess/engine"
)

// NetData holds scored positions for learning a Net: for each, the inputs
// seen from the side to move and from the other side, and the score.
type NetData struct {
	net   *Net
	files []int
	// in holds each position's inputs, the side to move's first; at is
	// where a position's run starts (a position has 2·count[i] inputs).
	in    []uint16
	at    []uint32
	count []uint8
	// target is the label in centipawns for the side to move; terms, the
	// weighted terms' evaluation of the same position, for comparison.
	target []float32
	terms  []int32
}

// NewNetData makes an empty set for the variant's nets of any size.
func NewNetData(v *engine.Variant) (*NetData, error) {
	n, err := NewNet(v, 1, 1)
	if err != nil {
		return nil, err
	}
	return &NetData{net: n}, nil
}

// Len is the number of positions.
func (d *NetData) Len() int { return len(d.target) }

// Add keeps p with its score cp for White; with turn, as the board
// turned left to right (files a and h swapped), which the rules of
// standard chess leave the same but for castling, which the net does not
// see.
func (d *NetData) Add(p *engine.Position, cp float64, turn bool) error {
	if turn && d.files == nil {
		f, err := fileMirror(p.V)
		if err != nil {
			return err
		}
		d.files = f
	}
	d.at = append(d.at, uint32(len(d.in)))
	var k int
	for _, side := range [2]engine.Color{p.Side, p.Side ^ 1} {
		k = 0
		for cell, pc := range p.Board {
			if pc != 0 {
				to := cell
				if turn {
					to = d.files[cell]
				}
				d.in = append(d.in, uint16(d.net.input(side, pc, to)))
				k++
			}
		}
	}
	d.count = append(d.count, uint8(k))
	if p.Side == engine.Black {
		cp = -cp
	}
	d.target = append(d.target, float32(cp))
	d.terms = append(d.terms, evaluate(p, infoFor(p.V)))
	return nil
}

// fileMirror maps each cell to the cell of the same rank and the opposite
// file, on boards of files and ranks.
func fileMirror(v *engine.Variant) ([]int, error) {
	return reflected(v, func(file byte, rank int, files byte, _ int) (byte, int) { return 'a' + files - file, rank })
}

// winChance is the expected score of an evaluation in centipawns, as the
// weighted terms' fit reads it with K = 1.
func winChance(cp float64) float64 { return 1 / (1 + math.Pow(10, -cp/400)) }

// TermsLoss is the weighted terms' loss on the samples: the mean square
// difference of the expected scores of their evaluation and the label.
func (d *NetData) TermsLoss(samples []int) float64 {
	var sum float64
	for _, i := range samples {
		e := winChance(float64(d.terms[i])) - winChance(float64(d.target[i]))
		sum += e * e
	}
	return sum / float64(max(len(samples), 1))
}

// Loss is the net's loss on the samples, as TermsLoss.
func (d *NetData) Loss(n *Net, samples []int) float64 {
	h := n.Hidden + 1
	var sum float64
	acc := [2][]float32{make([]float32, h), make([]float32, h)}
	for _, i := range samples {
		d.forward(n, i, &acc)
		e := winChance(d.base(n, i)+float64(n.raw(&acc, engine.White, n.bucket(int(d.count[i]))))*100) - winChance(float64(d.target[i]))
		sum += e * e
	}
	return sum / float64(max(len(samples), 1))
}

// base is what the net's output is added to for sample i: the weighted
// terms' evaluation for a net on them, else 0.
func (d *NetData) base(n *Net, i int) float64 {
	if n.OnTerms {
		return float64(d.terms[i])
	}
	return 0
}

// forward fills acc with the hidden sums of sample i, the side to move's
// in acc[0].
func (d *NetData) forward(n *Net, i int, acc *[2][]float32) {
	h := n.Hidden + 1
	at, k := int(d.at[i]), int(d.count[i])
	for s := 0; s < 2; s++ {
		sum := acc[s][:h]
		copy(sum, n.B1)
		for _, f := range d.in[at+s*k : at+(s+1)*k] {
			addRow(sum, n.W1[int(f)*h:int(f)*h+h])
		}
	}
}

// NetOptions are the settings of TrainNet.
type NetOptions struct {
	Hidden int
	// Buckets is the number of output buckets (at least 1).
	Buckets int
	Epochs  int
	Batch   int
	Rate    float64 // Adam's step size
	Seed    uint64
	Threads int
	// OnTerms learns a net whose output is added to the weighted terms'
	// evaluation (it starts at zero) instead of one that replaces it.
	OnTerms bool
	// Progress, when set, is told each epoch's losses on the training
	// and the held-out samples.
	Progress func(epoch int, train, test float64)
}

// TrainNet fits a net to the training samples by Adam on mini-batches,
// and returns the one of the epoch with the lowest loss on the held-out
// samples (the last one without them). The result depends only on the
// data and the options, not on the machine: each batch is cut into the
// same parts whatever the number of threads, and the parts' gradients are
// added in order.
func (d *NetData) TrainNet(v *engine.Variant, train, test []int, o NetOptions) (*Net, error) {
	n, rng, err := startNet(v, o)
	if err != nil {
		return nil, err
	}
	params := [][]float32{n.W1, n.B1, n.W2, n.B2}
	const parts = 8
	grads := make([][][]float32, parts)
	for p := range grads {
		for _, x := range params {
			grads[p] = append(grads[p], make([]float32, len(x)))
		}
	}
	var m, s [][]float32
	for _, x := range params {
		m = append(m, make([]float32, len(x)))
		s = append(s, make([]float32, len(x)))
	}
	order := append([]int(nil), train...)
	best, bestLoss := (*Net)(nil), math.Inf(1)
	step := 0
	threads := max(1, min(o.Threads, parts))
	for epoch := 1; epoch <= o.Epochs; epoch++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		rate := o.Rate
		if epoch > o.Epochs*7/10 {
			rate /= 10
		}
		for lo := 0; lo < len(order); lo += o.Batch {
			batch := order[lo:min(lo+o.Batch, len(order))]
			var wg sync.WaitGroup
			work := make(chan int, parts)
			for p := 0; p < parts; p++ {
				work <- p
			}
			close(work)
			for t := 0; t < threads; t++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for p := range work {
						part := batch[p*len(batch)/parts : (p+1)*len(batch)/parts]
						d.gradient(n, part, grads[p])
					}
				}()
			}
			wg.Wait()
			step++
			b1 := 1 - math.Pow(0.9, float64(step))
			b2 := 1 - math.Pow(0.999, float64(step))
			scale := float32(1 / float64(len(batch)))
			for k, x := range params {
				g0 := grads[0][k]
				for p := 1; p < parts; p++ {
					for j, y := range grads[p][k] {
						g0[j] += y
					}
				}
				mk, sk := m[k], s[k]
				for j := range x {
					g := g0[j] * scale
					if g == 0 && mk[j] == 0 {
						continue
					}
					mk[j] = 0.9*mk[j] + 0.1*g
					sk[j] = 0.999*sk[j] + 0.001*g*g
					x[j] -= float32(rate * float64(mk[j]) / b1 / (math.Sqrt(float64(sk[j])/b2) + 1e-8))
				}
			}
		}
		trainLoss := d.Loss(n, train)
		testLoss := trainLoss
		if len(test) > 0 {
			testLoss = d.Loss(n, test)
		}
		if o.Progress != nil {
			o.Progress(epoch, trainLoss, testLoss)
		}
		if len(test) == 0 || testLoss < bestLoss {
			bestLoss = testLoss
			best = n.clone()
		}
	}
	return best, nil
}

// startNet is the net a training starts from: random hidden sums, the
// linear sum the material, and the random source the training goes on
// with.
func startNet(v *engine.Variant, o NetOptions) (*Net, *rand.Rand, error) {
	n, err := NewNet(v, o.Hidden, max(o.Buckets, 1))
	if err != nil {
		return nil, nil, err
	}
	n.OnTerms = o.OnTerms
	h := o.Hidden
	rng := rand.New(rand.NewPCG(o.Seed, 0x6e6574))
	// The hidden sums start random, the linear one as the material
	// (in pawns, half from each side's view).
	for i := range n.W1 {
		n.W1[i] = float32(rng.NormFloat64() * 0.1)
	}
	for f := 0; f < netInputs(n.Cells); f++ {
		k := f / n.Cells
		v := float32(value[engine.Kind(k%6+1)]) / 200
		if k%6+1 == int(engine.King) || n.OnTerms {
			v = 0
		}
		if k >= 6 {
			v = -v
		}
		n.W1[f*(h+1)+h] = v
	}
	for i := range n.B1 {
		n.B1[i] = 0.5
	}
	n.B1[h] = 0
	for i := range n.W2 {
		n.W2[i] = float32(rng.NormFloat64() / math.Sqrt(float64(2*h)))
	}
	return n, rng, nil
}

func (n *Net) clone() *Net {
	c := *n
	c.W1 = append([]float32(nil), n.W1...)
	c.B1 = append([]float32(nil), n.B1...)
	c.W2 = append([]float32(nil), n.W2...)
	c.B2 = append([]float32(nil), n.B2...)
	return &c
}

// gradient sets g (W1, B1, W2, B2) to the summed gradient of the loss
// over the samples.
func (d *NetData) gradient(n *Net, samples []int, g [][]float32) {
	for _, x := range g {
		clear(x)
	}
	h := n.Hidden
	gw1, gb1, gw2 := g[0], g[1], g[2]
	acc := [2][]float32{make([]float32, h+1), make([]float32, h+1)}
	var dh [2][]float32
	dh[0], dh[1] = make([]float32, h+1), make([]float32, h+1)
	const ln10 = 2.302585092994046
	for _, i := range samples {
		d.forward(n, i, &acc)
		b := n.bucket(int(d.count[i]))
		v := n.raw(&acc, engine.White, b)
		p := winChance(d.base(n, i) + float64(v)*100)
		t := winChance(float64(d.target[i]))
		// d loss / d v, with v in pawns.
		gv := float32(2 * (p - t) * p * (1 - p) * ln10 / 4)
		g[3][b] += gv
		at, k := int(d.at[i]), int(d.count[i])
		for s := 0; s < 2; s++ {
			o := (2*b + s) * h
			w := n.W2[o : o+h]
			gw := gw2[o : o+h]
			ds := dh[s]
			for j, x := range acc[s][:h] {
				if x > 0 && x < 1 {
					gw[j] += gv * x
					ds[j] = gv * w[j]
				} else {
					if x >= 1 {
						gw[j] += gv
					}
					ds[j] = 0
				}
			}
			ds[h] = gv
			if s == 1 {
				ds[h] = -gv
			}
			addRow(gb1[:h+1], ds)
			for _, f := range d.in[at+s*k : at+(s+1)*k] {
				addRow(gw1[int(f)*(h+1):int(f)*(h+1)+h+1], ds)
			}
		}
	}
}
