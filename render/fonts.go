package render

import (
	_ "embed"
	"sync"

	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font"
)

// DejaVu Sans has the chess glyphs U+2654–265F that the Go fonts lack.
// Licence: see NOTICE (Bitstream Vera / DejaVu, redistribution allowed).
var (
	//go:embed fonts/DejaVuSans.ttf
	dejaVuSans []byte
	//go:embed fonts/DejaVuSans-Bold.ttf
	dejaVuSansBold []byte
)

var (
	fontsOnce           sync.Once
	regularTTF, boldTTF *truetype.Font
)

func loadFonts() {
	fontsOnce.Do(func() {
		var err error
		if regularTTF, err = truetype.Parse(dejaVuSans); err != nil {
			panic("render: embedded DejaVu Sans: " + err.Error())
		}
		if boldTTF, err = truetype.Parse(dejaVuSansBold); err != nil {
			panic("render: embedded DejaVu Sans Bold: " + err.Error())
		}
	})
}

func fontRegular() *truetype.Font { loadFonts(); return regularTTF }
func fontBold() *truetype.Font    { loadFonts(); return boldTTF }

// newFace makes a face whose em is px pixels (gg draws at 72 dpi). The
// glyph cache is kept small: by default it is 512 glyph-sized masks, tens
// of megabytes at piece sizes, for faces that draw a handful of glyphs.
func newFace(f *truetype.Font, px float64) font.Face {
	return truetype.NewFace(f, &truetype.Options{Size: px, Hinting: font.HintingNone, GlyphCacheEntries: 8})
}
