package bot

import (
	"strings"
	"time"
)

// What the operations metrics (bot/metrics) learn about commands
// and the computer's queue, read from outside the request path.

// CommandKind is the command's canonical name ("move" for "/m@bot"), or
// "unknown": a metric label must not take whatever a user types.
func CommandKind(cmd Command) string {
	name := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(cmd.Name), "/"))
	if i := strings.IndexByte(name, '@'); i >= 0 {
		name = name[:i]
	}
	if alias, ok := commandAliases[name]; ok {
		name = alias
	}
	if _, ok := handlers[name]; !ok {
		return "unknown"
	}
	return name
}

// Outcome says how a command's replies went: "error" when the bot failed
// (storage, a panic, a damaged record), "refused" when it declined
// (nothing changed), "ok" otherwise.
func Outcome(replies []Reply) string {
	refused := false
	for _, r := range replies {
		if !r.Error {
			continue
		}
		if r.Failed {
			return "error"
		}
		refused = true
	}
	if refused {
		return "refused"
	}
	return "ok"
}

// BotQueue is the computer's job queue: searches waiting for a worker,
// and how long the oldest of them has waited (its lag).
func (s *Service) BotQueue() (depth int, oldest time.Duration) {
	p := s.ai
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.queue) > 0 {
		oldest = time.Since(p.queue[0].queued)
	}
	return len(p.queue), oldest
}
