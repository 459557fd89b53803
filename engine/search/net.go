package search

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"path"
	"strconv"

	"topochess/engine"
)

// A Net is a learned evaluation for one board: the pieces, each by kind,
// by whether it is the side's own, and by cell, feed a hidden layer of
// clipped-linear units seen from each side, and one output unit reads the
// side to move's units and then the other side's (docs/ai.md, "A network
// evaluation on top of the weighted terms"). A side sees the board from
// its own end: Black's cells are those of the board turned over (mirror). The first layer is kept as two
// running sums (one a side) that a move changes only where the board
// changed, so an evaluation costs the changed cells and the output layer.
type Net struct {
	Variant string
	Cells   int
	Hidden  int
	// W1 holds a row of Hidden+1 weights for each input (2·6·Cells), B1
	// the biases of the same Hidden+1 sums. The first Hidden sums feed
	// the hidden units; the last is linear, a value for each piece on
	// each cell (material and placement), and goes to the output as the
	// side to move's minus the other side's. The output has Buckets sets
	// of weights, one for each share of the pieces left on the board
	// (bucket): W2 holds each set's weights (the side to move's units,
	// then the other's) and B2 each set's bias. The output is in pawns.
	W1, B1, W2, B2 []float32
	Buckets        int
	// OnTerms: the output is added to the weighted terms' evaluation
	// instead of replacing it.
	OnTerms bool
	mirror  []int
	// pieces is the number of pieces in the start position.
	pieces int
}

const netMagic = "topochess-net-1\n"

// netInputs is the number of inputs of a net for a board of n cells.
func netInputs(n int) int { return 2 * 6 * n }

// MaxNetBuckets is the most output buckets a net may have (the file
// keeps their number in 8 bits).
const MaxNetBuckets = 32

// NewNet makes a net with zero weights and buckets output buckets for the
// variant, which must have a mirror (netMirror).
func NewNet(v *engine.Variant, hidden, buckets int) (*Net, error) {
	m, err := netMirror(v)
	if err != nil {
		return nil, err
	}
	if buckets < 1 || buckets > MaxNetBuckets {
		return nil, fmt.Errorf("a network has 1 to %d output buckets, not %d", MaxNetBuckets, buckets)
	}
	pieces := 0
	for _, pc := range v.StartPosition().Board {
		if pc != 0 {
			pieces++
		}
	}
	n := v.Geo.N
	return &Net{Variant: v.ID, Cells: n, Hidden: hidden, Buckets: buckets, mirror: m, pieces: max(pieces, 1),
		W1: make([]float32, netInputs(n)*(hidden+1)), B1: make([]float32, hidden+1),
		W2: make([]float32, buckets*2*hidden), B2: make([]float32, buckets)}, nil
}

// bucket is the output bucket of a board with the given number of
// pieces: the start position's pieces cut into Buckets equal shares, the
// fullest boards in the last.
func (n *Net) bucket(pieces int) int {
	return min(max(pieces-1, 0)*n.Buckets/n.pieces, n.Buckets-1)
}

// netMirror maps each cell to the cell Black sees there: the board turned
// over rank for rank.
func netMirror(v *engine.Variant) ([]int, error) {
	return reflected(v, func(file byte, rank int, _ byte, ranks int) (byte, int) { return file, ranks + 1 - rank })
}

// reflected maps each cell of a board of files and ranks (names such as
// "e4") to the cell named by across(its file, its rank, the last file, the
// last rank).
func reflected(v *engine.Variant, across func(file byte, rank int, files byte, ranks int) (byte, int)) ([]int, error) {
	g := v.Geo
	files, ranks := byte('a'), 0
	at := make([]struct {
		file byte
		rank int
	}, g.N)
	for c := range at {
		name := g.Name(c)
		r, err := strconv.Atoi(name[1:])
		if err != nil || name[0] < 'a' || name[0] > 'z' {
			return nil, fmt.Errorf("a network evaluation needs a board of files and ranks; %s has cell %q", v.ID, name)
		}
		at[c].file, at[c].rank = name[0], r
		files, ranks = max(files, name[0]), max(ranks, r)
	}
	m := make([]int, g.N)
	for c, x := range at {
		f, r := across(x.file, x.rank, files, ranks)
		t := g.Cell(fmt.Sprintf("%c%d", f, r))
		if t < 0 {
			return nil, fmt.Errorf("a network evaluation needs a board that turns onto itself; %s has no cell for %q", v.ID, g.Name(c))
		}
		m[c] = t
	}
	return m, nil
}

// input is the input a piece on a cell feeds in the view of side.
func (n *Net) input(side engine.Color, pc engine.Piece, cell int) int {
	k := int(pc.Kind()) - 1
	if pc.Color() != side {
		k += 6
	}
	if side == engine.Black {
		cell = n.mirror[cell]
	}
	return k*n.Cells + cell
}

// netAcc is a searcher's running first layer: the hidden units' sums from
// each side for the board it last evaluated.
type netAcc struct {
	net    *Net
	board  []engine.Piece
	sum    [2][]float32
	pieces int
}

