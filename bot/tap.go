package bot

import (
	"fmt"
	"strings"

	"topochess/engine"
	"topochess/storage"
)

// Tap-to-move: platforms without a clickable board (Telegram) let a player
// build a move from buttons — a piece, then its destination, then, when
// one destination stands for several moves, how the move ends (a
// promotion piece, or in Heisenberg chess the replacement of an observed
// move). The adapter keeps the path of steps in its buttons and asks
// again after every press, so the bot holds no per-player state.

// TapMenu is one step of tap-to-move.
type TapMenu struct {
	Game string
	// Ply is how many half-moves were played when the menu was made; a
	// press on a menu made for another ply is refused as out of date.
	Ply int
	// Prompt says what to choose ("g3 · your move: which piece?").
	Prompt string
	// Choices are the buttons; pressing one appends its Step to the path.
	Choices []TapChoice
	// Move is set, in canonical notation, when the path names exactly one
	// legal move: the adapter then plays it with a "move" command whose
	// Args are {"game": Game, "move": Move}.
	Move string
}

// TapChoice is one button of a tap-to-move step.
type TapChoice struct {
	Label string // "Ng1", "e4", "xd5", "=Q", "as bishop to b5"
	Step  string // short and free of "|" (cell names, "Q", ...)
}

// GameActive reports whether a game exists and is still being played.
func (s *Service) GameActive(game string) bool {
	rec, _, err := s.findGame(game)
	return err == nil && rec.Active()
}

// PlainMove decides whether a chat message typed without a command is a
// move: the text must look like one, and the user must be to move in
// exactly one game in the channel. A legal move, or one that is shaped
// like a move but refused (so the player learns why), gives ok; anything
// else is chatter that the adapter leaves unanswered.
func (s *Service) PlainMove(cmd Command) (Command, bool) {
	text := strings.TrimSpace(cmd.Text)
	if invalidText(cmd) != "" {
		return cmd, false // Handle would only refuse it
	}
	if !moveShaped(text) {
		return cmd, false // most chatter stops here, before any storage read
	}
	games, err := s.store.ActiveGames(cmd.User.ID, cmd.Channel)
	if err != nil || len(games) == 0 {
		return cmd, false
	}
	var found *storage.Game
	for _, rec := range games {
		g, err := replay(rec)
		if err != nil {
			continue
		}
		pos := g.Position()
		if rec.ColorOf(cmd.User.ID) != pos.Side.String() {
			continue
		}
		if _, err := pos.ParseMove(text); err != nil && !endsWithCellOrCastles(pos, text) {
			continue
		}
		if found != nil {
			return cmd, false // two games fit: /move game:… is needed
		}
		found = rec
	}
	if found == nil {
		return cmd, false
	}
	mv := cmd
	mv.Name, mv.Text = "move", ""
	mv.Args = map[string]string{"game": found.ID, "move": text}
	return mv, true
}

// moveShaped is a cheap filter: short, one or two words, move characters
// only, with a digit (a cell) or castling.
func moveShaped(s string) bool {
	if s == "" || len(s) > 12 || strings.Count(s, " ") > 1 {
		return false
	}
	digit := false
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case strings.ContainsRune(" -=+#!?x×:'’′`/", r):
		default:
			return false
		}
	}
	up := strings.ToUpper(strings.ReplaceAll(strings.TrimRight(s, "+#!?"), "0", "O"))
	return digit || up == "O-O" || up == "O-O-O"
}

// endsWithCellOrCastles recognises refused moves worth explaining: the
// text ends with a cell of this board (e5, Nf3, e7e8=Q) or is castling.
func endsWithCellOrCastles(pos *engine.Position, s string) bool {
	s = strings.TrimRight(s, "+#!?")
	up := strings.ToUpper(strings.ReplaceAll(s, "0", "O"))
	if up == "O-O" || up == "O-O-O" {
		return true
	}
	if i := strings.LastIndexByte(s, '='); i > 0 {
		s = s[:i]
	}
	for n := 1; n <= 4 && n <= len(s); n++ {
		if pos.Geo().Cell(s[len(s)-n:]) >= 0 {
			return true
		}
	}
	return false
}

