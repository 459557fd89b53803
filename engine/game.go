package engine

import (
	"errors"
	"fmt"
)

// Result of a game.
type Result string

const (
	Ongoing   Result = ""
	WhiteWins Result = "1-0"
	BlackWins Result = "0-1"
	Draw      Result = "1/2-1/2"
)

// Reason says why a game ended.
type Reason string

const (
	ReasonNone        Reason = ""
	ReasonCheckmate   Reason = "checkmate"
	ReasonStalemate   Reason = "stalemate"
	ReasonRepetition  Reason = "threefold repetition"
	ReasonFiftyMoves  Reason = "100 half-moves without capture or pawn move"
	ReasonBareKings   Reason = "only the two kings remain"
	ReasonResignation Reason = "resignation"
	ReasonAgreement   Reason = "agreement"
	ReasonTime        Reason = "time"
	ReasonAborted     Reason = "aborted"
)

// Game is a game record: the start position, every move played in
// canonical notation, and the result. The current position is derived.
type Game struct {
	Variant *Variant
	// Start is the start position string ("" for the variant's start).
	Start  string
	Moves  []string
	Result Result
	Reason Reason

	pos     *Position
	history []uint64 // repetition keys of every position, start included
}

// NewGame starts a game from the variant's start or a position string.
func NewGame(v *Variant, start string) (*Game, error) {
	g := &Game{Variant: v, Start: start}
	if err := g.reset(); err != nil {
		return nil, err
	}
	return g, nil
}

func (g *Game) reset() error {
	var err error
	if g.Start == "" {
		g.pos = g.Variant.StartPosition()
	} else if g.pos, err = g.Variant.ParsePosition(g.Start); err != nil {
		return err
	}
	g.history = []uint64{g.pos.repetitionKey()}
	return nil
}

// Replay rebuilds a game from a stored record, checking every move.
func Replay(v *Variant, start string, moves []string) (*Game, error) {
	g, err := NewGame(v, start)
	if err != nil {
		return nil, err
	}
	for i, s := range moves {
		m, err := g.pos.ParseCanonical(s)
		if err != nil {
			return nil, fmt.Errorf("move %d (%s): %w", i+1, s, err)
		}
		g.apply(m)
	}
	return g, nil
}

// Position is the current position (do not modify it; use Clone).
func (g *Game) Position() *Position { return g.pos }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.Result != Ongoing }

// ErrGameOver is returned when a move is played in a finished game.
var ErrGameOver = errors.New("the game is over")

// Play plays a legal move of the current position and applies the
// automatic endings (mate, stalemate, repetition, 100 half-moves, bare
// kings).
func (g *Game) Play(m Move) error {
	if g.Over() {
		return ErrGameOver
	}
	legal := false
	for _, l := range g.pos.LegalMoves() {
		if l.Same(m) {
			m = l
			legal = true
			break
		}
	}
	if !legal {
		return fmt.Errorf("illegal move %s", g.pos.Canonical(m))
	}
	g.apply(m)
	return nil
}

func (g *Game) apply(m Move) {
	g.Moves = append(g.Moves, g.pos.Canonical(m))
	g.pos.Make(m)
	g.history = append(g.history, g.pos.repetitionKey())
	g.Result, g.Reason = g.automaticResult()
}

// Undo takes back the last n moves (for takebacks) and clears the result.
func (g *Game) Undo(n int) error {
	if n < 0 || n > len(g.Moves) {
		return fmt.Errorf("cannot take back %d moves", n)
	}
	moves := g.Moves[:len(g.Moves)-n]
	ng, err := Replay(g.Variant, g.Start, moves)
	if err != nil {
		return err
	}
	*g = *ng
	return nil
}

// Resign ends the game with a loss for the given side.
func (g *Game) Resign(loser Color) {
	if g.Over() {
		return
	}
	g.Result, g.Reason = winFor(loser.Other()), ReasonResignation
}

// AgreeDraw ends the game drawn by agreement.
func (g *Game) AgreeDraw() {
	if !g.Over() {
		g.Result, g.Reason = Draw, ReasonAgreement
	}
}

// End sets a result decided outside the rules (time, abort).
func (g *Game) End(r Result, why Reason) {
	if !g.Over() {
		g.Result, g.Reason = r, why
	}
}

func winFor(c Color) Result {
	if c == White {
		return WhiteWins
	}
	return BlackWins
}

func (g *Game) automaticResult() (Result, Reason) {
	p := g.pos
	if len(p.LegalMoves()) == 0 {
		if p.InCheck() {
			return winFor(p.Side.Other()), ReasonCheckmate
		}
		return Draw, ReasonStalemate
	}
	if p.bareKings() {
		return Draw, ReasonBareKings
	}
	if p.Halfmove >= 100 {
		return Draw, ReasonFiftyMoves
	}
	key := g.history[len(g.history)-1]
	n := 0
	for _, h := range g.history {
		if h == key {
			n++
		}
	}
	if n >= 3 {
		return Draw, ReasonRepetition
	}
	return Ongoing, ReasonNone
}

func (p *Position) bareKings() bool {
	for _, pc := range p.Board {
		if pc != 0 && pc.Kind() != King {
			return false
		}
	}
	return true
}

// repetitionKey identifies a position for threefold repetition (RULES §1):
// placement including pawn directions, side to move, castling rights and
// whether an en-passant capture is possible.
func (p *Position) repetitionKey() uint64 {
	h := p.Hash
	if p.EPSkip >= 0 {
		h ^= p.g.zEP[p.EPSkip]
		for _, m := range p.LegalMoves() {
			if m.Flags&FlagEnPassant != 0 {
				h ^= p.g.zEP[p.EPSkip]
				break
			}
		}
	}
	return h
}

// Status is a one-line human summary of the game state.
func (g *Game) Status() string {
	if g.Over() {
		switch g.Result {
		case WhiteWins:
			return fmt.Sprintf("White wins by %s", g.Reason)
		case BlackWins:
			return fmt.Sprintf("Black wins by %s", g.Reason)
		default:
			return fmt.Sprintf("Draw by %s", g.Reason)
		}
	}
	s := "White to move"
	if g.pos.Side == Black {
		s = "Black to move"
	}
	if g.pos.InCheck() {
		s += " (in check)"
	}
	return s
}
