package bot

import (
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"topochess/engine"
	"topochess/render"
	"topochess/storage"
)

// Limits protect the bot from floods; zero fields take the defaults.
type Limits struct {
	// CommandsPer10s is how many commands one user may send in any 10 s.
	CommandsPer10s int
	// OpenChallenges is how many unanswered challenges a user may have.
	OpenChallenges int
	// ActiveGames is how many unfinished games a user may play at once.
	ActiveGames int
	// InputLength is the longest command text accepted, in bytes.
	InputLength int
	// ChallengeTTL is how long a challenge stays open.
	ChallengeTTL time.Duration
}

// DefaultLimits are used for zero fields of Limits.
var DefaultLimits = Limits{CommandsPer10s: 10, OpenChallenges: 5, ActiveGames: 20, InputLength: 300, ChallengeTTL: 24 * time.Hour}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.CommandsPer10s > 0 {
		d.CommandsPer10s = l.CommandsPer10s
	}
	if l.OpenChallenges > 0 {
		d.OpenChallenges = l.OpenChallenges
	}
	if l.ActiveGames > 0 {
		d.ActiveGames = l.ActiveGames
	}
	if l.InputLength > 0 {
		d.InputLength = l.InputLength
	}
	if l.ChallengeTTL > 0 {
		d.ChallengeTTL = l.ChallengeTTL
	}
	return d
}

// Painter draws a position; *render.Renderer is one.
type Painter interface {
	PNG(pos *engine.Position, opt render.Options) ([]byte, error)
}

// Explanation tells a player why a typed move is not playable as it is in
// a variant with extra rules, and what is playable instead.
type Explanation struct {
	Text string
	// Choices are the replacement moves in canonical notation; each
	// becomes a button. Labels, when set, are the buttons' words, one per
	// choice ("as a knight: g5", "reappear: a3").
	Choices []string
	Labels  []string
	// Observed and Observers are drawn on the picture (Heisenberg's S and
	// the pieces that see it); nil when there is nothing to draw. Piece
	// holds the cell of the piece whose move was refused.
	Observed  []int
	Observers []int
	Piece     []int
}

// Explainer is consulted when a move typed in a variant with observation
// fails to parse; me is the engine's refusal (nil if it gave none). ok is
// false when it has nothing to add.
type Explainer func(pos *engine.Position, input string, me *engine.MoveError) (ex Explanation, ok bool)

// Config configures a Service.
type Config struct {
	Limits Limits
	// Painter draws the pictures (default render.New()).
	Painter Painter
	// Explain explains refused moves in variants with observation
	// (Heisenberg); nil: the built-in one, which marks the observed cell
	// and the observers on a picture.
	Explain Explainer
	// Now is the clock (default time.Now); tests fix it.
	Now func() time.Time
	// Coin decides "random" colours (default: a fair coin); true means the
	// challenger plays White.
	Coin func() bool
	// Logger receives structured logs (default slog.Default()).
	Logger *slog.Logger
	// RecentEvents is how many event ids (with their replies) are kept in
	// memory to answer redeliveries identically (default 1024).
	RecentEvents int
	// Bot configures the computer opponent (/challenge bot); its workers
	// run once StartBot is called.
	Bot BotConfig
	// Review is the search budget of game reviews (/review).
	Review ReviewConfig
}

// Service is the platform-neutral bot. It is safe for concurrent use.
type Service struct {
	store   storage.Backend
	limits  Limits
	painter Painter
	explain Explainer
	now     func() time.Time
	coin    func() bool
	log     *slog.Logger

	// gameLocks serialise actions on one game; striping keeps memory
	// bounded however many games there are.
	gameLocks [256]sync.Mutex
	events    *eventLog
	rate      *rateLimiter
	cache     *gameCache
	notify    senders // where RunClock and the bot opponent post
	boxes     outboxPlatforms
	ai        *opponent
	after     afterGame // rematch, review, following games: after.go
}

