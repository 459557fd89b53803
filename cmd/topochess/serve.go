package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"sync"
	"syscall"
	"time"

	"topochess/bot"
	"topochess/render"
	"topochess/storage"
)

// platform is a chat adapter serve can run. Adapters register in an
// init function of their own file in this package (serve_web.go,
// serve_discord.go, …), so this file needs no change when one lands:
//
//	func init() { platforms = append(platforms, platform{name: "web", enabled: …, run: …}) }
type platform struct {
	name string
	// enabled reports whether the config asks for this platform.
	enabled func(cfg *Config) bool
	// run serves until ctx is cancelled or it fails.
	run func(ctx context.Context, cfg *Config, h bot.Handler, log *slog.Logger) error
}

var platforms []platform

// getenv is the only place the environment is read (tests replace it).
var getenv = os.Getenv

// serveContext is how long serve runs: until SIGINT or SIGTERM (tests
// replace it to stop serve themselves).
var serveContext = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

type stdoutKey struct{}

type storeKey struct{}

// storeOf is serve's open database, for a platform that keeps records of
// its own (the web chat's name claims).
func storeOf(ctx context.Context) storage.Backend {
	st, _ := ctx.Value(storeKey{}).(storage.Backend)
	return st
}

// stdoutOf is serve's standard output, for a platform to tell the person
// who started it where to go (the web chat prints its address).
func stdoutOf(ctx context.Context) io.Writer {
	if w, ok := ctx.Value(stdoutKey{}).(io.Writer); ok {
		return w
	}
	return io.Discard
}

// openService opens storage and builds the bot on it.
func openService(cfg *Config, log *slog.Logger) (*bot.Service, storage.Backend, error) {
	store, err := openStore(cfg, log)
	if err != nil {
		return nil, nil, err
	}
	r := render.New()
	if cfg.Images.Size > 0 {
		r.Width = cfg.Images.Size
	}
	svc := bot.New(store, bot.Config{Limits: cfg.limits(), Painter: r, Logger: log, Bot: cfg.botConfig()})
	return svc, store, nil
}

// memoryLimit is serve's soft memory limit (docs/performance.md): what
// its caches may hold live (pictures 48 MiB in the web chat, history
// 16 MiB, games and replies a few more) plus each bot worker's search
// table, with room for garbage. Below it the collector runs as usual
// (the heap may reach twice what is live); near it, more often. The
// GOMEMLIMIT environment variable replaces it.
func memoryLimit(cfg *Config) int64 {
	workers := cfg.Bot.Workers
	if workers == 0 {
		workers = 2
	}
	return (160 + 16*int64(workers)) << 20
}

// openStore opens the configured database: PostgreSQL when
// storage.postgres_url is set, else the bbolt file.
func openStore(cfg *Config, log *slog.Logger) (storage.Backend, error) {
	if cfg.Storage.PostgresURL != "" {
		return storage.OpenPostgres(string(cfg.Storage.PostgresURL), storage.Options{Logger: log, Lease: cfg.Storage.JobLease})
	}
	return storage.Open(cfg.Storage.Path, storage.Options{Timeout: cfg.Storage.Timeout, Logger: log, Lease: cfg.Storage.JobLease})
}

// storageName says where the records are, for messages; never the URL,
// which may hold a password.
func (c *Config) storageName() string {
	if c.Storage.PostgresURL != "" {
		return "PostgreSQL (storage.postgres_url)"
	}
	return c.Storage.Path
}

// serveControl lets topochess backup and check reach the database while
// this process holds it; the returned wait is for before store.Close.
// PostgreSQL has its own tools for both (pg_dump, docs/scaling.md).
func serveControl(ctx context.Context, backend storage.Backend, log *slog.Logger) (wait func()) {
	store, ok := backend.(*storage.Store)
	if !ok {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := store.ServeControl(ctx); err != nil {
			log.Warn("no control socket: topochess backup and check need the bot stopped", "err", err)
		}
	}()
	return func() { <-done }
}

