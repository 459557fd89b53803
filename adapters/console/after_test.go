package console

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"topochess/bot"
	"topochess/engine/search"
)

// TestAfterTranscript: what comes after a game, through the console —
// a finished game's Rematch starts the swapped game, /review posts a
// graph picture and names the mistakes, /watch follows a game from
// another room, /challenge … position: starts from the position given,
// /puzzle cube gives a position whose solution the bot accepts and whose
// wrong answer it refuses.
func TestAfterTranscript(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("testdata", "after.txt"))
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
		"Game #2 begins: Standard chess, a rematch of #1. bob (White) vs alice (Black).",
		"< (in console:lobby) Following #1 (alice vs bob): 2. g4.",
		"edited review:#1: Reviewed #1: 5 positions at depth 3.",
		"alice's mistake 1 of ",
		"2. g4?? was a blunder",
		"picture: IMAGES/0",
		"-review.png (Evaluation graph of game #1",
		"from a set position, unrated",
		"I cannot read that position for Heisenberg chess",
		"Rematch of #5: Game #6 begins",
		"Puzzle cube-1: R3c6+, right. The answer: K3h5. Your move: mate in 1.",
		"— solved! Your Cube chess puzzle rating: 1500 → ",
		"is not it. The solution was",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("transcript lacks %q", want)
		}
	}
	if n := strings.Count(got, "< Reviewing #1"); n != 1 {
		t.Errorf("the review was started %d times", n)
	}
	golden(t, "after", got)
}
