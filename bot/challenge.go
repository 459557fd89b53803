package bot

import (
	"errors"
	"fmt"
	"maps"
	"strings"
	"time"

	"topochess/engine"
	"topochess/render"
	"topochess/storage"
)

// findVariant resolves what a player typed to a variant id: the id, the
// id without hyphens, or the variant's name, case-insensitively.
func findVariant(s string) (*engine.Variant, bool) {
	want := squash(s)
	if id, ok := variantNicknames[want]; ok {
		want = squash(id)
	}
	for _, id := range engine.Variants() {
		v, err := engine.GetVariant(id)
		if err != nil {
			continue
		}
		if squash(id) == want || squash(v.Name) == want || squash(strings.TrimSuffix(v.Name, " chess")) == want {
			return v, true
		}
	}
	return nil, false
}

// variantNicknames are what people call the boards (squashed form).
var variantNicknames = map[string]string{
	"chess": "standard", "normal": "standard", "classic": "standard", "fide": "standard",
	"mobius": "moebius", "mobiusstrip": "moebius", "nierse": "moebiusnierse",
	"torus": "toroidal", "cylinder": "cylindrical", "kleinbottle": "klein",
	"cube8": "cube", "cubes": "cube", "5cube": "cube5", "smallcube": "cube5",
	"66": "chess66", "shifted": "chess66",
}

func squash(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	return strings.NewReplacer("-", "", " ", "", "_", "", "ö", "o", "oe", "o").Replace(s)
}

func unknownVariant(name string) string {
	return fmt.Sprintf("I don't know the variant %q. Variants: %s.", name, strings.Join(engine.Variants(), ", "))
}

func parseColor(s string) (string, bool) {
	switch strings.ToLower(s) {
	case "white", "w":
		return "white", true
	case "black", "b":
		return "black", true
	case "random", "r", "any", "either":
		return "random", true
	}
	return "", false
}

func (s *Service) cmdChallenge(c *call) []Reply {
	if wantsBot(c) {
		return s.challengeBot(c)
	}
	if c.arg("level") != "" {
		return s.fail(c, "level: is for games against the computer: /challenge bot level:%s.", c.arg("level"))
	}
	variant, color, timeArg := c.arg("variant"), c.arg("color"), c.arg("time")
	var opponent User
	if len(c.Mentions) > 0 {
		opponent = c.Mentions[0]
	} else if o := c.arg("opponent"); o != "" {
		opponent = User{ID: o, Name: strings.TrimPrefix(o, "@"), Mention: o}
	}
	for _, w := range c.pos {
		if col, ok := parseColor(w); ok && color == "" {
			color = col
			continue
		}
		if tc, err := ParseTimeControl(w); err == nil && tc.Timed() && timeArg == "" {
			timeArg = w
			continue
		}
		if variant == "" {
			variant = w
			continue
		}
		return s.fail(c, "I did not understand %q. Example: /challenge @bob variant:moebius color:white", w)
	}
	if variant == "" {
		variant = "standard"
	}
	v, ok := findVariant(variant)
	if !ok {
		if c.arg("variant") == "" && opponent.ID == "" {
			// "/challenge bob": more likely a person than a board.
			return s.fail(c, "%s To challenge someone, mention them: /challenge @%s", unknownVariant(variant), strings.TrimPrefix(variant, "@"))
		}
		return s.fail(c, "%s", unknownVariant(variant))
	}
	if color == "" {
		color = "random"
	}
	color, ok = parseColor(color)
	if !ok {
		return s.fail(c, "Colour must be white, black or random.")
	}
	tc, err := ParseTimeControl(timeArg)
	if err != nil {
		return s.fail(c, "%s.", capitalize(err.Error()))
	}
	rated, ok := parseRated(c.arg("rated"))
	if !ok {
		return s.fail(c, "rated: must be true or false (challenges are rated unless you say rated:false).")
	}
	if opponent.ID == c.User.ID {
		return s.fail(c, "You can't challenge yourself. /challenge without a name lets anyone here accept.")
	}
	start, refusal := parseStart(v, c.arg("position"))
	if refusal != "" {
		return s.fail(c, "%s", refusal)
	}
	if start != "" && c.arg("rated") != "" && rated {
		return s.fail(c, "Games from a position are never rated; leave out rated: (or say rated:false).")
	}
	ch := &storage.Challenge{
		Platform: c.Platform, Channel: c.Channel,
		From:    player(c.User),
		To:      player(opponent),
		Variant: v.ID, Color: color,
		Rated: rated && start == "", Time: tc.String(), Start: start,
	}
	return s.openChallenge(c, ch, "")
}

