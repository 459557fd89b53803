package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"topochess/adapters/internal/redact"
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
	// log filters every line through secrets, which knows the token and
	// the webhook secret; errors leaving Run pass through it too.
	log     *slog.Logger
	secrets *redact.Filter

	api  *tgbotapi.BotAPI
	out  *sender
	http *ctxClient

	users   *userCache
	keys    *keyStore
	buttons *buttonStore
	seen    *idSet
	shown   *shownStore
	box     Outbox // nil: replies are not kept across restarts

	// workers handle updates, one chat always on the same worker so its
	// updates are handled in order.
	workers []chan tgbotapi.Update
	busy    sync.WaitGroup
	link    link // for Connected

	// Test hooks: the clock and the sleep of the sender and the poller,
	// and the length of one second of retry_after.
	now       func() time.Time
	sleep     func(ctx context.Context, d time.Duration) error
	retryUnit time.Duration
	// grace is how long a stop lets the queues drain before handing the
	// rest to the outbox.
	grace time.Duration

	listening chan string // the webhook server's address, once listening
}

// New checks the configuration; nothing is contacted before Run.
func New(cfg Config, h bot.Handler) (*Adapter, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	secrets := redact.New(cfg.Token, cfg.WebhookSecret)
	a := &Adapter{
		cfg: cfg, h: h, log: secrets.Logger(cfg.Logger), secrets: secrets,
		users:     newUserCache(10000),
		keys:      newKeyStore(20000),
		buttons:   newButtonStore(10000),
		seen:      newIDSet(4096),
		shown:     newShownStore(20000),
		grace:     2 * time.Second,
		now:       time.Now,
		sleep:     sleepCtx,
		retryUnit: time.Second,
		listening: make(chan string, 1),
	}
	a.mover, _ = h.(Mover)
	a.box, _ = h.(Outbox)
	a.keys.mem, _ = h.(MessageMemory)
	a.buttons.mem = a.keys.mem
	silenceLibrary(a.log, cfg.Token)
	// The queue exists from the start, so replies the bot posts before
	// Run has connected (Send) wait in it.
	a.out = newSender(cfg.Limits, a.log)
	a.out.metrics = cfg.Metrics
	a.out.done = a.delivered
	return a, nil
}

// The library logs through one package-wide logger, and its network
// errors print the request URL with the token. It is pointed at the
// newest adapter's (filtered) logger, at debug level, and cuts out every
// token any adapter was given.
var library struct {
	sync.Mutex
	once    sync.Once
	log     *slog.Logger
	secrets *redact.Filter
}

func silenceLibrary(l *slog.Logger, token string) {
	library.Lock()
	defer library.Unlock()
	if library.secrets == nil {
		library.secrets = redact.New()
	}
	library.secrets.Add(token)
	library.log = l
	library.once.Do(func() { _ = tgbotapi.SetLogger(libLogger{}) })
}

type libLogger struct{}

func (libLogger) write(msg string) {
	library.Lock()
	l, f := library.log, library.secrets
	library.Unlock()
	l.Debug("telegram library", "msg", f.String(strings.TrimSpace(msg)))
}

func (g libLogger) Println(v ...any)          { g.write(fmt.Sprintln(v...)) }
func (g libLogger) Printf(f string, v ...any) { g.write(fmt.Sprintf(f, v...)) }

// ctxClient gives the library's requests a context (its calls take none):
// long polls stop with Run's context, sends with the sender's, so
// messages still go out while the adapter shuts down. Errors lose the
// request URL, which holds the token.
type ctxClient struct {
	c              *http.Client
	poll, sendCtxt context.Context
	secrets        *redact.Filter
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
			err = ue.Err
		} else {
			err = errors.New(c.secrets.String(err.Error()))
		}
		// The URL (holding the token) is left out; what remains keeps
		// its chain for telling a timeout from a cancellation.
		return nil, &transientError{method: methodOf(req.URL.Path), err: err}
	}
	if resp.StatusCode >= 500 {
		// Telegram (or a proxy in front of it) is in trouble: the call
		// did not happen and may be tried again. The library cannot tell:
		// it loses the status of uploads and fails to decode the HTML
		// pages of outages.
		return nil, c.serverError(req, resp)
	}
	return resp, nil
}

