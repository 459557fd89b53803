package engine

import (
	"fmt"
	"math"
)

// The cube is drawn as six faces in two columns of three, seen from White:
//
//	3 6
//	4 1
//	5 2
//
// Why this net:
//   - Chat apps on phones show a picture about 400 px wide. A cross-shaped
//     net is three faces (about 22 cells) wide and leaves about 17 px per
//     cell; two columns leave 19 px (cube) and 28 px (cube5), room for
//     labels of 17 px type included.
//   - Faces side by side are never opposite faces, and four edges are true
//     folds, the most two columns of three allow: 3/4 and 1/2, where the
//     armies meet, and 3/6 and 2/5, with faces 6 and 5 laid against 3 and 2.
//     The row of a fold straddles it, one cell seen by both faces.
//   - The four belt faces 1–4 keep their own orientation: files a→h left to
//     right, ranks upward. Faces 3 over 4 form one ordinary board of 15
//     ranks with White at the bottom (4a1–4h1 = 1a8–1h8) and Black at the
//     top (3a8–3h8 = 2a1–2h1); 1 over 2 is the board behind. The renderer
//     turns the picture half round for Black, which is Black's natural view.
//     Nothing depends on the side to move.
//   - Every cell is drawn once as one square. On the eight cut edges the
//     row goes wholly with one face: the belt faces keep their a- and
//     h-files, so every belt face shows whole ranks, and the home rows go
//     with 3 and 4 on cube (with 1 on cube5, where face 1 is White's whole
//     army). A coloured band marks both sides of every cut, and the side
//     where the row is missing says where it continues ("to 4a1–4h1",
//     "to 1h"); beside a home row drawn on one face stand its other names
//     ("= 1a8–1h8").

// cubePlace puts a face's own square [0,n]² (file along u, rank along v)
// in the drawing, turned rot quarter turns counter-clockwise.
type cubePlace struct {
	ox, oy float64
	rot    int
}

func (pl cubePlace) at(n int, u, v float64) Point {
	N := float64(n)
	switch pl.rot & 3 {
	case 1:
		return Point{pl.ox + N - v, pl.oy + u}
	case 2:
		return Point{pl.ox + N - u, pl.oy + N - v}
	case 3:
		return Point{pl.ox + v, pl.oy + N - u}
	}
	return Point{pl.ox + u, pl.oy + v}
}

const (
	// Between the two boards: room beside face 6 for its tag, and for
	// the names of the home rows, wider than a face of cube5.
	cubeGapX = 1.0
	// Between face 4 and face 5 (and face 1 and face 6): two rows of text,
	// the tag of face 4's bottom row and the one over face 5.
	cubeGapY = 2.3
)

// cubeCuts are the cut edges in the order their bands are listed; the
// renderer colours bands by pair in a cycle of four, and this order keeps
// bands of one colour away from each other.
var cubeCuts = [8][2]int{{4, 6}, {1, 4}, {1, 5}, {1, 6}, {3, 5}, {2, 6}, {2, 3}, {4, 5}}

type cubeDrawing struct {
	b      *cubeBoard
	place  [7]cubePlace
	own14  int     // the face that draws the 1/4 edge
	em     float64 // the size of label text, in cells
	l      *Layout
	placed [][4]float64 // the room of the labels placed so far
}

// owner is the face whose square a cell is drawn in.
func (d *cubeDrawing) owner(c int) int {
	fs := d.b.faces[c]
	switch {
	case fs&(1<<1) != 0 && fs&(1<<4) != 0:
		return d.own14
	case fs&(1<<2) != 0 && fs&(1<<3) != 0:
		return 3
	}
	for f := 1; f <= 6; f++ {
		if fs&(1<<f) != 0 {
			return f
		}
	}
	panic("engine: cube cell on no face")
}

