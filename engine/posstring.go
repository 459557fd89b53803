package engine

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// MaxInputLen bounds every string the parsers accept.
const MaxInputLen = 4096

// ParsePosition reads a position string (RULES §1.2) or, for 8×8 variants,
// an ordinary FEN.
func (v *Variant) ParsePosition(s string) (*Position, error) {
	if len(s) > MaxInputLen {
		return nil, errors.New("position string too long")
	}
	f := strings.Fields(s)
	if len(f) == 0 {
		return nil, errors.New("empty position")
	}
	if v.FEN && strings.Contains(f[0], "/") {
		return v.parseFEN(f)
	}
	if len(f) != 4 && len(f) != 6 {
		return nil, fmt.Errorf("position has %d fields; expected 4 or 6 (side, pieces, castling, en passant[, halfmove, fullmove])", len(f))
	}
	p := newPosition(v)
	switch f[0] {
	case "w":
		p.Side = White
	case "b":
		p.Side = Black
	default:
		return nil, fmt.Errorf("side to move must be w or b, not %q", f[0])
	}
	if f[1] != "-" {
		for _, tok := range strings.Split(f[1], ",") {
			if err := p.placeToken(strings.TrimSpace(tok)); err != nil {
				return nil, err
			}
		}
	}
	return p.finishParse(f[2], f[3], f[4:])
}

func (p *Position) placeToken(tok string) error {
	if len(tok) < 2 {
		return fmt.Errorf("bad piece %q", tok)
	}
	k := KindFromLetter(tok[0])
	if k == NoKind {
		return fmt.Errorf("bad piece letter in %q", tok)
	}
	col := White
	if tok[0] >= 'a' && tok[0] <= 'z' {
		col = Black
	}
	rest := tok[1:]
	minus := col == Black
	if rest[0] == '+' || rest[0] == '-' {
		if k != Pawn || !p.g.PawnDirs {
			return fmt.Errorf("direction only applies to pawns in this variant: %q", tok)
		}
		minus = rest[0] == '-'
		rest = rest[1:]
	}
	c := p.g.Cell(rest)
	if c < 0 {
		return fmt.Errorf("no cell %q on this board", rest)
	}
	if p.Board[c] != 0 {
		return fmt.Errorf("two pieces on %s", p.g.Name(c))
	}
	if pp := p.g.Partner[c]; pp >= 0 && p.Board[pp] != 0 {
		return fmt.Errorf("two pieces in the switch %s/%s", p.g.Name(int(pp)), p.g.Name(c))
	}
	if k == King && p.King[col] >= 0 {
		return fmt.Errorf("two %s kings", col)
	}
	p.Board[c] = MakePiece(col, k, minus)
	if k == King {
		p.King[col] = int16(c)
	}
	return nil
}

func (p *Position) finishParse(castle, ep string, clocks []string) (*Position, error) {
	p.loadOcc()
	if castle != "-" {
		for i := 0; i < len(castle); i++ {
			var r uint8
			switch castle[i] {
			case 'K':
				r = CastleWK
			case 'Q':
				r = CastleWQ
			case 'k':
				r = CastleBK
			case 'q':
				r = CastleBQ
			default:
				return nil, fmt.Errorf("bad castling field %q", castle)
			}
			p.Castle |= r
		}
	}
	// Keep only rights whose king and rook stand where castling needs them.
	var keep uint8
	for _, cd := range p.V.Castling {
		if p.Castle&cd.Right != 0 && p.Board[cd.KingFrom] == MakePiece(cd.Color, King, false) && p.Board[cd.RookFrom] == MakePiece(cd.Color, Rook, false) {
			keep |= cd.Right
		}
	}
	p.Castle = keep
	if ep != "-" {
		if err := p.parseEP(ep); err != nil {
			return nil, err
		}
	}
	if len(clocks) == 2 {
		h, err1 := strconv.Atoi(clocks[0])
		fm, err2 := strconv.Atoi(clocks[1])
		if err1 != nil || err2 != nil || h < 0 || fm < 1 || h > 100000 || fm > 100000 {
			return nil, fmt.Errorf("bad move counters %q %q", clocks[0], clocks[1])
		}
		p.Halfmove, p.Fullmove = h, fm
	}
	if k := p.King[p.Side.Other()]; k >= 0 && p.Attacked(int(k), p.Side) {
		return nil, errors.New("the side not to move is in check")
	}
	p.Hash = p.computeHash()
	return p, nil
}

