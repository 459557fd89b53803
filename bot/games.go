package bot

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"topochess/engine"
	"topochess/render"
	"topochess/storage"
)

// normalizeID accepts "c12", "C12", "#12" and "12" for challenge c12.
func normalizeID(id, prefix string) string {
	id = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(id), "#"))
	if id != "" && id[0] >= '0' && id[0] <= '9' {
		id = prefix + id
	}
	return id
}

// gameIDs are the stored ids a typed game id may mean: "#12", "12",
// "g12" and "G12" all name game number 12, stored as #12 or, for a game
// from before ids took the # form, as g12 (one sequence numbers both, so
// at most one of them exists).
func gameIDs(id string) []string {
	id = strings.ToLower(strings.TrimSpace(id))
	num := strings.TrimPrefix(strings.TrimPrefix(id, storage.GameIDPrefix), "g")
	if num == "" || strings.Trim(num, "0123456789") != "" {
		return []string{id}
	}
	return []string{storage.GameIDPrefix + num, "g" + num}
}

// findGame loads a game by a typed id (see gameIDs); not found, the error
// names the id in its current form.
func (s *Service) findGame(id string) (*storage.Game, string, error) {
	ids := gameIDs(id)
	for _, id := range ids {
		rec, err := s.store.Game(id)
		if !errors.Is(err, storage.ErrNotFound) {
			return rec, id, err
		}
	}
	return nil, ids[0], fmt.Errorf("game %s: %w", ids[0], storage.ErrNotFound)
}

// replay rebuilds the engine game of a record.
func replay(rec *storage.Game) (*engine.Game, error) {
	v, err := engine.GetVariant(rec.Variant)
	if err != nil {
		return nil, &storage.RecordError{Kind: "game", ID: rec.ID, Err: err}
	}
	g, err := engine.Replay(v, rec.Start, rec.Moves)
	if err != nil {
		// A stored game whose moves do not replay is as good as damaged.
		return nil, &storage.RecordError{Kind: "game", ID: rec.ID, Err: err}
	}
	if rec.Result != "" { // resignation and agreement are not in the moves
		g.Result, g.Reason = engine.Result(rec.Result), engine.Reason(rec.Reason)
	}
	return g, nil
}

func colorName(c string) string {
	if c == "" {
		return ""
	}
	return strings.ToUpper(c[:1]) + c[1:]
}

func playerOf(rec *storage.Game, c engine.Color) storage.Player {
	if c == engine.White {
		return rec.White
	}
	return rec.Black
}

func mention(p storage.Player) string {
	if p.Mention != "" {
		return p.Mention
	}
	return p.Name
}

func variantName(id string) string {
	if v, err := engine.GetVariant(id); err == nil {
		return v.Name
	}
	return id
}

// describe is a one-line label of a game for lists and buttons.
func describe(rec *storage.Game, viewer string) string {
	switch rec.ColorOf(viewer) {
	case "white":
		return fmt.Sprintf("%s: %s vs %s (you play White)", rec.ID, variantName(rec.Variant), rec.Black.Name)
	case "black":
		return fmt.Sprintf("%s: %s vs %s (you play Black)", rec.ID, variantName(rec.Variant), rec.White.Name)
	}
	return fmt.Sprintf("%s: %s, %s vs %s", rec.ID, variantName(rec.Variant), rec.White.Name, rec.Black.Name)
}

// gameByID loads the game a player named (#12 or 12) if it belongs to
// this channel; hint tells where to find the right id.
func (s *Service) gameByID(c *call, id, hint string) (*storage.Game, []Reply) {
	rec, id, err := s.findGame(id)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, s.fail(c, "There is no game %q. %s", id, hint)
	}
	if err != nil {
		return nil, s.internal(c, err)
	}
	if rec.Channel != c.Channel {
		return nil, s.fail(c, "Game %s belongs to another channel.", rec.ID)
	}
	return rec, nil
}

