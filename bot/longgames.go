package bot

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"topochess/bot/rating"
	"topochess/engine"
	"topochess/storage"
)

// Long games: clocks and deadlines, reminders and loss on time, and
// ratings when a rated game ends. The commands that look back at games
// (/pgn, /replay, /history, /leaderboard, /stats) and /takeback are in
// records.go.

// clockOf reads a game's stored clock; ok is false for untimed games.
func clockOf(rec *storage.Game) (Clock, bool) {
	if rec.Clock == nil {
		return Clock{}, false
	}
	tc, err := ParseTimeControl(rec.Clock.Control)
	if err != nil || !tc.Timed() {
		return Clock{}, false
	}
	return Clock{Control: tc, Left: rec.Clock.Left, TurnStart: rec.Clock.TurnStart, Reminded: rec.Clock.Reminded}, true
}

// storeClock writes a clock back into a game record with its next due
// time for the side to move, which the storage indexes.
func storeClock(rec *storage.Game, c Clock, side engine.Color) {
	due, _ := c.Next(int(side))
	rec.Clock = &storage.Clock{Control: c.Control.String(), Left: c.Left, TurnStart: c.TurnStart, Reminded: c.Reminded, Due: due}
}

// newGameClock is the stored clock of a game accepted at now.
func newGameClock(control string, now time.Time) *storage.Clock {
	tc, err := ParseTimeControl(control)
	if err != nil || !tc.Timed() {
		return nil
	}
	rec := &storage.Game{}
	storeClock(rec, NewClock(tc, now), engine.White)
	return rec.Clock
}

// sideToMove is whose turn it is in a stored game without replaying it.
func sideToMove(rec *storage.Game, v *engine.Variant) engine.Color {
	first := engine.White
	if rec.Start != "" {
		if p, err := v.ParsePosition(rec.Start); err == nil {
			first = p.Side
		}
	}
	if len(rec.Moves)%2 == 1 {
		return first.Other()
	}
	return first
}

// clockMoved charges a move made at now to the mover's clock (call under
// the game lock, before saving, with the position after the move).
func clockMoved(rec *storage.Game, after *engine.Position, now time.Time) {
	c, ok := clockOf(rec)
	if !ok {
		return
	}
	c.Moved(int(after.Side.Other()), now)
	storeClock(rec, c, after.Side)
}

// flagIfLate ends a timed game on time when the player to move is past
// the deadline: a move arriving late is refused and the game is over.
// It returns the replies when it did (the caller holds the game lock and
// passes its unlock).
func (s *Service) flagIfLate(c *call, rec *storage.Game, g *engine.Game, unlock func()) []Reply {
	clk, ok := clockOf(rec)
	if !ok || !rec.Active() || !clk.Flagged(int(g.Position().Side), c.Time) {
		return nil
	}
	return s.flag(c, rec, g, unlock)
}

// flag ends the game with a loss on time for the side to move. The
// winner needs something to mate with: a lone king cannot win on time,
// so that is a draw.
func (s *Service) flag(c *call, rec *storage.Game, g *engine.Game, unlock func()) []Reply {
	pos := g.Position()
	loser := pos.Side
	result := engine.WhiteWins
	if loser == engine.White {
		result = engine.BlackWins
	}
	if loneKing(pos, loser.Other()) {
		result = engine.Draw
	}
	g.End(result, engine.ReasonTime)
	supersede := offersOf(rec)
	rec.Result, rec.Reason, rec.DrawOffer, rec.TakebackOffer = string(g.Result), string(g.Reason), "", ""
	p := playerOf(rec, loser)
	caption := fmt.Sprintf("%s · %s (%s) ran out of time.", rec.ID, mention(p), colorName(loser.String()))
	r, fail := s.saveAndShow(c, rec, g, caption, unlock)
	if fail != nil {
		return fail
	}
	s.log.Info("loss on time", "game", rec.ID, "side", loser.String(), "result", rec.Result)
	r.Mentions = []string{rec.White.ID, rec.Black.ID}
	r.Supersedes = supersede
	return []Reply{r}
}

func loneKing(pos *engine.Position, side engine.Color) bool {
	for _, pc := range pos.Board {
		if pc != 0 && pc.Color() == side && pc.Kind() != engine.King {
			return false
		}
	}
	return true
}