func (p *Position) parseEP(ep string) error {
	them := p.Side.Other()
	skipName, pawnName, hasPawn := strings.Cut(ep, "/")
	b := p.g.Cell(skipName)
	if b < 0 {
		return fmt.Errorf("bad en-passant cell %q", skipName)
	}
	if p.Board[b] != 0 {
		return fmt.Errorf("en-passant cell %s is occupied", p.g.Name(b))
	}
	isThemPawn := func(c int) bool { pc := p.Board[c]; return pc.Kind() == Pawn && pc.Color() == them }
	c := -1
	if hasPawn {
		c = p.g.Cell(pawnName)
		if c < 0 || !isThemPawn(c) {
			return fmt.Errorf("en-passant pawn cell %q holds no %s pawn", pawnName, them)
		}
	} else {
		// c: a neighbour of b holding an enemy pawn that a double step
		// through b can have brought there.
		for _, n := range p.g.KingSteps[b] {
			if !isThemPawn(int(n)) {
				continue
			}
			d := p.Board[n].Dir()
			for a := 0; a < p.g.N; a++ {
				for _, md := range p.g.PawnDouble[them][d][a] {
					if int(md[0]) == b && md[1] == n {
						if c >= 0 && c != int(n) {
							return fmt.Errorf("en-passant cell %s is ambiguous; write it as skipped/pawn", p.g.Name(b))
						}
						c = int(n)
					}
				}
			}
		}
		if c < 0 {
			return fmt.Errorf("no %s pawn can have double-stepped over %s", them, p.g.Name(b))
		}
	}
	p.EPSkip, p.EPPawn = int16(b), int16(c)
	return nil
}

// String prints the position string of RULES §1.2.
func (p *Position) String() string {
	var sb strings.Builder
	if p.Side == White {
		sb.WriteString("w ")
	} else {
		sb.WriteString("b ")
	}
	first := true
	for c, pc := range p.Board {
		if pc == 0 {
			continue
		}
		if !first {
			sb.WriteByte(',')
		}
		first = false
		sb.WriteString(pc.Letter())
		if pc.Kind() == Pawn && p.g.PawnDirs {
			if pc.Minus() {
				sb.WriteByte('-')
			} else {
				sb.WriteByte('+')
			}
		}
		sb.WriteString(p.g.Name(c))
	}
	if first {
		sb.WriteByte('-')
	}
	sb.WriteByte(' ')
	sb.WriteString(p.castleString())
	sb.WriteByte(' ')
	if p.EPSkip >= 0 {
		sb.WriteString(p.g.Name(int(p.EPSkip)) + "/" + p.g.Name(int(p.EPPawn)))
	} else {
		sb.WriteByte('-')
	}
	fmt.Fprintf(&sb, " %d %d", p.Halfmove, p.Fullmove)
	return sb.String()
}

func (p *Position) castleString() string {
	s := ""
	for i, r := range []uint8{CastleWK, CastleWQ, CastleBK, CastleBQ} {
		if p.Castle&r != 0 {
			s += string("KQkq"[i])
		}
	}
	if s == "" {
		return "-"
	}
	return s
}

func (v *Variant) parseFEN(f []string) (*Position, error) {
	if len(f) != 4 && len(f) != 6 {
		return nil, fmt.Errorf("FEN has %d fields; expected 4 or 6", len(f))
	}
	p := newPosition(v)
	rows := strings.Split(f[0], "/")
	if len(rows) != 8 {
		return nil, fmt.Errorf("FEN board needs 8 ranks, got %d", len(rows))
	}
	for i, row := range rows {
		y := 7 - i
		x := 0
		for j := 0; j < len(row); j++ {
			ch := row[j]
			if ch >= '1' && ch <= '8' {
				x += int(ch - '0')
				continue
			}
			if x >= 8 {
				return nil, fmt.Errorf("FEN rank %d is too long", y+1)
			}
			if err := p.placeToken(fmt.Sprintf("%c%c%d", ch, 'a'+x, y+1)); err != nil {
				return nil, err
			}
			x++
		}
		if x != 8 {
			return nil, fmt.Errorf("FEN rank %d has %d cells, not 8", y+1, x)
		}
	}
	switch f[1] {
	case "w":
		p.Side = White
	case "b":
		p.Side = Black
	default:
		return nil, fmt.Errorf("side to move must be w or b, not %q", f[1])
	}
	return p.finishParse(f[2], f[3], f[4:])
}

// FEN prints an ordinary FEN (8×8 variants only).
func (p *Position) FEN() string {
	if !p.V.FEN {
		return p.String()
	}
	var sb strings.Builder
	for y := 7; y >= 0; y-- {
		empty := 0
		for x := 0; x < 8; x++ {
			pc := p.Board[y*8+x]
			if pc == 0 {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
				empty = 0
			}
			sb.WriteString(pc.Letter())
		}
		if empty > 0 {
			sb.WriteByte(byte('0' + empty))
		}
		if y > 0 {
			sb.WriteByte('/')
		}
	}
	side := "w"
	if p.Side == Black {
		side = "b"
	}
	ep := "-"
	if p.EPSkip >= 0 {
		ep = p.g.Name(int(p.EPSkip))
	}
	return fmt.Sprintf("%s %s %s %s %d %d", sb.String(), side, p.castleString(), ep, p.Halfmove, p.Fullmove)
}
