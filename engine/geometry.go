package engine

import (
	"sort"
	"strings"
)

// The eight step directions of RULES §1.1, clockwise from north. Even
// indices are orthogonal, odd ones diagonal.
const (
	DirN = iota
	DirNE
	DirE
	DirSE
	DirS
	DirSW
	DirW
	DirNW
)

// DirVec gives (dx, dy) of each direction on a flat board.
var DirVec = [8][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}

// Arrival is where one step lands and the direction a ray continues in.
type Arrival struct {
	Cell int
	Dir  int
}

// StepFunc is a board's step function: from a cell in a direction, zero,
// one or (at a switch) two arrivals.
type StepFunc func(cell, dir int) []Arrival

// rayNode is one cell of a precomputed ray tree, stored in preorder. When
// the cell blocks (occupied), the walk resumes at Skip, past its subtree.
type rayNode struct {
	Cell  int16
	Skip  int16
	Depth int8
}

// attackNode is one cell of a reverse line tree toward a target cell: if
// the cell is occupied by an enemy piece whose kind bit is in Mask, that
// piece attacks the target; if it is occupied at all, the walk skips on.
type attackNode struct {
	Cell int16
	Skip int16
	Mask uint8
}

// Geometry is a board: cells, names and every precomputed table that move
// generation walks. It is built once per variant and never changes.
type Geometry struct {
	N       int
	names   []string
	aliases map[string]int
	// Partner is the other half of a switch (Chess 66), or -1.
	Partner    []int16
	hasPartner bool
	// Twin is the cell on the other side of the paper (Möbius), or nil.
	Twin []int16

	KingSteps [][]int16
	Knight    [][]int16
	// rays[k][cell] for k in Bishop, Rook, Queen.
	rays [7][][]rayNode

	// Pawn tables by colour, direction (0 '+', 1 '-') and cell.
	PawnPush   [2][2][][]int16
	PawnCap    [2][2][][]int16
	PawnDouble [2][2][][][2]int16
	Promo      [2][2][]bool

	knightFrom  [][]int16
	kingFrom    [][]int16
	pawnCapFrom [2][2][][]int16
	attackTrie  [][]attackNode
	pinnable    []bitset
	countTables
	listTables

	// MayDup: two paths of one piece can reach the same cell, so
	// generation removes duplicate destinations.
	MayDup bool
	// PawnDirs: pawns carry a direction that position strings write.
	PawnDirs bool

	zPiece  []uint64
	zEP     []uint64
	zCastle [16]uint64
	zSide   uint64

	Layout *Layout

	// written are the names moves are written with where they differ
	// from the canonical ones (Chess 66's switch cells); nil: none do.
	written map[int]string
}

type bitset []uint64

func newBitset(n int) bitset    { return make(bitset, (n+63)/64) }
func (b bitset) has(i int) bool { return b[i>>6]&(1<<(uint(i)&63)) != 0 }
func (b bitset) set(i int)      { b[i>>6] |= 1 << (uint(i) & 63) }
func kindBit(k Kind) uint8      { return 1 << k }
func containsCell(s []int16, c int16) bool {
	for _, x := range s {
		if x == c {
			return true
		}
	}
	return false
}

// newGeometry allocates a geometry of n cells with canonical names.
func newGeometry(names []string) *Geometry {
	n := len(names)
	g := &Geometry{N: n, names: names, aliases: map[string]int{}}
	g.Partner = make([]int16, n)
	for i := range g.Partner {
		g.Partner[i] = -1
	}
	for i, nm := range names {
		g.AddAlias(nm, i)
	}
	return g
}

// AddAlias lets a cell be typed as name (matched case-insensitively).
func (g *Geometry) AddAlias(name string, cell int) {
	g.aliases[strings.ToLower(name)] = cell
}

// Name is the canonical name of a cell.
func (g *Geometry) Name(cell int) string {
	if cell < 0 || cell >= g.N {
		return "?"
	}
	return g.names[cell]
}

