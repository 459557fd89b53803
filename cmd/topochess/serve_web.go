package main

import (
	"context"
	"fmt"
	"log/slog"

	"topochess/adapters/web"
	"topochess/bot"
	"topochess/render"
)

func init() {
	platforms = append(platforms, platform{name: "web", enabled: webEnabled, run: runWeb})
}

// webEnabled: the web chat runs when web.listen asks for it and, so that a
// fresh checkout does something useful, whenever no other platform has a
// token.
func webEnabled(cfg *Config) bool {
	return cfg.Web.Listen != "" || cfg.Discord.Token == "" && cfg.Telegram.Token == ""
}

// webOptions maps the web section onto the chat's options.
func webOptions(cfg *Config, log *slog.Logger) web.Options {
	// Clicks are mapped with the layout the bot draws from; the size is
	// the bot's too, though the adapter scales clicks either way.
	r := render.New()
	if cfg.Images.Size > 0 {
		r.Width = cfg.Images.Size
	}
	return web.Options{
		Listen: cfg.Web.Listen, Password: string(cfg.Web.Password),
		TLSCert: cfg.Web.TLSCert, TLSKey: cfg.Web.TLSKey, AllowPlainHTTP: cfg.Web.AllowPlainHTTP,
		TrustedProxies: cfg.Web.TrustedProxies, SessionTTL: cfg.Web.SessionTTL,
		ReadTimeout: cfg.Web.ReadTimeout, MaxConnections: cfg.Web.MaxConnections,
		Renderer: r, Logger: log,
	}
}

func runWeb(ctx context.Context, cfg *Config, h bot.Handler, log *slog.Logger) error {
	opt := webOptions(cfg, log)
	// Name claims live in the database, so a name stays its owner's across
	// restarts and in every process serving it.
	if st := storeOf(ctx); st != nil {
		opt.Names = st
		// On PostgreSQL, every process serving the chat shares its events,
		// sessions and pictures (docs/scaling.md); bbolt has one process.
		if sh, ok := st.(web.Shared); ok {
			opt.Shared = sh
		}
	}
	srv, err := web.New(h, opt)
	if err != nil {
		return err
	}
	if n, ok := h.(notifier); ok {
		n.Notify("web", srv.Send)
	}
	opsOf(ctx).connected("web", srv)
	return srv.Run(ctx, func(url string) {
		log.Info("web chat listening", "url", url, "password", cfg.Web.Password != "", "tls", cfg.Web.TLSCert != "")
		fmt.Fprintf(stdoutOf(ctx), "topochess: the web chat is on %s — open it in two browser tabs, pick two names and play.\n", url)
	})
}

// notifier is the part of the bot service that delivers messages nobody
// asked for (clock reminders, loss on time) through a platform.
type notifier interface {
	Notify(platform string, send func(bot.Reply))
}
