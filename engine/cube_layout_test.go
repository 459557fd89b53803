package engine

import (
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// What a picture 400 px wide makes of a layout, worked out as the
// renderer frames it (render/frame.go: planFor, fit): the content box
// holds every cell, label and mark plus a frame of 0.2 units, the scale is
// a whole number of pixels per cell, and every label is drawn with an em
// of 17 px (0.34 cells when that is more, never more than a cell); a
// digit or capital is 0.73 em high.
const (
	phoneWidth    = 400.0
	phoneFramePad = 0.2
)

type textBox struct {
	x0, y0, x1, y1 float64
	text           string
}

// labelPx is the em of every label at scale s (pixels per cell).
func labelPx(s float64) float64 {
	return math.Round(math.Min(math.Max(0.34*s, 17), s))
}

// labelBox is a label's extent in layout units at scale s: the renderer's
// generous width estimate (render/frame.go: textHalf) and the box it
// draws, 0.405 em above the middle of the capitals and 0.605 em below
// (render/board.go: drawText); down is down the layout for White and up
// it for Black, who sees the picture turned half round.
func labelBox(lb Label, s float64, black bool) textBox {
	em := labelPx(s) / s
	hw := 0.37 * em * float64(utf8.RuneCountInString(lb.Text))
	up, down := 0.405*em, 0.605*em
	if black {
		up, down = down, up
	}
	return textBox{lb.At.X - hw, lb.At.Y - down, lb.At.X + hw, lb.At.Y + up, lb.Text}
}

// phoneScale is the cell size in pixels of a picture phoneWidth wide, and
// the picture's height.
func phoneScale(l *Layout) (scale, height float64) {
	s := 20.0
	for i := 0; i < 10; i++ {
		x0, y0, x1, y1 := l.MinX, l.MinY, l.MaxX, l.MaxY
		add := func(x, y float64) {
			x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
		}
		for _, sh := range l.Shapes {
			for _, p := range sh.Poly {
				add(p.X, p.Y)
			}
		}
		for _, lb := range l.Labels {
			for _, black := range []bool{false, true} {
				b := labelBox(lb, s, black)
				add(b.x0, b.y0)
				add(b.x1, b.y1)
			}
		}
		for _, m := range l.Marks {
			add(m.From.X, m.From.Y)
			add(m.To.X, m.To.Y)
		}
		s = math.Floor(phoneWidth / (x1 - x0 + 2*phoneFramePad))
		height = (y1 - y0 + 2*phoneFramePad) * s
	}
	return s, height
}

func overlaps(a, b textBox) bool {
	const eps = 1e-6
	return a.x0 < b.x1-eps && b.x0 < a.x1-eps && a.y0 < b.y1-eps && b.y0 < a.y1-eps
}

func squareBox(sh CellShape) textBox {
	b := textBox{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1), ""}
	for _, p := range sh.Poly {
		b.x0, b.y0, b.x1, b.y1 = min(b.x0, p.X), min(b.y0, p.Y), max(b.x1, p.X), max(b.y1, p.Y)
	}
	return b
}

func centre(poly []Point) Point {
	var c Point
	for _, p := range poly {
		c.X += p.X / float64(len(poly))
		c.Y += p.Y / float64(len(poly))
	}
	return c
}

func TestCubePictureCellsOnce(t *testing.T) {
	for _, id := range []string{"cube", "cube5"} {
		t.Run(id, func(t *testing.T) {
			v, b := cubeOf(t, id)
			l := v.Geo.Layout
			want := map[string]int{"cube": 296, "cube5": 98}[id]
			if v.Geo.N != want {
				t.Fatalf("%d cells, want %d", v.Geo.N, want)
			}
			shapes := make([][]CellShape, v.Geo.N)
			for _, sh := range l.Shapes {
				shapes[sh.Cell] = append(shapes[sh.Cell], sh)
			}
			for c, shs := range shapes {
				if len(shs) != 1 {
					t.Errorf("%s drawn %d times", v.Geo.Name(c), len(shs))
					continue
				}
				// One polygon: a unit square.
				bx := squareBox(shs[0])
				if len(shs[0].Poly) != 4 || math.Abs(bx.x1-bx.x0-1) > 1e-9 || math.Abs(bx.y1-bx.y0-1) > 1e-9 {
					t.Errorf("%s is not one unit square: %v", v.Geo.Name(c), shs[0].Poly)
				}
			}
			// No two squares overlap, and squares side by side are
			// neighbours on the cube: nothing looks adjacent that is not.
			ortho := map[[2]int]bool{}
			for c, qs := range b.ortho {
				for _, q := range qs {
					ortho[[2]int{c, int(q)}] = true
				}
			}
			for i, a := range l.Shapes {
				ba := squareBox(a)
				for _, o := range l.Shapes[i+1:] {
					bo := squareBox(o)
					if overlaps(ba, bo) {
						t.Errorf("%s and %s overlap", v.Geo.Name(a.Cell), v.Geo.Name(o.Cell))
					}
					dx, dy := math.Abs(ba.x0-bo.x0), math.Abs(ba.y0-bo.y0)
					side := dx < 1e-9 && math.Abs(dy-1) < 1e-9 || dy < 1e-9 && math.Abs(dx-1) < 1e-9
					if side && !ortho[[2]int{a.Cell, o.Cell}] {
						t.Errorf("%s and %s drawn side by side but not neighbours", v.Geo.Name(a.Cell), v.Geo.Name(o.Cell))
					}
				}
			}
		})
	}
}

