package telegram

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"topochess/bot"
)

const platform = "telegram"

// Mover is the part of the bot that tap-to-move and plain-text moves need
// beyond Handle; *bot.Service has it (bot/tap.go). A handler without it
// still gets commands and buttons.
type Mover interface {
	// PlainMove decides whether a message without a command is a move by
	// the player to move; ok is false for chatter, which is ignored
	// silently. The returned command is handled like a typed /move.
	PlainMove(cmd bot.Command) (move bot.Command, ok bool)
	// Tap is one step of tap-to-move (ply -1: the current position). A
	// non-nil reply refuses the step (not your turn, out of date, …).
	Tap(cmd bot.Command, game string, ply int, path []string) (bot.TapMenu, *bot.Reply)
	// GameActive reports whether a game can still be moved in, so only
	// the pictures of running games get a Move button.
	GameActive(game string) bool
}

// Adapter runs one Telegram bot.
type Adapter struct {
	cfg   Config
	h     bot.Handler
	mover Mover
	log   *slog.Logger

	api  *tgbotapi.BotAPI
	out  *sender
	http *ctxClient

	users   *userCache
	keys    *keyStore
	buttons *buttonStore
	seen    *idSet

	// workers handle updates, one chat always on the same worker so its
	// updates are handled in order.
	workers []chan tgbotapi.Update
	busy    sync.WaitGroup

	// Test hooks: the clock and the sleep of the sender and the poller,
	// and the length of one second of retry_after.
	now       func() time.Time
	sleep     func(ctx context.Context, d time.Duration) error
	retryUnit time.Duration

	listening chan string // the webhook server's address, once listening
}

// New checks the configuration; nothing is contacted before Run.
func New(cfg Config, h bot.Handler) (*Adapter, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	silenceLibrary(cfg.Logger)
	a := &Adapter{
		cfg: cfg, h: h, log: cfg.Logger,
		users:     newUserCache(10000),
		keys:      newKeyStore(20000),
		buttons:   newButtonStore(10000),
		seen:      newIDSet(4096),
		now:       time.Now,
		sleep:     sleepCtx,
		retryUnit: time.Second,
		listening: make(chan string, 1),
	}
	a.mover, _ = h.(Mover)
	return a, nil
}

// tokenPattern matches bot tokens ("123456:AA…") wherever they appear.
var tokenPattern = regexp.MustCompile(`\d{5,}:[A-Za-z0-9_-]{20,}`)

func redact(s string) string { return tokenPattern.ReplaceAllString(s, "[token]") }

var libraryLog sync.Once

// silenceLibrary replaces the library's logger, whose network errors
// print the request URL with the token, by one that writes redacted lines
// at debug level.
func silenceLibrary(l *slog.Logger) {
	libraryLog.Do(func() { _ = tgbotapi.SetLogger(libLogger{l}) })
}

type libLogger struct{ l *slog.Logger }

func (g libLogger) Println(v ...any) {
	g.l.Debug("telegram library", "msg", redact(strings.TrimSpace(fmt.Sprintln(v...))))
}
func (g libLogger) Printf(f string, v ...any) {
	g.l.Debug("telegram library", "msg", redact(fmt.Sprintf(f, v...)))
}

// ctxClient gives the library's requests a context (its calls take none):
// long polls stop with Run's context, sends with the sender's, so
// messages still go out while the adapter shuts down. Errors lose the
// request URL, which holds the token.
type ctxClient struct {
	c              *http.Client
	poll, sendCtxt context.Context
}

func (c *ctxClient) Do(req *http.Request) (*http.Response, error) {
	ctx := c.sendCtxt
	if strings.HasSuffix(req.URL.Path, "/getUpdates") {
		ctx = c.poll
	}
	resp, err := c.c.Do(req.WithContext(ctx))
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			return nil, fmt.Errorf("%s %s: %w", ue.Op, methodOf(req.URL.Path), ue.Err)
		}
		return nil, errors.New(redact(err.Error()))
	}
	return resp, nil
}