// serveFlags are serve's flags (deploy_test.go checks deploy/compose.yaml
// against them).
func serveFlags(stderr io.Writer) (fs *flag.FlagSet, configPath *string) {
	fs = newFlagSet("serve", stderr)
	return fs, fs.String("config", "", "config file (YAML)")
}

func cmdServe(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs, configPath := serveFlags(stderr)
	if err := fs.Parse(args); err != nil {
		return parseError(fs, stdout, stderr, err)
	}
	if fs.NArg() > 0 {
		return flagError(stderr, "serve", fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	cfg, err := loadConfig(*configPath, getenv)
	if err != nil {
		fmt.Fprintf(stderr, "topochess serve: %v\n", err)
		return 1
	}
	log := cfg.logger(stderr)
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit(cfg))
	}
	svc, store, err := openService(cfg, log)
	if err != nil {
		fmt.Fprintf(stderr, "topochess serve: %v\n", err)
		return 1
	}
	defer store.Close()
	var run []platform
	for _, p := range platforms {
		if p.enabled(cfg) {
			run = append(run, p)
		}
	}
	if len(run) == 0 {
		fmt.Fprintf(stdout, "topochess serve: storage %s is ready, but the configured chat platforms are not built into this binary.\n"+
			"Set web.listen for the local web chat, or play with: topochess console --config FILE\n", cfg.storageName())
		return 1
	}
	ctx, stop := serveContext()
	defer stop()
	ctx = context.WithValue(ctx, stdoutKey{}, stdout)
	ctx = context.WithValue(ctx, storeKey{}, store)
	ops := newOps(svc, store, run)
	ctx = context.WithValue(ctx, opsKey{}, ops)
	stopOps, err := ops.listen(ctx, cfg.Ops.Listen, log)
	if err != nil {
		fmt.Fprintf(stderr, "topochess serve: %v\n", err)
		return 1
	}
	defer stopOps()
	defer serveControl(ctx, store, log)()
	// The computer opponent: its workers resume the games where it is to
	// move and post its moves through the adapters' senders. On the way
	// out its searches are cancelled and waited for before the storage
	// closes.
	waitBot := svc.StartBot(ctx)
	// Maintenance and the job loop write to the storage too, so they are
	// waited for as well; then this process's job leases are released, so
	// another process sharing the database takes the work over at once.
	maintained, jobsDone := make(chan struct{}), make(chan struct{})
	defer func() {
		stop()
		waitBot()
		<-maintained
		<-jobsDone
		svc.ReleaseJobs()
	}()
	go func() {
		defer close(maintained)
		t := time.NewTicker(time.Hour)
		defer t.Stop()
		for {
			svc.Maintain()
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	// The job loop: clocks of timed games (reminders and losses on time,
	// posted through the adapters that registered with svc.Notify),
	// challenge expiry, and work left by a process that died.
	go func() {
		defer close(jobsDone)
		svc.RunClock(ctx, time.Second)
	}()
	var wg sync.WaitGroup
	failed := make(chan error, len(run))
	for _, p := range run {
		wg.Add(1)
		go func() {
			defer wg.Done()
			log.Info("platform starting", "platform", p.name)
			if err := p.run(ctx, cfg, handler{svc, ops}, log.With("platform", p.name)); err != nil && ctx.Err() == nil {
				log.Error("platform stopped", "platform", p.name, "err", err)
				failed <- fmt.Errorf("%s: %w", p.name, err)
				stop()
			}
		}()
	}
	// Adapters stop reading when ctx is done; the commands they still
	// answer finish before the storage closes.
	ops.drain(ctx, &wg, log)
	select {
	case err := <-failed:
		fmt.Fprintf(stderr, "topochess serve: %v\n", err)
		return 1
	default:
	}
	return 0
}
