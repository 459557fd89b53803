package engine

import "fmt"

// The cube is drawn as a cross-shaped net seen from White's side: face 1
// turned upside down so that White's home edge (1/4) is at the bottom of
// it, face 4 below it, faces 2 and 3 above it, and faces 6 and 5 to its
// left and right. Every face is an n×n grid of its own cells, so edge and
// corner cells appear once per face, and faces that meet along an edge of
// the net show the shared cells side by side across a one-cell gap.

// cubeNet places each face at a column and row of the net (row up).
var cubeNet = [7][2]int{{}, {1, 1}, {1, 2}, {1, 3}, {1, 0}, {2, 1}, {0, 1}}

// cubeDrawn is where a face's cell file, rank is drawn inside its box
// after rot quarter turns counter-clockwise.
func cubeDrawn(n, rot, file, rank int) (x, y int) {
	m := n - 1
	switch rot & 3 {
	case 0:
		return file, rank
	case 1:
		return m - rank, file
	case 2:
		return m - file, m - rank
	default:
		return rank, m - file
	}
}

// cubeNetPlan holds the rotation of every face and maps cells to drawn
// positions in doubled units (so half-cell centres stay integers).
type cubeNetPlan struct {
	b   *cubeBoard
	rot [7]int
}

// centre is the drawn cell centre of file, rank of a face, in doubled
// units.
func (pl *cubeNetPlan) centre(face, file, rank int) (int, int) {
	n := pl.b.n
	x, y := cubeDrawn(n, pl.rot[face], file, rank)
	ox, oy := cubeNet[face][0]*(n+1), cubeNet[face][1]*(n+1)
	return 2*(ox+x) + 1, 2*(oy+y) + 1
}

// netNeighbour is the face drawn at column c, row r, or 0.
func netNeighbour(c, r int) int {
	for f := 1; f <= 6; f++ {
		if cubeNet[f] == [2]int{c, r} {
			return f
		}
	}
	return 0
}

// orient finds, face by face outward from face 1, the one rotation that
// puts every cell shared with an already placed neighbour of the net right
// across the gap from its other appearance.
func (pl *cubeNetPlan) orient() {
	pl.rot[1] = 2 // White's home edge at the bottom
	placed := [7]bool{1: true}
	for progress := true; progress; {
		progress = false
		for f := 2; f <= 6; f++ {
			if placed[f] {
				continue
			}
			var nbrs []int
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				if g := netNeighbour(cubeNet[f][0]+d[0], cubeNet[f][1]+d[1]); g != 0 && placed[g] {
					nbrs = append(nbrs, g)
				}
			}
			if len(nbrs) == 0 {
				continue
			}
			found := -1
			for r := 0; r < 4; r++ {
				pl.rot[f] = r
				if pl.fits(f, nbrs) {
					if found >= 0 {
						panic(fmt.Sprintf("engine: cube net face %d fits two ways", f))
					}
					found = r
				}
			}
			if found < 0 {
				panic(fmt.Sprintf("engine: cube net face %d does not fit", f))
			}
			pl.rot[f] = found
			placed[f] = true
			progress = true
		}
	}
}

func (pl *cubeNetPlan) fits(f int, nbrs []int) bool {
	b := pl.b
	for _, g := range nbrs {
		// Centres of the two appearances of a shared cell are two cells
		// apart (one gap cell between) in the direction from g to f.
		wx, wy := 4*(cubeNet[f][0]-cubeNet[g][0]), 4*(cubeNet[f][1]-cubeNet[g][1])
		shared := 0
		for c, p := range b.pts {
			if b.faces[c]&(1<<f) == 0 || b.faces[c]&(1<<g) == 0 {
				continue
			}
			shared++
			ff, fr := cubeFileRank(b.n, f, p)
			gf, gr := cubeFileRank(b.n, g, p)
			x1, y1 := pl.centre(f, ff, fr)
			x0, y0 := pl.centre(g, gf, gr)
			if x1-x0 != wx || y1-y0 != wy {
				return false
			}
		}
		if shared == 0 {
			return false
		}
	}
	return true
}

// cubeLabelChoice says on which side of a face its file letters go (rank
// 0 or rank n−1) and its rank numbers (file 0 or file n−1); the face
// number goes in the corner square where the two rows meet.
type cubeLabelChoice struct{ fileSide, rankSide int }

type cubeLabel struct {
	x, y  int // doubled units
	text  string
	small bool
}