// openChallenge stores a challenge within the challenger's caps and words
// it with its buttons; what prefixes the text (a rematch says so).
func (s *Service) openChallenge(c *call, ch *storage.Challenge, what string) []Reply {
	ch.Created, ch.Expires = c.Time, c.Time.Add(s.limits.ChallengeTTL)
	if err := s.store.CreateChallenge(ch, c.EventID, c.Time, s.caps()); err != nil {
		if out := s.limitFail(c, err); out != nil {
			return out
		}
		return s.internal(c, err)
	}
	s.log.Info("challenge", "challenge", ch.ID, "from", ch.From.ID, "to", ch.To.ID, "variant", ch.Variant)
	r := Reply{Key: "challenge:" + ch.ID}
	args := map[string]string{"challenge": ch.ID}
	ttl := formatTTL(s.limits.ChallengeTTL)
	if ch.Open() {
		r.Text = fmt.Sprintf("%s%s is looking for an opponent: %s. Anyone here may accept challenge %s within %s.", what, mention(ch.From), challengeTerms(ch), ch.ID, ttl)
		r.Buttons = []Button{
			{Label: "Accept", Command: "accept", Args: args, Style: "success"},
			{Label: "Cancel", Command: "cancel", Args: maps.Clone(args), Style: "secondary", For: c.User.ID},
		}
	} else {
		r.Text = fmt.Sprintf("%s%s challenges %s to %s. Challenge %s is open for %s.", what, mention(ch.From), mention(ch.To), challengeTerms(ch), ch.ID, ttl)
		r.Mentions = []string{ch.To.ID}
		// Accept is for anyone to press: the service then tells the
		// challenger and bystanders in words why it is not theirs.
		r.Buttons = []Button{
			{Label: "Accept", Command: "accept", Args: args, Style: "success"},
			{Label: "Decline", Command: "decline", Args: maps.Clone(args), Style: "danger", For: ch.To.ID},
		}
	}
	return []Reply{r}
}

// challengeTerms words what a challenge is for: "Möbius chess (alice
// plays White, 5+3, rated)".
func challengeTerms(ch *storage.Challenge) string {
	plays := "colours drawn at random"
	if ch.Color != "random" {
		plays = fmt.Sprintf("%s plays %s", ch.From.Name, colorName(ch.Color))
	}
	if tc, err := ParseTimeControl(ch.Time); err == nil && tc.Timed() {
		plays += ", " + tc.Describe()
	}
	if ch.Start != "" {
		plays += ", from a set position"
	}
	if ch.Rated {
		plays += ", rated"
	} else {
		plays += ", unrated"
	}
	return fmt.Sprintf("%s (%s)", variantName(ch.Variant), plays)
}

// acceptor names who may accept a challenge.
func acceptor(ch *storage.Challenge) string {
	if ch.Open() {
		return "someone else"
	}
	return ch.To.Name
}

func formatTTL(d time.Duration) string {
	if d >= time.Hour && d%time.Hour == 0 {
		return fmt.Sprintf("%d h", d/time.Hour)
	}
	if d >= time.Minute && d%time.Minute == 0 {
		return fmt.Sprintf("%d min", d/time.Minute)
	}
	return fmt.Sprintf("%d s", d/time.Second) // a short TTL from the config: not "0 min"
}

func player(u User) storage.Player {
	name := u.Name
	if name == "" {
		name = u.ID
	}
	if u.ID == "" {
		return storage.Player{}
	}
	return storage.Player{ID: u.ID, Name: name, Mention: u.Mention}
}

