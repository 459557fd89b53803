package render

import (
	"bytes"
	"image/png"
	"testing"
)

// TestEvalGraph draws a graph and checks its pixels: light below the
// curve, dark above it, and a mark in the blunder colour where marked.
func TestEvalGraph(t *testing.T) {
	evals := []float64{0, 0.1, 0.05, 0.8, 0.8, -0.9, -0.95}
	data, err := EvalGraph(evals, []GraphMark{{Ply: 5, Severity: 3}}, GraphOptions{Width: 400, Title: "test"})
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	if b.Dx() != 400 || b.Dy() != 180 {
		t.Fatalf("size %v", b)
	}
	light := func(x, y int) bool {
		r, g, bl, _ := img.At(x, y).RGBA()
		return r+g+bl > 3*0x8000
	}
	// Around ply 3 and 4 White is far ahead: near the bottom it is light,
	// near the top dark. At the end Black is ahead: just above the
	// bottom edge it is dark.
	em := 180 / 14
	xAt := func(i int) int { return em*6/10 + (400-2*em*6/10)*i/(len(evals)-1) }
	if !light(xAt(3)+3, 180-em) || light(xAt(3)+3, em*2) {
		t.Errorf("White's lead at ply 3 is not drawn")
	}
	if light(xAt(6)-2, 180-em-2) {
		t.Errorf("Black's lead at the end is not drawn")
	}
	reds := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r > 0xc000 && g < 0x6000 && bl < 0x6000 {
				reds++
			}
		}
	}
	if reds < 10 {
		t.Errorf("the blunder mark is missing (%d red pixels)", reds)
	}
	if _, err := EvalGraph(nil, nil, GraphOptions{}); err == nil {
		t.Error("an empty graph was drawn")
	}
}
