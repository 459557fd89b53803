package bot

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"topochess/engine"
	"topochess/storage"
)

// The commands' side of the computer opponent: /challenge bot, and what
// /takeback and /draw mean when the opponent is the computer.

// isBotWord reports whether a word names the computer opponent.
func isBotWord(w string) bool {
	switch strings.ToLower(strings.TrimPrefix(strings.TrimSpace(w), "@")) {
	case "bot", "computer", "topochess":
		return true
	}
	return false
}

// wantsBot reports whether a challenge is addressed to the computer:
// "bot" (or "computer") as a word, as opponent:, as a mention's name, or
// a level: without a person to play.
func wantsBot(c *call) bool {
	if isBotWord(c.arg("opponent")) {
		return true
	}
	for _, m := range c.Mentions {
		if isBotWord(m.Name) {
			return true
		}
	}
	if slices.ContainsFunc(c.pos, isBotWord) {
		return true
	}
	return c.arg("level") != "" && len(c.Mentions) == 0 && c.arg("opponent") == ""
}

// parseLevel reads a level: "3" or "level3".
func parseLevel(w string) (int, bool) {
	w = strings.TrimPrefix(strings.ToLower(w), "level")
	n, err := strconv.Atoi(w)
	return n, err == nil
}

// challengeBot starts a game against the computer at once: there is
// nobody to accept. Such games are never rated and have no clock.
func (s *Service) challengeBot(c *call) []Reply {
	const example = "Example: /challenge bot moebius level:3 white"
	variant, color, levelArg := c.arg("variant"), c.arg("color"), c.arg("level")
	if tc, err := ParseTimeControl(c.arg("time")); err != nil || tc.Timed() {
		return s.fail(c, "Games against the computer have no clock; leave out time:.")
	}
	for _, w := range c.pos {
		if isBotWord(w) {
			continue
		}
		if col, ok := parseColor(w); ok && color == "" {
			color = col
			continue
		}
		if _, ok := parseLevel(w); ok && levelArg == "" {
			levelArg = w
			continue
		}
		if tc, err := ParseTimeControl(w); err == nil && tc.Timed() {
			return s.fail(c, "Games against the computer have no clock; leave out %q.", w)
		}
		if variant == "" {
			variant = w
			continue
		}
		return s.fail(c, "I did not understand %q. %s", w, example)
	}
	if variant == "" {
		variant = "standard"
	}
	v, ok := findVariant(variant)
	if !ok {
		return s.fail(c, "%s", unknownVariant(variant))
	}
	if color == "" {
		color = "random"
	}
	if color, ok = parseColor(color); !ok {
		return s.fail(c, "Colour must be white, black or random.")
	}
	level := s.ai.cfg.DefaultLevel
	if levelArg != "" {
		n, ok := parseLevel(levelArg)
		if !ok || n < 1 || n > 5 {
			return s.fail(c, "The level must be a number from 1 (easiest) to 5 (strongest), not %q.", levelArg)
		}
		if n > s.ai.cfg.MaxLevel {
			return s.fail(c, "Here the computer plays up to level %d; choose 1 to %d.", s.ai.cfg.MaxLevel, s.ai.cfg.MaxLevel)
		}
		level = n
	}
	if r := c.arg("rated"); r != "" {
		if rated, ok := parseRated(r); !ok || rated {
			return s.fail(c, "Games against the computer are never rated; leave out rated:.")
		}
	}
	start, refusal := parseStart(v, c.arg("position"))
	if refusal != "" {
		return s.fail(c, "%s", refusal)
	}
	humanWhite := color == "white" || color == "random" && s.coin()
	return s.startBotGame(c, v, level, humanWhite, start, "")
}

// startBotGame starts a game against the computer at once, within the
// player's caps; what prefixes the caption (a rematch says so).
func (s *Service) startBotGame(c *call, v *engine.Variant, level int, humanWhite bool, start, what string) []Reply {
	rec := &storage.Game{Variant: v.ID, Platform: c.Platform, Channel: c.Channel, Server: c.Server, Moves: []string{}, BotLevel: level, Start: start}
	rec.White, rec.Black = player(c.User), botPlayer(level)
	if !humanWhite {
		rec.White, rec.Black = rec.Black, rec.White
	}
	from := ""
	if start != "" {
		from = " from a set position"
	}
	caption := fmt.Sprintf("%sGame {game} begins: %s%s against the computer at level %d, unrated. %s (White) vs %s (Black).", what, v.Name, from, level, rec.White.Name, rec.Black.Name)
	box := s.stateOut(rec, caption)
	if err := s.store.CreateGameCapped(rec, s.caps(), c.EventID, c.Time, box); err != nil {
		if out := s.limitFail(c, err); out != nil {
			return out
		}
		return s.internal(c, err)
	}
	s.log.Info("game started", "game", rec.ID, "white", rec.White.ID, "black", rec.Black.ID, "variant", rec.Variant, "bot_level", level)
	r := s.stateReply(c, rec, startPosition(v, start), strings.ReplaceAll(caption, "{game}", rec.ID))
	if r.Key == "" { // a thinking line keeps its own key
		r.Key = "game:" + rec.ID
	}
	r.Outbox = outboxID(box)
	// Queued after the reply is drawn, so the bot's first move does not
	// overtake it.
	s.botTurn(rec)
	return []Reply{r}
}

// humanOf is the person in a game against the computer.
func humanOf(rec *storage.Game) (storage.Player, engine.Color) {
	if rec.White.ID == BotID {
		return rec.Black, engine.Black
	}
	return rec.White, engine.White
}

// botGameOrientation draws a game against the computer from the human's
// side (or as their setting says), also while the computer is to move.
func (s *Service) botGameOrientation(rec *storage.Game) engine.Color {
	p, side := humanOf(rec)
	if st, err := s.store.Settings(p.ID); err == nil {
		switch st.Orientation {
		case "white":
			return engine.White
		case "black":
			return engine.Black
		}
	}
	return side
}

// botTakeback takes back at once against the computer, which always
// agrees: the human's last move, and the computer's answer if it came
// (call under the game lock, with its unlock).
func (s *Service) botTakeback(c *call, rec *storage.Game, g *engine.Game, side engine.Color, answer string, unlock func()) []Reply {
	if answer != "" {
		return s.fail(c, "The computer never asks for takebacks; /takeback alone takes back your last move at once.")
	}
	n := takebackPlies(rec, g, side)
	if n == 0 {
		return s.fail(c, "You have not moved yet in %s; there is nothing to take back.", rec.ID)
	}
	if err := g.Undo(n); err != nil {
		s.cache.drop(rec.ID)
		return s.internal(c, err)
	}
	supersede := offersOf(rec)
	rec.Moves = slices.Clone(g.Moves)
	rec.Result, rec.Reason, rec.DrawOffer, rec.TakebackOffer = string(g.Result), string(g.Reason), "", ""
	what := "your last move is taken back (the computer had not answered yet)."
	if n == 2 {
		what = "your last move and the computer's answer are taken back."
	}
	caption := fmt.Sprintf("%s · Takeback: %s", rec.ID, what)
	// Saving cancels the computer's search if it was thinking (botSaved).
	r, fail := s.saveAndShow(c, rec, g, caption, unlock)
	if fail != nil {
		return fail
	}
	s.log.Info("takeback", "game", rec.ID, "plies", n, "against", BotID)
	r.Supersedes = supersede
	return []Reply{r}
}

func sideOfBot(rec *storage.Game) engine.Color {
	if rec.White.ID == BotID {
		return engine.White
	}
	return engine.Black
}