// TestCubePictureFolds: four edges are true folds, the row of each drawn
// side by side with the rest of both its faces.
func TestCubePictureFolds(t *testing.T) {
	for _, id := range []string{"cube", "cube5"} {
		v, b := cubeOf(t, id)
		at := map[int]textBox{}
		for _, sh := range v.Geo.Layout.Shapes {
			at[sh.Cell] = squareBox(sh)
		}
		touching := func(c, q int) bool {
			dx, dy := math.Abs(at[c].x0-at[q].x0), math.Abs(at[c].y0-at[q].y0)
			return math.Abs(dx+dy-1) < 1e-9 && (dx < 1e-9 || dy < 1e-9)
		}
		var folds []string
		for f := 1; f <= 6; f++ {
			for g := f + 1; g <= 6; g++ {
				fold, any := true, false
				for c := range b.pts {
					fs := b.faces[c]
					if fs&(1<<f) == 0 || fs&(1<<g) == 0 || b.isVertex(c) {
						continue
					}
					any = true
					for _, q := range b.ortho[c] {
						if qs := b.faces[q]; (qs&(1<<f) == 0) != (qs&(1<<g) == 0) && !touching(c, int(q)) {
							fold = false
						}
					}
				}
				if any && fold {
					folds = append(folds, fmt.Sprintf("%d/%d", f, g))
				}
			}
		}
		if got := strings.Join(folds, " "); got != "1/2 2/5 3/4 3/6" {
			t.Errorf("%s: folds %s, want 1/2 2/5 3/4 3/6", id, got)
		}
	}
}

func TestCubePictureAtPhoneWidth(t *testing.T) {
	for _, id := range []string{"cube", "cube5"} {
		v, _ := cubeOf(t, id)
		l := v.Geo.Layout
		s, h := phoneScale(l)
		t.Logf("%s at %.0f px wide: cells %.1f px, height %.0f px (%.2f × width)", id, phoneWidth, s, h, h/phoneWidth)
		if s < 18 {
			t.Errorf("%s: cells of %.1f px at %.0f px wide, want at least 18", id, s, phoneWidth)
		}
		if h > 1.8*phoneWidth {
			t.Errorf("%s: %.0f px high at %.0f px wide, more than 1.8 × width", id, h, phoneWidth)
		}
		// Labels stand clear of every cell and of each other, seen from
		// either side.
		for _, black := range []bool{false, true} {
			var boxes []textBox
			for _, lb := range l.Labels {
				if px := 0.73 * labelPx(s); px < 12 {
					t.Errorf("%s: label %q %.1f px high", id, lb.Text, px)
				}
				bx := labelBox(lb, s, black)
				for _, sh := range l.Shapes {
					if overlaps(bx, squareBox(sh)) {
						t.Errorf("%s: label %q at %v lies on %s", id, lb.Text, lb.At, v.Geo.Name(sh.Cell))
					}
				}
				for _, o := range boxes {
					if overlaps(bx, o) {
						t.Errorf("%s: labels %q at %v and %q overlap", id, lb.Text, lb.At, o.text)
					}
				}
				boxes = append(boxes, bx)
			}
		}
	}
}

// TestCubePictureNaturalOrder: every belt face is drawn as seen from
// outside with files a→h left to right and ranks upward (White's home
// faces 1 and 4, Black's 2 and 3 once the picture is turned for Black).
func TestCubePictureNaturalOrder(t *testing.T) {
	for _, id := range []string{"cube", "cube5"} {
		v, b := cubeOf(t, id)
		at := map[int]Point{}
		for _, sh := range v.Geo.Layout.Shapes {
			at[sh.Cell] = centre(sh.Poly)
		}
		for face := 1; face <= 4; face++ {
			var origin *Point
			seen := 0
			for rank := 0; rank < b.n; rank++ {
				for file := 0; file < b.n; file++ {
					c := b.at(cubePoint(b.n, face, file, rank))
					if b.faces[c] != 1<<face {
						continue // edge cells may be drawn with the neighbour
					}
					o := Point{at[c].X - float64(file), at[c].Y - float64(rank)}
					if origin == nil {
						origin = &o
					} else if math.Abs(o.X-origin.X) > 1e-9 || math.Abs(o.Y-origin.Y) > 1e-9 {
						t.Errorf("%s: %s out of face %d's natural order", id, v.Geo.Name(c), face)
					}
					seen++
				}
			}
			if seen != (b.n-2)*(b.n-2) {
				t.Errorf("%s face %d: %d inner cells", id, face, seen)
			}
		}
		// Face 1 reads a→h left to right on every rank, edges included.
		for rank := 0; rank < b.n; rank++ {
			for file := 1; file < b.n; file++ {
				c0 := b.at(cubePoint(b.n, 1, file-1, rank))
				c1 := b.at(cubePoint(b.n, 1, file, rank))
				if at[c1].X <= at[c0].X {
					t.Errorf("%s: %s drawn left of %s", id, v.Geo.Name(c1), v.Geo.Name(c0))
				}
			}
		}
	}
}

