package engine

import (
	"fmt"
	"math"
)

// The labels of the cube net: coordinates, face numbers and the tags that
// name the rows drawn with another face, each placed where it is clear of
// the cells and of the labels placed before it.

// The renderer draws labels 17 px high (the em) in a picture 400 px
// wide, and as much larger as the picture is wider; on a cube net that
// is most of a cell. The labels are placed for that size, in cells.
const (
	// cubeTextGap is the room the renderer keeps between a text and a
	// cell (render/frame.go: labelGap).
	cubeTextGap    = 0.08
	cubePhoneWidth = 400.0
	cubeLabelPx    = 17.0
	cubeFramePad   = 0.2 // render/frame.go: framePad
)

// The room of a text at em size em (in cells): the renderer's generous
// estimate of its half width per character (render/frame.go: textHalf);
// its box reaches 0.405 em above the middle of its capitals and 0.605 em
// below (render/board.go: drawText), and the picture may be turned half
// round, so either way may be down: cellH is the half height that keeps
// a text off cells, textH the one that keeps two texts apart.
func (d *cubeDrawing) runeW() float64 { return 0.37 * d.em }
func (d *cubeDrawing) cellH() float64 { return 0.61 * d.em }
func (d *cubeDrawing) textH() float64 { return 0.51 * d.em }

// above is the distance from a cell's side to the middle of a row of text
// beside it, lineGap the distance between two rows of text, beside the
// distance from an upright side to the middle of a character beside it.
func (d *cubeDrawing) above() float64   { return d.cellH() + 0.02 }
func (d *cubeDrawing) lineGap() float64 { return 2*d.textH() + 0.04 }
func (d *cubeDrawing) beside() float64  { return d.runeW() + cubeTextGap + 0.03 }

// labelRoom is the room a label of half height hh takes at (x, y).
func (d *cubeDrawing) labelRoom(x, y float64, text string, hh float64) [4]float64 {
	hw := d.runeW()*float64(len([]rune(text))) + cubeTextGap
	return [4]float64{x - hw, y - hh, x + hw, y + hh}
}

func boxesOverlap(a, b [4]float64) bool {
	const e = 1e-9
	return a[0] < b[2]-e && b[0] < a[2]-e && a[1] < b[3]-e && b[1] < a[3]-e
}

// clear tells whether a label's room at (x, y) holds no cell and no
// label placed before.
func (d *cubeDrawing) clear(x, y float64, text string) bool {
	bx := d.labelRoom(x, y, text, d.cellH())
	for _, sh := range d.l.Shapes {
		p, q := sh.Poly[0], sh.Poly[2]
		if boxesOverlap(bx, [4]float64{min(p.X, q.X), min(p.Y, q.Y), max(p.X, q.X), max(p.Y, q.Y)}) {
			return false
		}
	}
	bx = d.labelRoom(x, y, text, d.textH())
	for _, o := range d.placed {
		if boxesOverlap(bx, o) {
			return false
		}
	}
	return true
}

// label puts a text at (x, y) or, where that is taken, the nearest place
// clear of cells and labels: moving the way (dx, dy) first, then across
// it, whichever is shorter. The labels of a net this crowded cannot rely
// on the renderer, which moves a label off cells but not off others.
func (d *cubeDrawing) label(x, y float64, text string, small bool, dx, dy float64) {
	d.labelOn(x, y, text, small, [][2]float64{{dx, dy}, {-dy, dx}, {dy, -dx}})
}

// labelOn is label moving only the ways listed.
func (d *cubeDrawing) labelOn(x, y float64, text string, small bool, ways [][2]float64) {
	const step, steps = 0.05, 120
	bx, by, best := x, y, -1
	for _, dir := range ways {
		for i := 0; i < steps && (best < 0 || i < best); i++ {
			px, py := x+float64(i)*step*dir[0], y+float64(i)*step*dir[1]
			if d.clear(px, py, text) {
				bx, by, best = px, py, i
				break
			}
		}
	}
	if best < 0 {
		panic(fmt.Sprintf("engine: no room for cube label %q", text))
	}
	d.placed = append(d.placed, d.labelRoom(bx, by, text, d.textH()))
	d.l.Labels = append(d.l.Labels, Label{At: Point{bx, by}, Text: text, Small: small})
}

// extent is the box of the cells drawn as face f's own.
func (d *cubeDrawing) extent(f int) (x0, y0, x1, y1 float64) {
	x0, y0, x1, y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for c := range d.b.pts {
		if d.owner(c) != f {
			continue
		}
		for _, p := range d.square(f, c) {
			x0, y0, x1, y1 = min(x0, p.X), min(y0, p.Y), max(x1, p.X), max(y1, p.Y)
		}
	}
	return
}

