package main

import (
	"context"
	"log/slog"

	"topochess/adapters/telegram"
	"topochess/bot"
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
			if n, ok := h.(notifier); ok {
				n.Notify("telegram", a.Send)
			}
			opsOf(ctx).connected("telegram", a)
			return a.Run(ctx)
		},
	})
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
