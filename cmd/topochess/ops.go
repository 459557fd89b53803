package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"topochess/bot"
	"topochess/bot/metrics"
	"topochess/storage"
)

// The operations side of serve (docs/operations.md): the ops listener
// with /healthz, /readyz and /metrics, the counting of commands, and the
// drain of commands in progress when serve stops.

// drainTimeout bounds how long a stop waits for the platforms to stop
// reading and for the commands in progress to be answered; then the
// storage closes anyway (tests shorten it).
var drainTimeout = 10 * time.Second

// beforeHandle, when set, runs inside every counted command before the
// bot handles it (tests hold a command in progress with it).
var beforeHandle func(bot.Command)

// checkOps refuses an ops.listen that is not an address.
func (c *Config) checkOps() error {
	if c.Ops.Listen == "" {
		return nil
	}
	if _, err := opsAddress(c.Ops.Listen); err != nil {
		return err
	}
	return nil
}

// opsAddress is where the ops listener listens: a bare port means
// loopback, so turning the listener on exposes nothing by accident.
func opsAddress(listen string) (string, error) {
	if !strings.Contains(listen, ":") {
		listen = ":" + listen
	}
	host, port, err := net.SplitHostPort(listen)
	if n, perr := strconv.Atoi(port); err != nil || perr != nil || n < 0 || n > 65535 {
		return "", fmt.Errorf("config: ops.listen must be an address like 127.0.0.1:9090 or a port, not %q", listen)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

// connector is an adapter that can tell whether it is connected to its
// platform (or listening, for the web chat).
type connector interface{ Connected() error }

type opsKey struct{}

// ops is one serve's operations state.
type ops struct {
	m     *metrics.Metrics
	svc   *bot.Service
	store storage.Backend
	ctx   context.Context // cancelled when serve stops

	mu       sync.Mutex
	adapters map[string]connector // nil until the platform built its adapter
	draining bool
	inflight sync.WaitGroup
}

func newOps(svc *bot.Service, store storage.Backend, platforms []platform) *ops {
	o := &ops{m: metrics.New(), svc: svc, store: store, adapters: map[string]connector{}}
	for _, p := range platforms {
		o.adapters[p.name] = nil
	}
	gauge := func(name, help string, count func() (int, error)) {
		o.m.GaugeFunc(name, help, func() float64 {
			n, err := count()
			if err != nil {
				return -1 // the database is unreachable; /readyz says why
			}
			return float64(n)
		})
	}
	gauge("topochess_active_games", "Unfinished games.", store.ActiveGameCount)
	gauge("topochess_outbox_undelivered", "Replies kept in the outbox until their platform has them.", store.OutboxCount)
	o.m.GaugeFunc("topochess_bot_queue_depth", "Computer moves waiting for a worker.", func() float64 {
		n, _ := svc.BotQueue()
		return float64(n)
	})
	o.m.GaugeFunc("topochess_bot_queue_lag_seconds", "How long the oldest computer move in the queue has waited.", func() float64 {
		_, lag := svc.BotQueue()
		return lag.Seconds()
	})
	// The jobs shared by every process on the database (bot/jobs.go).
	o.m.JobQueues(func() ([]metrics.Queue, error) {
		st, err := svc.JobQueues()
		qs := make([]metrics.Queue, 0, len(st))
		for _, s := range st {
			qs = append(qs, metrics.Queue{Kind: s.Kind, Depth: s.Due, Lag: s.Lag})
		}
		return qs, err
	})
	return o
}

// opsOf is serve's operations state, for a platform to register its
// adapter and find its metrics; nil outside serve.
func opsOf(ctx context.Context) *ops {
	o, _ := ctx.Value(opsKey{}).(*ops)
	return o
}

// connected registers a platform's adapter for /readyz.
func (o *ops) connected(name string, c connector) {
	if o == nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.adapters[name] = c
}

// platform is where an adapter counts its failed calls.
func (o *ops) platform(name string) *metrics.Platform {
	if o == nil {
		return nil
	}
	return o.m.Platform(name)
}

// handler is the bot as the adapters see it: the same service, with
// every command counted and timed, and refused once the drain began.
// Embedding keeps the service's other methods (Notify, the outbox, taps)
// visible to the adapters' interface checks.
type handler struct {
	*bot.Service
	o *ops
}

func (h handler) Handle(cmd bot.Command) []bot.Reply {
	start := time.Now()
	o := h.o
	o.mu.Lock()
	if o.draining {
		o.mu.Unlock()
		o.m.Command(cmd.Platform, bot.CommandKind(cmd), metrics.Refused, time.Since(start))
		return []bot.Reply{{Channel: cmd.Channel, Private: true, Error: true,
			Text: "I am restarting; nothing was changed. Please send that again in a moment."}}
	}
	o.inflight.Add(1)
	o.mu.Unlock()
	defer o.inflight.Done()
	if beforeHandle != nil {
		beforeHandle(cmd)
	}
	out := h.Service.Handle(cmd)
	o.m.Command(cmd.Platform, bot.CommandKind(cmd), bot.Outcome(out), time.Since(start))
	return out
}

// drain is serve's way out: once ctx is done it waits for the platforms
// to stop reading and return, then for the commands still in progress,
// at most drainTimeout in all, so the storage closes under no command.
func (o *ops) drain(ctx context.Context, platforms *sync.WaitGroup, log *slog.Logger) {
	stopped := make(chan struct{})
	go func() {
		platforms.Wait()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-ctx.Done():
	}
	deadline := time.NewTimer(drainTimeout)
	defer deadline.Stop()
	select {
	case <-stopped:
	case <-deadline.C:
		log.Warn("platforms still stopping after the drain timeout; closing anyway", "timeout", drainTimeout)
	}
	o.mu.Lock()
	o.draining = true
	o.mu.Unlock()
	answered := make(chan struct{})
	go func() {
		o.inflight.Wait()
		close(answered)
	}()
	select {
	case <-answered:
	case <-deadline.C:
		log.Warn("commands still in progress after the drain timeout; closing anyway", "timeout", drainTimeout)
	}
}

// ready is /readyz's verdict: nil, or every reason not to send traffic
// here.
func (o *ops) ready() error {
	var why []string
	if o.ctx.Err() != nil {
		why = append(why, "stopping")
	}
	// A read of one key: cheap, and it fails once the database is closed
	// or unreadable.
	if _, err := o.store.SeenEvent("ops:readyz"); err != nil {
		why = append(why, "database: "+err.Error())
	}
	o.mu.Lock()
	names := make([]string, 0, len(o.adapters))
	for name := range o.adapters {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		switch c := o.adapters[name]; {
		case c == nil:
			why = append(why, name+": not started")
		default:
			if err := c.Connected(); err != nil {
				why = append(why, err.Error())
			}
		}
	}
	o.mu.Unlock()
	if len(why) > 0 {
		return errors.New(strings.Join(why, "\n"))
	}
	return nil
}

func (o *ops) mux() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok\n")
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if err := o.ready(); err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintf(w, "not ready:\n%s\n", err)
			return
		}
		io.WriteString(w, "ready\n")
	})
	mux.Handle("GET /metrics", o.m.Handler())
	return mux
}

// listen starts the ops listener; the returned stop closes it. The
// listener has deadlines of its own, so a slow or stuck client cannot
// keep a connection (or the process's file descriptors) forever.
func (o *ops) listen(ctx context.Context, listen string, log *slog.Logger) (stop func(), err error) {
	o.ctx = ctx
	if listen == "" {
		return func() {}, nil
	}
	addr, err := opsAddress(listen)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("ops listener: %w", err)
	}
	srv := &http.Server{
		Handler:           o.mux(),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       time.Minute,
		MaxHeaderBytes:    8 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	log.Info("ops listener listening", "addr", ln.Addr().String())
	fmt.Fprintf(stdoutOf(ctx), "topochess: operations on http://%s/ (healthz, readyz, metrics)\n", ln.Addr())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			log.Error("ops listener stopped", "err", err)
		}
	}()
	return func() {
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
		<-done
	}, nil
}
