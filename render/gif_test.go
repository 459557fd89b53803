package render

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"testing"

	"topochess/engine"
)

// playout plays a deterministic pseudo-random game: a fixed linear
// congruential generator picks among the legal moves, preferring to keep
// the game going so it reaches the wanted length.
func playout(t testing.TB, id string, seed uint64, plies int) *engine.Game {
	t.Helper()
	g, err := engine.NewGame(engine.MustVariant(id), "")
	if err != nil {
		t.Fatal(err)
	}
	x := seed
	for len(g.Moves) < plies && !g.Over() {
		legal := g.Position().LegalMoves()
		x = x*6364136223846793005 + 1442695040888963407
		if err := g.Play(legal[(x>>33)%uint64(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// viewer plays an animation as a GIF viewer does with disposal "none":
// each frame is drawn over the previous ones and transparent pixels keep
// what was there. It calls see with the picture after every frame.
func viewer(t *testing.T, a *gif.GIF, see func(i int, canvas *image.RGBA)) {
	t.Helper()
	canvas := image.NewRGBA(image.Rect(0, 0, a.Config.Width, a.Config.Height))
	for i, f := range a.Image {
		if a.Disposal[i] != gif.DisposalNone {
			t.Fatalf("frame %d: disposal %d", i, a.Disposal[i])
		}
		if !f.Rect.In(canvas.Rect) {
			t.Fatalf("frame %d: %v outside %v", i, f.Rect, canvas.Rect)
		}
		draw.Draw(canvas, f.Rect, f, f.Rect.Min, draw.Over)
		see(i, canvas)
	}
}

// expected is what frame i must show: the position drawn by Image,
// each pixel in the animation's palette entry nearest to it.
func expected(r *Renderer, pos *engine.Position, last []int, pal color.Palette) *image.RGBA {
	opt := Options{Last: last}
	if pos.InCheck() {
		opt.Check = []int{int(pos.King[pos.Side])}
	}
	img := r.Image(pos, opt)
	opaque := color.Palette{}
	for _, c := range pal {
		if _, _, _, a := c.RGBA(); a != 0 {
			opaque = append(opaque, c)
		}
	}
	out := image.NewRGBA(img.Bounds())
	cache := map[color.Color]color.Color{}
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			c := img.At(x, y)
			q, ok := cache[c]
			if !ok {
				q = opaque.Convert(c)
				cache[c] = q
			}
			out.Set(x, y, q)
		}
	}
	return out
}

// Every frame a viewer shows is exactly the position after that many
// moves, in the animation's palette: the differencing loses nothing.
func TestGIFFramesShowThePositions(t *testing.T) {
	r := &Renderer{Long: 360}
	opt := GIFOptions{Long: 360}
	for _, id := range []string{"standard", "moebius"} {
		t.Run(id, func(t *testing.T) {
			g := playout(t, id, 5, 24)
			data, err := r.GIF(g, opt)
			if err != nil {
				t.Fatal(err)
			}
			a, err := gif.DecodeAll(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			pal := a.Config.ColorModel.(color.Palette)
			pos := g.Variant.StartPosition()
			var last []int
			viewer(t, a, func(i int, canvas *image.RGBA) {
				if i > 0 {
					m, err := pos.ParseCanonical(g.Moves[i-1])
					if err != nil {
						t.Fatal(err)
					}
					pos = pos.Play(m)
					last = []int{int(m.From), int(m.To)}
				}
				want := expected(r, pos, last, pal)
				if !bytes.Equal(canvas.Pix, want.Pix) {
					t.Fatalf("frame %d differs from the position after %d moves", i, i)
				}
			})
		})
	}
}

func TestGIFReplay(t *testing.T) {
	cases := []struct {
		variant string
		plies   int
		limit   int // bytes
	}{
		// A 100-move game (200 plies) must fit Discord's 8 MB upload.
		{"standard", 200, 8 << 20},
		{"moebius", 40, 8 << 20},
		{"cube", 30, 8 << 20},
		{"chess66", 30, 8 << 20},
	}
	r := New()
	for _, tc := range cases {
		t.Run(tc.variant, func(t *testing.T) {
			g := playout(t, tc.variant, 11, tc.plies)
			data, err := r.GIF(g, GIFOptions{})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d plies: %d bytes", len(g.Moves), len(data))
			if len(data) > tc.limit {
				t.Errorf("%d bytes, over %d", len(data), tc.limit)
			}
			a, err := gif.DecodeAll(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if len(a.Image) != len(g.Moves)+1 || len(a.Delay) != len(a.Image) {
				t.Errorf("%d frames (%d delays) for %d moves", len(a.Image), len(a.Delay), len(g.Moves))
			}
			if w, h := (&Renderer{Long: GIFLong}).Size(g.Variant); a.Config.Width != w || a.Config.Height != h {
				t.Errorf("%d×%d, the renderer draws %d×%d", a.Config.Width, a.Config.Height, w, h)
			}
			if n := len(a.Config.ColorModel.(color.Palette)); n > 128 {
				t.Errorf("palette of %d colours", n)
			}
		})
	}
}
