package bot

import (
	"fmt"
	"strings"

	"topochess/engine"
	"topochess/storage"
)

// HelpText lists the commands; adapters may show it as their description.
const HelpText = `I run chess games on twisted boards. Commands:
/challenge @player [variant] [white|black|random] [time:1d|time:5+3] [rated:false] — challenge someone (no name: anyone here may accept); rated unless rated:false
/challenge bot [variant] [level:1-5] [white|black] — play the computer, at once (unrated)
/challenge … position:"w Ke1,Qd1,ke8 - -" — start from a position (RULES §1; a FEN for standard and heisenberg); such games are unrated
/accept, /decline — answer a challenge (or a draw offer); /cancel — withdraw your challenge
/move <move> — play a move: e2e4, e2-e4, Nf3, exd5, O-O, e7e8=Q
/board — show the board; /moves <cell> — where the piece on that cell can go (yours or your opponent's)
/resign — give up; /draw — offer a draw (or accept the one offered to you)
/games — your games and challenges here; /games all — every game being played here, each board on request
/rematch [game] — the same game again, colours swapped; /review [game] — the engine's review of a finished game: graph, mistakes, accuracy
/watch <game> [off] — post a game's moves in this channel as they are played (a game of another channel of this server)
/takeback — ask to take back your last move; /pgn, /replay [game] — a game as PGN or as an animation
/history [@player] — games finished here; /leaderboard [variant], /stats [@player] — ratings
/variants — the boards you can play; /rules <variant> — how one works
/settings orientation:auto|white|black — which side is drawn at the bottom of the boards shown to you alone (auto: your side); boards posted for everyone keep White at the bottom all game (against the computer: your side)
With several games at once, add game:ID (for example game:#12, or game:12) to a command.`

func (s *Service) cmdHelp(c *call) []Reply {
	return []Reply{{Text: HelpText, Private: true}}
}

func (s *Service) cmdVariants(c *call) []Reply {
	var b strings.Builder
	b.WriteString("Variants (use the id in /challenge and /rules):")
	for _, id := range engine.Variants() {
		v, err := engine.GetVariant(id)
		if err != nil {
			continue
		}
		fmt.Fprintf(&b, "\n• %s — %s: %s", id, v.Name, v.Short)
	}
	return []Reply{{Text: b.String(), Private: true}}
}

func (s *Service) cmdRules(c *call) []Reply {
	name := c.arg("variant")
	if name == "" {
		name = strings.Join(c.pos, " ")
	}
	if name == "" {
		// The rules of the game being played here, if there is exactly one.
		if games, err := s.store.ActiveGames(c.User.ID, c.Channel); err == nil && len(games) == 1 {
			name = games[0].Variant
		}
	}
	if name == "" {
		r := Reply{Text: "Rules of which variant? /rules <variant>, or pick one:", Private: true}
		for i, id := range engine.Variants() {
			if i == maxButtons {
				break
			}
			r.Buttons = append(r.Buttons, Button{Label: id, Command: "rules", Args: map[string]string{"variant": id}, For: c.User.ID})
		}
		return []Reply{r}
	}
	v, ok := findVariant(name)
	if !ok {
		return s.fail(c, "%s", unknownVariant(name))
	}
	r := Reply{Text: fmt.Sprintf("%s (%s)\n%s", v.Name, v.ID, strings.TrimSpace(v.Rules)), Private: true}
	img, err := s.startPicture(v)
	if err != nil {
		s.log.Error("render failed", "variant", v.ID, "err", err)
	} else {
		r.Image = img
	}
	return []Reply{r}
}

// orientationRule tells which pictures a player's orientation setting
// changes (bot/picture.go has the rule).
const orientationRule = "The orientation applies to the boards shown to you alone (/moves, refused moves, and on Discord every private answer); a board posted for everyone keeps one orientation for the whole game, White at the bottom (against the computer, your side or your setting), so its coordinates never move."

func (s *Service) cmdSettings(c *call) []Reply {
	st, err := s.store.Settings(c.User.ID)
	if err != nil {
		return s.internal(c, err)
	}
	o := c.arg("orientation")
	for _, w := range c.pos {
		switch strings.ToLower(w) {
		case "auto", "white", "black":
			if o == "" {
				o = w
				continue
			}
		}
		return s.fail(c, "I did not understand %q. Example: /settings orientation:auto (or white, or black).", w)
	}
	if o == "" {
		cur := st.Orientation
		if cur == "" {
			cur = "auto"
		}
		return []Reply{{Text: fmt.Sprintf("Your settings: orientation:%s. Change with /settings orientation:auto|white|black. %s", cur, orientationRule), Private: true}}
	}
	o = strings.ToLower(o)
	switch o {
	case "auto", "white", "black":
	default:
		return s.fail(c, "Orientation must be auto (your side at the bottom), white or black.")
	}
	st.Orientation = o
	if err := s.store.SaveSettings(c.User.ID, storage.Settings{Orientation: o}, c.EventID, c.Time); err != nil {
		return s.internal(c, err)
	}
	what := map[string]string{"auto": "your side at the bottom", "white": "White at the bottom", "black": "Black at the bottom"}[o]
	return []Reply{{Text: fmt.Sprintf("Saved: boards shown to you alone are drawn with %s. %s", what, orientationRule), Private: true}}
}
