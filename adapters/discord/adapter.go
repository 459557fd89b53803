package discord

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	dg "github.com/bwmarrin/discordgo"

	"topochess/adapters/internal/endpoint"
	"topochess/adapters/internal/redact"
	"topochess/bot"
)

// Adapter serves one Discord application.
type Adapter struct {
	cfg Config
	h   bot.Handler
	// log filters every line through secrets, which knows the token;
	// errors leaving Run pass through it too.
	log      *slog.Logger
	secrets  *redact.Filter
	s        *dg.Session
	pub      ed25519.PublicKey
	overflow *overflow
	sent     *sentIndex

	// inflight counts interactions being answered, so Run returns only
	// when their follow-ups are sent.
	inflight sync.WaitGroup

	ready    chan struct{}
	httpAddr net.Addr
}

// New prepares an adapter; nothing is sent before Run.
func New(cfg Config, h bot.Handler, log *slog.Logger) (*Adapter, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	secrets := redact.New(secretsOf(cfg.Token)...)
	log = secrets.Logger(log)
	if cfg.DeferAfter <= 0 {
		cfg.DeferAfter = defaultDeferAfter
	}
	s, err := dg.New(cfg.botToken())
	if err != nil {
		return nil, fmt.Errorf("discord: %w", err)
	}
	s.Client = cfg.httpClient()
	s.StateEnabled = false
	// Interactions arrive whatever the intents; asking for none keeps the
	// gateway quiet and needs no privileged intent.
	s.Identify.Intents = dg.IntentsNone
	// discordgo puts the shard into its Identify when there are several.
	s.ShardID, s.ShardCount = cfg.ShardID, max(cfg.ShardCount, 1)
	// 429s come back to call, which waits only while the deadline allows.
	// (discordgo still sleeps before a request whose bucket it knows to be
	// exhausted; interaction callbacks each have their own bucket, so only
	// a global limit could delay one.)
	s.ShouldRetryOnRateLimit = false
	s.LogLevel = dg.LogInformational
	installLogger(log, cfg.Token)

	a := &Adapter{
		cfg: cfg, h: h, log: log, secrets: secrets, s: s,
		overflow: newOverflow(4096),
		sent:     newSentIndex(4096),
		ready:    make(chan struct{}),
	}
	if mem, ok := h.(MessageMemory); ok {
		a.overflow.mem, a.sent.mem = mem, mem
	}
	if cfg.InteractionsListen != "" {
		a.pub, _ = publicKey(cfg.PublicKey)
	}
	s.AddHandler(func(_ *dg.Session, ic *dg.InteractionCreate) {
		a.inflight.Add(1)
		defer a.inflight.Done()
		if rest := a.onInteraction(ic.Interaction, a.restResponder(ic.Interaction)); rest != nil {
			rest()
		}
	})
	s.AddHandler(func(_ *dg.Session, r *dg.Ready) {
		a.log.Info("discord gateway ready", "user", r.User.Username, "guilds", len(r.Guilds))
	})
	s.AddHandler(func(_ *dg.Session, _ *dg.Resumed) { a.log.Info("discord gateway resumed") })
	s.AddHandler(func(_ *dg.Session, _ *dg.Disconnect) { a.log.Info("discord gateway disconnected; reconnecting") })
	return a, nil
}

// Ready is closed once the adapter takes interactions: over the gateway
// after the commands are registered and the gateway is open; over HTTP
// as soon as the endpoint listens.
func (a *Adapter) Ready() <-chan struct{} { return a.ready }

// InteractionsAddr is where the HTTP interactions endpoint listens (nil
// when it does not); valid after Ready.
func (a *Adapter) InteractionsAddr() net.Addr { return a.httpAddr }

// Run registers the commands, connects and serves until ctx ends: over
// the HTTP interactions endpoint when one is configured, over the
// gateway otherwise.
func (a *Adapter) Run(ctx context.Context) error {
	if a.cfg.InteractionsListen != "" {
		return a.secrets.Error(a.runEndpoint(ctx))
	}
	return a.secrets.Error(a.runGateway(ctx))
}

func (a *Adapter) runGateway(ctx context.Context) error {
	// The commands are the application's, not a shard's: one shard
	// registers them for all.
	if a.cfg.ShardID == 0 {
		if err := a.retry(ctx, "register commands", a.register); err != nil {
			return err
		}
	}
	if err := a.retry(ctx, "open gateway", func(context.Context) error { return a.s.Open() }); err != nil {
		return err
	}
	a.resend()
	close(a.ready)
	<-ctx.Done()
	// discordgo's heartbeat goroutine may fail on the closed socket
	// after Close and reconnect on its own; forbid that first (under
	// the session lock, as discordgo reads it after taking the lock).
	a.s.Lock()
	a.s.ShouldReconnectOnError = false
	a.s.Unlock()
	_ = a.s.Close()
	a.inflight.Wait()
	return nil
}

// runEndpoint serves the HTTP interactions endpoint, a stateless front
// end: no gateway, every answer and follow-up over REST with the
// interaction's token. It listens at once, so Discord's checks of the
// endpoint URL succeed while the commands are still being registered
// (in the background, retried until Discord takes them).
func (a *Adapter) runEndpoint(ctx context.Context) error {
	ln, err := endpoint.Listen(a.cfg.InteractionsListen, a.cfg.limits)
	if err != nil {
		return fmt.Errorf("discord: interactions endpoint: %w", err)
	}
	a.httpAddr = ln.Addr()
	srv := endpoint.Server(a, a.log, a.cfg.limits)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	a.log.Info("discord interactions endpoint listening", "addr", a.httpAddr.String())
	close(a.ready)

	regCtx, stopRegistering := context.WithCancel(ctx)
	defer stopRegistering()
	registered := make(chan error, 1)
	go func() { registered <- a.retry(regCtx, "register commands", a.register) }()

	var failed error
	for failed == nil && ctx.Err() == nil {
		select {
		case <-ctx.Done():
		case err := <-registered:
			// Only a refused token ends the retries; it would refuse every
			// picture and message too.
			if err != nil && ctx.Err() == nil {
				failed = err
			}
			registered = nil
		case err := <-served:
			if !errors.Is(err, http.ErrServerClosed) {
				failed = fmt.Errorf("discord: interactions endpoint stopped: %w", err)
			}
		}
	}
	stopRegistering()
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	_ = srv.Shutdown(shut)
	cancel()
	a.inflight.Wait()
	return failed
}

// retry runs a start-up step until it works: Discord being briefly away
// should not stop the bot, a refused token should.
func (a *Adapter) retry(ctx context.Context, what string, f func(context.Context) error) error {
	wait := time.Second
	for {
		err := f(ctx)
		if err == nil {
			return nil
		}
		if isUnauthorized(err) {
			return errUnauthorized
		}
		a.log.Error("discord: "+what+" failed; retrying", "err", err, "in", wait)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(wait*2, time.Minute)
	}
}

// register overwrites the application's commands with ours, in each
// configured guild or globally.
func (a *Adapter) register(ctx context.Context) error {
	guilds := a.cfg.GuildIDs
	if len(guilds) == 0 {
		guilds = []string{""}
	}
	for _, g := range guilds {
		url := dg.EndpointApplicationGlobalCommands(a.cfg.AppID)
		if g != "" {
			url = dg.EndpointApplicationGuildCommands(a.cfg.AppID, g)
		}
		if _, err := a.call(ctx, "register commands", http.MethodPut, url, slashCommands(), nil); err != nil {
			return err
		}
		a.log.Info("discord commands registered", "guild", g, "count", len(slashCommands()))
	}
	return nil
}