func methodOf(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[i+1:]
	}
	return "request"
}

// Run connects, registers the commands and serves updates (long polling,
// or the webhook when one is configured) until ctx ends. Replies still
// queued then get a few seconds to go out.
func (a *Adapter) Run(ctx context.Context) error {
	sendCtx, cancelSend := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelSend()
	a.http = &ctxClient{c: &http.Client{Timeout: a.cfg.PollTimeout + 30*time.Second}, poll: ctx, sendCtxt: sendCtx}
	a.out = newSender(sendCtx, a.cfg.Limits, a.log)
	a.out.now, a.out.sleep, a.out.retryUnit = a.now, a.sleep, a.retryUnit
	if err := a.connect(ctx); err != nil {
		if ctx.Err() != nil {
			return nil // stopped before Telegram could be reached
		}
		return err
	}
	a.log.Info("telegram: connected", "bot", "@"+a.api.Self.UserName)
	if err := a.registerCommands(); err != nil {
		a.log.Warn("telegram: could not register the command list (commands still work)", "err", err)
	}
	a.workers = make([]chan tgbotapi.Update, 4)
	var wg sync.WaitGroup
	for i := range a.workers {
		a.workers[i] = make(chan tgbotapi.Update, 64)
		wg.Add(1)
		go func(ch chan tgbotapi.Update) {
			defer wg.Done()
			for u := range ch {
				a.handleUpdate(u)
				a.busy.Done()
			}
		}(a.workers[i])
	}
	var err error
	if a.cfg.WebhookURL != "" {
		err = a.serveWebhook(ctx)
	} else {
		err = a.poll(ctx)
	}
	for _, ch := range a.workers {
		close(ch)
	}
	wg.Wait()
	if !a.out.drain(5 * time.Second) {
		a.log.Warn("telegram: some replies were not sent before shutdown")
	}
	return err
}

