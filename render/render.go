// Package render draws positions of every variant to PNG from the
// geometry's own 2-D layout.
//
// The empty board of each variant, size and orientation is drawn once with
// gg and kept as a paletted image; a picture is a copy of it with
// highlights applied through palette remapping and cached piece sprites
// composited at whole-pixel offsets, encoded as an 8-bit PNG.
package render

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math"
	"sync"

	"topochess/engine"
)

// Options says what to highlight and from which side to draw. Cell lists
// are used (not single cells) so the zero value highlights nothing.
// Cells out of range are ignored.
type Options struct {
	// Orientation: the side drawn at the bottom.
	Orientation engine.Color
	// Last is the last move's from and to cells: both are highlighted
	// and an arrow follows the path the piece took in the board's
	// geometry, read from the position (the piece now on to).
	Last []int
	// Check holds the cell of a king in check: highlighted, with a line
	// from every piece giving check along its path, and on the Möbius
	// strip the king's twin marked.
	Check []int
	// Selected is the cell of a chosen piece (on the Möbius strip its
	// twin is marked too); Dots its quiet destinations, Rings its capture
	// destinations.
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
	// Width is the picture's width in pixels; the height follows the
	// board's layout, at most 1.8 times the width.
	Width int
	// Long, used only when Width is zero, asks instead for the longest
	// side in pixels (replays are sized that way).
	Long int
}

// DefaultWidth is the width of a chat picture: about twice what phones
// and Discord show inline (docs/pictures.md), so a tap to enlarge stays
// sharp.
const DefaultWidth = 800

// Empty boards are shared by all renderers: they depend only on the
// variant, the size and the side.
var (
	boardsMu sync.Mutex
	boards   = map[boardKey]*boardEntry{}
)

type boardKey struct {
	v     *engine.Variant
	width int
	flip  bool
}

type boardEntry struct {
	once sync.Once
	b    *board
}

// New returns a renderer with the default size.
func New() *Renderer { return &Renderer{Width: DefaultWidth} }

// width is the picture width for a variant.
func (r *Renderer) width(v *engine.Variant) int {
	return widthFor(v.Geo.Layout, r.Width, r.Long)
}

// board returns the cached empty board, building it on first use.
func (r *Renderer) board(v *engine.Variant, o engine.Color) *board {
	k := boardKey{v, r.width(v), o == engine.Black}
	boardsMu.Lock()
	e := boards[k]
	if e == nil {
		e = &boardEntry{}
		boards[k] = e
	}
	boardsMu.Unlock()
	e.once.Do(func() { e.b = buildBoard(v, k.width, k.flip) })
	return e.b
}

// Size is the picture size in pixels for a variant (the same from either
// side).
func (r *Renderer) Size(v *engine.Variant) (w, h int) {
	t := r.board(v, engine.White).t
	return t.w, t.h
}

// Image draws a position.
func (r *Renderer) Image(pos *engine.Position, opt Options) image.Image {
	b := r.board(pos.V, opt.Orientation)
	img := &image.Paletted{
		Pix:     make([]uint8, len(b.base.Pix)),
		Stride:  b.base.Stride,
		Rect:    b.base.Rect,
		Palette: b.base.Palette,
	}
	r.paint(img, b, pos, opt)
	return img
}

// paint draws a position onto img, which it overwrites.
func (r *Renderer) paint(img *image.Paletted, b *board, pos *engine.Position, opt Options) {
	copy(img.Pix, b.base.Pix)
	p := palette()
	// Later kinds win where they overlap: check shows over the last move.
	fills := []struct {
		cells []int
		kind  int
		band  bool
	}{
		{opt.Last, hlLast, false},
		{opt.Highlight, hlHighlight, false},
		{opt.Observers, hlObservers, true},
		{opt.Observed, hlObserved, true},
		{opt.Selected, hlSelected, false},
		// A darker rim sets the chosen piece apart from the last move.
		{opt.Selected, hlSelected, true},
		{opt.Check, hlCheck, false},
		// On the Möbius strip the twins of the selected piece's cell and
		// of a king in check, which they attack through the paper.
		{twins(pos, opt.Selected), hlSelected, true},
		{twins(pos, opt.Check), hlCheck, true},
	}
	for _, f := range fills {
		table := &p.remap[f.kind]
		for _, c := range f.cells {
			if c < 0 || c >= len(b.byCell) {
				continue
			}
			for _, i := range b.byCell[c] {
				spans := b.shapes[i].fill
				if f.band {
					spans = b.shapes[i].band
				}
				remapSpans(img, spans, table)
			}
		}
	}
	markers := func(cells []int, what int) {
		for _, c := range cells {
			if c < 0 || c >= len(b.byCell) {
				continue
			}
			for _, i := range b.byCell[c] {
				si := &b.shapes[i]
				placeSprite(img, si, getSprite(spriteKey{what: what, size: si.size}))
			}
		}
	}
	markers(opt.Dots, spriteDot)
	markers(opt.Rings, spriteRing)
	dirs := pos.Geo().PawnDirs
	for i := range b.shapes {
		si := &b.shapes[i]
		if si.cell < 0 || si.cell >= len(pos.Board) || si.size <= 0 {
			continue
		}
		pc := pos.Board[si.cell]
		if pc.IsEmpty() {
			continue
		}
		k := spriteKey{what: int(pc), size: si.size}
		if dirs && pc.Kind() == engine.Pawn {
			// '+' is toward the top of the layout, which Black's view
			// turns to the bottom.
			up := !pc.Minus()
			if si.down != (opt.Orientation == engine.Black) {
				up = !up
			}
			k.arrow = arrowDown
			if up {
				k.arrow = arrowUp
			}
		}
		placeSprite(img, si, getSprite(k))
	}
	if len(opt.Last) == 2 && valid(pos, opt.Last[0]) && valid(pos, opt.Last[1]) && opt.Last[0] != opt.Last[1] {
		trailStroke(b, pos, lastTrail(pos, opt.Last[0], opt.Last[1])).fill(img, colArrow, arrowAlpha)
	}
	for _, k := range opt.Check {
		if valid(pos, k) {
			for _, tr := range checkTrails(pos, k) {
				trailStroke(b, pos, tr).fill(img, colCheckLine, arrowAlpha)
			}
		}
	}
}