// New builds a service on an open store: bbolt (*storage.Store) or
// PostgreSQL (*storage.Postgres).
func New(store storage.Backend, cfg Config) *Service {
	s := &Service{
		store:   store,
		limits:  cfg.Limits.withDefaults(),
		painter: cfg.Painter,
		explain: cfg.Explain,
		now:     cfg.Now,
		coin:    cfg.Coin,
		log:     cfg.Logger,
		ai:      newOpponent(cfg.Bot),
	}
	if s.painter == nil {
		s.painter = render.New()
	}
	if s.explain == nil {
		s.explain = explainObservation
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.coin == nil {
		s.coin = func() bool { return rand.N(2) == 0 }
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	n := cfg.RecentEvents
	if n <= 0 {
		n = 1024
	}
	s.events = newEventLog(n)
	s.rate = newRateLimiter(s.limits.CommandsPer10s, 10*time.Second)
	s.cache = newGameCache(1024)
	s.after.reviewCfg = cfg.Review.withDefaults()
	return s
}

// lockGame takes a game's lock. The returned unlock may be called more
// than once, so callers release early (before drawing) and also defer it
// (so a panic never leaves a game locked). Deferred during a panic, it
// first forgets the game's cached copy, which the panic may have left
// half-changed, so the next holder replays the stored game; the panic
// then goes on to the caller's recover.
func (s *Service) lockGame(id string) (unlock func()) {
	h := fnv.New32a()
	h.Write([]byte(id))
	m := &s.gameLocks[h.Sum32()%uint32(len(s.gameLocks))]
	m.Lock()
	held := true
	return func() {
		if !held {
			return
		}
		held = false
		if r := recover(); r != nil {
			s.cache.drop(id)
			m.Unlock()
			panic(r)
		}
		m.Unlock()
	}
}

// call is one command being handled, with what the handlers need.
type call struct {
	Command
	args map[string]string
	// pos are the positional words of the text after named args were
	// taken out.
	pos []string
}

func (c *call) arg(name string) string { return c.args[name] }

// Handle applies a command and returns the replies. See Handler.
func (s *Service) Handle(cmd Command) []Reply {
	if cmd.Time.IsZero() {
		cmd.Time = s.now()
	}
	if cmd.EventID != "" {
		prev, done := s.events.begin(cmd.EventID)
		if done {
			s.log.Info("duplicate event answered from memory", "event", cmd.EventID)
			return slices.Clone(prev)
		}
	}
	out := s.handleSafely(cmd)
	for i := range out {
		if out[i].Channel == "" {
			out[i].Channel = cmd.Channel
		}
	}
	if cmd.EventID != "" {
		s.events.finish(cmd.EventID, slices.Clone(out))
	}
	return out
}

// handleSafely turns a panic into an apology: nothing a user types may
// crash the bot, and the per-game locks are released by their callers'
// unlock paths before any state is written.
func (s *Service) handleSafely(cmd Command) (out []Reply) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("panic handling command", "command", cmd.Name, "user", cmd.User.ID, "channel", cmd.Channel, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			out = []Reply{s.failure(&call{Command: cmd}, internalErrorText)}
		}
	}()
	return s.handle(cmd)
}

func (s *Service) handle(cmd Command) (out []Reply) {
	c := &call{Command: cmd}
	if what := invalidText(cmd); what != "" {
		return []Reply{s.errorReply(c, invalidTextMessage(what))}
	}
	if n := inputLength(cmd); n > s.limits.InputLength {
		return []Reply{s.errorReply(c, fmt.Sprintf("That is too long for me (%d bytes of text; the limit is %d, and a letter outside English takes two or more).", n, s.limits.InputLength))}
	}
	if !s.rate.allow(cmd.User.ID, cmd.Time) {
		return []Reply{s.errorReply(c, fmt.Sprintf("Slow down a little: at most %d commands in 10 seconds. Try again in a moment.", s.limits.CommandsPer10s))}
	}
	c.Name = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(cmd.Name), "/"))
	if i := strings.IndexByte(c.Name, '@'); i >= 0 { // Telegram's /move@botname
		c.Name = c.Name[:i]
	}
	if alias, ok := commandAliases[c.Name]; ok {
		c.Name = alias
	}
	c.args, c.pos = splitArgs(cmd.Args, cmd.Text)
	h, ok := handlers[c.Name]
	if !ok {
		msg := fmt.Sprintf("I don't know the command /%s. Type /help to see what I can do.", c.Name)
		if c.Name == "" {
			msg = "Type a command, for example /help."
		}
		return []Reply{s.errorReply(c, msg)}
	}
	if cmd.EventID != "" && mutating[c.Name] {
		// A redelivery after a restart: the event was applied before the
		// replies could be remembered in memory.
		if seen, err := s.store.SeenEvent(cmd.EventID); err == nil && seen {
			return []Reply{{Text: "Already done.", Private: true}}
		}
	}
	start := time.Now()
	out = h(s, c)
	s.log.Debug("command", "command", c.Name, "user", cmd.User.ID, "channel", cmd.Channel, "replies", len(out), "took", time.Since(start))
	return out
}