// TestCubePictureSideToMove: the picture's layout does not depend on the
// side to move.
func TestCubePictureSideToMove(t *testing.T) {
	for _, id := range []string{"cube", "cube5"} {
		v := MustVariant(id)
		w := v.StartPosition()
		bl := v.StartPosition()
		bl.Make(bl.LegalMoves()[0])
		if bl.Side != Black || !reflect.DeepEqual(w.Geo().Layout, bl.Geo().Layout) {
			t.Errorf("%s: layout differs with Black to move", id)
		}
		if !reflect.DeepEqual(w.Geo().Layout, newVariantLayout(t, id)) {
			t.Errorf("%s: layout not rebuilt identically", id)
		}
	}
}

func newVariantLayout(t *testing.T, id string) *Layout {
	t.Helper()
	switch id {
	case "cube":
		return newCube8().Geo.Layout
	case "cube5":
		return newCube5().Geo.Layout
	}
	t.Fatalf("no cube %s", id)
	return nil
}

// TestCubePictureNames: every cell the players' rules name can be read off
// the picture under one of its names: on a face drawn with its labels (or
// folded against it), or in a row whose two names a tag gives; and every
// face shows its number.
func TestCubePictureNames(t *testing.T) {
	ranges := regexp.MustCompile(`([1-6])([a-h])([1-8])–([1-6])([a-h])([1-8])`)
	for _, id := range []string{"cube", "cube5"} {
		v, b := cubeOf(t, id)
		l := v.Geo.Layout
		faceLabel := map[string]bool{}
		small := map[string]bool{}
		for _, lb := range l.Labels {
			if lb.Small {
				small[lb.Text] = true
			} else {
				faceLabel[lb.Text] = true
			}
		}
		for f := 1; f <= 6; f++ {
			if !faceLabel[fmt.Sprint(f)] {
				t.Errorf("%s: no number on face %d", id, f)
			}
		}
		for i := 0; i < b.n; i++ {
			if !small[string(rune('a'+i))] || !small[fmt.Sprint(i+1)] {
				t.Errorf("%s: file %c or rank %d never labelled", id, 'a'+i, i+1)
			}
		}
		at := map[int]Point{}
		for _, sh := range l.Shapes {
			at[sh.Cell] = centre(sh.Poly)
		}
		// drawnOn: the cell stands where its face's grid, found from the
		// face's inner cells, puts it, so that face's labels name it.
		drawnOn := func(name string) bool {
			face := int(name[0] - '0')
			file, rank := float64(name[1]-'a'), float64(name[2]-'1')
			o := at[b.at(cubePoint(b.n, face, 1, 1))]
			u := at[b.at(cubePoint(b.n, face, 2, 1))]
			w := at[b.at(cubePoint(b.n, face, 1, 2))]
			eu, ev := Point{u.X - o.X, u.Y - o.Y}, Point{w.X - o.X, w.Y - o.Y}
			want := Point{o.X + (file-1)*eu.X + (rank-1)*ev.X, o.Y + (file-1)*eu.Y + (rank-1)*ev.Y}
			got := at[v.Geo.Cell(name)]
			return math.Abs(got.X-want.X) < 1e-9 && math.Abs(got.Y-want.Y) < 1e-9
		}
		inTag := func(name string) bool {
			for _, lb := range l.Labels {
				for _, m := range ranges.FindAllStringSubmatch(lb.Text, -1) {
					if name[0] != m[1][0] {
						continue
					}
					if m[3] == m[6] && name[2] == m[3][0] && name[1] >= m[2][0] && name[1] <= m[5][0] {
						return true
					}
				}
			}
			return false
		}
		for _, nm := range regexp.MustCompile(`\b[1-6][a-h][1-8]\b`).FindAllString(v.Rules, -1) {
			c := v.Geo.Cell(nm)
			found := false
			for _, alias := range append([]string{v.Geo.Name(c)}, v.Geo.Aliases(c)...) {
				found = found || drawnOn(alias) || inTag(alias)
			}
			if !found {
				t.Errorf("%s: %s cannot be found on the picture", id, nm)
			}
		}
	}
}
