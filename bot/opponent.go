package bot

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"topochess/engine"
	"topochess/engine/search"
	"topochess/storage"
)

// The computer opponent: a player with a stable id whose moves are
// searched by a small pool of workers, off the request path, and
// delivered like clock messages through the Notify senders.

// BotID is the user id of the computer opponent in every game record.
const BotID = "bot:topochess"

// botName is the computer opponent's display name at a level.
func botName(level int) string { return fmt.Sprintf("topochess (level %d)", level) }

func botPlayer(level int) storage.Player {
	return storage.Player{ID: BotID, Name: botName(level)}
}

// BotConfig configures the computer opponent; zero fields take defaults.
type BotConfig struct {
	// Workers is how many searches run at once (default 2); each worker
	// keeps its own searcher with 13 MB of tables.
	Workers int
	// MaxLevel is the strongest level players may choose (default
	// search.MaxLevel); a busy server may cap it.
	MaxLevel int
	// DefaultLevel is played when the challenge names none (default 3,
	// never above MaxLevel).
	DefaultLevel int
	// Level gives the search of a playing level (default search.Level).
	// Tests replace clocks by node budgets here so games are reproducible.
	Level func(level int) (search.Config, error)
	// Seed makes the bot's random choices reproducible (0: a random seed).
	Seed uint64
	// Delay is the least time between a human's move and the bot's answer,
	// so that the answer does not overtake the human's own move on the
	// way to the chat (0: none).
	Delay time.Duration
}

func (c BotConfig) withDefaults() BotConfig {
	if c.Workers <= 0 {
		c.Workers = 2
	}
	if c.MaxLevel <= 0 || c.MaxLevel > search.MaxLevel {
		c.MaxLevel = search.MaxLevel
	}
	if c.DefaultLevel <= 0 {
		c.DefaultLevel = 3
	}
	c.DefaultLevel = min(c.DefaultLevel, c.MaxLevel)
	if c.Level == nil {
		c.Level = search.Level
	}
	if c.Seed == 0 {
		c.Seed = rand.Uint64()
	}
	return c
}

// opponent is the worker pool. Tasks are keyed by game and stored
// revision: a task only ever plays into the revision it was made for, so
// a resignation, a takeback or anything else that saved the game in the
// meantime makes its result void.
type opponent struct {
	cfg BotConfig

	mu       sync.Mutex
	cond     *sync.Cond // signalled when the queue, running or stopping change
	queue    []*botTask
	tasks    map[string]*botTask // game id → its newest task
	running  int
	started  bool
	stopping bool
	ctx      context.Context
	wg       sync.WaitGroup
	// resumed is when the games waiting for the computer were last
	// checked for a job (resumeBotGames).
	resumed time.Time
}

type botTask struct {
	game   string
	rev    uint64
	queued time.Time
	ctx    context.Context // set when a worker takes it
	cancel context.CancelFunc
}

func newOpponent(cfg BotConfig) *opponent {
	p := &opponent{cfg: cfg.withDefaults(), tasks: map[string]*botTask{}}
	p.cond = sync.NewCond(&p.mu)
	return p
}

// enqueue asks for the bot's move in a game at a stored revision. A
// task for the same revision already queued or running is enough; an
// older one is void and is cancelled.
func (p *opponent) enqueue(game string, rev uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t := p.tasks[game]; t != nil {
		if t.rev == rev {
			return
		}
		p.dropLocked(t)
	}
	t := &botTask{game: game, rev: rev, queued: time.Now()}
	p.tasks[game] = t
	p.queue = append(p.queue, t)
	p.cond.Broadcast()
}

// cancel stops the search of a game, queued or running.
func (p *opponent) cancel(game string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t := p.tasks[game]; t != nil {
		p.dropLocked(t)
	}
}