// pickGame finds the game a command is about: the game argument, else the
// user's only active game here (or, for spectators' reads, the channel's
// only game). When it is ambiguous the replies ask which, with buttons.
func (s *Service) pickGame(c *call, spectate bool) (*storage.Game, []Reply) {
	if id := c.arg("game"); id != "" {
		return s.gameByID(c, id, "/games lists yours.")
	}
	games, err := s.store.ActiveGames(c.User.ID, c.Channel)
	if err != nil {
		return nil, s.internal(c, err)
	}
	mine := true
	if len(games) == 0 && spectate {
		if games, err = s.store.ChannelGames(c.Channel); err != nil {
			return nil, s.internal(c, err)
		}
		mine = false
	}
	if len(games) > 1 && c.Name == "move" {
		// A move can only be meant for a game where it is the mover's turn.
		var toMove []*storage.Game
		for _, g := range games {
			v, err := engine.GetVariant(g.Variant)
			if err == nil && playerOf(g, sideToMove(g, v)).ID == c.User.ID {
				toMove = append(toMove, g)
			}
		}
		if len(toMove) == 1 {
			return toMove[0], nil
		}
	}
	switch {
	case len(games) == 1:
		return games[0], nil
	case len(games) == 0 && spectate:
		return nil, s.fail(c, "No game is being played here. Start one with /challenge.")
	case len(games) == 0:
		return nil, s.fail(c, "You have no game in progress here. Start one with /challenge @someone (or /challenge alone for anyone).")
	}
	text := fmt.Sprintf("You have %d games here; which one? (Or add game:ID to the command.)", len(games))
	if !mine {
		text = fmt.Sprintf("%d games are being played here; which one? (Or add game:ID to the command.)", len(games))
	}
	r := Reply{Text: text, Private: true}
	for i, g := range games {
		if i == maxButtons {
			r.Text += fmt.Sprintf(" Showing the first %d.", maxButtons)
			break
		}
		args := maps.Clone(c.args)
		args["game"] = g.ID
		r.Buttons = append(r.Buttons, Button{Label: describe(g, c.User.ID), Command: c.Name, Args: args, For: c.User.ID})
	}
	return nil, []Reply{r}
}

// maxButtons fits Discord's 5 rows of 5.
const maxButtons = 25

// loadLocked re-reads a game under its lock (another action may have
// changed it since pickGame) and replays it.
func (s *Service) loadLocked(c *call, id string) (*storage.Game, *engine.Game, []Reply) {
	rec, err := s.store.Game(id)
	if err != nil {
		return nil, nil, s.internal(c, err)
	}
	g, err := s.game(rec)
	if err != nil {
		return nil, nil, s.internal(c, err)
	}
	return rec, g, nil
}

// playerCheck refuses actions by non-players and on finished games.
func (s *Service) playerCheck(c *call, rec *storage.Game) (engine.Color, []Reply) {
	if !rec.Active() {
		return 0, s.fail(c, "Game %s is over: %s", rec.ID, endText(rec))
	}
	switch rec.ColorOf(c.User.ID) {
	case "white":
		return engine.White, nil
	case "black":
		return engine.Black, nil
	}
	return 0, s.fail(c, "That is not your game: %s plays %s against %s.", rec.ID, rec.White.Name, rec.Black.Name)
}

// endText words a finished game's result.
func endText(rec *storage.Game) string {
	winner := ""
	switch engine.Result(rec.Result) {
	case engine.WhiteWins:
		winner = fmt.Sprintf("White (%s) wins.", rec.White.Name)
	case engine.BlackWins:
		winner = fmt.Sprintf("Black (%s) wins.", rec.Black.Name)
	}
	switch engine.Reason(rec.Reason) {
	case engine.ReasonCheckmate:
		return "Checkmate. " + winner
	case engine.ReasonResignation:
		loser := rec.Black.Name
		if engine.Result(rec.Result) == engine.BlackWins {
			loser = rec.White.Name
		}
		return fmt.Sprintf("%s resigned. %s", loser, winner)
	case engine.ReasonStalemate:
		return "Stalemate: a draw."
	case engine.ReasonRepetition:
		return "Draw by threefold repetition."
	case engine.ReasonFiftyMoves:
		return "Draw: 100 half-moves without a capture or a pawn move."
	case engine.ReasonBareKings:
		return "Draw: only the two kings remain."
	case engine.ReasonAgreement:
		return "Draw agreed."
	}
	if winner != "" {
		return fmt.Sprintf("%s (%s)", winner, rec.Reason)
	}
	return fmt.Sprintf("Draw (%s).", rec.Reason)
}

// toMoveText says whose turn it is, mentioning them.
func toMoveText(rec *storage.Game, pos *engine.Position) string {
	p := playerOf(rec, pos.Side)
	return fmt.Sprintf("%s, your move (%s).", mention(p), colorName(pos.Side.String()))
}

