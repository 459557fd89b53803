package bot

import (
	"fmt"
	"slices"
	"strings"

	"topochess/engine"
	"topochess/render"
	"topochess/storage"
)

// /takeback, and the commands that look back at games: /pgn, /replay,
// /history, /leaderboard, /stats.

func (s *Service) cmdTakeback(c *call) []Reply {
	answer := strings.ToLower(c.arg("answer"))
	if answer == "" {
		answer = strings.ToLower(firstWord(c.pos))
	}
	switch answer {
	case "", "ask", "offer", "request":
		answer = ""
	case "accept", "yes", "agree":
		answer = "accept"
	case "decline", "no", "refuse":
		answer = "decline"
	default:
		return s.fail(c, "Use /takeback to ask to take back your last move, /takeback accept or /takeback decline to answer.")
	}
	rec, g, side, unlock, replies := s.myGame(c)
	if rec == nil {
		return replies
	}
	defer unlock()
	if out := s.flagIfLate(c, rec, g, unlock); out != nil {
		return out
	}
	if rec.BotLevel > 0 {
		return s.botTakeback(c, rec, g, side, answer, unlock)
	}
	me, other := playerOf(rec, side), playerOf(rec, side.Other())
	askedByOther := rec.TakebackOffer == side.Other().String()
	askedByMe := rec.TakebackOffer == side.String()
	switch answer {
	case "":
		if askedByOther {
			return s.fail(c, "%s asked for a takeback in %s; answer with /takeback accept or /takeback decline.", other.Name, rec.ID)
		}
		if askedByMe {
			return s.fail(c, "You already asked for a takeback in %s; waiting for %s.", rec.ID, other.Name)
		}
		if takebackPlies(rec, g, side) == 0 {
			return s.fail(c, "You have not moved yet in %s; there is nothing to take back.", rec.ID)
		}
		rec.TakebackOffer = side.String()
		if err := s.save(c, rec, g); err != nil {
			return s.internal(c, err)
		}
		return ask(rec.ID, other, "takeback", fmt.Sprintf("%s · %s asks to take back their last move. %s, do you agree?", rec.ID, me.Name, mention(other)),
			"Allow takeback", "Refuse takeback")
	case "accept":
		if !askedByOther {
			if askedByMe {
				return s.fail(c, "You can't accept your own takeback request; %s has to.", other.Name)
			}
			return s.fail(c, "Nobody asked for a takeback in %s.", rec.ID)
		}
		n := takebackPlies(rec, g, side.Other())
		if n == 0 {
			return s.fail(c, "There is nothing to take back in %s.", rec.ID)
		}
		if err := g.Undo(n); err != nil {
			s.cache.drop(rec.ID)
			return s.internal(c, err)
		}
		rec.Moves = slices.Clone(g.Moves)
		rec.Result, rec.Reason, rec.TakebackOffer = string(g.Result), string(g.Reason), ""
		supersede := []string{"takeback:" + rec.ID}
		if rec.DrawOffer != "" {
			supersede = append(supersede, "draw:"+rec.ID)
			rec.DrawOffer = ""
		}
		if clk, ok := clockOf(rec); ok {
			clk.Restart(c.Time)
			storeClock(rec, clk, g.Position().Side)
		}
		what := "the last move is"
		if n > 1 {
			what = fmt.Sprintf("the last %d moves are", n)
		}
		caption := fmt.Sprintf("%s · %s allows the takeback: %s taken back.", rec.ID, me.Name, what)
		r, fail := s.saveAndShow(c, rec, g, caption, unlock)
		if fail != nil {
			return fail
		}
		s.log.Info("takeback", "game", rec.ID, "plies", n)
		r.Supersedes = supersede
		return []Reply{r}
	default: // decline
		if !askedByOther {
			return s.fail(c, "Nobody asked you for a takeback in %s.", rec.ID)
		}
		rec.TakebackOffer = ""
		if err := s.save(c, rec, g); err != nil {
			return s.internal(c, err)
		}
		return []Reply{{
			Text:       fmt.Sprintf("%s · %s refuses the takeback. %s", rec.ID, me.Name, toMoveText(rec, g.Position())),
			Mentions:   []string{playerOf(rec, g.Position().Side).ID},
			Supersedes: []string{"takeback:" + rec.ID},
		}}
	}
}

// takebackPlies is how many half-moves go back so that side's last move
// is undone: one if the opponent has not answered it yet, two if they
// have; 0 when that side has not moved.
func takebackPlies(rec *storage.Game, g *engine.Game, side engine.Color) int {
	n := len(g.Moves)
	toMove := g.Position().Side
	if n == 0 {
		return 0
	}
	if toMove != side {
		return 1 // side made the last move
	}
	if n >= 2 {
		return 2
	}
	return 0
}

