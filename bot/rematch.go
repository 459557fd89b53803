package bot

import (
	"fmt"

	"topochess/engine"
	"topochess/storage"
)

// Rematch: under every finished game, the same game again with colours
// swapped — same variant, start position, time control and rating mode.
// Against the computer it starts at once; between people it is a
// challenge to the other player, who accepts with one press (or by asking
// for the rematch too).

// endButtons are offered under a finished game.
func endButtons(rec *storage.Game) []Button {
	args := func() map[string]string { return map[string]string{"game": rec.ID} }
	return []Button{
		{Label: "Rematch", Command: "rematch", Args: args(), Style: "primary"},
		{Label: "Review", Command: "review", Args: args(), Style: "secondary"},
	}
}

// finishedGame finds the finished game a command is about: the one named,
// else the caller's newest finished game here.
func (s *Service) finishedGame(c *call, what string) (*storage.Game, []Reply) {
	id := c.arg("game")
	if id == "" {
		id = firstWord(c.pos)
	}
	if id != "" {
		rec, replies := s.gameByID(c, id, "/history lists the games finished here.")
		if rec == nil {
			return nil, replies
		}
		if rec.Active() {
			return nil, s.fail(c, "Game %s is still being played; %s comes once it is over.", rec.ID, what)
		}
		return rec, nil
	}
	done, err := s.store.FinishedGames(c.Channel, c.User.ID, 1)
	if err != nil {
		return nil, s.internal(c, err)
	}
	if len(done) == 0 {
		return nil, s.fail(c, "You have not finished a game here yet; name one: /%s ID (/history lists them).", c.Name)
	}
	return done[0], nil
}

func (s *Service) cmdRematch(c *call) []Reply {
	rec, replies := s.finishedGame(c, "a rematch")
	if rec == nil {
		return replies
	}
	mine := rec.ColorOf(c.User.ID)
	if mine == "" {
		return s.fail(c, "Only %s and %s can ask for a rematch of %s.", rec.White.Name, rec.Black.Name, rec.ID)
	}
	v, err := engine.GetVariant(rec.Variant)
	if err != nil {
		return s.internal(c, err)
	}
	what := fmt.Sprintf("Rematch of %s: ", rec.ID)
	if rec.BotLevel > 0 {
		level := min(rec.BotLevel, s.ai.cfg.MaxLevel)
		return s.startBotGame(c, v, level, mine == "black", rec.Start, what)
	}
	other := rec.White
	if mine == "white" {
		other = rec.Black
	}
	// The other player asked first: asking back is accepting.
	chals, err := s.store.ChannelChallenges(c.Channel, c.Time)
	if err != nil {
		return s.internal(c, err)
	}
	for _, ch := range chals {
		if ch.Rematch != rec.ID {
			continue
		}
		if ch.From.ID == c.User.ID {
			return s.fail(c, "You already asked %s for a rematch of %s (challenge %s).", other.Name, rec.ID, ch.ID)
		}
		c.args["challenge"] = ch.ID
		c.pos = nil
		return s.cmdAccept(c)
	}
	control := ""
	if rec.Clock != nil {
		control = rec.Clock.Control
	}
	swapped := "white"
	if mine == "white" {
		swapped = "black"
	}
	ch := &storage.Challenge{
		Platform: c.Platform, Channel: c.Channel,
		From: player(c.User), To: other,
		Variant: rec.Variant, Color: swapped,
		Rated: rec.Rated, Time: control, Start: rec.Start, Rematch: rec.ID,
	}
	return s.openChallenge(c, ch, what)
}
