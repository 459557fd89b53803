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
//     cell; two columns leave about 21 px (cube) and 32 px (cube5).
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
//     where the row is missing says where it continues.

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
	cubeGapX = 0.5 // between the two boards, where faces 4 and 1 stand side by side
	cubeGapY = 1.8 // between face 4 and face 5: room for two tags
	// cubeCharW is the advance of a small label's character at the
	// smallest pictures (12 px text on cells of about 20 px), to keep
	// tags beside vertical sides clear of the cells.
	cubeCharW = 0.37
)

// cubeCuts are the cut edges in the order their bands are listed; the
// renderer colours bands by pair in a cycle of four, and this order keeps
// bands of one colour away from each other.
var cubeCuts = [8][2]int{{4, 6}, {1, 4}, {1, 5}, {1, 6}, {3, 5}, {2, 6}, {2, 3}, {4, 5}}

type cubeDrawing struct {
	b     *cubeBoard
	place [7]cubePlace
	own14 int // the face that draws the 1/4 edge
	l     *Layout
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

func (d *cubeDrawing) label(x, y float64, text string, small bool) {
	d.l.Labels = append(d.l.Labels, Label{At: Point{x, y}, Text: text, Small: small})
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

func (b *cubeBoard) layout(own14 int) *Layout {
	n := b.n
	m := float64(n - 1)
	N := float64(n)
	d := &cubeDrawing{b: b, own14: own14, l: &Layout{}}
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

	// The two boards: files on the outer end, ranks on the outer side,
	// face numbers in the outer corners.
	top3 := y4 + m + N
	bot2 := 1.0
	d.boardLabels(3, 4, -0.4, top3+0.4)
	d.boardLabels(1, 2, x2+N+0.4, bot2-0.4)
	d.label(-0.45, top3+0.45, "3", false)
	bot4 := y4
	if own14 != 4 {
		bot4++
	}
	d.label(-0.45, bot4-0.5, "4", false)
	top1 := m + N
	if own14 != 1 {
		top1--
	}
	d.label(x2+N+0.45, top1+0.5, "1", false)
	d.label(x2+N+0.45, bot2-0.45, "2", false)

	// The home rows name both their names on both sides.
	home := func(f, g int) string { return d.rowName(f, g) + " = " + d.rowName(g, f) }
	t14 := home(1, 4)
	d.label(N/2, bot4-0.45, t14, true)
	d.label(x2+N/2, top1+0.45, t14, true)
	t23 := home(2, 3)
	d.label(N/2, top3+1.1, t23, true)
	d.label(x2+N/2, bot2-1.1, t23, true)

	d.capLabels(6, 1, 2)
	d.capLabels(5, 0, 3)
	// Face numbers of the caps in their free corners.
	d.label(2*m+0.45, y4+2*m+0.45, "6", false)
	d.label(x2-m+1-0.45, 1-0.45, "5", false)

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
		hw := cubeCharW * float64(len([]rune(lb.Text))) / 2
		grow(lb.At.X-hw, lb.At.Y-0.3)
		grow(lb.At.X+hw, lb.At.Y+0.3)
	}
	return l
}

// boardLabels labels a board of face top over face bottom: rank numbers
// in the column at x, file letters in the row at y. The fold row carries
// both its ranks, each toward its own face.
func (d *cubeDrawing) boardLabels(top, bottom int, x, y float64) {
	n := d.b.n
	for _, f := range []int{top, bottom} {
		mid := d.place[f].at(n, float64(n)/2, float64(n)/2).Y
		for r := 0; r < n; r++ {
			c := d.b.at(cubePoint(n, f, 1, r))
			if o := d.owner(c); o != top && o != bottom {
				continue // this row is drawn with the other board
			}
			at := d.place[f].at(n, 1.5, float64(r)+0.5).Y
			fs := d.b.faces[c]
			if fs&(1<<top) != 0 && fs&(1<<bottom) != 0 {
				at += 0.3 * math.Copysign(1, mid-at)
			}
			d.label(x, at, fmt.Sprint(r+1), true)
		}
	}
	for f := 0; f < n; f++ {
		d.label(d.place[top].at(n, float64(f)+0.5, 1).X, y, string(rune('a'+f)), true)
	}
}

// capLabels labels the inner cells of a cap face (5 or 6): file letters on
// side fileSide and rank numbers on side rankSide of the drawing (0 bottom,
// 1 right, 2 top, 3 left), and on every side where the cap's edge row is
// missing a tag naming where it continues, beyond those labels.
func (d *cubeDrawing) capLabels(f, fileSide, rankSide int) {
	n := d.b.n
	m := float64(n - 1)
	lo := d.place[f].at(n, 1, 1)
	hi := d.place[f].at(n, m, m)
	x0, x1 := min(lo.X, hi.X), max(lo.X, hi.X)
	y0, y1 := min(lo.Y, hi.Y), max(lo.Y, hi.Y)
	// out is the point at distance off outside side s, at along.
	out := func(s int, along, off float64) (float64, float64) {
		switch s {
		case 0:
			return along, y0 - off
		case 1:
			return x1 + off, along
		case 2:
			return along, y1 + off
		}
		return x0 - off, along
	}
	for i := 1; i < n-1; i++ {
		p := d.place[f].at(n, float64(i)+0.5, m/2+0.5)
		along := p.X
		if fileSide == 1 || fileSide == 3 {
			along = p.Y
		}
		x, y := out(fileSide, along, 0.4)
		d.label(x, y, string(rune('a'+i)), true)
		p = d.place[f].at(n, m/2+0.5, float64(i)+0.5)
		along = p.X
		if rankSide == 1 || rankSide == 3 {
			along = p.Y
		}
		x, y = out(rankSide, along, 0.4)
		d.label(x, y, fmt.Sprint(i+1), true)
	}
	for g := 1; g <= 4; g++ {
		cells := d.edgeCells(f, g)
		o := d.owner(cells[0])
		if o == f || samePoly(d.square(f, cells[0]), d.square(o, cells[0])) {
			continue // drawn here, or folded
		}
		a, z := d.line(f, cells, 1)
		mid := Point{(a.X + z.X) / 2, (a.Y + z.Y) / 2}
		// The side of the drawing this edge lies on.
		s := 0
		switch {
		case math.Abs(a.X-z.X) < 1e-9 && a.X > (x0+x1)/2:
			s = 1
		case math.Abs(a.X-z.X) < 1e-9:
			s = 3
		case a.Y > (y0+y1)/2:
			s = 2
		}
		file, _ := cubeFileRank(n, g, d.b.pts[cells[0]])
		text := fmt.Sprintf("to %d%c", g, 'a'+file)
		labelled := s == fileSide || s == rankSide
		off := 0.45
		if labelled {
			off = 1.1
		}
		along := mid.X
		if s == 1 || s == 3 {
			// Upright text beside an upright side: clear the side (and
			// its labels) by half the text's width at its widest.
			along = mid.Y
			off = 0.15 + cubeCharW*float64(len([]rune(text)))/2
			if labelled {
				off += 0.6
			}
		}
		x, y := out(s, along, off)
		d.label(x, y, text, true)
	}
}
