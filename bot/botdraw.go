package bot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"topochess/engine"
	"topochess/engine/search"
	"topochess/storage"
)

// How the computer judges a draw offer: a short search of its own, the
// same at every level, so that the answer is quick (it is given under
// the game's lock) and the same every time for the same position.
const (
	drawNodes = 20_000
	drawDepth = 6
	drawTime  = 5 * time.Second // a safety net; the node budget ends it first
	// levelScore is the largest advantage, in centipawns, either way that
	// still counts as a level position.
	levelScore = 50
)

// botDraw answers a draw offer to the computer. It accepts when neither
// side can force mate with what is left on the board, or when its search
// says the position is level and it has no mating material itself; it
// declines otherwise. Either way it says why.
func (s *Service) botDraw(c *call, rec *storage.Game, g *engine.Game, answer string) []Reply {
	if answer != "" {
		return s.fail(c, "The computer never offers draws in %s; there is nothing to %s.", rec.ID, answer)
	}
	botSide := sideOfBot(rec)
	name := playerOf(rec, botSide).Name
	accept, why := s.judgeDraw(g, botSide)
	if !accept {
		return []Reply{{Text: fmt.Sprintf("%s · %s declines the draw: %s The game goes on; /resign ends it.", rec.ID, name, why)}}
	}
	g.AgreeDraw()
	rec.Result, rec.Reason, rec.DrawOffer, rec.TakebackOffer = string(g.Result), string(g.Reason), "", ""
	if err := s.save(c, rec, g); err != nil {
		return s.internal(c, err)
	}
	r := s.stateReply(c, rec, g.Position().Clone(), fmt.Sprintf("%s · %s accepts the draw: %s", rec.ID, name, why))
	r.Supersedes = []string{"draw:" + rec.ID}
	return []Reply{r}
}

// judgeDraw decides a draw offer for the computer playing side.
func (s *Service) judgeDraw(g *engine.Game, side engine.Color) (accept bool, why string) {
	pos := g.Position()
	mine, theirs := matingForce(pos, side), matingForce(pos, side.Other())
	if mine == "" && theirs == "" {
		return true, "with " + material(pos, side) + " against " + material(pos, side.Other()) + ", neither side can force mate."
	}
	hist, err := search.GameHistory(g)
	if err != nil {
		s.log.Error("bot: draw: game history", "err", err)
		return false, "I could not weigh the position."
	}
	ctx, cancel := context.WithTimeout(context.Background(), drawTime)
	defer cancel()
	cfg := search.Config{Nodes: drawNodes, Depth: drawDepth, History: hist}
	_, info, err := search.NewSearcher().Search(ctx, pos.Clone(), cfg, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		s.log.Error("bot: draw: search", "err", err)
		return false, "I could not weigh the position."
	}
	score, mate := info.Score, info.Mate
	if pos.Side != side { // the search speaks for the side to move
		score, mate = -score, -mate
	}
	eval := fmt.Sprintf("%+.2f for me", float64(score)/100)
	switch {
	case mate > 0:
		return false, fmt.Sprintf("my search sees a mate in %d for me.", mate)
	case mate < 0:
		return false, fmt.Sprintf("my search sees a mate in %d for you, so play it.", -mate)
	case score > levelScore:
		return false, fmt.Sprintf("my search says I am better (%s).", eval)
	case score < -levelScore:
		return false, fmt.Sprintf("my search says you are better (%s), so play on and win it.", eval)
	case mine != "":
		return false, fmt.Sprintf("the position is level (%s), but with %s there is still a game to win.", eval, mine)
	}
	return true, fmt.Sprintf("the position is level (%s), and with %s I cannot force mate.", eval, material(pos, side))
}

// matingForce names what a side could still mate with: a pawn (it may
// promote), a rook or queen, or two minor pieces; "" when it has only a
// king and at most one knight or bishop, which cannot force mate on any
// of the boards.
func matingForce(pos *engine.Position, side engine.Color) string {
	minors := 0
	for _, pc := range pos.Board {
		if pc == 0 || pc.Color() != side {
			continue
		}
		switch pc.Kind() {
		case engine.Pawn:
			return "a pawn left"
		case engine.Rook:
			return "a rook"
		case engine.Queen:
			return "a queen"
		case engine.Knight, engine.Bishop:
			minors++
		}
	}
	if minors >= 2 {
		return "two minor pieces"
	}
	return ""
}

// material names a side's pieces: "a king and a bishop".
func material(pos *engine.Position, side engine.Color) string {
	names := map[engine.Kind]string{engine.Pawn: "pawn", engine.Knight: "knight", engine.Bishop: "bishop", engine.Rook: "rook", engine.Queen: "queen"}
	parts := []string{"a king"}
	for _, pc := range pos.Board {
		if pc != 0 && pc.Color() == side && pc.Kind() != engine.King {
			parts = append(parts, "a "+names[pc.Kind()])
		}
	}
	if len(parts) == 1 {
		return "only a king"
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