// Tap answers one step of tap-to-move for the player to move. path is
// empty (which piece?), [from] (where to?), [from, to] (how: promotion,
// or the replacements of an observed Heisenberg move) or [from, to, how].
func (s *Service) Tap(cmd Command, game string, ply int, path []string) (TapMenu, *Reply) {
	c := &call{Command: cmd}
	refuse := func(format string, a ...any) (TapMenu, *Reply) {
		r := s.errorReply(c, fmt.Sprintf(format, a...))
		return TapMenu{}, &r
	}
	if what := invalidText(cmd); what != "" || !validStrings([]string{game}) || !validStrings(path) {
		if what == "" {
			what = "your message"
		}
		return refuse("%s", invalidTextMessage(what))
	}
	rec, id, err := s.findGame(game)
	if err != nil {
		return refuse("There is no game %q.", id)
	}
	if rec.Channel != cmd.Channel {
		return refuse("Game %s belongs to another channel.", rec.ID)
	}
	side, replies := s.playerCheck(c, rec)
	if replies != nil {
		return TapMenu{}, &replies[0]
	}
	g, err := replay(rec)
	if err != nil {
		s.log.Error("tap: replay", "game", rec.ID, "err", err)
		return refuse("Sorry, I could not load game %s.", rec.ID)
	}
	pos := g.Position()
	if pos.Side != side {
		return refuse("It is not your turn in %s: %s is to move.", rec.ID, playerOf(rec, pos.Side).Name)
	}
	if ply >= 0 && ply != len(rec.Moves) {
		return refuse("These buttons are out of date: game %s has moved on. Use the Move button under the newest board.", rec.ID)
	}
	t := &tapper{pos: pos, geo: pos.Geo(), legal: pos.LegalMoves(), menu: TapMenu{Game: rec.ID, Ply: len(rec.Moves)}}
	var msg string
	switch len(path) {
	case 0:
		msg = t.pieces()
	case 1:
		msg = t.destinations(path[0])
	case 2, 3:
		msg = t.finish(path)
	default:
		msg = "That is not a step of a move."
	}
	if msg != "" {
		return refuse("%s: %s", rec.ID, msg)
	}
	return t.menu, nil
}

// tapper builds the menus of one position.
type tapper struct {
	pos   *engine.Position
	geo   *engine.Geometry
	legal []engine.Move
	menu  TapMenu
}

// kindOrder lists pieces king first, pawns last.
var kindOrder = []engine.Kind{engine.King, engine.Queen, engine.Rook, engine.Bishop, engine.Knight, engine.Pawn}

func (t *tapper) pieces() string {
	movable := map[int]bool{}
	for _, m := range t.legal {
		movable[int(m.From)] = true
	}
	if len(movable) == 0 {
		return "you have no legal move."
	}
	for _, k := range kindOrder {
		for c := range t.pos.Board {
			if pc := t.pos.Board[c]; movable[c] && pc.Kind() == k {
				label := t.geo.Name(c)
				if k != engine.Pawn {
					label = k.Letter() + label
				}
				t.menu.Choices = append(t.menu.Choices, TapChoice{Label: label, Step: t.geo.Name(c)})
			}
		}
	}
	t.menu.Prompt = fmt.Sprintf("%s · your move: which piece?", t.menu.Game)
	return ""
}

// from reads a cell step and checks it holds one of the mover's pieces.
func (t *tapper) from(step string) (int, string) {
	c := t.geo.Cell(step)
	if c < 0 {
		return -1, fmt.Sprintf("there is no cell %q.", step)
	}
	if pc := t.pos.Board[c]; pc == 0 || pc.Color() != t.pos.Side {
		return -1, fmt.Sprintf("there is none of your pieces on %s now.", t.geo.Name(c))
	}
	return c, ""
}