// pickRecord finds the game a look-back command is about: game:ID (or
// the first word) in this channel, else the user's only game here, else
// the last game the user finished here, else the channel's only game.
func (s *Service) pickRecord(c *call) (*storage.Game, []Reply) {
	if id := firstWord(c.pos); id != "" && c.arg("game") == "" {
		c.args["game"] = id
	}
	if id := c.arg("game"); id != "" {
		return s.gameByID(c, id, "/history lists the games finished here.")
	}
	mine, err := s.store.ActiveGames(c.User.ID, c.Channel)
	if err != nil {
		return nil, s.internal(c, err)
	}
	if len(mine) == 1 {
		return mine[0], nil
	}
	if len(mine) == 0 {
		done, err := s.store.FinishedGames(c.Channel, c.User.ID, 1)
		if err != nil {
			return nil, s.internal(c, err)
		}
		if len(done) == 1 {
			return done[0], nil
		}
	}
	return s.pickGame(c, true)
}

// pgnOf exports a stored game.
func pgnOf(rec *storage.Game) (string, error) {
	g, err := replay(rec)
	if err != nil {
		return "", err
	}
	event := "Casual " + g.Variant.Name + " game"
	if rec.Rated {
		event = "Rated " + g.Variant.Name + " game"
	}
	tags := engine.PGNTags{Event: event, Site: "topochess " + rec.Platform, Date: rec.Created, White: rec.White.Name, Black: rec.Black.Name}
	if clk, ok := clockOf(rec); ok {
		tc := clk.Control
		// PGN's TimeControl: "moves/seconds" for a period, "base+inc".
		v := fmt.Sprintf("1/%d", int(tc.PerMove.Seconds()))
		if tc.Live() {
			v = fmt.Sprintf("%d+%s", int(tc.Base.Seconds()), strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", tc.Increment.Seconds()), "0"), "."))
		}
		tags.Extra = append(tags.Extra, engine.PGNTag{Name: "TimeControl", Value: v})
	}
	if rec.Rating != nil {
		tags.Extra = append(tags.Extra,
			engine.PGNTag{Name: "WhiteElo", Value: fmt.Sprintf("%.0f", beforeRating(rec.Rating.WhiteBefore))},
			engine.PGNTag{Name: "BlackElo", Value: fmt.Sprintf("%.0f", beforeRating(rec.Rating.BlackBefore))})
	}
	tags.Extra = append(tags.Extra, engine.PGNTag{Name: "TopochessGame", Value: rec.ID})
	return g.PGN(tags)
}

func beforeRating(r float64) float64 {
	if r == 0 {
		return 1500
	}
	return r
}

// pgnChunk keeps each message under chat limits (Discord: 2000).
const pgnChunk = 1800

func (s *Service) cmdPGN(c *call) []Reply {
	rec, replies := s.pickRecord(c)
	if rec == nil {
		return replies
	}
	text, err := pgnOf(rec)
	if err != nil {
		return s.internal(c, err)
	}
	// PGN lines are short, so messages split at line ends stay valid PGN
	// once pasted together.
	var out []Reply
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, Reply{Text: "```\n" + b.String() + "```"})
			b.Reset()
		}
	}
	for _, line := range strings.SplitAfter(text, "\n") {
		if b.Len()+len(line) > pgnChunk {
			flush()
		}
		b.WriteString(line)
	}
	flush()
	out[0].Text = fmt.Sprintf("PGN of %s:\n", rec.ID) + out[0].Text
	// The file is what PGN readers open; the text shows it in the chat.
	out[0].File = &File{Name: fileName(rec.ID + ".pgn"), Type: "application/x-chess-pgn", Data: []byte(text)}
	return out
}

// replayLong is the size of /replay animations: small enough to upload
// quickly, large enough to read on a phone.
const replayLong = render.GIFLong

func (s *Service) cmdReplay(c *call) []Reply {
	rec, replies := s.pickRecord(c)
	if rec == nil {
		return replies
	}
	g, err := replay(rec)
	if err != nil {
		return s.internal(c, err)
	}
	long := replayLong
	if r, ok := s.painter.(*render.Renderer); ok && r.Long > 0 && r.Long < long {
		long = r.Long
	}
	o := engine.White
	if rec.ColorOf(c.User.ID) == "black" {
		o = engine.Black
	}
	data, err := (&render.Renderer{Long: long}).GIF(g, render.GIFOptions{Orientation: o, Long: long})
	if err != nil {
		return s.internal(c, err)
	}
	status := "in progress"
	if !rec.Active() {
		status = endText(rec)
	}
	return []Reply{{
		Text: fmt.Sprintf("%s · %s · %s (White) vs %s (Black) · %d move(s) · %s", rec.ID, variantName(rec.Variant), rec.White.Name, rec.Black.Name, len(rec.Moves), status),
		// The GIF travels in the picture slot; its name tells adapters
		// the format.
		Image: &Image{Name: fileName(rec.ID + "-replay.gif"), PNG: data, Alt: fmt.Sprintf("Animated replay of game %s, one frame per move.", rec.ID), Variant: rec.Variant, Orientation: o.String(), Game: rec.ID},
	}}
}

