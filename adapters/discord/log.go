package discord

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	dg "github.com/bwmarrin/discordgo"

	"topochess/adapters/internal/redact"
)

// discordgo logs through one package-wide function; it is pointed at the
// newest adapter's (filtered) slog logger, and cuts out every token any
// adapter was given (discordgo's debug lines print the identify packet,
// token included).
var dgLog struct {
	sync.Mutex
	once    sync.Once
	log     *slog.Logger
	secrets *redact.Filter
}

// secretsOf are the strings of a token that must never be logged: the
// token as configured and without its "Bot " prefix.
func secretsOf(token string) []string {
	t := strings.TrimSpace(token)
	return []string{t, strings.TrimSpace(strings.TrimPrefix(t, "Bot "))}
}

func installLogger(log *slog.Logger, token string) {
	dgLog.Lock()
	defer dgLog.Unlock()
	if dgLog.secrets == nil {
		dgLog.secrets = redact.New()
	}
	dgLog.secrets.Add(secretsOf(token)...)
	dgLog.log = log
	dgLog.once.Do(func() { dg.Logger = dgLogger })
}

func dgLogger(level, _ int, format string, a ...any) {
	dgLog.Lock()
	log, secrets := dgLog.log, dgLog.secrets
	dgLog.Unlock()
	msg := secrets.String(fmt.Sprintf(format, a...))
	l := slog.LevelDebug // discordgo's informational lines are chatter
	switch level {
	case dg.LogError:
		l = slog.LevelError
	case dg.LogWarning:
		l = slog.LevelWarn
	}
	log.Log(context.Background(), l, "discordgo: "+strings.TrimSpace(msg))
}