func inputLength(cmd Command) int {
	n := len(cmd.Name) + len(cmd.Text)
	for k, v := range cmd.Args {
		n += len(k) + len(v) + 1
	}
	return n
}

type handlerFunc func(s *Service, c *call) []Reply

var handlers map[string]handlerFunc

// mutating commands may write; their event ids are persisted with the write.
var mutating = map[string]bool{"challenge": true, "accept": true, "decline": true, "cancel": true, "move": true, "resign": true, "draw": true, "settings": true, "takeback": true, "rematch": true, "puzzle": true, "watch": true, "review": true}

var commandAliases = map[string]string{
	"m": "move", "play": "move", "show": "board", "b": "board", "variant": "variants",
	"start": "help", "commands": "help", "game": "games", "setting": "settings", "withdraw": "cancel",
	"offerdraw": "draw", "legal": "moves",
	"undo": "takeback", "ratings": "leaderboard", "top": "leaderboard", "rating": "stats", "finished": "history", "gif": "replay",
}

func init() {
	handlers = map[string]handlerFunc{
		"challenge": (*Service).cmdChallenge,
		"accept":    (*Service).cmdAccept,
		"decline":   (*Service).cmdDecline,
		"cancel":    (*Service).cmdCancel,
		"move":      (*Service).cmdMove,
		"board":     (*Service).cmdBoard,
		"moves":     (*Service).cmdMoves,
		"resign":    (*Service).cmdResign,
		"draw":      (*Service).cmdDraw,
		"games":     (*Service).cmdGames,
		"variants":  (*Service).cmdVariants,
		"rules":     (*Service).cmdRules,
		"help":      (*Service).cmdHelp,
		"settings":  (*Service).cmdSettings,
		// Long games: records.go.
		"takeback":    (*Service).cmdTakeback,
		"pgn":         (*Service).cmdPGN,
		"replay":      (*Service).cmdReplay,
		"history":     (*Service).cmdHistory,
		"leaderboard": (*Service).cmdLeaderboard,
		"stats":       (*Service).cmdStats,
		// After a game: rematch.go, review.go, follow.go.
		"rematch": (*Service).cmdRematch,
		"watch":   (*Service).cmdWatch,
		"review":  (*Service).cmdReview,
		"puzzle":  (*Service).cmdPuzzle,
	}
}

func (s *Service) errorReply(c *call, text string) Reply {
	return Reply{Channel: c.Channel, Text: text, Private: true, Error: true}
}

func (s *Service) fail(c *call, format string, a ...any) []Reply {
	return []Reply{s.errorReply(c, fmt.Sprintf(format, a...))}
}

// internal reports a storage or rendering failure without details the
// user can't act on; the details go to the log.
func (s *Service) internal(c *call, err error) []Reply {
	if errors.Is(err, storage.ErrDuplicate) {
		return []Reply{{Channel: c.Channel, Text: "Already done.", Private: true}}
	}
	// Only another process sharing the database gets here (one process
	// serialises a game's commands under its lock): its write won.
	if errors.Is(err, storage.ErrConflict) {
		return []Reply{s.errorReply(c, "Someone else moved first: the game changed a moment before your command, which was not applied. Look at the board and try again.")}
	}
	var re *storage.RecordError
	if errors.As(err, &re) {
		s.log.Error("damaged record", "command", c.Name, "user", c.User.ID, "channel", c.Channel, "err", err)
		return []Reply{s.failure(c, fmt.Sprintf("%s %s is damaged in the database: I cannot show or play it. Other games are not affected; the operator can find out more with topochess check.",
			capitalize(re.Kind), re.ID))}
	}
	s.log.Error("command failed", "command", c.Name, "user", c.User.ID, "channel", c.Channel, "err", err)
	return []Reply{s.failure(c, internalErrorText)}
}

