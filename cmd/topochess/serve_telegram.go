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
			if tc.WebhookURL == "" {
				release, err := holdPolling(storeOf(ctx), tc.Token)
				if err != nil {
					return err
				}
				defer release()
			}
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
	HoldLock(name string) (release func(), err error)
}

// holdPolling makes long polling single-process on a shared database:
// Telegram hands each update to one getUpdates caller only, so a second
// poller would steal updates from the first (and both would fail with
// 409s). The lock is per bot (the token's id part, not its secret).
func holdPolling(st storage.Backend, token string) (release func(), err error) {
	l, ok := st.(locker)
	if !ok {
		return func() {}, nil
	}
	botID, _, _ := strings.Cut(token, ":")
	release, err = l.HoldLock("telegram-polling:" + botID)
	if errors.Is(err, storage.ErrLockHeld) {
		return nil, errors.New("telegram: another topochess process on this database already long-polls this bot, and Telegram gives each update to one poller only. " +
			"Run long polling in one process, or set telegram.webhook_url (and telegram.webhook_secret) on every process and put them behind one load balancer (docs/scaling.md)")
	}
	if err != nil {
		return nil, fmt.Errorf("telegram: cannot check that no other process long-polls: %w", err)
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
