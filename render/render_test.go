package render

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"topochess/engine"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

// goldenCase is one picture checked against testdata/<name>.png.
type goldenCase struct {
	name string
	pos  *engine.Position
	opt  Options
}

func cells(g *engine.Geometry, names ...string) []int {
	var out []int
	for _, n := range names {
		c := g.Cell(n)
		if c < 0 {
			panic("no cell " + n)
		}
		out = append(out, c)
	}
	return out
}

func play(t *testing.T, v *engine.Variant, start string, moves ...string) (*engine.Position, []int) {
	t.Helper()
	pos := v.StartPosition()
	if start != "" {
		var err error
		if pos, err = v.ParsePosition(start); err != nil {
			t.Fatal(err)
		}
	}
	var last []int
	for _, s := range moves {
		m, err := pos.ParseCanonical(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		pos.Make(m)
		last = []int{int(m.From), int(m.To)}
	}
	return pos, last
}

// selection highlights a piece and its legal destinations, as the web
// page does after a click: dots on empty cells, rings on captures.
func selection(pos *engine.Position, from int) Options {
	opt := Options{Selected: []int{from}}
	seen := map[int]bool{}
	for _, m := range pos.LegalMoves() {
		to := int(m.To)
		if int(m.From) != from || seen[to] {
			continue
		}
		seen[to] = true
		if pos.Board[to].IsEmpty() {
			opt.Dots = append(opt.Dots, to)
		} else {
			opt.Rings = append(opt.Rings, to)
		}
	}
	return opt
}

// firstMoves plays n plies, each time the first legal move in canonical
// order that does not end the game, so every variant gets a position with
// a last move without a hand-written line.
func firstMoves(pos *engine.Position, n int) []int {
	var last []int
	for i := 0; i < n; i++ {
		ms := pos.CanonicalMoves()
		if len(ms) == 0 {
			break
		}
		m, err := pos.ParseCanonical(ms[len(ms)/2])
		if err != nil {
			panic(err)
		}
		pos.Make(m)
		last = []int{int(m.From), int(m.To)}
	}
	return last
}

// botOptions are the options the bot draws a position with after a move.
func botOptions(pos *engine.Position, last []int) Options {
	opt := Options{Last: last}
	if k := pos.King[pos.Side]; k >= 0 && pos.InCheck() {
		opt.Check = []int{int(k)}
	}
	return opt
}

func goldenCases(t *testing.T) []goldenCase {
	var cs []goldenCase
	for _, id := range engine.Variants() {
		v := engine.MustVariant(id)
		cs = append(cs, goldenCase{id + "-start", v.StartPosition(), Options{}})
		pos := v.StartPosition()
		last := firstMoves(pos, 3)
		opt := Options{Orientation: engine.Black, Last: last}
		if len(last) == 2 {
			// Select the first piece of the side to move that has a move.
			if ms := pos.LegalMoves(); len(ms) > 0 {
				sel := selection(pos, int(ms[0].From))
				opt.Selected, opt.Dots, opt.Rings = sel.Selected, sel.Dots, sel.Rings
			}
		}
		cs = append(cs, goldenCase{id + "-black", pos, opt})
		// A middle game as the bot sends it: last move, and check if any.
		mid := v.StartPosition()
		cs = append(cs, goldenCase{id + "-middle", mid, botOptions(mid, firstMoves(mid, 14))})
	}
	// Paths over seams: a bishop round Klein's glued files, a rook up
	// through the mirror, a rook round the Möbius ends, a check through
	// the paper, a knight leaping the torus' glued ranks.
	for _, c := range []struct{ name, id, start, move string }{
		{"klein-wrap", "klein", "w Ke1,Bc11,Rh3,ke8 - - 0 1", "c11-h8"},
		{"klein-mirror", "klein", "w Ke1,Rd10,kb5 - - 0 1", "d10-e13"},
		{"moebius-round", "moebius", "w Ke1,Rh1,ke8 - - 0 1", "h1-c8'"},
		{"moebius-phase-check", "moebius", "w Ke1,Ra8',ke8 - - 0 1", "a8'-e8'"},
		{"toroidal-knight", "toroidal", "w Ke1,Ng2,kb8 - - 0 1", "g2-h14"},
		{"chess66-switch", "chess66", "w Ke1,Bd1,kh8 - - 0 1", "d1-4"},
	} {
		pos, _ := play(t, engine.MustVariant(c.id), c.start, c.move)
		m, _ := engine.MustVariant(c.id).ParsePosition(c.start)
		mv, err := m.ParseCanonical(c.move)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, goldenCase{c.name, pos, botOptions(pos, []int{int(mv.From), int(mv.To)})})
	}
	std := engine.MustVariant("standard")
	g := std.Geo
	// Scholar's mate threat and a check: last move and check together.
	pos, last := play(t, std, "", "e2-e4", "f7-f6", "d1-h5")
	cs = append(cs, goldenCase{"standard-check", pos, Options{Last: last, Check: []int{int(pos.King[engine.Black])}}})
	// A queen with quiet moves and captures.
	pos, _ = play(t, std, "w Ke1,Qd4,ke8,pd7,nf6,pa7 - - 0 1")
	cs = append(cs, goldenCase{"standard-select", pos, selection(pos, g.Cell("d4"))})
	// Heisenberg's observation drawn on an ordinary board: the observed
	// cell, its observers and a generic highlight.
	pos, _ = play(t, std, "w Ke1,Rc3,Be3,ke8,na5,pe7,bf7 - - 0 1")
	cs = append(cs, goldenCase{"standard-observe", pos, Options{
		Observed: cells(g, "c4"), Observers: cells(g, "a5"), Highlight: cells(g, "c3"), Selected: cells(g, "c3"),
	}})
	// Heisenberg's observation picture: the moving piece, the cell where
	// it was seen, the pieces that saw it and the destinations offered
	// instead (a quiet one and a capture), each in its own mark.
	hz := engine.MustVariant("heisenberg")
	pos, last = play(t, hz, "", "e2-e4", "c7-c5", "b1-c3", "g8-f6")
	hg := hz.Geo
	cs = append(cs, goldenCase{"heisenberg-observe", pos, Options{Last: last,
		Selected: cells(hg, "f1"), Observed: cells(hg, "b5"), Observers: cells(hg, "c6", "a6"),
		Dots: cells(hg, "a6", "d3"), Rings: cells(hg, "c5")}})
	return cs
}