// offersOf are the message keys of a game's standing offers, whose
// buttons go stale when the game changes.
func offersOf(rec *storage.Game) []string {
	var keys []string
	if rec.DrawOffer != "" {
		keys = append(keys, "draw:"+rec.ID)
	}
	if rec.TakebackOffer != "" {
		keys = append(keys, "takeback:"+rec.ID)
	}
	return keys
}

// clockNote is the clock part of a game caption.
func clockNote(rec *storage.Game, pos *engine.Position, now time.Time) string {
	c, ok := clockOf(rec)
	if !ok || !rec.Active() {
		return ""
	}
	side := int(pos.Side)
	if c.Control.Live() {
		left := c.Left
		left[side] = c.Remaining(side, now)
		return fmt.Sprintf(" ⏱ White %s · Black %s.", clockFace(left[0]), clockFace(left[1]))
	}
	return fmt.Sprintf(" ⏱ %s left for this move (until %s).", FormatDuration(c.Remaining(side, now)), c.Deadline(side).UTC().Format("Jan 2 15:04 UTC"))
}

// Tick does what the clocks of timed games ask at time now (zero: the
// service's clock): reminders to the player to move at half and at 90 %
// of a correspondence deadline, and the loss on time at the deadline. The
// deadlines are read from storage, so a restarted bot catches up with
// whatever fell due while it was down. Each game's clock is a job
// (jobs.go): this process claims the due ones no other is working on,
// and saving the game moves the job to its next time. The replies are
// for the games' channels; RunClock delivers them.
func (s *Service) Tick(now time.Time) []Reply {
	if now.IsZero() {
		now = s.now()
	}
	var out []Reply
	for range 16 { // a bounded round: the next tick takes the rest
		js, err := s.store.ClaimJobs(storage.JobClock, now, clockBatch)
		if err != nil {
			s.log.Error("clock: claim due games", "err", err)
			break
		}
		for _, j := range js {
			out = append(out, s.tickGame(j.Key, now)...)
			if err := s.store.EndJob(j, false); err != nil {
				s.log.Error("clock: release", "game", j.Key, "err", err)
			}
		}
		if len(js) < clockBatch {
			break
		}
	}
	return out
}

func (s *Service) tickGame(id string, now time.Time) (out []Reply) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("clock: panic", "game", id, "panic", fmt.Sprint(r))
			out = nil
		}
	}()
	unlock := s.lockGame(id)
	defer unlock()
	rec, err := s.store.Game(id)
	if err != nil {
		s.log.Error("clock: load game", "game", id, "err", err)
		s.forgetDamaged(id, err)
		return nil
	}
	c := &call{Command: Command{Name: "clock", Platform: rec.Platform, Channel: rec.Channel, Time: now}, args: map[string]string{}}
	g, err := s.game(rec)
	if err != nil {
		s.log.Error("clock: replay game", "game", id, "err", err)
		s.forgetDamaged(id, err)
		return nil
	}
	clk, ok := clockOf(rec)
	if !ok || !rec.Active() {
		return nil
	}
	pos := g.Position()
	switch clk.Due(int(pos.Side), now) {
	case EventFlag:
		out = s.flag(c, rec, g, unlock)
	case EventReminder:
		storeClock(rec, clk, pos.Side)
		if err := s.save(c, rec, g); err != nil {
			s.log.Error("clock: save reminder", "game", id, "err", err)
			return nil
		}
		p := playerOf(rec, pos.Side)
		out = []Reply{{
			Channel:  rec.Channel,
			Text:     fmt.Sprintf("%s · %s, a reminder: it is your move (%s).%s", rec.ID, mention(p), colorName(pos.Side.String()), clockNote(rec, pos, now)),
			Mentions: []string{p.ID},
		}}
	default:
		// The index was ahead of the clock (it is rebuilt on every save):
		// store the clock's own next time.
		storeClock(rec, clk, pos.Side)
		if err := s.save(c, rec, g); err != nil {
			s.log.Error("clock: save", "game", id, "err", err)
		}
	}
	for i := range out {
		out[i].Channel = rec.Channel
	}
	return out
}