// Written is the name a cell is written with in SAN and move lists. It is
// the canonical name except on Chess 66, whose cells 4 and 5 are written
// s4 and s5 there: a bare "4" reads like a move number ("1. 4 5").
func (g *Geometry) Written(cell int) string {
	if w, ok := g.written[cell]; ok {
		return w
	}
	return g.Name(cell)
}

// Aliases lists every accepted spelling of a cell that was registered
// (canonical one first), in lower case.
func (g *Geometry) Aliases(cell int) []string {
	out := []string{strings.ToLower(g.names[cell])}
	for a, c := range g.aliases {
		if c == cell && a != out[0] {
			out = append(out, a)
		}
	}
	sort.Strings(out[1:])
	return out
}

// normalizeCellName folds the prime spellings of RULES §1.2 to "'".
func normalizeCellName(s string) string {
	return primeReplacer.Replace(strings.TrimSpace(strings.ToLower(s)))
}

var primeReplacer = strings.NewReplacer("’", "'", "′", "'", "`", "'")

// Cell parses a cell name, returning -1 if it is not a cell of this board.
func (g *Geometry) Cell(s string) int {
	s = normalizeCellName(s)
	if c, ok := g.aliases[s]; ok {
		return c
	}
	if strings.HasSuffix(s, "p") {
		if c, ok := g.aliases[s[:len(s)-1]+"'"]; ok {
			return c
		}
	}
	return -1
}

// Rays yields the ray tree of a rider kind from a cell, for tests and tools:
// each path as a list of cells.
func (g *Geometry) RayPaths(k Kind, cell int) [][]int {
	nodes := g.rays[k][cell]
	var out [][]int
	var stack []int
	for i := range nodes {
		d := int(nodes[i].Depth)
		stack = append(stack[:d-1], int(nodes[i].Cell))
		isLeaf := i+1 >= len(nodes) || int(nodes[i+1].Depth) <= d
		if isLeaf {
			out = append(out, append([]int(nil), stack...))
		}
	}
	return out
}

// RayCells is every cell some ray of kind k from cell reaches on an empty
// board, deduplicated and sorted.
func (g *Geometry) RayCells(k Kind, cell int) []int {
	seen := map[int]bool{}
	var out []int
	for _, n := range g.rays[k][cell] {
		if !seen[int(n.Cell)] {
			seen[int(n.Cell)] = true
			out = append(out, int(n.Cell))
		}
	}
	sort.Ints(out)
	return out
}

// buildRayTree walks a step function from origin in the given directions,
// forking where a step forks, and stopping each branch before it would
// enter a cell already on it (the origin included).
func buildRayTree(origin int, dirs []int, step StepFunc, stopAt func(cell int) bool) []rayNode {
	var out []rayNode
	path := []int{origin}
	var rec func(c, d int)
	rec = func(c, d int) {
		for _, a := range step(c, d) {
			onPath := false
			for _, x := range path {
				if x == a.Cell {
					onPath = true
					break
				}
			}
			if onPath {
				continue
			}
			idx := len(out)
			out = append(out, rayNode{Cell: int16(a.Cell), Depth: int8(len(path))})
			if stopAt == nil || !stopAt(a.Cell) {
				path = append(path, a.Cell)
				rec(a.Cell, a.Dir)
				path = path[:len(path)-1]
			}
			out[idx].Skip = int16(len(out))
		}
	}
	for _, d := range dirs {
		rec(origin, d)
	}
	return out
}

var orthoDirs = []int{DirN, DirE, DirS, DirW}
var diagDirs = []int{DirNE, DirSE, DirSW, DirNW}
var allDirs = []int{DirN, DirNE, DirE, DirSE, DirS, DirSW, DirW, DirNW}