// pickChallenge finds the challenge an accept/decline/cancel is about.
// match filters the channel's challenges when no id is given; none is the
// message when nothing matches.
func (s *Service) pickChallenge(c *call, match func(*storage.Challenge) bool) (*storage.Challenge, []Reply) {
	id := c.arg("challenge")
	if id == "" {
		id = firstWord(c.pos)
	}
	if id != "" {
		id = normalizeID(id, "c")
		ch, err := s.store.Challenge(id)
		if errors.Is(err, storage.ErrNotFound) {
			return nil, s.fail(c, "There is no open challenge %q (it may have been accepted, declined or withdrawn).", id)
		}
		if err != nil {
			return nil, s.internal(c, err)
		}
		if ch.Channel != c.Channel {
			return nil, s.fail(c, "Challenge %s was made in another channel.", ch.ID)
		}
		if ch.Expired(c.Time) {
			return nil, s.fail(c, "Challenge %s has expired.", ch.ID)
		}
		return ch, nil
	}
	all, err := s.store.ChannelChallenges(c.Channel, c.Time)
	if err != nil {
		return nil, s.internal(c, err)
	}
	var cands []*storage.Challenge
	for _, ch := range all {
		if match(ch) {
			cands = append(cands, ch)
		}
	}
	switch len(cands) {
	case 0:
		return nil, nil
	case 1:
		return cands[0], nil
	}
	r := Reply{Text: fmt.Sprintf("There are %d challenges that fit; which one?", len(cands)), Private: true}
	for i, ch := range cands {
		if i == maxButtons {
			break
		}
		args := maps.Clone(c.args)
		args["challenge"] = ch.ID
		r.Buttons = append(r.Buttons, Button{
			Label:   fmt.Sprintf("%s: %s, %s vs %s", ch.ID, variantName(ch.Variant), ch.From.Name, orAnyone(ch)),
			Command: c.Name, Args: args, For: c.User.ID,
		})
	}
	return nil, []Reply{r}
}

// pendingDraw finds the user's game here with a draw offered to them.
func (s *Service) pendingDraw(c *call) (*storage.Game, error) {
	games, err := s.store.ActiveGames(c.User.ID, c.Channel)
	if err != nil {
		return nil, err
	}
	for _, g := range games {
		if col := g.ColorOf(c.User.ID); g.DrawOffer != "" && g.DrawOffer != col {
			return g, nil
		}
	}
	return nil, nil
}

func (s *Service) cmdAccept(c *call) []Reply {
	ch, replies := s.pickChallenge(c, func(ch *storage.Challenge) bool {
		return ch.To.ID == c.User.ID || ch.Open() && ch.From.ID != c.User.ID
	})
	if replies != nil {
		return replies
	}
	if ch == nil {
		if g, err := s.pendingDraw(c); err == nil && g != nil {
			return s.drawAction(c, g.ID, "accept")
		}
		return s.fail(c, "There is no challenge for you to accept here. /challenge starts one.")
	}
	switch {
	case ch.From.ID == c.User.ID:
		return s.fail(c, "You cannot accept your own challenge; %s has to (/cancel %s withdraws it).", acceptor(ch), ch.ID)
	case !ch.Open() && ch.To.ID != c.User.ID:
		return s.fail(c, "Challenge %s is for %s, not for you.", ch.ID, ch.To.Name)
	}
	fromWhite := ch.Color == "white" || ch.Color == "random" && s.coin()
	rec := &storage.Game{Variant: ch.Variant, Platform: ch.Platform, Channel: ch.Channel, Server: c.Server, Moves: []string{}, Rated: ch.Rated && ch.Start == "", Start: ch.Start, Clock: newGameClock(ch.Time, c.Time)}
	rec.White, rec.Black = ch.From, player(c.User)
	if !fromWhite {
		rec.White, rec.Black = rec.Black, rec.White
	}
	v, err := engine.GetVariant(ch.Variant)
	if err != nil {
		return s.internal(c, err)
	}
	from := ""
	if rec.Start != "" {
		from = " from a set position, unrated"
	}
	if ch.Rematch != "" {
		from += ", a rematch of " + ch.Rematch
	}
	caption := fmt.Sprintf("Game {game} begins: %s%s. %s (White) vs %s (Black).", v.Name, from, rec.White.Name, rec.Black.Name)
	box := s.stateOut(rec, caption)
	if err := s.store.AcceptChallenge(ch.ID, rec, c.EventID, c.Time, s.caps(), box); err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return s.fail(c, "Too late: challenge %s was already accepted or withdrawn.", ch.ID)
		}
		if out := s.limitFail(c, err); out != nil {
			return out
		}
		return s.internal(c, err)
	}
	s.log.Info("game started", "game", rec.ID, "challenge", ch.ID, "white", rec.White.ID, "black", rec.Black.ID, "variant", rec.Variant)
	r := s.stateReply(c, rec, startPosition(v, rec.Start), strings.ReplaceAll(caption, "{game}", rec.ID))
	r.Key = "game:" + rec.ID
	r.Supersedes = []string{"challenge:" + ch.ID}
	r.Outbox = outboxID(box)
	r.Edits = []Edit{{Key: "challenge:" + ch.ID, Text: fmt.Sprintf("Challenge %s from %s: %s. Accepted by %s: game %s.", ch.ID, ch.From.Name, challengeTerms(ch), c.User.Name, rec.ID)}}
	return []Reply{r}
}