func (p *opponent) dropLocked(t *botTask) {
	if t.cancel != nil {
		t.cancel()
	}
	if p.tasks[t.game] == t {
		delete(p.tasks, t.game)
	}
	if i := slices.Index(p.queue, t); i >= 0 {
		p.queue = slices.Delete(p.queue, i, i+1)
		p.cond.Broadcast()
	}
}

// next blocks until there is a task or the pool stops (nil).
func (p *opponent) next() *botTask {
	p.mu.Lock()
	defer p.mu.Unlock()
	for !p.stopping && len(p.queue) == 0 {
		p.cond.Wait()
	}
	if p.stopping {
		return nil
	}
	t := p.queue[0]
	p.queue = p.queue[1:]
	t.ctx, t.cancel = context.WithCancel(p.ctx)
	p.running++
	return t
}

// active reports whether the workers run (started and not stopping).
func (p *opponent) active() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.started && !p.stopping
}

func (p *opponent) lastResumed() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.resumed
}

// room is how many more tasks the workers will soon be free for: twice
// their number, less what is queued or running.
func (p *opponent) room() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.started || p.stopping {
		return 0
	}
	return 2*p.cfg.Workers - len(p.queue) - p.running
}

func (p *opponent) finish(t *botTask) {
	p.mu.Lock()
	defer p.mu.Unlock()
	t.cancel()
	if p.tasks[t.game] == t {
		delete(p.tasks, t.game)
	}
	p.running--
	p.cond.Broadcast()
}

// StartBot starts the computer opponent's workers and queues the games
// where it is to move (a restart resumes them). The workers stop when ctx
// ends: running searches are cancelled and their results dropped (the
// next start picks those games up again). The returned function waits
// until every worker has stopped; call it before closing the storage.
func (s *Service) StartBot(ctx context.Context) (wait func()) {
	p := s.ai
	p.mu.Lock()
	if p.started {
		p.mu.Unlock()
		s.log.Warn("bot: already started")
		return func() {}
	}
	p.started, p.ctx = true, ctx
	p.mu.Unlock()
	s.after.reviews.setContext(ctx)
	s.resumeBotGames(s.now())
	for i := 0; i < p.cfg.Workers; i++ {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			var searcher *search.Searcher // made on first use: 13 MB each
			for {
				t := p.next()
				if t == nil {
					return
				}
				if searcher == nil {
					searcher = search.NewSearcher()
				}
				s.botMove(t, searcher)
				s.endBotJob(t, ctx.Err() != nil)
				// A worker about to be free takes up what is waiting (a
				// restart with more games than the workers' share) without
				// waiting for the job loop, which the console does not run;
				// before finish, so WaitBot sees no gap.
				if ctx.Err() == nil {
					s.claimBotJobs(s.now())
				}
				p.finish(t)
			}
		}()
	}
	go func() {
		<-ctx.Done()
		p.mu.Lock()
		p.stopping = true
		p.cond.Broadcast()
		p.mu.Unlock()
	}()
	return func() {
		p.wg.Wait()
		s.after.reviews.queue.wait()
	}
}

// WaitBot blocks until the bot has no move queued or being searched and
// every answer found has been delivered; it returns at once when the bot
// is not running. The console uses it to keep transcripts in order.
func (s *Service) WaitBot() {
	p := s.ai
	p.mu.Lock()
	for p.started && !p.stopping && (len(p.queue) > 0 || p.running > 0) {
		p.cond.Wait()
	}
	p.mu.Unlock()
	// Channels following a game, and reviews, are served off the request
	// path too.
	s.after.follow.wait()
	s.after.reviews.queue.wait()
}

// botTurn queues the bot's answer when a saved game waits for it: the
// job is this process's (it starts on it at once) when its workers run.
func (s *Service) botTurn(rec *storage.Game) {
	if rec.BotLevel > 0 && rec.Active() && botToMove(rec) && s.addBotJob(rec.ID, rec.Rev, s.now(), s.ai.active()) {
		s.ai.enqueue(rec.ID, rec.Rev)
	}
}

