package engine

// Point is a position in a board's drawing plane, in cell units, with y
// growing upward (White's view).
type Point struct{ X, Y float64 }

// CellShape is one drawn appearance of a cell. A cell may be drawn several
// times (an edge cell of the cube appears on each face it belongs to).
type CellShape struct {
	Cell int
	Poly []Point
	// Dark selects the dark square colour; Split draws a two-coloured cell
	// (Chess 66's transfer cells).
	Dark  bool
	Split bool
	// Tint marks a region drawn differently (the primed half of the Möbius
	// strip, the "back side" of the paper).
	Tint bool
	// Down: the layout's up (the way '+' pawns go) points down on this
	// shape (the back half of the folded Möbius strip).
	Down bool
}

// Label is a coordinate or face label drawn on the board plane.
type Label struct {
	At   Point
	Text string
	// Small labels are secondary (mirrored files at a seam, face numbers).
	Small bool
}

// Mark is a line drawn on the board plane: glue marks on edges that are
// joined, seams, switch outlines.
type Mark struct {
	From, To Point
	// Kind: "glue" (edges glued together), "seam" (Klein seam), "switch".
	Kind string
	Text string
}

// Layout is the 2-D picture of a geometry the renderer draws from.
type Layout struct {
	MinX, MinY, MaxX, MaxY float64
	Shapes                 []CellShape
	Labels                 []Label
	Marks                  []Mark
}

// gridLayout lays out a w×h grid of unit squares where cellAt(x, y) names
// the cell drawn at column x, row y (or -1 for none), with a1-style dark
// squares where (x+y) is even.
func gridLayout(w, h int, cellAt func(x, y int) int) *Layout {
	l := &Layout{MinX: 0, MinY: 0, MaxX: float64(w), MaxY: float64(h)}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := cellAt(x, y)
			if c < 0 {
				continue
			}
			fx, fy := float64(x), float64(y)
			l.Shapes = append(l.Shapes, CellShape{
				Cell: c,
				Poly: []Point{{fx, fy}, {fx + 1, fy}, {fx + 1, fy + 1}, {fx, fy + 1}},
				Dark: (x+y)%2 == 0,
			})
		}
	}
	return l
}
