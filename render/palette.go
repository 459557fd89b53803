package render

import (
	"image/color"
	"sync"
)

// Pictures are encoded paletted: a 256-colour PNG of a board compresses
// several times faster than an RGBA one. The palette is fixed and global,
// built from the few flat colours the renderer paints plus ramps for the
// antialiased edges that matter most (piece outlines over every cell
// colour); anything else maps to the nearest entry through a lookup table.

// Theme colours.
var (
	colFrame     = rgb(0x2f, 0x2d, 0x2a)
	colLight     = rgb(0xf0, 0xd9, 0xb5)
	colDark      = rgb(0xb5, 0x88, 0x63)
	colTintLight = rgb(0xde, 0xe3, 0xe6) // the Möbius back side: a cool blue-grey
	colTintDark  = rgb(0x7f, 0x99, 0xac)
	colLabel     = rgb(0xd8, 0xd2, 0xc8) // coordinates on the frame
	colSmall     = rgb(0x24, 0x1c, 0x14) // labels drawn on cells
	colHalo      = rgb(0xff, 0xf8, 0xec)
	colEdge      = rgb(0x1e, 0x1c, 0x1a) // board outline

	colWhiteFill = rgb(0xff, 0xff, 0xff)
	colWhiteLine = rgb(0x14, 0x14, 0x14)
	colBlackFill = rgb(0x1c, 0x1a, 0x18)
	colBlackLine = rgb(0xf4, 0xf1, 0xea)

	// Glue marks come in pairs (consecutive in the layout); each pair has
	// its own colour.
	colGlue = []color.RGBA{rgb(0xe8, 0x3e, 0x8c), rgb(0x1f, 0xa8, 0xe8), rgb(0xf5, 0xa6, 0x23), rgb(0x4c, 0xc2, 0x5e)}
	colSeam = rgb(0xd0, 0x1f, 0xd8)

	// Arrows: the last move, and lines of check, laid over the board at
	// arrowAlpha.
	colArrow     = [3]float64{0x12, 0x6e, 0x1a}
	colCheckLine = [3]float64{0xd8, 0x12, 0x12}
	colSwitch    = rgb(0x12, 0x6e, 0xe0)
)

// Overlays are translucent colours laid over a cell (or over a band along
// its border for Heisenberg's observation).
type overlay struct {
	c     color.RGBA
	alpha float64
}

const (
	hlLast = iota
	hlObservers
	hlObserved
	hlSelected
	hlHighlight
	hlCheck
	hlDot // destination dots and capture rings
	numOverlays
)

const arrowAlpha = 0.82

var overlays = [numOverlays]overlay{
	hlLast:      {rgb(0x9b, 0xc7, 0x00), 0.45},
	hlObservers: {rgb(0x8e, 0x3b, 0xe8), 0.55},
	hlObserved:  {rgb(0xff, 0x7a, 0x00), 0.85},
	hlSelected:  {rgb(0x14, 0x8c, 0x3c), 0.55},
	hlHighlight: {rgb(0x1e, 0x78, 0xff), 0.50},
	hlCheck:     {rgb(0xe8, 0x1c, 0x1c), 0.80},
	hlDot:       {rgb(0x14, 0x55, 0x1e), 0.55},
}

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 0xff} }

// mix returns a·(1-t) + b·t for opaque colours.
func mix(a, b color.RGBA, t float64) color.RGBA {
	f := func(x, y uint8) uint8 { return uint8(float64(x)*(1-t) + float64(y)*t + 0.5) }
	return color.RGBA{f(a.R, b.R), f(a.G, b.G), f(a.B, b.B), 0xff}
}

func (o overlay) over(c color.RGBA) color.RGBA { return mix(c, o.c, o.alpha) }

// pal is the shared palette with its lookup tables.
type pal struct {
	colors color.Palette
	rgba   []color.RGBA
	exact  map[color.RGBA]uint8
	lut    [1 << 15]uint8 // 5 bits per channel → nearest entry
	remap  [numOverlays][256]uint8
}

var (
	palOnce sync.Once
	thePal  *pal
)

func palette() *pal {
	palOnce.Do(func() { thePal = buildPalette() })
	return thePal
}

