package render

import (
	"bytes"
	"fmt"
	"image/color"
	"math"

	"github.com/fogleman/gg"
)

// The evaluation graph of a reviewed game: White's advantage over the
// moves as a curve about the middle line, the plot light below it and
// dark above it, with the mistakes marked where they were played.

// GraphMark marks one move on the graph.
type GraphMark struct {
	// Ply is the position after the move (1 for White's first move).
	Ply int
	// Severity is 1 (inaccuracy), 2 (mistake) or 3 (blunder).
	Severity int
}

// GraphOptions shape an evaluation graph.
type GraphOptions struct {
	// Width and Height in pixels (defaults 800 × 360).
	Width, Height int
	// Title is written at the top left.
	Title string
}

// Graph colours: White's side light, Black's dark, marks by severity.
var (
	graphWhite   = color.RGBA{240, 236, 226, 255}
	graphBlack   = color.RGBA{52, 50, 56, 255}
	graphLine    = color.RGBA{214, 160, 40, 255}
	graphMid     = color.RGBA{150, 150, 150, 255}
	graphText    = color.RGBA{30, 30, 30, 255}
	graphSevered = [4]color.RGBA{{}, {80, 160, 230, 255}, {240, 150, 40, 255}, {220, 50, 50, 255}}
)

// EvalGraph draws the graph of evals, White's advantage in the position
// after each ply (evals[0] is the start), as values in -1..1 (a won
// position is 1; callers squash centipawns into this range).
func EvalGraph(evals []float64, marks []GraphMark, opt GraphOptions) ([]byte, error) {
	if len(evals) == 0 {
		return nil, fmt.Errorf("evaluation graph: no positions")
	}
	w, h := opt.Width, opt.Height
	if w <= 0 {
		w = 800
	}
	if h <= 0 {
		h = w * 9 / 20
	}
	dc := gg.NewContext(w, h)
	em := float64(h) / 14
	top, bottom := em*1.6, float64(h)-em*0.6
	left, right := em*0.6, float64(w)-em*0.6
	mid := (top + bottom) / 2
	half := (bottom - top) / 2
	n := len(evals)
	x := func(i int) float64 {
		if n == 1 {
			return left
		}
		return left + (right-left)*float64(i)/float64(n-1)
	}
	y := func(v float64) float64 {
		v = math.Max(-1, math.Min(1, v))
		return mid - v*half
	}

	dc.SetColor(color.White)
	dc.Clear()
	// Black's share is the plot above the curve, White's the light area
	// below it: the higher the curve, the more of the plot is White's.
	dc.SetColor(graphBlack)
	dc.DrawRectangle(left, top, right-left, bottom-top)
	dc.Fill()
	dc.SetColor(graphWhite)
	dc.MoveTo(left, bottom)
	for i, v := range evals {
		dc.LineTo(x(i), y(v))
	}
	dc.LineTo(x(n-1), bottom)
	dc.ClosePath()
	dc.Fill()
	dc.SetColor(graphMid)
	dc.SetLineWidth(math.Max(1, em/12))
	dc.DrawLine(left, mid, right, mid)
	dc.Stroke()

	dc.SetColor(graphLine)
	dc.SetLineWidth(math.Max(1.5, em/7))
	for i, v := range evals {
		if i == 0 {
			dc.MoveTo(x(i), y(v))
		} else {
			dc.LineTo(x(i), y(v))
		}
	}
	dc.Stroke()

	for _, m := range marks {
		if m.Ply < 0 || m.Ply >= n || m.Severity < 1 || m.Severity > 3 {
			continue
		}
		px, py := x(m.Ply), y(evals[m.Ply])
		r := em * (0.22 + 0.08*float64(m.Severity))
		dc.SetColor(color.White)
		dc.DrawCircle(px, py, r+math.Max(1, em/10))
		dc.Fill()
		dc.SetColor(graphSevered[m.Severity])
		dc.DrawCircle(px, py, r)
		dc.Fill()
	}

	dc.SetColor(graphText)
	dc.SetFontFace(newFace(fontBold(), em*0.8))
	dc.DrawStringAnchored(opt.Title, left, top-em*0.45, 0, 0)

	var buf bytes.Buffer
	if err := encoder.Encode(&buf, dc.Image()); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