// botSaved is called for every saved game: a change that does not leave
// the bot to move (an ending, a takeback, the bot's own move) makes its
// search pointless, here or in any other process, and ends its job.
func (s *Service) botSaved(rec *storage.Game) {
	if rec.BotLevel > 0 && !(rec.Active() && botToMove(rec)) {
		s.ai.cancel(rec.ID)
		if err := s.store.EndJob(botJob(rec.ID, rec.Rev), true); err != nil {
			s.log.Error("bot: end job", "game", rec.ID, "err", err)
		}
	}
}

// botMove searches and plays the bot's move for one task. The game is
// read and written under its lock, with the search in between unlocked,
// and the move is only saved into the revision the task was made for.
func (s *Service) botMove(t *botTask, searcher *search.Searcher) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("bot: panic", "game", t.game, "panic", fmt.Sprint(r))
		}
	}()
	rec, pos, hist, ok := s.botSnapshot(t)
	if !ok {
		return
	}
	cfg, err := s.ai.cfg.Level(min(rec.BotLevel, s.ai.cfg.MaxLevel))
	if err != nil {
		s.log.Error("bot: level", "game", rec.ID, "level", rec.BotLevel, "err", err)
		return
	}
	cfg.History = hist
	rng := rand.New(rand.NewPCG(s.ai.cfg.Seed, moveSeed(rec.ID, len(rec.Moves))))
	start := time.Now()
	m, info, err := searcher.Search(t.ctx, pos, cfg, rng)
	if err != nil {
		s.log.Error("bot: search", "game", rec.ID, "err", err)
		return
	}
	if t.ctx.Err() != nil {
		s.log.Info("bot: search cancelled", "game", rec.ID)
		return
	}
	if d := s.ai.cfg.Delay - time.Since(t.queued); d > 0 {
		timer := time.NewTimer(d)
		select {
		case <-t.ctx.Done():
			timer.Stop()
			return
		case <-timer.C:
		}
	}
	s.log.Info("bot: move found", "game", rec.ID, "move", pos.Canonical(m), "search", info.String(), "took", time.Since(start))
	if r, ok := s.botPlay(t, m); ok {
		s.post(r)
	}
}

// botSnapshot reads what the search needs, if the task is still current.
func (s *Service) botSnapshot(t *botTask) (*storage.Game, *engine.Position, []uint64, bool) {
	unlock := s.lockGame(t.game)
	defer unlock()
	rec, err := s.store.Game(t.game)
	if err != nil {
		s.log.Error("bot: load game", "game", t.game, "err", err)
		return nil, nil, nil, false
	}
	if rec.Rev != t.rev || !rec.Active() || rec.BotLevel <= 0 || !botToMove(rec) {
		return nil, nil, nil, false
	}
	g, err := s.game(rec)
	if err != nil {
		s.log.Error("bot: replay game", "game", rec.ID, "err", err)
		return nil, nil, nil, false
	}
	hist, err := search.GameHistory(g)
	if err != nil {
		s.log.Error("bot: game history", "game", rec.ID, "err", err)
		return nil, nil, nil, false
	}
	return rec, g.Position().Clone(), hist, true
}