// buildFromSteps fills king steps, rider rays and knight targets of a
// board given by a step function.
func (g *Geometry) buildFromSteps(step StepFunc) {
	g.KingSteps = make([][]int16, g.N)
	for c := 0; c < g.N; c++ {
		var ks []int16
		for _, d := range allDirs {
			for _, a := range step(c, d) {
				if a.Cell != c && !containsCell(ks, int16(a.Cell)) {
					ks = append(ks, int16(a.Cell))
				}
			}
		}
		g.KingSteps[c] = ks
	}
	for _, k := range []Kind{Bishop, Rook, Queen} {
		g.rays[k] = make([][]rayNode, g.N)
	}
	for c := 0; c < g.N; c++ {
		g.rays[Rook][c] = buildRayTree(c, orthoDirs, step, nil)
		g.rays[Bishop][c] = buildRayTree(c, diagDirs, step, nil)
		g.rays[Queen][c] = concatTrees(g.rays[Rook][c], g.rays[Bishop][c])
	}
	g.buildKnights()
}

// SetRays installs ray trees built by a geometry that does not use a
// step function for riders (the cube).
func (g *Geometry) setRays(k Kind, trees [][]rayNode) { g.rays[k] = trees }

func concatTrees(a, b []rayNode) []rayNode {
	out := make([]rayNode, 0, len(a)+len(b))
	out = append(out, a...)
	off := int16(len(a))
	for _, n := range b {
		n.Skip += off
		out = append(out, n)
	}
	return out
}

// buildKnights applies the generic knight of RULES §1.1: two king steps,
// minus the origin, its neighbours, the first two cells of every rook and
// bishop ray, and (at a switch) the origin's own switch.
func (g *Geometry) buildKnights() {
	g.Knight = make([][]int16, g.N)
	for o := 0; o < g.N; o++ {
		excl := map[int16]bool{int16(o): true}
		if p := g.Partner[o]; p >= 0 {
			excl[p] = true
		}
		for _, c := range g.KingSteps[o] {
			excl[c] = true
		}
		for _, k := range []Kind{Rook, Bishop} {
			for _, n := range g.rays[k][o] {
				if n.Depth <= 2 {
					excl[n.Cell] = true
				}
			}
		}
		var ts []int16
		for _, a := range g.KingSteps[o] {
			for _, b := range g.KingSteps[a] {
				if !excl[b] && !containsCell(ts, b) {
					ts = append(ts, b)
				}
			}
		}
		sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
		g.Knight[o] = ts
	}
}

// pawnRule describes pawns on a board with a step function: for a colour
// and direction, the forward direction, the capture directions, where the
// double step is allowed and where the pawn promotes.
type pawnRule struct {
	forward   func(c Color, dir int) int
	captures  func(c Color, dir int) []int
	double    func(c Color, dir int, cell int) bool
	promotion func(c Color, dir int, cell int) bool
}

// upDownForward and upDownCaptures are the pawn moves of the boards where
// a pawn of direction 0 runs north and one of direction 1 south.
func upDownForward(_ Color, dir int) int {
	if dir == 0 {
		return DirN
	}
	return DirS
}

func upDownCaptures(_ Color, dir int) []int {
	if dir == 0 {
		return []int{DirNW, DirNE}
	}
	return []int{DirSW, DirSE}
}

func (g *Geometry) buildPawns(step StepFunc, r pawnRule) {
	for c := 0; c < 2; c++ {
		for d := 0; d < 2; d++ {
			col := Color(c)
			push := make([][]int16, g.N)
			caps := make([][]int16, g.N)
			dbl := make([][][2]int16, g.N)
			promo := make([]bool, g.N)
			fw := r.forward(col, d)
			for o := 0; o < g.N; o++ {
				promo[o] = r.promotion(col, d, o)
				for _, a := range step(o, fw) {
					push[o] = append(push[o], int16(a.Cell))
					if r.double(col, d, o) {
						for _, b := range step(a.Cell, a.Dir) {
							if b.Cell != o {
								dbl[o] = append(dbl[o], [2]int16{int16(a.Cell), int16(b.Cell)})
							}
						}
					}
				}
				for _, cd := range r.captures(col, d) {
					for _, a := range step(o, cd) {
						if !containsCell(caps[o], int16(a.Cell)) {
							caps[o] = append(caps[o], int16(a.Cell))
						}
					}
				}
			}
			g.PawnPush[c][d], g.PawnCap[c][d], g.PawnDouble[c][d], g.Promo[c][d] = push, caps, dbl, promo
		}
	}
}

