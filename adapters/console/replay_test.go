package console

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"topochess/bot"
	"topochess/engine/search"
)

// TestReplaysTranscript: /watch stays within the server (name@dm speaks
// in a private chat, which belongs to none), and commands delivered again
// (!again) to /watch, /puzzle and /review are applied once.
func TestReplaysTranscript(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("testdata", "replays.txt"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := bot.Config{
		Bot: bot.BotConfig{Workers: 1, Seed: 1, Level: func(level int) (search.Config, error) {
			cfg, err := search.Level(level)
			cfg.Time = 0
			cfg.Nodes = min(max(cfg.Nodes, 1), 3000)
			return cfg, err
		}},
		Review: bot.ReviewConfig{Depth: 3, Nodes: 3000},
	}
	got := runConfig(t, string(script), cfg, true)
	for _, want := range []string{
		"< This channel now follows #1",
		"> carol@dm: /watch #1\n< (only carol, refused) #1 is played elsewhere; I follow games only within the same server or group.",
		"> carol@lobby: /watch #2\n< (only carol, refused) #2 is played elsewhere",
		"> dan@dm: /watch #1\n< (only dan, refused) #1 is played elsewhere",
		"< (in console:lobby) Following #1 (alice vs bob): 1... e5.",
		"— solved! Your Cube chess puzzle rating: 1500 → ",
		"streak 2 (best 2)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("transcript lacks %q", want)
		}
	}
	for what, n := range map[string]int{
		"< (in console:lobby) Following #1": 3, // 1. e4, 1... e5 and the end, each once
		"Puzzle cube-1 (rated":              2, // given, and the same reply again
		"< Reviewing #1":                    2, // the same reply again
		"edited review:#1: Reviewed #1":     1, // computed once
	} {
		if got := strings.Count(got, what); got != n {
			t.Errorf("%q %d times, want %d", what, got, n)
		}
	}
	golden(t, "replays", got)
}