// stateReply is a game picture with a caption: after a move, at the
// start, at the end. The player to move is mentioned.
func (s *Service) stateReply(c *call, rec *storage.Game, pos *engine.Position, caption string) Reply {
	r := Reply{Text: caption}
	if rec.Active() {
		p := playerOf(rec, pos.Side)
		if p.ID == BotID {
			// Its move comes later, through the Notify senders, and
			// then edits this line.
			r.Text += fmt.Sprintf(" %s is thinking…", p.Name)
			r.Key = thinkingKey(rec.ID)
		} else {
			r.Text += " " + toMoveText(rec, pos) + clockNote(rec, pos, c.Time)
			r.Mentions = []string{p.ID}
		}
	} else {
		r.Text += " " + endText(rec) + ratingNote(rec)
		r.Buttons = endButtons(rec)
	}
	img, err := s.gamePicture(rec, pos)
	if err != nil {
		s.log.Error("render failed", "game", rec.ID, "err", err)
		r.Text += " (I could not draw the board this time.)"
	} else {
		r.Image = img
	}
	if r.Key == thinkingKey(rec.ID) {
		s.after.thinking.remember(rec.ID, r.Text)
	}
	return r
}

func (s *Service) cmdMove(c *call) []Reply {
	mv := c.arg("move")
	if mv == "" {
		mv = strings.Join(c.pos, " ")
	}
	if mv == "" {
		return s.fail(c, "Which move? For example /move e2e4, /move Nf3 or /move O-O.")
	}
	c.args["move"] = mv
	if c.arg("game") == "" {
		// A player with no game here may be answering a puzzle.
		if out, ok := s.puzzleMove(c, mv, false); ok {
			return out
		}
	}
	rec, g, side, unlock, replies := s.myGame(c)
	if rec == nil {
		return replies
	}
	defer unlock()
	if out := s.flagIfLate(c, rec, g, unlock); out != nil {
		return out
	}
	// pos is the cached game's own position, changed in place by the
	// next holder of the lock: every read of it stays before unlock (the
	// refusals below are worded under the lock, released by the defer).
	pos := g.Position()
	if pos.Side != side {
		p := playerOf(rec, pos.Side)
		return s.fail(c, "It is not your turn in %s: %s (%s) is to move.", rec.ID, p.Name, colorName(pos.Side.String()))
	}
	m, err := pos.ParseMove(mv)
	if err != nil {
		return s.refuseMove(c, rec, pos, mv, err)
	}
	num, black := pos.Fullmove, pos.Side == engine.Black
	san, story := pos.SAN(m), moveStory(pos, m)
	if err := g.Play(m); err != nil {
		return s.fail(c, "That move is not possible: %v.", err)
	}
	offers := offersOf(rec)
	rec.Moves = slices.Clone(g.Moves)
	rec.Result, rec.Reason = string(g.Result), string(g.Reason)
	rec.DrawOffer, rec.TakebackOffer = "", ""
	clockMoved(rec, g.Position(), c.Time)
	caption := moveCaption(rec.ID, num, black, san, story, pos, rec.Active())
	r, fail := s.saveAndShow(c, rec, g, caption, unlock)
	if fail != nil {
		return fail
	}
	s.log.Info("move", "game", rec.ID, "user", c.User.ID, "move", rec.Moves[len(rec.Moves)-1], "result", rec.Result)
	r.Supersedes = offers
	s.botTurn(rec)
	return []Reply{r}
}

// refuseMove explains an unplayable move: the engine's words, buttons for
// the moves the player may have meant, and for variants with observation
// the explanation of what became of the move.
func (s *Service) refuseMove(c *call, rec *storage.Game, pos *engine.Position, input string, err error) []Reply {
	r := Reply{Private: true, Error: true}
	var me *engine.MoveError
	var choices, labels []string
	if errors.As(err, &me) {
		r.Text = fmt.Sprintf("%s: %s.", rec.ID, strings.TrimSuffix(me.Msg, "."))
		choices = me.Choices
	} else {
		r.Text = fmt.Sprintf("%s: %v.", rec.ID, err)
	}
	if pos.V.Observation {
		if ex, ok := s.explain(pos, input, me); ok {
			r.Text = fmt.Sprintf("%s: %s", rec.ID, ex.Text)
			choices = ex.Choices
			if len(ex.Labels) == len(choices) {
				labels = ex.Labels
			}
			if len(ex.Observed) > 0 || len(ex.Observers) > 0 {
				opt := boardOptions(rec, pos, s.viewOrientation(rec, c.User.ID))
				opt.Observed, opt.Observers = ex.Observed, ex.Observers
				markChoices(pos, &opt, ex.Piece, choices)
				if img, err := s.picture(pos, opt, rec.ID+"-observed.png", rec.ID); err == nil {
					img.Alt += observedAlt(pos, ex)
					r.Image = img
				}
			}
		}
	}
	if labels == nil {
		labels = choiceLabels(pos, choices)
	}
	for i, ch := range choices {
		if i == maxButtons {
			break
		}
		r.Buttons = append(r.Buttons, Button{Label: labels[i], Command: "move", Args: map[string]string{"game": rec.ID, "move": ch}, Style: "primary", For: c.User.ID})
	}
	return []Reply{r}
}