func buildPalette() *pal {
	p := &pal{exact: map[color.RGBA]uint8{}}
	add := func(c color.RGBA) {
		if _, ok := p.exact[c]; ok || len(p.rgba) >= 256 {
			return
		}
		p.exact[c] = uint8(len(p.rgba))
		p.rgba = append(p.rgba, c)
	}
	bases := []color.RGBA{colLight, colDark, colTintLight, colTintDark}
	cells := append([]color.RGBA{}, bases...)
	for h := 0; h < hlDot; h++ {
		for _, b := range bases {
			cells = append(cells, overlays[h].over(b))
		}
	}
	for _, b := range bases {
		cells = append(cells, overlays[hlDot].over(b), overlays[hlDot].over(overlays[hlLast].over(b)))
	}
	flat := []color.RGBA{colFrame, colLabel, colSmall, colHalo, colEdge,
		colWhiteFill, colWhiteLine, colBlackFill, colBlackLine, colSeam, colSwitch}
	flat = append(flat, colGlue...)
	for _, c := range flat {
		add(c)
	}
	// Arrows over the cells, pieces and frame they cross most.
	for _, a := range [][3]float64{colArrow, colCheckLine} {
		ac := rgb(uint8(a[0]), uint8(a[1]), uint8(a[2]))
		for _, c := range []color.RGBA{colLight, colDark, colTintLight, colTintDark, colWhiteFill, colBlackFill, colFrame,
			overlays[hlLast].over(colLight), overlays[hlLast].over(colDark), overlays[hlCheck].over(colLight)} {
			add(mix(c, ac, arrowAlpha))
		}
	}
	for _, c := range cells {
		add(c)
	}
	// Antialiasing ramps, most visible first: piece outlines over cells,
	// fill against outline inside a piece, text on the frame.
	ramp := func(a, b color.RGBA, steps int) {
		for i := 1; i <= steps; i++ {
			add(mix(a, b, float64(i)/float64(steps+1)))
		}
	}
	ramp(colWhiteFill, colWhiteLine, 3)
	ramp(colBlackFill, colBlackLine, 3)
	ramp(colFrame, colLabel, 3)
	for _, c := range cells {
		ramp(c, colWhiteLine, 2)
		ramp(c, colBlackLine, 2)
	}
	for _, c := range bases {
		ramp(c, colSmall, 2)
		ramp(c, colSeam, 1)
		ramp(c, colSwitch, 1)
	}
	for _, c := range colGlue {
		ramp(colFrame, c, 1)
	}
	// A grey ramp catches whatever else turns up.
	for i := 0; len(p.rgba) < 256 && i < 16; i++ {
		v := uint8(i * 17)
		add(rgb(v, v, v))
	}
	for _, c := range p.rgba {
		p.colors = append(p.colors, c)
	}
	for i := range p.lut {
		r := uint8(i>>10) << 3
		g := uint8(i>>5&31) << 3
		b := uint8(i&31) << 3
		p.lut[i] = p.nearest(color.RGBA{r | r>>5, g | g>>5, b | b>>5, 0xff})
	}
	for h := range overlays {
		for i := 0; i < 256; i++ {
			if i < len(p.rgba) {
				p.remap[h][i] = p.index(overlays[h].over(p.rgba[i]))
			}
		}
	}
	return p
}

func (p *pal) nearest(c color.RGBA) uint8 {
	best, bestD := 0, 1<<30
	for i, q := range p.rgba {
		dr, dg, db := int(c.R)-int(q.R), int(c.G)-int(q.G), int(c.B)-int(q.B)
		// Weighted roughly by the eye's sensitivity.
		d := 3*dr*dr + 4*dg*dg + 2*db*db
		if d < bestD {
			best, bestD = i, d
		}
	}
	return uint8(best)
}

// index is the palette entry for an opaque colour: exact when it is one
// of ours, otherwise the nearest through the lookup table.
func (p *pal) index(c color.RGBA) uint8 {
	if i, ok := p.exact[c]; ok {
		return i
	}
	return p.lut[p.key(c.R, c.G, c.B)]
}

func (p *pal) key(r, g, b uint8) int { return int(r>>3)<<10 | int(g>>3)<<5 | int(b>>3) }
