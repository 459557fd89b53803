package main

import (
	"context"
	"log/slog"

	"topochess/adapters/discord"
	"topochess/bot"
)

func init() {
	platforms = append(platforms, platform{name: "discord", enabled: discordEnabled, run: runDiscord})
}

func discordEnabled(cfg *Config) bool { return cfg.Discord.Token != "" }

func discordConfig(cfg *Config) discord.Config {
	d := cfg.Discord
	return discord.Config{
		Token:              string(d.Token),
		AppID:              d.AppID,
		GuildIDs:           d.GuildIDs,
		RESTBaseURL:        d.RESTBaseURL,
		PublicKey:          d.PublicKey,
		InteractionsListen: d.InteractionsListen,
		ShardID:            d.ShardID,
		ShardCount:         d.ShardCount,
	}
}

func runDiscord(ctx context.Context, cfg *Config, h bot.Handler, log *slog.Logger) error {
	dc := discordConfig(cfg)
	dc.Metrics = opsOf(ctx).platform("discord")
	a, err := discord.New(dc, h, log)
	if err != nil {
		return err
	}
	if n, ok := h.(notifier); ok {
		n.Notify("discord", a.Send)
	}
	opsOf(ctx).connected("discord", a)
	return a.Run(ctx)
}