// internalErrorText is the apology for a failure on the bot's side.
const internalErrorText = "Sorry, something went wrong on my side; nothing was changed. Please try again."

// failure is an error reply for a failure on the bot's side.
func (s *Service) failure(c *call, text string) Reply {
	r := s.errorReply(c, text)
	r.Failed = true
	return r
}

// eventLog remembers recent event ids and their replies, and makes a
// second delivery of an event that is still being handled wait for the
// first. It is bounded: the oldest entries are forgotten first (the
// persisted event ids in storage still stop a double write after that).
type eventLog struct {
	mu      sync.Mutex
	max     int
	order   []string
	entries map[string]*eventEntry
}

type eventEntry struct {
	done    chan struct{}
	replies []Reply
	evicted bool // forgotten while still running: drop on finish
}

func newEventLog(max int) *eventLog {
	return &eventLog{max: max, entries: map[string]*eventEntry{}}
}

// begin returns (replies, true) when the event was handled before (after
// waiting for it to finish); otherwise the caller handles it and must
// call finish.
func (l *eventLog) begin(id string) ([]Reply, bool) {
	l.mu.Lock()
	e, ok := l.entries[id]
	if !ok {
		l.entries[id] = &eventEntry{done: make(chan struct{})}
		l.order = append(l.order, id)
		if len(l.order) > l.max {
			old := l.order[0]
			l.order = l.order[1:]
			if oe := l.entries[old]; oe != nil {
				select {
				case <-oe.done:
					delete(l.entries, old)
				default:
					oe.evicted = true
				}
			}
		}
		l.mu.Unlock()
		return nil, false
	}
	l.mu.Unlock()
	<-e.done
	return e.replies, true
}

func (l *eventLog) finish(id string, replies []Reply) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.entries[id]
	if e == nil {
		return
	}
	e.replies = replies
	close(e.done)
	if e.evicted {
		delete(l.entries, id)
	}
}

// rateLimiter allows n events per window per user (a sliding log).
type rateLimiter struct {
	mu     sync.Mutex
	n      int
	window time.Duration
	seen   map[string][]time.Time
	sweep  time.Time
}

func newRateLimiter(n int, window time.Duration) *rateLimiter {
	return &rateLimiter{n: n, window: window, seen: map[string][]time.Time{}}
}

func (r *rateLimiter) allow(user string, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if now.Sub(r.sweep) > time.Minute { // forget idle users so memory stays bounded
		for u, ts := range r.seen {
			if len(ts) == 0 || now.Sub(ts[len(ts)-1]) > r.window {
				delete(r.seen, u)
			}
		}
		r.sweep = now
	}
	ts := r.seen[user]
	i := 0
	for i < len(ts) && now.Sub(ts[i]) >= r.window {
		i++
	}
	ts = ts[i:]
	if len(ts) >= r.n {
		r.seen[user] = ts
		return false
	}
	r.seen[user] = append(ts, now)
	return true
}

// EventMemory is how long applied event ids are kept in storage;
// platforms redeliver within minutes.
const EventMemory = 24 * time.Hour

// Maintain forgets old event ids and expired challenges. Call it now and
// then (serve does hourly); nothing depends on it for correctness.
func (s *Service) Maintain() {
	now := s.now()
	if n, err := s.store.PruneEvents(now.Add(-EventMemory)); err != nil {
		s.log.Error("prune events", "err", err)
	} else if n > 0 {
		s.log.Info("pruned event ids", "count", n)
	}
	s.pruneMessages(now)
	// Challenge expiry is a job too (RunClock), claimed by one process.
	s.expireChallenges(now)
}