func TestGolden(t *testing.T) {
	r := New()
	for _, c := range goldenCases(t) {
		t.Run(c.name, func(t *testing.T) {
			if raceOn && !*update && !sampled(c.pos.V.ID) {
				t.Skip("pixels of this board are compared without -race")
			}
			data, err := r.PNG(c.pos, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", c.name+".png")
			if *update {
				if err := os.WriteFile(path, data, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if os.IsNotExist(err) {
				t.Skipf("no golden image %s: run go test ./render -run TestGolden -update and look at it", path)
			}
			if err != nil {
				t.Fatal(err)
			}
			if n, total := pixelDiff(t, want, data); n > 0 {
				got := filepath.Join(os.TempDir(), "topochess-"+c.name+".png")
				os.WriteFile(got, data, 0o644)
				t.Errorf("%d of %d pixels differ from %s; new picture kept at %s", n, total, path, got)
			}
		})
	}
}

// sampled are the boards drawn under the race detector: the plain one
// and the one with overlapping shapes.
func sampled(id string) bool { return id == "standard" || id == "chess66" }

// pixelDiff counts pixels whose colours differ by more than a rounding
// step (so another deflate or a different palette order still matches).
func pixelDiff(t *testing.T, a, b []byte) (n, total int) {
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if ia.Bounds() != ib.Bounds() {
		t.Fatalf("size %v, want %v", ib.Bounds(), ia.Bounds())
	}
	r := ia.Bounds()
	pa, ok1 := ia.(*image.Paletted)
	pb, ok2 := ib.(*image.Paletted)
	if ok1 && ok2 {
		// Compare colours, not indices, without an interface call a pixel.
		same := func(x, y color.Color) bool {
			r1, g1, b1, _ := x.RGBA()
			r2, g2, b2, _ := y.RGBA()
			return absDiff(r1, r2) <= 0x300 && absDiff(g1, g2) <= 0x300 && absDiff(b1, b2) <= 0x300
		}
		var eq [256][256]int8
		for i := range pa.Pix {
			a, b := pa.Pix[i], pb.Pix[i]
			if eq[a][b] == 0 {
				eq[a][b] = 2
				if int(a) < len(pa.Palette) && int(b) < len(pb.Palette) && same(pa.Palette[a], pb.Palette[b]) {
					eq[a][b] = 1
				}
			}
			if eq[a][b] == 2 {
				n++
			}
		}
		return n, len(pa.Pix)
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, _ := ia.At(x, y).RGBA()
			r2, g2, b2, _ := ib.At(x, y).RGBA()
			if absDiff(r1, r2) > 0x300 || absDiff(g1, g2) > 0x300 || absDiff(b1, b2) > 0x300 {
				n++
			}
		}
	}
	return n, r.Dx() * r.Dy()
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// TestSizes checks the limits of the chat platforms for every variant.
func TestSizes(t *testing.T) {
	r := New()
	for _, id := range engine.Variants() {
		v := engine.MustVariant(id)
		w, h := r.Size(v)
		if w != DefaultWidth || float64(h) > maxTall*float64(w) {
			t.Errorf("%s: %d×%d, want %d wide and at most %.1f× as tall", id, w, h, DefaultWidth, maxTall)
		}
		if w+h > 10000 || max(w, h) > 20*min(w, h) {
			t.Errorf("%s: %d×%d exceeds Telegram's photo limits", id, w, h)
		}
		// Discord on Android has cropped exactly square pictures.
		if w == h {
			t.Errorf("%s: %d×%d is square", id, w, h)
		}
		if raceOn && !sampled(id) {
			continue
		}
		for _, o := range []engine.Color{engine.White, engine.Black} {
			img := r.Image(v.StartPosition(), Options{Orientation: o})
			if img.Bounds() != image.Rect(0, 0, w, h) {
				t.Errorf("%s %v: image %v, Size says %d×%d", id, o, img.Bounds(), w, h)
			}
		}
		data, err := r.PNG(v.StartPosition(), Options{})
		if err != nil || len(data) > 10<<20 {
			t.Errorf("%s: PNG of %d bytes, %v", id, len(data), err)
		}
	}
}

// TestCellAt checks that clicks map to what is drawn: every pixel a
// shape paints (its highlight area) maps back to that cell, the point
// where its piece is drawn does too, and the frame corner maps to none.
func TestCellAt(t *testing.T) {
	r := New()
	for _, id := range engine.Variants() {
		if raceOn && !sampled(id) {
			continue
		}
		v := engine.MustVariant(id)
		for _, o := range []engine.Color{engine.White, engine.Black} {
			b := r.board(v, o)
			if got := r.CellAt(v, o, 0.5, 0.5); got != -1 {
				t.Errorf("%s %v: corner maps to %d", id, o, got)
			}
			covered := make([]bool, v.Geo.N)
			for i, si := range b.shapes {
				if got := r.CellAt(v, o, si.ax, si.ay); got != si.cell {
					t.Errorf("%s %v shape %d: piece of %s drawn at (%.0f,%.0f), which maps to %d",
						id, o, i, v.Geo.Name(si.cell), si.ax, si.ay, got)
				}
				for k, sp := range si.fill {
					if k%7 != 0 {
						continue // a sample of rows is plenty
					}
					for x := sp.x0; x < sp.x1; x += 5 {
						if got := r.CellAt(v, o, float64(x)+0.5, float64(sp.y)+0.5); got != si.cell {
							t.Fatalf("%s %v: pixel (%d,%d) painted for %s maps to %d", id, o, x, sp.y, v.Geo.Name(si.cell), got)
						}
					}
				}
				if si.size > 0 {
					covered[si.cell] = true
				}
			}
			for c, ok := range covered {
				if !ok {
					t.Errorf("%s %v: cell %s has no room for a piece", id, o, v.Geo.Name(c))
				}
			}
		}
	}
}

// TestEveryShapeShowsItsPiece: a cell drawn several times (cube edges)
// shows its piece and its highlight on every drawing.
func TestEveryShapeShowsItsPiece(t *testing.T) {
	r := New()
	for _, id := range engine.Variants() {
		if raceOn && !sampled(id) {
			continue
		}
		v := engine.MustVariant(id)
		pos := v.StartPosition()
		b := r.board(v, engine.White)
		var occupied []int
		for c, pc := range pos.Board {
			if !pc.IsEmpty() {
				occupied = append(occupied, c)
			}
		}
		img := r.Image(pos, Options{Highlight: occupied}).(*image.Paletted)
		for _, si := range b.shapes {
			if pos.Board[si.cell].IsEmpty() {
				continue
			}
			changed, hl := 0, 0
			for _, sp := range si.fill {
				for x := sp.x0; x < sp.x1; x++ {
					i := int(sp.y)*img.Stride + int(x)
					if img.Pix[i] != b.base.Pix[i] {
						changed++
					}
					if img.Pix[i] == palette().remap[hlHighlight][b.base.Pix[i]] {
						hl++
					}
				}
			}
			if changed == 0 || hl == 0 {
				t.Errorf("%s: %s drawn without its piece or highlight (%d changed, %d highlighted)", id, v.Geo.Name(si.cell), changed, hl)
			}
		}
	}
}

func TestBadCellsIgnored(t *testing.T) {
	v := engine.MustVariant("standard")
	bad := []int{-5, -1, 64, 1 << 20}
	opt := Options{Last: bad, Check: bad, Selected: bad, Dots: bad, Rings: bad, Observed: bad, Observers: bad, Highlight: bad}
	got, err := New().PNG(v.StartPosition(), opt)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := New().PNG(v.StartPosition(), Options{})
	if !bytes.Equal(got, want) {
		t.Error("out-of-range cells changed the picture")
	}
	_ = AltText(v.StartPosition(), opt)
}

// TestConcurrent draws the same pictures from many goroutines (run with
// -race) and checks they match the ones drawn alone.
func TestConcurrent(t *testing.T) {
	var cs []goldenCase
	for _, c := range goldenCases(t) {
		if sampled(c.pos.V.ID) {
			cs = append(cs, c)
		}
	}
	want := make([][]byte, len(cs))
	for i, c := range cs {
		want[i], _ = New().PNG(c.pos, c.opt)
	}
	r := New()
	var wg sync.WaitGroup
	errs := make(chan string, 4*len(cs))
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			// Each goroutine draws half the cases, overlapping the others.
			for k := 0; k < (len(cs)+1)/2; k++ {
				i := (k + g*3) % len(cs)
				got, err := r.PNG(cs[i].pos, cs[i].opt)
				if err != nil || !bytes.Equal(got, want[i]) {
					errs <- fmt.Sprintf("%s differs when drawn concurrently (%v)", cs[i].name, err)
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestAltText(t *testing.T) {
	std := engine.MustVariant("standard")
	pos, last := play(t, std, "", "e2-e4", "f7-f6", "d1-h5")
	got := AltText(pos, Options{Last: last})
	for _, want := range []string{
		"Standard chess, black to move, in check",
		"Last move d1-h5",
		"White (16): king e1; queen h5; rooks a1, h1",
		"pawns a2, b2, c2, d2, e4, f2, g2, h2",
		"Black (16): king e8",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("AltText lacks %q:\n%s", want, got)
		}
	}
}

func TestAltTextPawnDirections(t *testing.T) {
	for _, id := range engine.Variants() {
		v := engine.MustVariant(id)
		if !v.Geo.PawnDirs {
			continue
		}
		got := AltText(v.StartPosition(), Options{})
		if !strings.Contains(got, "pawns moving up") {
			t.Errorf("%s: AltText does not say which way pawns move:\n%s", id, got)
		}
	}
}

// The golden set must cover every highlight kind.
func TestGoldenCoversEveryHighlight(t *testing.T) {
	kinds := map[string]bool{}
	for _, c := range goldenCases(t) {
		o := c.opt
		for name, l := range map[string][]int{"last": o.Last, "check": o.Check, "selected": o.Selected, "dots": o.Dots,
			"rings": o.Rings, "observed": o.Observed, "observers": o.Observers, "highlight": o.Highlight} {
			if len(l) > 0 {
				kinds[name] = true
			}
		}
		if o.Orientation == engine.Black {
			kinds["black"] = true
		}
	}
	var missing []string
	for _, k := range []string{"last", "check", "selected", "dots", "rings", "observed", "observers", "highlight", "black"} {
		if !kinds[k] {
			missing = append(missing, k)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("no golden image shows %v", missing)
	}
}

func TestCellCenterRoundTrip(t *testing.T) {
	r := New()
	for _, id := range engine.Variants() {
		v := engine.MustVariant(id)
		for _, o := range []engine.Color{engine.White, engine.Black} {
			for c := 0; c < v.Geo.N; c++ {
				x, y, ok := r.CellCenter(v, o, c)
				if !ok {
					t.Fatalf("%s: cell %s is not drawn", id, v.Geo.Name(c))
				}
				// A shape's centroid may lie under a later, overlapping
				// shape (Chess 66's switch halves); it must still be a
				// cell of the same switch.
				got := r.CellAt(v, o, x, y)
				if got != c && int(v.Geo.Partner[c]) != got {
					t.Errorf("%s %v: centre of %s maps to %s", id, o, v.Geo.Name(c), v.Geo.Name(got))
				}
			}
		}
	}
}

// A picture's bytes are exactly its length: callers cache thousands of
// them, and an encoding buffer's spare capacity once made a 96 MB cache
// hold 144 MB.
func TestPNGHasNoSpareCapacity(t *testing.T) {
	r := &Renderer{Long: 1024}
	for _, id := range []string{"standard", "toroidal"} {
		data, err := r.PNG(engine.MustVariant(id).StartPosition(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if cap(data) != len(data) {
			t.Errorf("%s: %d bytes in a slice of capacity %d", id, len(data), cap(data))
		}
	}
}