func (t *tapper) destinations(step string) string {
	from, msg := t.from(step)
	if msg != "" {
		return msg
	}
	pc := t.pos.Board[from]
	t.menu.Prompt = fmt.Sprintf("%s · the %s on %s: where to?", t.menu.Game, pc.Kind().Name(), t.geo.Name(from))
	if t.pos.V.Observation {
		// The player picks the ordinary move they intend; an observed one
		// leads to its replacements in the next step.
		for to := range t.pos.Board {
			ob, err := t.pos.Explain(from, to)
			if err != nil || (!ob.Observed && !t.has(from, to)) || (ob.Observed && len(ob.Speed)+len(ob.Position) == 0) {
				continue
			}
			t.menu.Choices = append(t.menu.Choices, TapChoice{Label: t.target(from, to), Step: t.geo.Name(to)})
		}
	} else {
		seen := map[int]bool{}
		for _, m := range t.legal {
			if int(m.From) != from || seen[int(m.To)] {
				continue
			}
			seen[int(m.To)] = true
			label := t.pos.SAN(m)
			if m.Promo != engine.NoKind {
				label = t.target(from, int(m.To)) + "=?"
			}
			t.menu.Choices = append(t.menu.Choices, TapChoice{Label: label, Step: t.geo.Name(int(m.To))})
		}
	}
	if len(t.menu.Choices) == 0 {
		return fmt.Sprintf("the %s on %s has no legal move.", pc.Kind().Name(), t.geo.Name(from))
	}
	return ""
}

func (t *tapper) has(from, to int) bool {
	for _, m := range t.legal {
		if int(m.From) == from && int(m.To) == to {
			return true
		}
	}
	return false
}

// target names a destination cell, "x" first when something is taken.
func (t *tapper) target(from, to int) string {
	if t.pos.Board[to] != 0 && to != from {
		return "x" + t.geo.Name(to)
	}
	return t.geo.Name(to)
}

// finish handles [from, to] and [from, to, how].
func (t *tapper) finish(path []string) string {
	from, msg := t.from(path[0])
	if msg != "" {
		return msg
	}
	to := t.geo.Cell(path[1])
	if to < 0 {
		return fmt.Sprintf("there is no cell %q.", path[1])
	}
	var cands []engine.Move // the legal moves this destination stands for
	observed := false
	var ob engine.Observation
	if t.pos.V.Observation {
		var err error
		ob, err = t.pos.Explain(from, to)
		if err != nil {
			return "that move is not possible now."
		}
		if ob.Observed {
			observed = true
			t.menu.Prompt = fmt.Sprintf("%s · %s.", t.menu.Game, ob.Describe(t.pos))
			cands = append(append(cands, ob.Speed...), ob.Position...)
		}
	}
	if !observed {
		for _, m := range t.legal {
			if int(m.From) == from && int(m.To) == to {
				cands = append(cands, m)
			}
		}
		t.menu.Prompt = fmt.Sprintf("%s · promote to?", t.menu.Game)
	}
	// A step names one move: "Q" for a promotion of from-to, "c5" or
	// "a8=Q" for a replacement of an observed from-to.
	step := func(m engine.Move) string {
		if !observed {
			return m.Promo.Letter()
		}
		s := t.geo.Name(int(m.To))
		if m.Promo != engine.NoKind {
			s += "=" + m.Promo.Letter()
		}
		return s
	}
	if len(path) == 3 {
		for _, m := range cands {
			if step(m) == path[2] {
				t.menu.Move = t.pos.Canonical(m)
				return ""
			}
		}
		return "that choice is not possible now."
	}
	if len(cands) == 0 {
		return "that move is not possible now."
	}
	if len(cands) == 1 && !observed {
		t.menu.Move = t.pos.Canonical(cands[0])
		return ""
	}
	seen := map[string]bool{}
	for _, m := range cands {
		st := step(m)
		if seen[st] {
			continue // a cell reachable both ways is one choice
		}
		seen[st] = true
		label := "=" + st
		if observed {
			label = observedChoiceLabel(t.pos, ob, m)
		}
		t.menu.Choices = append(t.menu.Choices, TapChoice{Label: label, Step: st})
	}
	return ""
}
