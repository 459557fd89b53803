package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"topochess/adapters/console"
)

// cmdConsole plays through standard input: one "name: /command" a line.
func cmdConsole(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("console", stderr)
	configPath := fs.String("config", "", "config file (YAML)")
	images := fs.String("images", "topochess-images", "folder for the board pictures")
	channel := fs.String("channel", "console:main", "channel id the lines speak in")
	if err := fs.Parse(args); err != nil {
		return parseError(fs, stdout, stderr, err)
	}
	if fs.NArg() > 0 {
		return flagError(stderr, "console", fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	cfg, err := loadConfig(*configPath, getenv)
	if err != nil {
		fmt.Fprintf(stderr, "topochess console: %v\n", err)
		return 1
	}
	if cfg.Limits.CommandsPer10s == 0 {
		// Everyone at the console types fast (or pipes a script): the
		// flood limit is for chat platforms.
		cfg.Limits.CommandsPer10s = 1000
	}
	// The console waits for the computer's answers before the next line,
	// so they need no delay.
	var noDelay time.Duration
	cfg.Bot.ReplyDelay = &noDelay
	svc, store, err := openService(cfg, cfg.logger(stderr))
	if err != nil {
		fmt.Fprintf(stderr, "topochess console: %v\n", err)
		return 1
	}
	defer store.Close()
	ctx, cancel := context.WithCancel(context.Background())
	waitBot := svc.StartBot(ctx)
	waitControl := serveControl(ctx, store, cfg.logger(stderr))
	defer func() {
		cancel()
		waitBot()
		waitControl()
	}()
	svc.Maintain()
	fmt.Fprintf(stdout, "# topochess console: storage %s, pictures in %s. Type \"alice: /help\".\n", cfg.storageName(), *images)
	c := console.New(svc, console.Options{Channel: *channel, ImageDir: *images})
	if err := c.Run(stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "topochess console: %v\n", err)
		return 1
	}
	return 0
}