// labels returns a face's labels for a choice and how many of its label
// rows lie in a gap shared with another face.
func (pl *cubeNetPlan) labels(f int, ch cubeLabelChoice) ([]cubeLabel, int) {
	n := pl.b.n
	kr, kr2 := 0, 1
	if ch.fileSide == 1 {
		kr, kr2 = n-1, n-2
	}
	kf, kf2 := 0, 1
	if ch.rankSide == 1 {
		kf, kf2 = n-1, n-2
	}
	var out []cubeLabel
	for i := 0; i < n; i++ {
		x, y := pl.centre(f, i, kr)
		x2, y2 := pl.centre(f, i, kr2)
		out = append(out, cubeLabel{2*x - x2, 2*y - y2, string(rune('a' + i)), true})
		x, y = pl.centre(f, kf, i)
		x2, y2 = pl.centre(f, kf2, i)
		out = append(out, cubeLabel{2*x - x2, 2*y - y2, fmt.Sprint(i + 1), true})
	}
	cx, cy := pl.centre(f, kf, kr)
	ax, ay := pl.centre(f, kf, kr2)
	bx, by := pl.centre(f, kf2, kr)
	out = append(out, cubeLabel{3*cx - ax - bx, 3*cy - ay - by, fmt.Sprint(f), false})
	shared := 0
	for _, side := range [2][2]int{{ax, ay}, {bx, by}} {
		// The outward step from the corner cell, scaled to a whole box,
		// points at the net slot beyond that side.
		dx, dy := sign(cx-side[0]), sign(cy-side[1])
		if netNeighbour(cubeNet[f][0]+dx, cubeNet[f][1]+dy) != 0 {
			shared++
		}
	}
	return out, shared
}

// chooseLabels tries every combination of label sides and keeps the one
// with no two labels on one spot and the fewest label rows squeezed into
// gaps between faces.
func (pl *cubeNetPlan) chooseLabels() []cubeLabel {
	var opts [7][4][]cubeLabel
	var cost [7][4]int
	for f := 1; f <= 6; f++ {
		for o := 0; o < 4; o++ {
			opts[f][o], cost[f][o] = pl.labels(f, cubeLabelChoice{o & 1, o >> 1})
		}
	}
	// Labels lie within two cells of the net's boxes; stamp them on a grid
	// of doubled units, the stamp being the combination being tried.
	boxes := 0
	for _, at := range cubeNet {
		boxes = max(boxes, at[0]+1, at[1]+1)
	}
	off := 4
	span := 2*boxes*(pl.b.n+1) + 2*off
	stamp := make([]int, span*span)
	best, bestCost := -1, 1<<30
	for combo := 0; combo < 1<<12; combo++ {
		total := 0
		for f := 1; f <= 6 && total < bestCost; f++ {
			o := combo >> (2 * (f - 1)) & 3
			total += cost[f][o]
			for _, l := range opts[f][o] {
				k := (l.y+off)*span + l.x + off
				if stamp[k] == combo+1 {
					total += 100
				}
				stamp[k] = combo + 1
			}
		}
		if total < bestCost {
			best, bestCost = combo, total
		}
	}
	var out []cubeLabel
	for f := 1; f <= 6; f++ {
		out = append(out, opts[f][best>>(2*(f-1))&3]...)
	}
	return out
}

func (b *cubeBoard) layout() *Layout {
	pl := &cubeNetPlan{b: b}
	pl.orient()
	l := &Layout{}
	for face := 1; face <= 6; face++ {
		for rank := 0; rank < b.n; rank++ {
			for file := 0; file < b.n; file++ {
				p := cubePoint(b.n, face, file, rank)
				cx, cy := pl.centre(face, file, rank)
				x, y := float64(cx-1)/2, float64(cy-1)/2
				l.Shapes = append(l.Shapes, CellShape{
					Cell: b.at(p),
					Poly: []Point{{x, y}, {x + 1, y}, {x + 1, y + 1}, {x, y + 1}},
					// Colour by the parity of the point, so a cell has one
					// colour on every face it shows on and a bishop keeps
					// its colour over the edges; 1a1 is dark.
					Dark: (p[0]+p[1]+p[2])%2 == (b.n-1)%2,
				})
			}
		}
	}
	for _, lb := range pl.chooseLabels() {
		l.Labels = append(l.Labels, Label{At: Point{float64(lb.x) / 2, float64(lb.y) / 2}, Text: lb.text, Small: lb.small})
	}
	first := true
	grow := func(x, y float64) {
		if first {
			l.MinX, l.MaxX, l.MinY, l.MaxY = x, x, y, y
			first = false
		}
		l.MinX, l.MaxX = min(l.MinX, x), max(l.MaxX, x)
		l.MinY, l.MaxY = min(l.MinY, y), max(l.MaxY, y)
	}
	for _, s := range l.Shapes {
		for _, pt := range s.Poly {
			grow(pt.X, pt.Y)
		}
	}
	for _, lb := range l.Labels {
		grow(lb.At.X-0.5, lb.At.Y-0.5)
		grow(lb.At.X+0.5, lb.At.Y+0.5)
	}
	return l
}