// historyLimit is how many finished games /history lists.
const historyLimit = 15

func (s *Service) cmdHistory(c *call) []Reply {
	who := User{}
	if len(c.Mentions) > 0 {
		who = c.Mentions[0]
	} else if len(c.pos) > 0 {
		return s.fail(c, "%s", mentionHint("history", c.pos[0]))
	}
	games, err := s.store.FinishedGames(c.Channel, who.ID, historyLimit)
	if err != nil {
		return s.internal(c, err)
	}
	if len(games) == 0 {
		if who.ID != "" {
			return []Reply{{Text: fmt.Sprintf("%s has not finished a game here yet.", who.Name), Private: true}}
		}
		return []Reply{{Text: "No game has been finished here yet.", Private: true}}
	}
	var b strings.Builder
	if who.ID != "" {
		fmt.Fprintf(&b, "Games %s finished here, newest first:", who.Name)
	} else {
		b.WriteString("Games finished here, newest first:")
	}
	for _, g := range games {
		rated := ""
		if g.Rated {
			rated = ", rated"
		}
		fmt.Fprintf(&b, "\n• %s · %s · %s%s · %s vs %s · %s %s", g.ID, g.Ended.UTC().Format("2006-01-02"), variantName(g.Variant), rated, g.White.Name, g.Black.Name, g.Result, endText(g))
	}
	b.WriteString("\n/pgn ID or /replay ID shows one.")
	return []Reply{{Text: b.String(), Private: true}}
}

// leaderboardSize is how many players /leaderboard shows.
const leaderboardSize = 10

func (s *Service) cmdLeaderboard(c *call) []Reply {
	name := c.arg("variant")
	if name == "" {
		name = strings.Join(c.pos, " ")
	}
	if name == "" {
		name = "standard"
	}
	v, ok := findVariant(name)
	if !ok {
		return s.fail(c, "%s", unknownVariant(name))
	}
	all, err := s.store.Leaderboard(v.ID)
	if err != nil {
		return s.internal(c, err)
	}
	if len(all) == 0 {
		return []Reply{{Text: fmt.Sprintf("Nobody has a %s rating yet: rated games (the default for challenges) make one.", v.Name), Private: true}}
	}
	// Established ratings first; uncertain ones (few games) after, marked.
	var firm, prov []storage.Rating
	for _, r := range all {
		if toGlicko(r).Provisional() {
			prov = append(prov, r)
		} else {
			firm = append(firm, r)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s leaderboard (Glicko-2):", v.Name)
	for i, r := range append(firm, prov...) {
		if i == leaderboardSize {
			break
		}
		fmt.Fprintf(&b, "\n%d. %s %s (%s: %d won, %d drawn, %d lost)", i+1, r.Name, ratingText(r), games(r.Games()), r.Wins, r.Draws, r.Losses)
	}
	if len(prov) > 0 {
		b.WriteString("\n? = provisional: still uncertain after few games.")
	}
	return []Reply{{Text: b.String(), Private: true}}
}

// ratingText is "1662" or "1662?" while provisional, with ± twice the RD
// (a 95 % interval).
func ratingText(r storage.Rating) string {
	q := ""
	if toGlicko(r).Provisional() {
		q = "?"
	}
	return fmt.Sprintf("%.0f%s ±%.0f", r.R, q, 2*r.RD)
}

func (s *Service) cmdStats(c *call) []Reply {
	who := c.User
	if len(c.Mentions) > 0 {
		who = c.Mentions[0]
	} else if len(c.pos) > 0 {
		return s.fail(c, "%s", mentionHint("stats", c.pos[0]))
	}
	rs, err := s.store.UserRatings(who.ID)
	if err != nil {
		return s.internal(c, err)
	}
	if len(rs) == 0 {
		return []Reply{{Text: fmt.Sprintf("%s has no rating yet: rated games (the default for challenges) make one.", who.Name), Private: true}}
	}
	order := map[string]int{}
	for i, id := range engine.Variants() {
		order[id] = i
	}
	slices.SortFunc(rs, func(a, b storage.Rating) int { return order[a.Variant] - order[b.Variant] })
	var b strings.Builder
	fmt.Fprintf(&b, "Ratings of %s:", who.Name)
	for _, r := range rs {
		fmt.Fprintf(&b, "\n• %s: %s, %s (%d won, %d drawn, %d lost)", variantName(r.Variant), ratingText(r), games(r.Games()), r.Wins, r.Draws, r.Losses)
	}
	return []Reply{{Text: b.String(), Private: true}}
}

// mentionHint answers a player named without a mention: a bare word
// cannot be told from a display name, so answering for the asker (or for
// everyone) would be a wrong answer that looks right.
func mentionHint(cmd, word string) string {
	return fmt.Sprintf("Who is %q? Mention the player, for example /%s @%s.", word, cmd, strings.TrimPrefix(word, "@"))
}

func games(n int) string {
	if n == 1 {
		return "1 game"
	}
	return fmt.Sprintf("%d games", n)
}