func (s *Service) cmdBoard(c *call) []Reply {
	if id := firstWord(c.pos); id != "" && c.arg("game") == "" {
		c.args["game"] = id
	}
	rec, replies := s.pickGame(c, true)
	if rec == nil {
		return replies
	}
	rec, pos, replies := s.snapshot(c, rec.ID)
	if rec == nil {
		return replies
	}
	caption := fmt.Sprintf("%s · %s · %s (White) vs %s (Black) · %d move(s) played.", rec.ID, variantName(rec.Variant), rec.White.Name, rec.Black.Name, len(rec.Moves))
	r := Reply{Text: caption}
	if rec.Active() {
		p := playerOf(rec, pos.Side)
		r.Text += fmt.Sprintf(" %s (%s) to move", p.Name, colorName(pos.Side.String()))
		if pos.InCheck() {
			r.Text += ", in check"
		}
		r.Text += "."
		if rec.DrawOffer != "" {
			r.Text += fmt.Sprintf(" %s offers a draw.", colorName(rec.DrawOffer))
		}
	} else {
		r.Text += " " + endText(rec)
	}
	img, err := s.gamePicture(rec, pos)
	if err != nil {
		s.log.Error("render failed", "game", rec.ID, "err", err)
		r.Text += " (I could not draw the board this time.)"
	}
	r.Image = img
	return []Reply{r}
}

func firstWord(ws []string) string {
	if len(ws) == 0 {
		return ""
	}
	return ws[0]
}

func (s *Service) cmdMoves(c *call) []Reply {
	cell := c.arg("cell")
	for _, w := range c.pos {
		// "#12" is a game, never a cell: no board names a cell so.
		switch {
		case strings.HasPrefix(w, storage.GameIDPrefix) && c.arg("game") == "":
			c.args["game"] = w
		case cell == "":
			cell = w
		}
	}
	if cell == "" {
		return s.fail(c, "Which piece? Name its cell, for example /moves g1.")
	}
	c.args["cell"] = cell
	rec, replies := s.pickGame(c, true)
	if rec == nil {
		return replies
	}
	rec, pos, replies := s.snapshot(c, rec.ID)
	if rec == nil {
		return replies
	}
	from := pos.Geo().Cell(cell)
	if from < 0 {
		return s.fail(c, "There is no cell %q on the %s board.", cell, variantName(rec.Variant))
	}
	name := pos.Geo().Name(from)
	pc := pos.Board[from]
	if pc == 0 {
		return s.fail(c, "There is no piece on %s.", name)
	}
	if !rec.Active() {
		return s.fail(c, "Game %s is over: %s", rec.ID, endText(rec))
	}
	opt := boardOptions(rec, pos, s.viewOrientation(rec, c.User.ID))
	opt.Selected = []int{from}
	text := s.movesText(c, rec, pos, from, &opt)
	img, err := s.picture(pos, opt, fmt.Sprintf("%s-%d-%s.png", rec.ID, len(rec.Moves), name), rec.ID)
	if err != nil {
		s.log.Error("render failed", "game", rec.ID, "err", err)
		text += " (I could not draw the board this time.)"
	}
	return []Reply{{Text: text, Image: img, Private: true}}
}

func (s *Service) cmdResign(c *call) []Reply {
	rec, g, side, unlock, replies := s.myGame(c)
	if rec == nil {
		return replies
	}
	defer unlock()
	g.Resign(side)
	offer := rec.DrawOffer
	rec.Result, rec.Reason, rec.DrawOffer = string(g.Result), string(g.Reason), ""
	r, fail := s.saveAndShow(c, rec, g, rec.ID+" ·", unlock)
	if fail != nil {
		return fail
	}
	s.log.Info("resign", "game", rec.ID, "user", c.User.ID)
	if offer != "" {
		r.Supersedes = []string{"draw:" + rec.ID}
	}
	return []Reply{r}
}

