package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"topochess/adapters/telegram"
	"topochess/bot"
	"topochess/storage"
)

func init() {
	platforms = append(platforms, platform{
		name:    "telegram",
		enabled: func(cfg *Config) bool { return cfg.Telegram.Token != "" },
		run: func(ctx context.Context, cfg *Config, h bot.Handler, log *slog.Logger) error {
			tc := telegramConfig(cfg, log)
			tc.Metrics = opsOf(ctx).platform("telegram")
			a, err := telegram.New(tc, h)
			if err != nil {
				return err
			}
			release, err := holdTelegram(storeOf(ctx), tc.Token, tc.WebhookURL != "")
			if err != nil {
				return err
			}
			defer release()
			if n, ok := h.(notifier); ok {
				n.Notify("telegram", a.Send)
			}
			opsOf(ctx).connected("telegram", a)
			return a.Run(ctx)
		},
	})
}

// locker is a database that can hold a lock for a process's life
// (storage.Postgres); bbolt needs none, its file admits one process.
type locker interface {
	HoldLock(name string, shared bool) (release func(), err error)
}

// holdTelegram keeps long polling to one process on a shared database:
// Telegram hands each update to one getUpdates caller only, so a second
// poller would take updates from the first (and both would get 409s),
// and a poller switches the webhook off at start, cutting off the
// processes in webhook mode. Pollers hold the bot's lock exclusively,
// webhook processes shared. The lock is per bot (the token's id part,
// not its secret).
func holdTelegram(st storage.Backend, token string, webhook bool) (release func(), err error) {
	l, ok := st.(locker)
	if !ok {
		return func() {}, nil
	}
	botID, _, _ := strings.Cut(token, ":")
	release, err = l.HoldLock("telegram:"+botID, webhook)
	switch {
	case errors.Is(err, storage.ErrLockHeld) && webhook:
		return nil, errors.New("telegram: a topochess process on this database long-polls this bot, and its polling and a webhook exclude each other. " +
			"Stop that process (or give it telegram.webhook_url too) before starting processes in webhook mode")
	case errors.Is(err, storage.ErrLockHeld):
		return nil, errors.New("telegram: another topochess process on this database already serves this bot: by long polling, which Telegram allows one process only, " +
			"or by webhook, which long polling would switch off. Run long polling in one process, or set telegram.webhook_url " +
			"(and telegram.webhook_secret) on every process and put them behind one load balancer (docs/scaling.md)")
	case err != nil:
		return nil, fmt.Errorf("telegram: cannot check that no other process serves this bot: %w", err)
	}
	return release, nil
}

// telegramConfig maps the telegram section onto the adapter's settings.
func telegramConfig(cfg *Config, log *slog.Logger) telegram.Config {
	t := cfg.Telegram
	return telegram.Config{
		Token:         string(t.Token),
		APIEndpoint:   t.APIEndpoint,
		WebhookURL:    t.WebhookURL,
		WebhookSecret: string(t.WebhookSecret),
		WebhookListen: t.WebhookListen,
		Logger:        log,
	}
}
