// Package render draws positions of every variant to PNG from the
// geometry's own 2-D layout.
package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"sort"
	"strings"

	"github.com/fogleman/gg"

	"topochess/engine"
)

// Options says what to highlight and from which side to draw. Cell lists
// are used (not single cells) so the zero value highlights nothing.
type Options struct {
	// Orientation: the side drawn at the bottom.
	Orientation engine.Color
	// Last is the last move's from and to cells.
	Last []int
	// Check holds the cell of a king in check.
	Check []int
	// Selected is the cell of a chosen piece; Dots its quiet destinations,
	// Rings its capture destinations.
	Selected []int
	Dots     []int
	Rings    []int
	// Observed is Heisenberg's observed cell S; Observers the cells of the
	// pieces that see it.
	Observed  []int
	Observers []int
	// Highlight marks arbitrary cells.
	Highlight []int
}

// Renderer draws boards. It is safe for concurrent use.
type Renderer struct {
	// Long is the length in pixels of the picture's longest side.
	Long int
}

// New returns a renderer with the default size.
func New() *Renderer { return &Renderer{Long: 1024} }

// transform maps layout coordinates to pixels for a variant and side.
type transform struct {
	scale, offX, offY float64
	w, h              int
	l                 *engine.Layout
	flip              bool
}

const margin = 0.9 // in cell units, room for labels

func (r *Renderer) transform(v *engine.Variant, o engine.Color) transform {
	l := v.Geo.Layout
	lw := l.MaxX - l.MinX + 2*margin
	lh := l.MaxY - l.MinY + 2*margin
	scale := float64(r.Long) / math.Max(lw, lh)
	return transform{scale: scale, w: int(math.Round(lw * scale)), h: int(math.Round(lh * scale)), l: l, flip: o == engine.Black}
}

func (t transform) px(p engine.Point) (float64, float64) {
	x, y := p.X-t.l.MinX, p.Y-t.l.MinY
	if t.flip {
		x = t.l.MaxX - t.l.MinX - x
		y = t.l.MaxY - t.l.MinY - y
	}
	return (x + margin) * t.scale, float64(t.h) - (y+margin)*t.scale
}

// Size is the picture size in pixels for a variant.
func (r *Renderer) Size(v *engine.Variant) (w, h int) {
	t := r.transform(v, engine.White)
	return t.w, t.h
}

func centroid(poly []engine.Point) engine.Point {
	var c engine.Point
	for _, p := range poly {
		c.X += p.X
		c.Y += p.Y
	}
	n := float64(len(poly))
	return engine.Point{X: c.X / n, Y: c.Y / n}
}

// Image draws a position.
func (r *Renderer) Image(pos *engine.Position, opt Options) image.Image {
	v := pos.V
	t := r.transform(v, opt.Orientation)
	dc := gg.NewContext(t.w, t.h)
	dc.SetColor(color.RGBA{0x30, 0x2e, 0x2b, 0xff})
	dc.Clear()
	mark := map[int]color.Color{}
	for _, c := range opt.Last {
		mark[c] = color.RGBA{0xcd, 0xd2, 0x6a, 0xff}
	}
	for _, c := range opt.Check {
		mark[c] = color.RGBA{0xe0, 0x4a, 0x3a, 0xff}
	}
	for _, sh := range t.l.Shapes {
		for i, p := range sh.Poly {
			x, y := t.px(p)
			if i == 0 {
				dc.MoveTo(x, y)
			} else {
				dc.LineTo(x, y)
			}
		}
		dc.ClosePath()
		if c, ok := mark[sh.Cell]; ok {
			dc.SetColor(c)
		} else if sh.Dark {
			dc.SetColor(color.RGBA{0xb5, 0x88, 0x63, 0xff})
		} else {
			dc.SetColor(color.RGBA{0xf0, 0xd9, 0xb5, 0xff})
		}
		dc.Fill()
	}
	for _, sh := range t.l.Shapes {
		pc := pos.Board[sh.Cell]
		if pc == 0 {
			continue
		}
		x, y := t.px(centroid(sh.Poly))
		if pc.Color() == engine.White {
			dc.SetColor(color.White)
		} else {
			dc.SetColor(color.Black)
		}
		dc.DrawCircle(x, y, t.scale*0.35)
		dc.Fill()
		if pc.Color() == engine.White {
			dc.SetColor(color.Black)
		} else {
			dc.SetColor(color.White)
		}
		dc.DrawStringAnchored(pc.Kind().Letter(), x, y, 0.5, 0.5)
	}
	return dc.Image()
}

// PNG draws a position and encodes it.
func (r *Renderer) PNG(pos *engine.Position, opt Options) ([]byte, error) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, r.Image(pos, opt)); err != nil {
		return nil, fmt.Errorf("encode board: %w", err)
	}
	return buf.Bytes(), nil
}

// CellAt maps a pixel of a picture drawn with this renderer to the cell
// drawn there, or -1.
func (r *Renderer) CellAt(v *engine.Variant, o engine.Color, x, y float64) int {
	t := r.transform(v, o)
	for _, sh := range t.l.Shapes {
		pts := make([][2]float64, len(sh.Poly))
		for i, p := range sh.Poly {
			pts[i][0], pts[i][1] = t.px(p)
		}
		if inPolygon(pts, x, y) {
			return sh.Cell
		}
	}
	return -1
}

func inPolygon(pts [][2]float64, x, y float64) bool {
	in := false
	for i, j := 0, len(pts)-1; i < len(pts); j, i = i, i+1 {
		xi, yi, xj, yj := pts[i][0], pts[i][1], pts[j][0], pts[j][1]
		if (yi > y) != (yj > y) && x < (xj-xi)*(y-yi)/(yj-yi)+xi {
			in = !in
		}
	}
	return in
}

// AltText describes a position in words (for screen readers and as the
// Discord attachment description).
func AltText(pos *engine.Position, opt Options) string {
	g := pos.Geo()
	var side [2][]string
	for c, pc := range pos.Board {
		if pc != 0 {
			side[pc.Color()] = append(side[pc.Color()], pc.Kind().Letter()+g.Name(c))
		}
	}
	sort.Strings(side[0])
	sort.Strings(side[1])
	s := fmt.Sprintf("%s board. White: %s. Black: %s. %s to move", pos.V.Name,
		strings.Join(side[0], " "), strings.Join(side[1], " "), strings.ToUpper(pos.Side.String()[:1])+pos.Side.String()[1:])
	if pos.InCheck() {
		s += ", in check"
	}
	if len(opt.Last) == 2 {
		s += fmt.Sprintf(". Last move %s-%s", g.Name(opt.Last[0]), g.Name(opt.Last[1]))
	}
	return s + "."
}
