package bot

import (
	"fmt"
	"strings"

	"topochess/engine"
	"topochess/storage"
)

// Following games: /watch ID in another channel of the same server posts
// the game's moves there as they happen (through the Notify senders),
// until it ends or /watch ID off. /games all lists the games being
// played in a channel, with a button for each one's picture.

func (s *Service) cmdWatch(c *call) []Reply {
	id, off := c.arg("game"), strings.EqualFold(c.arg("follow"), "off")
	for _, w := range c.pos {
		switch strings.ToLower(w) {
		case "off", "stop", "end", "no":
			off = true
		default:
			if id == "" {
				id = w
			}
		}
	}
	if id == "" {
		return s.fail(c, "Which game? /watch ID posts its moves here as they are played (/watch ID off stops). /games all in its channel lists the games there.")
	}
	rec, gid, err := s.findGame(id)
	if err != nil {
		if rec == nil {
			return s.fail(c, "There is no game %q.", gid)
		}
		return s.internal(c, err)
	}
	if off {
		found, err := s.store.RemoveFollow(rec.ID, c.Channel, c.EventID, c.Time)
		if err != nil {
			return s.internal(c, err)
		}
		if !found {
			return s.fail(c, "This channel does not follow %s.", rec.ID)
		}
		return []Reply{{Text: fmt.Sprintf("This channel no longer follows %s.", rec.ID)}}
	}
	switch {
	case rec.Channel == c.Channel:
		return s.fail(c, "%s is played in this channel; its moves show here anyway.", rec.ID)
	case rec.Server == "" || rec.Server != c.Server:
		return s.fail(c, "%s is played elsewhere; I follow games only within the same server or group.", rec.ID)
	case !rec.Active():
		return s.fail(c, "%s is over already: %s", rec.ID, endText(rec))
	}
	rec, pos, replies := s.snapshot(c, rec.ID)
	if rec == nil {
		return replies
	}
	f := storage.Follow{Game: rec.ID, Channel: c.Channel, By: c.User.ID, Since: c.Time, Plies: len(rec.Moves)}
	if err := s.store.AddFollow(f, c.EventID, c.Time); err != nil {
		return s.internal(c, err)
	}
	s.log.Info("follow", "game", rec.ID, "channel", c.Channel, "user", c.User.ID)
	r := Reply{Text: fmt.Sprintf("This channel now follows %s (%s, %s vs %s, %d move(s) played): its moves will be posted here. /watch %s off stops.",
		rec.ID, variantName(rec.Variant), rec.White.Name, rec.Black.Name, len(rec.Moves), rec.ID)}
	if img, err := s.gamePicture(rec, pos); err == nil {
		r.Image = img
	} else {
		s.log.Error("render failed", "game", rec.ID, "err", err)
	}
	return []Reply{r}
}

// followSaved sends a saved game to the channels following it when its
// moves changed (a move, a takeback) or it ended; offers alone are not
// news. It runs under the game's lock, so the follow records change in
// the game's order; drawing and posting happen on the follow queue, in
// the same order, away from the lock.
func (s *Service) followSaved(rec *storage.Game, g *engine.Game) {
	follows, err := s.store.Follows(rec.ID)
	if err != nil {
		s.log.Error("follows", "game", rec.ID, "err", err)
		return
	}
	var job *followJob
	for _, f := range follows {
		if f.Plies == len(rec.Moves) && rec.Active() {
			continue
		}
		if job == nil {
			cp := *rec
			job = &followJob{rec: &cp, pos: g.Position().Clone(), plies: f.Plies}
		}
		job.channels = append(job.channels, f.Channel)
		if rec.Active() {
			f.Plies = len(rec.Moves)
			err = s.store.AddFollow(f, "", s.now())
		} else {
			_, err = s.store.RemoveFollow(rec.ID, f.Channel, "", s.now())
		}
		if err != nil {
			s.log.Error("follow update", "game", rec.ID, "channel", f.Channel, "err", err)
		}
	}
	if job != nil {
		s.after.follow.add(s.safely("follow", func() {
			r := s.followReply(job.rec, job.pos, job.plies)
			for _, ch := range job.channels {
				out := *r
				out.Channel = ch
				s.post(out)
			}
		}))
	}
}

type followJob struct {
	rec      *storage.Game
	pos      *engine.Position
	plies    int
	channels []string
}

// followReply words what changed in a followed game since plies moves.
func (s *Service) followReply(rec *storage.Game, pos *engine.Position, plies int) *Reply {
	head := fmt.Sprintf("Following %s (%s vs %s):", rec.ID, rec.White.Name, rec.Black.Name)
	var text string
	switch n := len(rec.Moves); {
	case n > plies:
		text = head + " " + s.lastMoveText(rec)
		if n > plies+1 {
			text = fmt.Sprintf("%s (%d moves since the last post)", text, n-plies)
		}
	case n < plies:
		text = fmt.Sprintf("%s moves taken back; %d move(s) played.", head, n)
	default:
		text = head
	}
	if rec.Active() {
		text += fmt.Sprintf(" %s (%s) to move.", playerOf(rec, pos.Side).Name, colorName(pos.Side.String()))
	} else {
		text += " " + endText(rec) + " No longer followed here."
	}
	r := &Reply{Text: text}
	if img, err := s.gamePicture(rec, pos); err == nil {
		r.Image = img
	} else {
		s.log.Error("render failed", "game", rec.ID, "err", err)
	}
	return r
}

// lastMoveText is the newest move in SAN with its number: "12... Nf3".
func (s *Service) lastMoveText(rec *storage.Game) string {
	n := len(rec.Moves)
	v, err := engine.GetVariant(rec.Variant)
	if err != nil {
		return rec.Moves[n-1]
	}
	before, err := engine.Replay(v, rec.Start, rec.Moves[:n-1])
	if err != nil {
		return rec.Moves[n-1]
	}
	pos := before.Position()
	m, err := pos.ParseCanonical(rec.Moves[n-1])
	if err != nil {
		return rec.Moves[n-1]
	}
	dots := "."
	if pos.Side == engine.Black {
		dots = "..."
	}
	return fmt.Sprintf("%d%s %s.", pos.Fullmove, dots, pos.SAN(m))
}

// gamesAll lists every game being played in the channel, with a button
// to show each one's picture.
func (s *Service) gamesAll(c *call) []Reply {
	games, err := s.store.ChannelGames(c.Channel)
	if err != nil {
		return s.internal(c, err)
	}
	if len(games) == 0 {
		return []Reply{{Text: "No game is being played here. /challenge starts one.", Private: true}}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Games being played here (%d):", len(games))
	r := Reply{Private: true}
	for i, rec := range games {
		side := "White"
		if sideToMove(rec, engine.MustVariant(rec.Variant)) == engine.Black {
			side = "Black"
		}
		fmt.Fprintf(&b, "\n• %s, %d move(s), %s to move", describe(rec, ""), len(rec.Moves), side)
		if i < maxButtons {
			r.Buttons = append(r.Buttons, Button{Label: "Show " + rec.ID, Command: "board", Args: map[string]string{"game": rec.ID}, For: c.User.ID})
		}
	}
	b.WriteString("\nPress a game to see its board; /watch ID in another channel follows one.")
	r.Text = b.String()
	return []Reply{r}
}
