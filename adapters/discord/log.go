package discord

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"

	dg "github.com/bwmarrin/discordgo"
)

// discordgo logs through one package-wide function; it is pointed at the
// adapter's slog logger, with every configured token cut out (discordgo's
// debug lines print the identify packet, token included).
var dgLog struct {
	sync.Mutex
	once    sync.Once
	log     *slog.Logger
	secrets []string
}

func installLogger(log *slog.Logger, token string) {
	dgLog.Lock()
	defer dgLog.Unlock()
	dgLog.log = log
	if t := strings.TrimPrefix(strings.TrimSpace(token), "Bot "); t != "" && !slices.Contains(dgLog.secrets, t) {
		dgLog.secrets = append(dgLog.secrets, t)
	}
	dgLog.once.Do(func() { dg.Logger = dgLogger })
}

func dgLogger(level, _ int, format string, a ...any) {
	dgLog.Lock()
	log, secrets := dgLog.log, dgLog.secrets
	dgLog.Unlock()
	msg := fmt.Sprintf(format, a...)
	for _, s := range secrets {
		msg = redact(msg, s)
	}
	l := slog.LevelDebug // discordgo's informational lines are chatter
	switch level {
	case dg.LogError:
		l = slog.LevelError
	case dg.LogWarning:
		l = slog.LevelWarn
	}
	log.Log(context.Background(), l, "discordgo: "+strings.TrimSpace(msg))
}

func redact(s, token string) string {
	token = strings.TrimPrefix(strings.TrimSpace(token), "Bot ")
	if token == "" {
		return s
	}
	return strings.ReplaceAll(s, token, "[redacted]")
}