// rowTags names the home row of the edge between face o, which draws it,
// and face g, where it is missing: on o's side of the row "= g's names",
// on g's side "to o's names". The tags stand over the top or under the
// bottom of the board, beyond any file letters there.
func (d *cubeDrawing) rowTags(o, g int) {
	for _, f := range []int{o, g} {
		text := "= " + d.rowName(g, o)
		if f == g {
			text = "to " + d.rowName(o, g)
		}
		x0, y0, x1, y1 := d.extent(f)
		cells := d.edgeCells(o, g)
		a, _ := d.line(f, cells, 0)
		y, dy := y0-d.above(), -1.0
		if a.Y > (y0+y1)/2 {
			y, dy = y1+d.above(), 1
		}
		d.label((x0+x1)/2, y, text, true, 0, dy)
	}
}

// boardLabels labels a board of face top over face bottom, its rank
// numbers on its side out (−1 left, 1 right) and its file letters on its
// outer end. The fold row carries both its ranks, one over the other,
// each toward its own face, just outside the column of the others.
func (d *cubeDrawing) boardLabels(top, bottom int, out float64) {
	n := d.b.n
	var x, fileY, fileDir float64
	{
		x0, _, x1, y1 := d.extent(top)
		_, by0, _, _ := d.extent(bottom)
		x = x0 - d.beside()
		if out > 0 {
			x = x1 + d.beside()
		}
		fileY, fileDir = y1+d.above(), 1
		if out > 0 {
			fileY, fileDir = by0-d.above(), -1
		}
	}
	type fold struct {
		y    float64
		text string
	}
	var folds []fold
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
				dy := math.Copysign(1, mid-at)
				folds = append(folds, fold{at + 0.5*dy, fmt.Sprint(r + 1)})
				continue
			}
			d.label(x, at, fmt.Sprint(r+1), true, out, 0)
		}
	}
	// Straight out only: moved up or down, a number would sit beside a
	// row it does not name.
	for _, fd := range folds {
		d.labelOn(x, fd.y, fd.text, true, [][2]float64{{out, 0}})
	}
	edge := top
	if out > 0 {
		edge = bottom
	}
	for f := 0; f < n; f++ {
		d.label(d.place[edge].at(n, float64(f)+0.5, 1).X, fileY, string(rune('a'+f)), true, 0, fileDir)
	}
}

// capLabels labels the inner cells of a cap face (5 or 6): file letters on
// side fileSide and rank numbers on side rankSide of the drawing (0 bottom,
// 1 right, 2 top, 3 left).
func (d *cubeDrawing) capLabels(f, fileSide, rankSide int) {
	n := d.b.n
	m := float64(n - 1)
	for i := 1; i < n-1; i++ {
		p := d.place[f].at(n, float64(i)+0.5, m/2+0.5)
		d.sideLabel(f, fileSide, p, string(rune('a'+i)))
		p = d.place[f].at(n, m/2+0.5, float64(i)+0.5)
		d.sideLabel(f, rankSide, p, fmt.Sprint(i+1))
	}
}

// sideLabel puts a text just outside side s of face f's drawn cells, level
// with p.
func (d *cubeDrawing) sideLabel(f, s int, p Point, text string) {
	x0, y0, x1, y1 := d.extent(f)
	hw := d.runeW()*float64(len([]rune(text))) + cubeTextGap + 0.02
	switch s {
	case 0:
		d.label(p.X, y0-d.above(), text, true, 0, -1)
	case 1:
		d.label(x1+hw, p.Y, text, true, 1, 0)
	case 2:
		d.label(p.X, y1+d.above(), text, true, 0, 1)
	default:
		d.label(x0-hw, p.Y, text, true, -1, 0)
	}
}

// capTags puts, on every side of cap face f where its edge row is missing
// (drawn with a belt face, not folded), a tag naming where it continues,
// beyond the labels on that side.
func (d *cubeDrawing) capTags(f, fileSide, rankSide int) {
	n := d.b.n
	x0, y0, x1, y1 := d.extent(f)
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
		// Beyond the row of letters or numbers on a labelled side.
		off := 0.0
		if s == fileSide || s == rankSide {
			off = d.lineGap()
		}
		hw := d.runeW()*float64(len([]rune(text))) + cubeTextGap + 0.02
		switch s {
		case 0:
			d.label(mid.X, y0-d.above()-off, text, true, 0, -1)
		case 1:
			d.label(x1+hw+off, mid.Y, text, true, 1, 0)
		case 2:
			d.label(mid.X, y1+d.above()+off, text, true, 0, 1)
		default:
			d.label(x0-hw-off, mid.Y, text, true, -1, 0)
		}
	}
}
