package console

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"topochess/bot"
	"topochess/engine/search"
)

// TestBotTranscript plays short games against the computer through the
// console, which waits for the bot's answers before reading the next
// line. One worker, a fixed seed and node budgets instead of clocks make
// the bot's moves the same on every run.
func TestBotTranscript(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("testdata", "game-bot.txt"))
	if err != nil {
		t.Fatal(err)
	}
	bc := bot.BotConfig{Workers: 1, Seed: 1, Level: func(level int) (search.Config, error) {
		cfg, err := search.Level(level)
		cfg.Time = 0
		if cfg.Nodes == 0 || cfg.Nodes > 5000 {
			cfg.Nodes = 5000
		}
		return cfg, err
	}}
	got := runWith(t, string(script), bc, true)
	for _, want := range []string{"is thinking…", "notify: console:alice", "Checkmate"} {
		if !strings.Contains(got, want) {
			t.Errorf("transcript lacks %q:\n%s", want, got)
		}
	}
	golden(t, "game-bot", got)
}