// botPlay applies the bot's move like a human move: under the game lock,
// through engine.Game.Play (which refuses an illegal move), saved with
// the storage's revision check. The reply is the usual after-move
// picture, mentioning the human, for the game's channel.
func (s *Service) botPlay(t *botTask, m engine.Move) (Reply, bool) {
	unlock := s.lockGame(t.game)
	defer unlock()
	rec, err := s.store.Game(t.game)
	if err != nil {
		s.log.Error("bot: load game", "game", t.game, "err", err)
		return Reply{}, false
	}
	if rec.Rev != t.rev || t.ctx.Err() != nil {
		s.log.Info("bot: game changed while thinking; move dropped", "game", rec.ID)
		return Reply{}, false
	}
	g, err := s.game(rec)
	if err != nil {
		s.log.Error("bot: replay game", "game", rec.ID, "err", err)
		return Reply{}, false
	}
	pos := g.Position()
	num, black := pos.Fullmove, pos.Side == engine.Black
	san, story := pos.SAN(m), moveStory(pos, m)
	if err := g.Play(m); err != nil {
		s.log.Error("bot: search returned an unplayable move", "game", rec.ID, "move", pos.Canonical(m), "err", err)
		return Reply{}, false
	}
	c := &call{Command: Command{Name: "bot", Platform: rec.Platform, Channel: rec.Channel, User: User{ID: BotID, Name: botName(rec.BotLevel)}, Time: s.now()}, args: map[string]string{}}
	offers := offersOf(rec)
	rec.Moves = slices.Clone(g.Moves)
	rec.Result, rec.Reason = string(g.Result), string(g.Reason)
	rec.DrawOffer, rec.TakebackOffer = "", ""
	clockMoved(rec, g.Position(), c.Time)
	caption := moveCaption(rec.ID, num, black, san, story, g.Position(), rec.Active())
	box := s.stateOut(rec, caption)
	if err := s.save(c, rec, g, box); err != nil {
		if errors.Is(err, storage.ErrConflict) {
			s.log.Info("bot: game changed while thinking; move dropped", "game", rec.ID)
		} else {
			s.log.Error("bot: save move", "game", rec.ID, "err", err)
		}
		return Reply{}, false
	}
	after := g.Position().Clone()
	unlock()
	s.log.Info("move", "game", rec.ID, "user", BotID, "move", rec.Moves[len(rec.Moves)-1], "result", rec.Result)
	r := s.stateReply(c, rec, after, caption)
	r.Outbox = outboxID(box)
	if !rec.Active() {
		human, _ := humanOf(rec)
		r.Text += fmt.Sprintf(" Good game, %s!", mention(human))
		r.Mentions = []string{human.ID}
	}
	r.Channel = rec.Channel
	r.Supersedes = offers
	if e, ok := s.after.thinking.answeredEdit(rec.ID, botName(rec.BotLevel), num, black, san); ok {
		r.Edits = append(r.Edits, e)
	}
	return r, true
}

// botToMove reports whether the computer is to move in a stored game.
func botToMove(rec *storage.Game) bool {
	v, err := engine.GetVariant(rec.Variant)
	return err == nil && playerOf(rec, sideToMove(rec, v)).ID == BotID
}

// moveSeed varies the bot's randomness by game and move.
func moveSeed(game string, ply int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d", game, ply)
	return h.Sum64()
}

// heldLimit bounds the replies kept for a platform without a sender yet.
const heldLimit = 256

// post delivers a reply nobody asked for (a clock message, the bot's
// move) through the sender of its channel's platform. Until that
// platform's adapter has registered, replies are held and handed over
// when it does (at start, resumed games may be answered before the
// adapters are up).
func (s *Service) post(r Reply) {
	platform, _, _ := strings.Cut(r.Channel, ":")
	s.keepPosted(&r)
	s.notify.mu.Lock()
	send := s.notify.m[platform]
	if send == nil {
		if len(s.notify.held) < heldLimit {
			s.notify.held = append(s.notify.held, r)
		} else {
			s.log.Warn("no sender for platform; reply dropped", "platform", platform, "channel", r.Channel)
		}
	}
	s.notify.mu.Unlock()
	if send != nil {
		send(r)
	}
}

// takeHeld removes and returns the held replies for a platform (call
// with s.notify.mu held).
func (s *Service) takeHeld(platform string) []Reply {
	var out []Reply
	kept := s.notify.held[:0]
	for _, r := range s.notify.held {
		if p, _, _ := strings.Cut(r.Channel, ":"); p == platform {
			out = append(out, r)
		} else {
			kept = append(kept, r)
		}
	}
	s.notify.held = kept
	return out
}