func newNetAcc(n *Net) *netAcc {
	a := &netAcc{net: n, board: make([]engine.Piece, n.Cells)}
	for c := range a.sum {
		a.sum[c] = append([]float32(nil), n.B1...)
	}
	return a
}

// update brings the sums to the board of p, touching only the cells that
// differ from the board they were made for.
func (a *netAcc) update(p *engine.Position) {
	n := a.net
	h := n.Hidden + 1
	for cell, pc := range p.Board[:n.Cells] {
		old := a.board[cell]
		if old == pc {
			continue
		}
		if old == 0 {
			a.pieces++
		} else if pc == 0 {
			a.pieces--
		}
		for side := engine.White; side <= engine.Black; side++ {
			sum := a.sum[side][:h]
			if old != 0 {
				i := n.input(side, old, cell) * h
				subRow(sum, n.W1[i:i+h])
			}
			if pc != 0 {
				i := n.input(side, pc, cell) * h
				addRow(sum, n.W1[i:i+h])
			}
		}
		a.board[cell] = pc
	}
}

// output is the net's score in centipawns for side to move, from the
// running sums already brought to the position.
func (a *netAcc) output(side engine.Color) int32 {
	n := a.net
	return int32(math.Round(float64(n.raw(&a.sum, side, n.bucket(a.pieces))) * 100))
}

// raw is the output unit's value, in pawns, with the weights of output
// bucket b.
func (n *Net) raw(sum *[2][]float32, side engine.Color, b int) float32 {
	h := n.Hidden
	us, them := sum[side][:h+1], sum[side^1][:h+1]
	w2 := n.W2[b*2*h : (b+1)*2*h]
	wu, wt := w2[:h], w2[h:2*h]
	v := n.B2[b] + us[h] - them[h]
	v += clipDot(us[:h], wu)
	return v + clipDot(them[:h], wt)
}

// Evaluate scores p for the side to move, in centipawns, from scratch.
func (n *Net) Evaluate(p *engine.Position) int32 {
	a := newNetAcc(n)
	a.update(p)
	return a.output(p.Side)
}

// MarshalBinary writes the net as the file weights/ID.net holds it.
func (n *Net) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(netMagic)
	flags := uint32(n.Buckets-1) << 8
	if n.OnTerms {
		flags |= 1
	}
	head := []uint32{uint32(len(n.Variant)), uint32(n.Cells), uint32(n.Hidden), flags}
	binary.Write(&b, binary.LittleEndian, head)
	b.WriteString(n.Variant)
	for _, xs := range [][]float32{n.W1, n.B1, n.W2, n.B2} {
		binary.Write(&b, binary.LittleEndian, xs)
	}
	return b.Bytes(), nil
}

// ParseNet reads a net written by MarshalBinary for the variant.
func ParseNet(data []byte, v *engine.Variant) (*Net, error) {
	bad := func(why string) (*Net, error) {
		return nil, fmt.Errorf("network for %s: %s", v.ID, why)
	}
	if !bytes.HasPrefix(data, []byte(netMagic)) {
		return bad("not a network file")
	}
	r := bytes.NewReader(data[len(netMagic):])
	var head [4]uint32
	if err := binary.Read(r, binary.LittleEndian, &head); err != nil {
		return bad("short header")
	}
	// The flags: bit 0 for a net on the weighted terms, bits 8 to 15 the
	// number of output buckets less one.
	buckets := int(head[3]>>8) + 1
	if head[0] > 64 || head[2] == 0 || head[2] > 4096 || head[3]&^0xff01 != 0 || buckets > MaxNetBuckets {
		return bad("bad header")
	}
	id := make([]byte, head[0])
	if _, err := r.Read(id); err != nil && head[0] > 0 {
		return bad("short header")
	}
	if string(id) != v.ID || int(head[1]) != v.Geo.N {
		return bad(fmt.Sprintf("file is for %q with %d cells", id, head[1]))
	}
	n, err := NewNet(v, int(head[2]), buckets)
	if err != nil {
		return nil, err
	}
	for _, xs := range [][]float32{n.W1, n.B1, n.W2, n.B2} {
		if err := binary.Read(r, binary.LittleEndian, xs); err != nil {
			return bad("file too short")
		}
	}
	if r.Len() != 0 {
		return bad("file too long")
	}
	n.OnTerms = head[3]&1 == 1
	return n, nil
}

// netFor is the variant's shipped network, or nil.
func netFor(v *engine.Variant) *Net { return netFile(v, ".net") }

// netFile is the variant's shipped network of the file ID+suffix, or nil.
func netFile(v *engine.Variant, suffix string) *Net {
	data, err := weightFiles.ReadFile(path.Join("weights", v.ID+suffix))
	if err != nil {
		return nil
	}
	n, err := ParseNet(data, v)
	if err != nil {
		// Only a broken build gets here; the tests load every file.
		panic(err)
	}
	return n
}