func (s *Service) cmdDraw(c *call) []Reply {
	answer := strings.ToLower(c.arg("answer"))
	if answer == "" {
		answer = strings.ToLower(firstWord(c.pos))
	}
	switch answer {
	case "", "offer":
		answer = ""
	case "accept", "yes", "agree":
		answer = "accept"
	case "decline", "no", "refuse":
		answer = "decline"
	default:
		return s.fail(c, "Use /draw to offer a draw, /draw accept or /draw decline to answer one.")
	}
	rec, replies := s.pickGame(c, false)
	if rec == nil {
		return replies
	}
	return s.drawAction(c, rec.ID, answer)
}

// drawAction offers ("") or answers ("accept", "decline") a draw.
func (s *Service) drawAction(c *call, id, answer string) []Reply {
	rec, g, side, unlock, replies := s.playerGame(c, id)
	if rec == nil {
		return replies
	}
	defer unlock()
	if rec.BotLevel > 0 {
		return s.botDraw(c, rec, g, answer)
	}
	me, other := playerOf(rec, side), playerOf(rec, side.Other())
	offeredByOther := rec.DrawOffer == side.Other().String()
	offeredByMe := rec.DrawOffer == side.String()
	if answer == "" && offeredByOther {
		answer = "accept" // offering back is agreeing
	}
	switch answer {
	case "":
		if offeredByMe {
			return s.fail(c, "You already offered a draw in %s; waiting for %s.", rec.ID, other.Name)
		}
		rec.DrawOffer = side.String()
		if err := s.save(c, rec, g); err != nil {
			return s.internal(c, err)
		}
		return ask(rec.ID, other, "draw", fmt.Sprintf("%s · %s offers a draw. %s, do you accept?", rec.ID, me.Name, mention(other)),
			"Accept draw", "Decline draw")
	case "accept":
		if offeredByMe {
			return s.fail(c, "You can't accept your own draw offer; %s has to.", other.Name)
		}
		if !offeredByOther {
			return s.fail(c, "There is no draw offer to accept in %s. /draw offers one.", rec.ID)
		}
		g.AgreeDraw()
		rec.Result, rec.Reason, rec.DrawOffer = string(g.Result), string(g.Reason), ""
		r, fail := s.saveAndShow(c, rec, g, rec.ID+" ·", unlock)
		if fail != nil {
			return fail
		}
		r.Supersedes = []string{"draw:" + rec.ID}
		return []Reply{r}
	default: // decline
		if !offeredByOther {
			return s.fail(c, "There is no draw offer to decline in %s.", rec.ID)
		}
		rec.DrawOffer = ""
		if err := s.save(c, rec, g); err != nil {
			return s.internal(c, err)
		}
		return []Reply{{
			Text:       fmt.Sprintf("%s · %s declines the draw. The game goes on; %s", rec.ID, me.Name, toMoveText(rec, g.Position())),
			Mentions:   []string{playerOf(rec, g.Position().Side).ID},
			Supersedes: []string{"draw:" + rec.ID},
		}}
	}
}

func (s *Service) cmdGames(c *call) []Reply {
	if strings.EqualFold(firstWord(c.pos), "all") || strings.EqualFold(c.arg("which"), "all") {
		return s.gamesAll(c)
	}
	games, err := s.store.ActiveGames(c.User.ID, c.Channel)
	if err != nil {
		return s.internal(c, err)
	}
	chals, err := s.store.ChannelChallenges(c.Channel, c.Time)
	if err != nil {
		return s.internal(c, err)
	}
	var b strings.Builder
	if len(games) == 0 {
		b.WriteString("You have no game in progress here.")
	} else {
		fmt.Fprintf(&b, "Your games here (%d):", len(games))
		for _, rec := range games {
			id := rec.ID
			rec, pos, replies := s.snapshot(c, id)
			if rec == nil {
				// That game alone is unreadable; the list goes on.
				fmt.Fprintf(&b, "\n• %s: cannot be shown (%s)", id, replies[0].Text)
				continue
			}
			turn := "their move"
			if playerOf(rec, pos.Side).ID == c.User.ID {
				turn = "your move"
			}
			fmt.Fprintf(&b, "\n• %s, %d move(s), %s", describe(rec, c.User.ID), len(rec.Moves), turn)
		}
	}
	b.WriteString(s.refusedNote(c))
	for _, ch := range chals {
		switch {
		case ch.From.ID == c.User.ID:
			fmt.Fprintf(&b, "\n• challenge %s: yours, %s, waiting for %s (/cancel %s withdraws it)", ch.ID, variantName(ch.Variant), orAnyone(ch), ch.ID)
		case ch.To.ID == c.User.ID || ch.Open():
			fmt.Fprintf(&b, "\n• challenge %s: %s from %s (/accept %s)", ch.ID, variantName(ch.Variant), ch.From.Name, ch.ID)
		}
	}
	return []Reply{{Text: b.String(), Private: true}}
}