func (s *Service) cmdDecline(c *call) []Reply {
	ch, replies := s.pickChallenge(c, func(ch *storage.Challenge) bool { return ch.To.ID == c.User.ID })
	if replies != nil {
		return replies
	}
	if ch == nil {
		if g, err := s.pendingDraw(c); err == nil && g != nil {
			return s.drawAction(c, g.ID, "decline")
		}
		return s.fail(c, "There is no challenge for you to decline here.")
	}
	switch {
	case ch.From.ID == c.User.ID:
		return s.fail(c, "That is your own challenge; /cancel %s withdraws it.", ch.ID)
	case ch.Open():
		return s.fail(c, "Challenge %s is open to anyone; there is nothing to decline, just let it be.", ch.ID)
	case ch.To.ID != c.User.ID:
		return s.fail(c, "Challenge %s is for %s, not for you.", ch.ID, ch.To.Name)
	}
	if err := s.store.DeleteChallenge(ch.ID, c.EventID, c.Time); err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return s.fail(c, "Challenge %s is already gone.", ch.ID)
		}
		return s.internal(c, err)
	}
	return []Reply{{
		Text:       fmt.Sprintf("%s declines the challenge from %s (%s).", c.User.Name, mention(ch.From), ch.ID),
		Mentions:   []string{ch.From.ID},
		Supersedes: []string{"challenge:" + ch.ID},
	}}
}

func (s *Service) cmdCancel(c *call) []Reply {
	ch, replies := s.pickChallenge(c, func(ch *storage.Challenge) bool { return ch.From.ID == c.User.ID })
	if replies != nil {
		return replies
	}
	if ch == nil {
		return s.fail(c, "You have no open challenge here to cancel.")
	}
	if ch.From.ID != c.User.ID {
		return s.fail(c, "Challenge %s is %s's; only they can cancel it.", ch.ID, ch.From.Name)
	}
	if err := s.store.DeleteChallenge(ch.ID, c.EventID, c.Time); err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return s.fail(c, "Challenge %s is already gone (accepted or declined).", ch.ID)
		}
		return s.internal(c, err)
	}
	return []Reply{{
		Text:       fmt.Sprintf("%s withdraws challenge %s.", c.User.Name, ch.ID),
		Supersedes: []string{"challenge:" + ch.ID},
	}}
}

// startPicture draws a variant's start position (for /rules).
func (s *Service) startPicture(v *engine.Variant) (*Image, error) {
	return s.picture(v.StartPosition(), render.Options{Orientation: engine.White}, v.ID+"-start.png", "")
}

// caps are the limits the storage enforces inside its writes.
func (s *Service) caps() storage.Caps {
	return storage.Caps{OpenChallenges: s.limits.OpenChallenges, ActiveGames: s.limits.ActiveGames, Exempt: BotID}
}

// limitFail words a refusal by the caps; nil when err is something else.
func (s *Service) limitFail(c *call, err error) []Reply {
	var le *storage.LimitError
	if !errors.As(err, &le) {
		return nil
	}
	switch {
	case le.What == "challenges":
		return s.fail(c, "You already have %d open challenges (the limit). /cancel one first.", le.Count)
	case le.User.ID == c.User.ID:
		return s.fail(c, "You are playing %d games already (the limit). Finish one first.", le.Count)
	}
	return s.fail(c, "%s is playing %d games already (the limit); try again later.", le.User.Name, le.Count)
}