// connect calls getMe until it works; a refused token stops at once.
func (a *Adapter) connect(ctx context.Context) error {
	wait := a.cfg.Backoff
	for {
		api, err := tgbotapi.NewBotAPIWithClient(a.cfg.Token, a.cfg.APIEndpoint, a.http)
		if err == nil {
			a.api = api
			return nil
		}
		if e, ok := apiError(err); ok && (e.Code == http.StatusUnauthorized || e.Code == http.StatusNotFound) {
			return fmt.Errorf("telegram: the token was refused (%s); check telegram.token", e.Message)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		a.log.Warn("telegram: cannot reach the Bot API, retrying", "err", redact(err.Error()), "wait", wait)
		if err := a.sleep(ctx, wait); err != nil {
			return err
		}
		wait = min(2*wait, a.cfg.MaxBackoff)
	}
}

// commands is what setMyCommands registers: the list Telegram clients
// offer after "/".
var commands = []tgbotapi.BotCommand{
	{Command: "challenge", Description: "Challenge someone (reply to them or name @them) or anyone here"},
	{Command: "accept", Description: "Accept a challenge or a draw offer"},
	{Command: "decline", Description: "Decline a challenge or a draw offer"},
	{Command: "cancel", Description: "Withdraw your challenge"},
	{Command: "move", Description: "Play a move: /move e2e4, /move Nf3, /move O-O"},
	{Command: "board", Description: "Show the board of a game"},
	{Command: "moves", Description: "Where can a piece go? /moves g1"},
	{Command: "resign", Description: "Resign your game"},
	{Command: "draw", Description: "Offer a draw, or answer one: /draw accept"},
	{Command: "games", Description: "Your games and the open challenges here"},
	{Command: "variants", Description: "The boards you can play on"},
	{Command: "rules", Description: "The rules of a variant: /rules moebius"},
	{Command: "help", Description: "How to play with me"},
	{Command: "settings", Description: "Your settings: /settings orientation:black"},
	{Command: "takeback", Description: "Ask to take back the last move"},
	{Command: "pgn", Description: "The game as PGN"},
	{Command: "replay", Description: "The whole game as an animation"},
	{Command: "history", Description: "Finished games here: /history @someone"},
	{Command: "leaderboard", Description: "Ratings: /leaderboard moebius"},
	{Command: "stats", Description: "Someone's ratings and results: /stats @someone"},
	{Command: "rematch", Description: "The same game again, colours swapped"},
	{Command: "review", Description: "The engine's review of a finished game"},
	{Command: "watch", Description: "Follow a game here as it is played: /watch #12"},
	{Command: "puzzle", Description: "A puzzle: /puzzle cube; answer with /puzzle <move>"},
}

func (a *Adapter) registerCommands() error {
	_, err := a.api.Request(tgbotapi.NewSetMyCommands(commands...))
	return err
}

// allowedUpdates are the only kinds of update the bot asks for.
var allowedUpdates = []string{"message", "callback_query"}

// poll runs the long-poll loop. Failed polls back off (retry_after when
// Telegram gives one) and the loop recovers by itself.
func (a *Adapter) poll(ctx context.Context) error {
	// A webhook left from an earlier run makes getUpdates fail (409).
	if _, err := a.api.Request(tgbotapi.DeleteWebhookConfig{}); err != nil && ctx.Err() == nil {
		a.log.Warn("telegram: deleteWebhook failed", "err", err)
	}
	cfg := tgbotapi.UpdateConfig{Timeout: int(a.cfg.PollTimeout / time.Second), AllowedUpdates: allowedUpdates}
	if cfg.Timeout < 1 {
		cfg.Timeout = 1
	}
	wait := a.cfg.Backoff
	for ctx.Err() == nil {
		updates, err := a.api.GetUpdates(cfg)
		if ctx.Err() != nil {
			break
		}
		if err != nil {
			d := wait
			if e, ok := apiError(err); ok && e.RetryAfter > 0 {
				d = time.Duration(e.RetryAfter) * a.retryUnit
			}
			a.log.Warn("telegram: getUpdates failed, retrying", "err", redact(err.Error()), "wait", d)
			if a.sleep(ctx, d) != nil {
				break
			}
			wait = min(2*wait, a.cfg.MaxBackoff)
			continue
		}
		wait = a.cfg.Backoff
		for _, u := range updates {
			if u.UpdateID >= cfg.Offset {
				cfg.Offset = u.UpdateID + 1
			}
			a.dispatch(u)
		}
	}
	a.busy.Wait()
	return nil
}

// dispatch hands an update to its chat's worker; an update id seen before
// is dropped, so a redelivered update is applied once.
func (a *Adapter) dispatch(u tgbotapi.Update) {
	if !a.seen.add(u.UpdateID) {
		a.log.Debug("telegram: duplicate update dropped", "update", u.UpdateID)
		return
	}
	var chat int64
	if c := u.FromChat(); c != nil {
		chat = c.ID
	}
	h := fnv.New32a()
	h.Write([]byte(strconv.FormatInt(chat, 10)))
	a.busy.Add(1)
	a.workers[h.Sum32()%uint32(len(a.workers))] <- u
}

func (a *Adapter) handleUpdate(u tgbotapi.Update) {
	defer func() {
		if r := recover(); r != nil {
			a.log.Error("telegram: panic handling an update", "update", u.UpdateID, "panic", fmt.Sprint(r))
		}
	}()
	switch {
	case u.Message != nil:
		a.onMessage(u.UpdateID, u.Message)
	case u.CallbackQuery != nil:
		a.onCallback(u.UpdateID, u.CallbackQuery)
	}
}

// idSet remembers the last n update ids.
type idSet struct {
	mu    sync.Mutex
	ids   map[int]bool
	order []int
	max   int
}

func newIDSet(max int) *idSet { return &idSet{ids: map[int]bool{}, max: max} }

// add reports whether id is new.
func (s *idSet) add(id int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ids[id] {
		return false
	}
	s.ids[id] = true
	s.order = append(s.order, id)
	if len(s.order) > s.max {
		delete(s.ids, s.order[0])
		s.order = s.order[1:]
	}
	return true
}
