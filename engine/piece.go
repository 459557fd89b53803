// Package engine holds the rules of every topochess variant: geometries,
// positions, move generation, notation, game records and perft. It is pure:
// no I/O, no clocks, no randomness.
package engine

// Color is the side a piece belongs to.
type Color uint8

const (
	White Color = 0
	Black Color = 1
)

// Other returns the opposing colour.
func (c Color) Other() Color { return c ^ 1 }

func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// Kind is a piece type.
type Kind uint8

const (
	NoKind Kind = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

var kindLetters = [...]byte{0, 'P', 'N', 'B', 'R', 'Q', 'K'}

// Letter is the upper-case letter of the kind ("" for NoKind).
func (k Kind) Letter() string {
	if k == NoKind || int(k) >= len(kindLetters) {
		return ""
	}
	return string(kindLetters[k])
}

var kindNames = [...]string{"", "pawn", "knight", "bishop", "rook", "queen", "king"}

// Name is the English name of the kind.
func (k Kind) Name() string {
	if int(k) >= len(kindNames) {
		return ""
	}
	return kindNames[k]
}

// KindFromLetter maps K, Q, R, B, N, P (either case) to a kind.
func KindFromLetter(b byte) Kind {
	switch b | 0x20 {
	case 'p':
		return Pawn
	case 'n':
		return Knight
	case 'b':
		return Bishop
	case 'r':
		return Rook
	case 'q':
		return Queen
	case 'k':
		return King
	}
	return NoKind
}

// Piece packs kind (bits 0-2), colour (bit 3) and, for pawns in variants
// where it matters, the direction (bit 4 set: the pawn moves "-", toward the
// bottom of the drawn layout). The zero Piece is an empty cell.
type Piece uint8

const (
	colorBit Piece = 8
	minusBit Piece = 16
	// pieceCodes bounds every Piece value; tables indexed by Piece use it.
	pieceCodes = 32
)

// MakePiece builds a piece; minus is only meaningful for pawns.
func MakePiece(c Color, k Kind, minus bool) Piece {
	p := Piece(k) | Piece(c)<<3
	if minus && k == Pawn {
		p |= minusBit
	}
	return p
}

func (p Piece) Kind() Kind     { return Kind(p & 7) }
func (p Piece) Color() Color   { return Color(p>>3) & 1 }
func (p Piece) Minus() bool    { return p&minusBit != 0 }
func (p Piece) IsEmpty() bool  { return p == 0 }
func (p Piece) Dir() int       { return int(p>>4) & 1 }
func (p Piece) FlipDir() Piece { return p ^ minusBit }

// Letter is the piece letter, upper case for White, lower case for Black.
func (p Piece) Letter() string {
	l := p.Kind().Letter()
	if l == "" {
		return ""
	}
	if p.Color() == Black {
		return string(l[0] | 0x20)
	}
	return l
}

// Move flags.
const (
	FlagCapture uint8 = 1 << iota
	FlagEnPassant
	FlagCastle
	FlagDouble
	FlagPhase
)

// Move is a move as the engine plays it. Two moves are the same legal move
// when From, To and Promo agree; Flags and Path only tell Make how to play it.
type Move struct {
	From, To int16
	Promo    Kind
	Flags    uint8
	// Mid is the skipped cell of a double step (for the en-passant right),
	// or -1.
	Mid int16
}

// Same reports whether two moves are the same (from, to, promotion) triple.
func (m Move) Same(o Move) bool { return m.From == o.From && m.To == o.To && m.Promo == o.Promo }