// square is cell c drawn in face f's square.
func (d *cubeDrawing) square(f, c int) []Point {
	n := d.b.n
	file, rank := cubeFileRank(n, f, d.b.pts[c])
	u, v := float64(file), float64(rank)
	pl := d.place[f]
	return []Point{pl.at(n, u, v), pl.at(n, u+1, v), pl.at(n, u+1, v+1), pl.at(n, u, v+1)}
}

// edgeCells lists the cells shared by faces f and g without the corners,
// in cell order.
func (d *cubeDrawing) edgeCells(f, g int) []int {
	var out []int
	for c := range d.b.pts {
		if fs := d.b.faces[c]; fs&(1<<f) != 0 && fs&(1<<g) != 0 && !d.b.isVertex(c) {
			out = append(out, c)
		}
	}
	return out
}

// side is where an edge lies on face f: 0 bottom, 1 right, 2 top, 3 left
// of its own square.
func (d *cubeDrawing) side(f int, cells []int) int {
	m := d.b.n - 1
	file, rank := cubeFileRank(d.b.n, f, d.b.pts[cells[0]])
	switch {
	case rank == 0:
		return 0
	case file == m:
		return 1
	case rank == m:
		return 2
	}
	return 3
}

// line is the segment along an edge of face f from the first of its cells
// to the last, at depth across the face (0 the face's border, 1 the line
// between the edge row and the rest of the face).
func (d *cubeDrawing) line(f int, cells []int, depth float64) (Point, Point) {
	n := d.b.n
	N := float64(n)
	s := d.side(f, cells)
	along := func(c int) int {
		file, rank := cubeFileRank(n, f, d.b.pts[c])
		if s == 0 || s == 2 {
			return file
		}
		return rank
	}
	a1, a2 := float64(along(cells[0])), float64(along(cells[len(cells)-1]))
	from, to := a1, a2+1
	if a1 > a2 {
		from, to = a1+1, a2
	}
	pt := func(a float64) Point {
		switch s {
		case 0:
			return d.place[f].at(n, a, depth)
		case 1:
			return d.place[f].at(n, N-depth, a)
		case 2:
			return d.place[f].at(n, a, N-depth)
		}
		return d.place[f].at(n, depth, a)
	}
	return pt(from), pt(to)
}

// samePoly tells whether two squares cover the same place (their corners
// may be listed from different starts).
func samePoly(a, b []Point) bool {
	for _, p := range a {
		found := false
		for _, q := range b {
			found = found || math.Abs(p.X-q.X) < 1e-9 && math.Abs(p.Y-q.Y) < 1e-9
		}
		if !found {
			return false
		}
	}
	return true
}

// rowName names the cells of an edge row on face f from file a (or rank
// 1) to the other end, like 4a1–4h1.
func (d *cubeDrawing) rowName(f, g int) string {
	n := d.b.n
	var first, last string
	lo, hi := n, -1
	for c, p := range d.b.pts {
		if fs := d.b.faces[c]; fs&(1<<f) == 0 || fs&(1<<g) == 0 {
			continue
		}
		file, rank := cubeFileRank(n, f, p)
		k := file
		if s := d.side(f, []int{c}); s == 1 || s == 3 {
			k = rank
		}
		if k < lo {
			lo, first = k, cubeName(f, file, rank)
		}
		if k > hi {
			hi, last = k, cubeName(f, file, rank)
		}
	}
	return first + "–" + last
}

// layout draws the net with labels sized for the picture at phone width:
// the text's size in cells follows from the picture's width in cells,
// which depends on the room the labels take, so it settles in a few
// rounds, from small text up.
func (b *cubeBoard) layout(own14 int) *Layout {
	em := 0.5
	var l *Layout
	for round := 0; round < 8; round++ {
		l = b.layoutAt(own14, em)
		scale := math.Floor(cubePhoneWidth / (l.MaxX - l.MinX + 2*cubeFramePad))
		need := math.Round(cubeLabelPx) / scale
		if need <= em {
			break
		}
		em = need + 0.01
	}
	return l
}