// senders deliver replies that no command asked for, per platform.
type senders struct {
	mu sync.Mutex
	m  map[string]func(Reply)
	// held are replies for platforms without a sender yet (see post).
	held []Reply
}

// Notify registers how to post a reply in a channel of a platform
// ("discord", "telegram", "web", "console"). RunClock delivers reminders
// and losses on time through it, and the bot opponent its moves; an
// adapter that can post on its own calls it when it starts. Replies held
// for the platform until then are sent at once.
func (s *Service) Notify(platform string, send func(Reply)) {
	s.notify.mu.Lock()
	if s.notify.m == nil {
		s.notify.m = map[string]func(Reply){}
	}
	s.notify.m[platform] = send
	held := s.takeHeld(platform)
	s.notify.mu.Unlock()
	for _, r := range held {
		send(r)
	}
}

// rateGame applies a finished rated game to the ratings (call under the game
// lock, after saving the result). The record is updated in place.
func (s *Service) rateGame(c *call, rec *storage.Game) {
	if !rec.Rated || rec.Active() || rec.Rating != nil {
		return
	}
	score := 0.5
	switch engine.Result(rec.Result) {
	case engine.WhiteWins:
		score = 1
	case engine.BlackWins:
		score = 0
	}
	if engine.Reason(rec.Reason) == engine.ReasonAborted {
		return
	}
	// A game given up or agreed drawn before both players have moved says
	// nothing about their strength; like an aborted game it is not rated.
	if len(rec.Moves) < 2 && (engine.Reason(rec.Reason) == engine.ReasonResignation || engine.Reason(rec.Reason) == engine.ReasonAgreement) {
		return
	}
	ng, err := s.store.RateGame(rec.ID, c.Time, func(g *storage.Game, w, b storage.Rating) (storage.Rating, storage.Rating) {
		nw, nb := rating.Game(toGlicko(w), toGlicko(b), score)
		w, b = fromGlicko(w, nw), fromGlicko(b, nb)
		w.Name, b.Name = g.White.Name, g.Black.Name
		switch score {
		case 1:
			w.Wins++
			b.Losses++
		case 0:
			w.Losses++
			b.Wins++
		default:
			w.Draws++
			b.Draws++
		}
		return w, b
	})
	if err != nil {
		s.log.Error("rating update failed", "game", rec.ID, "err", err)
		return
	}
	*rec = *ng
}

func toGlicko(r storage.Rating) rating.Rating {
	if r.RD <= 0 {
		return rating.New()
	}
	return rating.Rating{R: r.R, RD: r.RD, Sigma: r.Sigma}
}

func fromGlicko(r storage.Rating, g rating.Rating) storage.Rating {
	r.R, r.RD, r.Sigma = g.R, g.RD, g.Sigma
	return r
}

// ratingNote words a rated game's rating changes for the final caption.
func ratingNote(rec *storage.Game) string {
	if rec.Rating == nil {
		return ""
	}
	rc := rec.Rating
	before := func(r float64) float64 {
		if r == 0 {
			return rating.New().R
		}
		return r
	}
	f := func(name string, b, a float64) string {
		b = before(b)
		return fmt.Sprintf("%s %.0f → %.0f (%+.0f)", name, b, a, a-b)
	}
	return fmt.Sprintf(" Ratings: %s, %s.", f(rec.White.Name, rc.WhiteBefore, rc.WhiteAfter), f(rec.Black.Name, rc.BlackBefore, rc.BlackAfter))
}

// parseRated reads the rated: option; challenges are rated by default.
func parseRated(s string) (rated, ok bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "true", "yes", "on", "1":
		return true, true
	case "false", "no", "off", "0", "casual":
		return false, true
	}
	return false, false
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// clockFace shows a live clock's time as a chess clock does: 4:05, 1:02:00.
func clockFace(d time.Duration) string {
	d = max(d, 0).Truncate(time.Second)
	if d >= time.Hour {
		return fmt.Sprintf("%d:%02d:%02d", d/time.Hour, d%time.Hour/time.Minute, d%time.Minute/time.Second)
	}
	return fmt.Sprintf("%d:%02d", d/time.Minute, d%time.Minute/time.Second)
}