func orAnyone(ch *storage.Challenge) string {
	if ch.Open() {
		return "anyone"
	}
	return ch.To.Name
}

// observedAlt words the observation marks for the picture's alt text.
func observedAlt(pos *engine.Position, ex Explanation) string {
	g := pos.Geo()
	var by []string
	for _, c := range ex.Observers {
		by = append(by, g.Name(c))
	}
	out := ""
	for _, c := range ex.Observed {
		out += fmt.Sprintf(" Marked: %s, the observed cell", g.Name(c))
	}
	if len(by) > 0 {
		out += fmt.Sprintf(", and the observers on %s", strings.Join(by, ", "))
	}
	if out != "" {
		out += "."
	}
	return out
}

// markChoices puts the piece whose move was refused and the destinations
// of the offered moves on a picture: dots for quiet moves, rings for
// captures.
func markChoices(pos *engine.Position, opt *render.Options, piece []int, choices []string) {
	opt.Selected = piece
	seen := map[int]bool{}
	for _, ch := range choices {
		m, err := pos.ParseCanonical(ch)
		if err != nil || seen[int(m.To)] {
			continue
		}
		seen[int(m.To)] = true
		if pos.Board[m.To] != 0 || m.Flags&engine.FlagEnPassant != 0 {
			opt.Rings = append(opt.Rings, int(m.To))
		} else {
			opt.Dots = append(opt.Dots, int(m.To))
		}
	}
}

// choiceLabels names choice buttons in SAN, which is friendlier, unless
// that would not tell them apart (SAN of a pawn move does not say where it
// starts, and in Heisenberg pieces reappear): then all say from-to.
func choiceLabels(pos *engine.Position, choices []string) []string {
	labels := make([]string, len(choices))
	seen := map[string]bool{}
	for i, ch := range choices {
		m, err := pos.ParseCanonical(ch)
		if err != nil || pos.V.Observation {
			return slices.Clone(choices)
		}
		labels[i] = pos.SAN(m)
		if seen[labels[i]] {
			return slices.Clone(choices)
		}
		seen[labels[i]] = true
	}
	return labels
}

// ask is a question of a game's player to its other player, with buttons
// for the other player only that answer command with accept or decline.
// Its key lets the answer take the buttons off.
func ask(game string, other storage.Player, command, text, yes, no string) []Reply {
	answer := func(label, a, style string) Button {
		return Button{Label: label, Command: command, Args: map[string]string{"game": game, "answer": a}, Style: style, For: other.ID}
	}
	return []Reply{{
		Text:     text,
		Mentions: []string{other.ID},
		Key:      command + ":" + game,
		Buttons:  []Button{answer(yes, "accept", "success"), answer(no, "decline", "danger")},
	}}
}

// myGame is the game the caller means (the game option, or their one
// game here) locked, as playerGame gives it.
func (s *Service) myGame(c *call) (rec *storage.Game, g *engine.Game, side engine.Color, unlock func(), replies []Reply) {
	if rec, replies = s.pickGame(c, false); rec == nil {
		return nil, nil, 0, nil, replies
	}
	return s.playerGame(c, rec.ID)
}

// playerGame locks a game, loads it and checks that the caller plays in
// it. On success the caller must call unlock (calling it again is
// harmless); on failure the lock is already released and the replies say
// why.
func (s *Service) playerGame(c *call, id string) (rec *storage.Game, g *engine.Game, side engine.Color, unlock func(), replies []Reply) {
	unlock = s.lockGame(id)
	if rec, g, replies = s.loadLocked(c, id); rec == nil {
		unlock()
		return nil, nil, 0, nil, replies
	}
	if side, replies = s.playerCheck(c, rec); replies != nil {
		unlock()
		return nil, nil, 0, nil, replies
	}
	return rec, g, side, unlock, nil
}
