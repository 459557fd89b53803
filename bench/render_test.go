//go:build unix

package bench

import (
	"bytes"
	"image/color"
	"image/png"
	"math"
	"os"
	"sort"
	"sync"

	"testing"
	"time"

	"github.com/fogleman/gg"
	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font"

	"topochess/engine"
	"topochess/render"
)

// renderCase is a mid-game position of a variant with its last move, the
// picture the bot sends after every turn.
func renderCase(b *testing.B, id string) (*engine.Position, render.Options) {
	v := engine.MustVariant(id)
	pos := v.StartPosition()
	opt := render.Options{}
	for i := 0; i < 6; i++ {
		ms := pos.CanonicalMoves()
		if len(ms) == 0 {
			break
		}
		m, err := pos.ParseCanonical(ms[len(ms)/2])
		if err != nil {
			b.Fatal(err)
		}
		pos.Make(m)
		opt.Last = []int{int(m.From), int(m.To)}
	}
	if pos.InCheck() {
		opt.Check = []int{int(pos.King[pos.Side])}
	}
	return pos, opt
}

// BenchmarkRender compares, per variant, our renderer (cached board and
// sprites, paletted PNG) with a naive gg rendering that draws everything
// on every call and encodes with default PNG settings. Besides ns/op each
// reports the median time of one picture, PNG encoding included.
func BenchmarkRender(b *testing.B) {
	for _, id := range engine.Variants() {
		pos, opt := renderCase(b, id)
		r := render.New()
		if _, err := r.PNG(pos, opt); err != nil { // build the caches first
			b.Fatal(err)
		}
		b.Run(id+"/ours", func(b *testing.B) {
			timed(b, func() int {
				data, err := r.PNG(pos, opt)
				if err != nil {
					b.Fatal(err)
				}
				return len(data)
			})
		})
		b.Run(id+"/naive", func(b *testing.B) {
			w, h := r.Size(pos.V)
			timed(b, func() int { return len(naivePNG(b, pos, opt, w, h)) })
		})
	}
}

// timed runs f b.N times and reports the median wall time and the median
// CPU time (user and system, whole process: garbage collection included)
// of one call; on a busy machine the CPU figure is the one to trust.
func timed(b *testing.B, f func() int) {
	walls := make([]time.Duration, 0, b.N)
	cpus := make([]time.Duration, 0, b.N)
	size := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0, c0 := time.Now(), cpuTime()
		size = f()
		walls = append(walls, time.Since(t0))
		cpus = append(cpus, cpuTime()-c0)
	}
	b.StopTimer()
	b.ReportMetric(median(walls), "ms-median")
	b.ReportMetric(median(cpus), "cpu-ms-median")
	b.ReportMetric(float64(size)/1024, "KiB")
}

func median(ds []time.Duration) float64 {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return float64(ds[len(ds)/2].Microseconds()) / 1000
}

// The naive renderer parses its font once, like any sane program; only
// the drawing is repeated.
var naiveFont = sync.OnceValue(func() *truetype.Font {
	data, err := os.ReadFile("../render/fonts/DejaVuSans.ttf")
	if err != nil {
		panic(err)
	}
	f, err := truetype.Parse(data)
	if err != nil {
		panic(err)
	}
	return f
})

func naiveFace(px float64) font.Face {
	return truetype.NewFace(naiveFont(), &truetype.Options{Size: px})
}

// naivePNG draws the position the straightforward way: every cell,
// label and piece with gg on each call, then png.Encode.
func naivePNG(b *testing.B, pos *engine.Position, opt render.Options, w, h int) []byte {
	l := pos.Geo().Layout
	dc := gg.NewContext(w, h)
	dc.SetColor(color.RGBA{0x2f, 0x2d, 0x2a, 0xff})
	dc.Clear()
	s := math.Min(float64(w)/(l.MaxX-l.MinX+1), float64(h)/(l.MaxY-l.MinY+1))
	px := func(p engine.Point) (float64, float64) {
		return (p.X - l.MinX + 0.5) * s, float64(h) - (p.Y-l.MinY+0.5)*s
	}
	last := map[int]bool{}
	for _, c := range opt.Last {
		last[c] = true
	}
	for _, sh := range l.Shapes {
		for i, p := range sh.Poly {
			x, y := px(p)
			if i == 0 {
				dc.MoveTo(x, y)
			} else {
				dc.LineTo(x, y)
			}
		}
		dc.ClosePath()
		switch {
		case last[sh.Cell]:
			dc.SetColor(color.RGBA{0xcd, 0xd2, 0x6a, 0xff})
		case sh.Dark:
			dc.SetColor(color.RGBA{0xb5, 0x88, 0x63, 0xff})
		default:
			dc.SetColor(color.RGBA{0xf0, 0xd9, 0xb5, 0xff})
		}
		dc.Fill()
	}
	dc.SetFontFace(naiveFace(0.3 * s))
	dc.SetColor(color.RGBA{0xd8, 0xd2, 0xc8, 0xff})
	for _, lb := range l.Labels {
		x, y := px(lb.At)
		dc.DrawStringAnchored(lb.Text, x, y, 0.5, 0.5)
	}
	dc.SetFontFace(naiveFace(0.8 * s))
	for _, sh := range l.Shapes {
		pc := pos.Board[sh.Cell]
		if pc.IsEmpty() {
			continue
		}
		var cx, cy float64
		for _, p := range sh.Poly {
			x, y := px(p)
			cx += x / float64(len(sh.Poly))
			cy += y / float64(len(sh.Poly))
		}
		k := map[engine.Kind]int{engine.King: 0, engine.Queen: 1, engine.Rook: 2, engine.Bishop: 3, engine.Knight: 4, engine.Pawn: 5}[pc.Kind()]
		fill, line := color.Color(color.White), color.Color(color.Black)
		if pc.Color() == engine.Black {
			fill, line = line, fill
		}
		dc.SetColor(fill)
		dc.DrawStringAnchored(string(rune(0x265A+k)), cx, cy, 0.5, 0.5)
		dc.SetColor(line)
		dc.DrawStringAnchored(string(rune(0x2654+k)), cx, cy, 0.5, 0.5)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, dc.Image()); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}