// finish derives the reverse tables, attack trees, pinnable sets and
// Zobrist keys once every forward table is in place.
func (g *Geometry) finish() {
	n := g.N
	for _, p := range g.Partner {
		if p >= 0 {
			g.hasPartner = true
		}
	}
	g.plain = !g.MayDup && !g.hasPartner && g.Twin == nil
	g.knightFrom = invert(g.Knight, n)
	g.kingFrom = invert(g.KingSteps, n)
	for c := 0; c < 2; c++ {
		for d := 0; d < 2; d++ {
			g.pawnCapFrom[c][d] = invert(g.PawnCap[c][d], n)
		}
	}
	g.buildStepTables()
	g.buildAttackTries()
	g.buildBitRays()
	g.buildListBits()
	g.buildZobrist()
}

func invert(t [][]int16, n int) [][]int16 {
	out := make([][]int16, n)
	for o, ts := range t {
		for _, x := range ts {
			if !containsCell(out[x], int16(o)) {
				out[x] = append(out[x], int16(o))
			}
		}
	}
	return out
}

type trieBuild struct {
	cell     int16
	mask     uint8
	children []*trieBuild
}

func (t *trieBuild) child(c int16) *trieBuild {
	for _, ch := range t.children {
		if ch.cell == c {
			return ch
		}
	}
	ch := &trieBuild{cell: c}
	t.children = append(t.children, ch)
	return ch
}

// buildAttackTries inverts every rider ray: for each target, a tree of the
// lines that end on it, walked outward from the target. An attacker is the
// first occupied cell of a line, so the tree lets one walk answer "is this
// cell attacked by a rider" on any board, symmetric or not.
func (g *Geometry) buildAttackTries() {
	roots := make([]*trieBuild, g.N)
	for i := range roots {
		roots[i] = &trieBuild{cell: -1}
	}
	for _, k := range []Kind{Bishop, Rook, Queen} {
		for o := 0; o < g.N; o++ {
			nodes := g.rays[k][o]
			var stack []int16
			for _, nd := range nodes {
				d := int(nd.Depth)
				stack = append(stack[:d-1], nd.Cell)
				// stack = path from origin's first step to nd.Cell.
				t := roots[nd.Cell]
				for i := len(stack) - 2; i >= 0; i-- {
					t = t.child(stack[i])
				}
				t = t.child(int16(o))
				t.mask |= kindBit(k)
			}
		}
	}
	g.attackTrie = make([][]attackNode, g.N)
	g.pinnable = make([]bitset, g.N)
	for t := 0; t < g.N; t++ {
		var out []attackNode
		pin := newBitset(g.N)
		var rec func(n *trieBuild)
		rec = func(n *trieBuild) {
			for _, ch := range n.children {
				idx := len(out)
				out = append(out, attackNode{Cell: ch.cell, Mask: ch.mask})
				if len(ch.children) > 0 {
					pin.set(int(ch.cell))
					if p := g.Partner[ch.cell]; p >= 0 {
						pin.set(int(p))
					}
				}
				rec(ch)
				out[idx].Skip = int16(len(out))
			}
		}
		rec(roots[t])
		g.attackTrie[t] = out
		g.pinnable[t] = pin
	}
}

func (g *Geometry) buildZobrist() {
	s := uint64(0x9E3779B97F4A7C15) ^ uint64(g.N)*0x2545F4914F6CDD1D
	next := func() uint64 {
		s += 0x9E3779B97F4A7C15
		z := s
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
		z = (z ^ (z >> 27)) * 0x94D049BB133111EB
		return z ^ (z >> 31)
	}
	g.zPiece = make([]uint64, pieceCodes*g.N)
	for i := range g.zPiece {
		g.zPiece[i] = next()
	}
	g.zEP = make([]uint64, g.N)
	for i := range g.zEP {
		g.zEP[i] = next()
	}
	for i := range g.zCastle {
		g.zCastle[i] = next()
	}
	g.zSide = next()
}

func (g *Geometry) zp(p Piece, cell int) uint64 { return g.zPiece[int(p)*g.N+cell] }