func valid(pos *engine.Position, c int) bool { return c >= 0 && c < len(pos.Board) }

// twins are the twin cells of cells, on boards that have twins.
func twins(pos *engine.Position, cells []int) []int {
	g := pos.Geo()
	if g.Twin == nil {
		return nil
	}
	var out []int
	for _, c := range cells {
		if c >= 0 && c < len(g.Twin) {
			out = append(out, int(g.Twin[c]))
		}
	}
	return out
}

func placeSprite(img *image.Paletted, si *shapeInfo, s *sprite) {
	x := int(math.Round(si.ax - float64(s.n)/2))
	y := int(math.Round(si.ay - float64(s.n)/2))
	s.draw(img, x, y)
}

func remapSpans(img *image.Paletted, spans []span, table *[256]uint8) {
	for _, sp := range spans {
		row := img.Pix[int(sp.y)*img.Stride:]
		for x := sp.x0; x < sp.x1; x++ {
			row[x] = table[row[x]]
		}
	}
}

// encoders share deflate state between calls: allocating it is a large
// part of the cost of a small PNG.
type encoderPool struct{ p sync.Pool }

func (e *encoderPool) Get() *png.EncoderBuffer {
	b, _ := e.p.Get().(*png.EncoderBuffer)
	return b
}
func (e *encoderPool) Put(b *png.EncoderBuffer) { e.p.Put(b) }

var (
	encoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &encoderPool{}}
	pixPool sync.Pool // *[]uint8 scratch pictures for PNG
)

// PNG draws a position and encodes it.
func (r *Renderer) PNG(pos *engine.Position, opt Options) ([]byte, error) {
	b := r.board(pos.V, opt.Orientation)
	n := len(b.base.Pix)
	bp, _ := pixPool.Get().(*[]uint8)
	if bp == nil || cap(*bp) < n {
		s := make([]uint8, n)
		bp = &s
	}
	img := &image.Paletted{Pix: (*bp)[:n], Stride: b.base.Stride, Rect: b.base.Rect, Palette: b.base.Palette}
	r.paint(img, b, pos, opt)
	buf, _ := pngPool.Get().(*bytes.Buffer)
	if buf == nil {
		buf = bytes.NewBuffer(make([]byte, 0, 64<<10))
	}
	buf.Reset()
	err := encoder.Encode(buf, img)
	pixPool.Put(bp)
	if err != nil {
		pngPool.Put(buf)
		return nil, fmt.Errorf("encode board: %w", err)
	}
	// An exact copy: callers keep pictures (a chat's picture cache holds
	// thousands), and the encoding buffer is a third or more larger.
	out := make([]byte, buf.Len())
	copy(out, buf.Bytes())
	pngPool.Put(buf)
	return out, nil
}

// pngPool holds encoding buffers between pictures.
var pngPool sync.Pool // *bytes.Buffer

// CellAt maps a pixel of a picture drawn with this renderer to the cell
// drawn there, or -1. Where shapes overlap the one painted last (on top)
// wins, as on the picture.
func (r *Renderer) CellAt(v *engine.Variant, o engine.Color, x, y float64) int {
	b := r.board(v, o)
	for i := len(b.shapes) - 1; i >= 0; i-- {
		if inPixels(b.shapes[i].poly, x, y) {
			return b.shapes[i].cell
		}
	}
	return -1
}

// CellCenter is the pixel at the centre of a cell's first drawn shape in
// a picture of the variant from side o (ok is false for no such cell).
// Together with CellAt it lets clients and tests go between cells and
// pixels.
func (r *Renderer) CellCenter(v *engine.Variant, o engine.Color, cell int) (x, y float64, ok bool) {
	t := r.board(v, o).t
	for _, sh := range v.Geo.Layout.Shapes {
		if sh.Cell == cell {
			var c engine.Point
			for _, p := range sh.Poly {
				c.X += p.X / float64(len(sh.Poly))
				c.Y += p.Y / float64(len(sh.Poly))
			}
			x, y = t.px(c)
			return x, y, true
		}
	}
	return 0, 0, false
}