// transientError is a call that got no usable answer from the Bot API:
// the connection failed or dropped, it timed out, or Telegram (or a
// front end) answered with a 5xx. Such a call is worth trying again.
type transientError struct {
	method string
	status int    // the HTTP status of a 5xx; 0: no answer at all
	text   string // what the 5xx said, redacted
	err    error
}

func (e *transientError) Error() string {
	if e.status != 0 {
		return fmt.Sprintf("%s: Bot API answered %d: %s", e.method, e.status, e.text)
	}
	return fmt.Sprintf("%s: %v", e.method, e.err)
}

func (e *transientError) Unwrap() error { return e.err }

func (c *ctxClient) serverError(req *http.Request, resp *http.Response) error {
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	var body struct {
		Description string `json:"description"`
	}
	text := strings.TrimSpace(string(b))
	if json.Unmarshal(b, &body) == nil && body.Description != "" {
		text = body.Description
	}
	if len(text) > 200 {
		text = strings.ToValidUTF8(text[:200], "") + "…"
	}
	return &transientError{method: methodOf(req.URL.Path), status: resp.StatusCode, text: c.secrets.String(text)}
}

func methodOf(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[i+1:]
	}
	return "request"
}

// Run connects, registers the commands and serves updates (long polling,
// or the webhook when one is configured) until ctx ends. Replies left
// by the last run are sent first; replies still queued at the end get a
// moment (grace) to go out, and the rest is handed to the outbox.
func (a *Adapter) Run(ctx context.Context) error {
	a.out.mu.Lock()
	a.out.now, a.out.retryUnit = a.now, a.retryUnit
	a.out.mu.Unlock()
	defer a.handOver()
	a.http = &ctxClient{c: &http.Client{Timeout: a.cfg.PollTimeout + 30*time.Second}, poll: ctx, sendCtxt: a.out.ctx, secrets: a.secrets}
	if err := a.connect(ctx); err != nil {
		if ctx.Err() != nil {
			return nil // stopped before Telegram could be reached
		}
		return a.secrets.Error(err)
	}
	a.log.Info("telegram: connected", "bot", "@"+a.api.Self.UserName)
	a.link.set(true, nil)
	if err := a.registerCommands(); err != nil {
		a.log.Warn("telegram: could not register the command list (commands still work)", "err", err)
	}
	if a.box != nil {
		// Replies left by the last run go first, before anything new.
		left := a.box.Undelivered(platform)
		if len(left) > 0 {
			a.log.Info("telegram: sending replies left from the last run", "count", len(left))
		}
		for _, r := range left {
			a.Send(r)
		}
	}
	a.out.start()
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
	return a.secrets.Error(err)
}

// handOver stops sending, after a grace period for the queues to drain,
// and hands the replies not yet sent to the outbox for the next start.
func (a *Adapter) handOver() {
	left := a.out.stop(a.grace)
	if len(left) == 0 {
		return
	}
	if a.box != nil {
		a.box.Keep(platform, left)
		a.log.Info("telegram: replies not yet sent are kept for the next start", "count", len(left))
	} else {
		a.log.Warn("telegram: some replies were not sent before shutdown", "count", len(left))
	}
}

// delivered tells the outbox that a reply it holds went out or was
// refused.
func (a *Adapter) delivered(r *bot.Reply, err error) {
	if a.box != nil && r.Outbox != "" {
		a.box.Delivered(*r, err)
	}
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
		a.log.Warn("telegram: cannot reach the Bot API, retrying", "err", err, "wait", wait)
		if err := a.sleep(ctx, wait); err != nil {
			return err
		}
		wait = min(2*wait, a.cfg.MaxBackoff)
	}
}

// commands is what setMyCommands registers, made from the bot's command
// table: the list Telegram clients offer after "/".
var commands = func() []tgbotapi.BotCommand {
	out := make([]tgbotapi.BotCommand, 0, len(bot.Commands))
	for _, c := range bot.Commands {
		out = append(out, tgbotapi.BotCommand{Command: c.Name, Description: c.Description})
	}
	return out
}()

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
		a.link.set(true, err)
		if err != nil {
			countFailure(a.cfg.Metrics, err)
			d := wait
			if e, ok := apiError(err); ok && e.RetryAfter > 0 {
				d = time.Duration(e.RetryAfter) * a.retryUnit
			}
			a.log.Warn("telegram: getUpdates failed, retrying", "err", err, "wait", d)
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