func (b *cubeBoard) layoutAt(own14 int, em float64) *Layout {
	n := b.n
	m := float64(n - 1)
	N := float64(n)
	d := &cubeDrawing{b: b, own14: own14, em: em, l: &Layout{}}
	x2 := N + cubeGapX // left edge of the board of faces 1 and 2
	y4 := m + cubeGapY // bottom edge of face 4's square
	d.place = [7]cubePlace{
		1: {x2, m, 0},
		2: {x2, 0, 0},
		3: {0, y4 + m, 0},
		4: {0, y4, 0},
		5: {x2 - m, 0, 0},
		6: {m, y4 + m, 1},
	}
	l := d.l
	for c, p := range b.pts {
		l.Shapes = append(l.Shapes, CellShape{
			Cell: c,
			Poly: d.square(d.owner(c), c),
			// Colour by the parity of the point, so a bishop keeps its
			// colour over the edges; 1a1 is dark.
			Dark: (p[0]+p[1]+p[2])%2 == (n-1)%2,
		})
	}

	// Folds draw their row where both faces put it; every other edge is
	// one of the cuts, banded on both sides.
	cut := map[[2]int]bool{}
	for f := 1; f <= 6; f++ {
		for g := f + 1; g <= 6; g++ {
			cells := d.edgeCells(f, g)
			if len(cells) == 0 {
				continue
			}
			fold := true
			for _, c := range cells {
				fold = fold && samePoly(d.square(f, c), d.square(g, c))
			}
			if !fold {
				cut[[2]int{f, g}] = true
			}
		}
	}
	if len(cut) != len(cubeCuts) {
		panic(fmt.Sprintf("engine: cube drawing has %d cut edges: %v", len(cut), cut))
	}
	for _, e := range cubeCuts {
		if !cut[e] {
			panic(fmt.Sprintf("engine: cube edge %d/%d is not cut", e[0], e[1]))
		}
		cells := d.edgeCells(e[0], e[1])
		o := d.owner(cells[0])
		other := e[0] + e[1] - o
		a, z := d.line(o, cells, 0)
		l.Marks = append(l.Marks, Mark{From: a, To: z, Kind: "glue"})
		a, z = d.line(other, cells, 1)
		l.Marks = append(l.Marks, Mark{From: a, To: z, Kind: "glue"})
	}

	// Text goes on in order of importance, each label where it is meant
	// to stand or the nearest free place: the coordinates of the two
	// boards and the caps, the names of the home rows, which are wider
	// than a face of cube5, the face numbers in the corners, then the
	// tags of the caps, whose places are freest.
	d.boardLabels(3, 4, -1)
	d.boardLabels(1, 2, 1)
	d.capLabels(6, 1, 2)
	d.capLabels(5, 0, 3)
	// A home row drawn on one face is named on the other's side too:
	// beside the row, "= its other names"; where it is missing, "to" where
	// it is drawn. Face 3 draws the 2/3 row, above its file letters.
	d.rowTags(own14, 5-own14)
	d.rowTags(3, 2)

	for _, fc := range [6]struct {
		f      int
		sx, sy float64 // the corner: −1 left or bottom, 1 right or top
	}{{3, -1, 1}, {4, -1, -1}, {1, 1, 1}, {2, 1, -1}, {6, 1, 1}, {5, -1, -1}} {
		x0, y0, x1, y1 := d.extent(fc.f)
		x, y := x0-d.beside(), y0-d.above()
		if fc.sx > 0 {
			x = x1 + d.beside()
		}
		if fc.sy > 0 {
			y = y1 + d.above()
		}
		d.label(x, y, fmt.Sprint(fc.f), false, fc.sx, 0)
	}

	d.capTags(6, 1, 2)
	d.capTags(5, 0, 3)

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
	for _, bx := range d.placed {
		grow(bx[0], bx[1])
		grow(bx[2], bx[3])
	}
	return l
}
