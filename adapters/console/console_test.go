package console

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image/png"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"topochess/bot"
	"topochess/engine"
	"topochess/render"
	"topochess/storage"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts (and generated game scripts) in testdata")

// run plays a script through a fresh service on a real database and
// returns the transcript, with the picture folder written as IMAGES. Every
// picture must decode.
func run(t *testing.T, script string) string {
	t.Helper()
	return runWith(t, script, bot.BotConfig{}, false)
}

// runWith is run with the bot opponent's workers started when withBot.
func runWith(t *testing.T, script string, bc bot.BotConfig, withBot bool) string {
	t.Helper()
	return runConfig(t, script, bot.Config{Bot: bc}, withBot)
}

// runConfig is runWith with more of the service's configuration: the
// bot's (cfg.Bot) and the reviews' (cfg.Review).
func runConfig(t *testing.T, script string, cfg bot.Config, withBot bool) string {
	t.Helper()
	dir := t.TempDir()
	st, err := storage.Open(filepath.Join(dir, "bot.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { now = now.Add(time.Second); return now }
	svc := bot.New(st, bot.Config{
		Limits:  bot.Limits{CommandsPer10s: 8},
		Painter: &render.Renderer{Long: 128},
		Now:     clock,
		Coin:    func() bool { return true },
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
		Bot:     cfg.Bot,
		Review:  cfg.Review,
	})
	if withBot {
		ctx, cancel := context.WithCancel(context.Background())
		wait := svc.StartBot(ctx)
		defer func() { cancel(); wait() }()
	}
	images := filepath.Join(dir, "images")
	var out bytes.Buffer
	if err := New(svc, Options{ImageDir: images, Now: clock}).Run(strings.NewReader(script), &out); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(images, "*.png"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(data)); err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
		}
	}
	if n := strings.Count(out.String(), "  picture: "); n != len(files) {
		t.Errorf("%d pictures announced, %d written", n, len(files))
	}
	return strings.ReplaceAll(out.String(), images, "IMAGES")
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run: go test ./adapters/console -update, then review the transcript)", err)
	}
	if got != string(want) {
		t.Errorf("transcript %s differs from the golden file (review with -update and git diff):\n%s", name, firstDiff(string(want), got))
	}
}

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\nwant: %s\ngot:  %s", i+1, a, b)
		}
	}
	return ""
}

// generatedScript is the script of a variant without a hand-written one:
// a challenge, six plies (each the first legal move in canonical order,
// a choice any variant has) and an ending that alternates between
// resignation and an agreed draw so both are exercised.
func generatedScript(v *engine.Variant, resign bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: a few moves, then %s.\n", v.Name, map[bool]string{true: "resignation", false: "an agreed draw"}[resign])
	fmt.Fprintf(&b, "alice: /challenge @bob variant:%s color:white\nbob: [Accept]\n", v.ID)
	pos := v.StartPosition()
	for ply := 0; ply < 6; ply++ {
		ms := pos.CanonicalMoves()
		if len(ms) == 0 {
			break
		}
		who := "alice"
		if ply%2 == 1 {
			who = "bob"
		}
		fmt.Fprintf(&b, "%s: /move %s\n", who, ms[0])
		m, _ := pos.ParseCanonical(ms[0])
		pos.Make(m)
	}
	b.WriteString("alice: /board\n")
	if resign {
		b.WriteString("bob: /resign\n")
	} else {
		b.WriteString("alice: /draw\nbob: [Accept draw]\n")
	}
	return b.String()
}

// TestVariantGames plays a short game in every variant through the
// console. A hand-written testdata/game-ID.txt is used when present;
// otherwise the script is generated (and saved with -update for review).
func TestVariantGames(t *testing.T) {
	for i, id := range engine.Variants() {
		t.Run(id, func(t *testing.T) {
			v := engine.MustVariant(id)
			path := filepath.Join("testdata", "game-"+id+".txt")
			script, err := os.ReadFile(path)
			if os.IsNotExist(err) {
				script = []byte(generatedScript(v, i%2 == 1))
				if *update {
					err = os.WriteFile(path, script, 0o644)
				} else {
					err = nil
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			got := run(t, string(script))
			if !regexp.MustCompile(`(?m)^< .*(Checkmate|resigned|Draw agreed|Stalemate)`).MatchString(got) {
				t.Errorf("the %s game did not end:\n%s", id, got)
			}
			if strings.Contains(got, "refused") && !strings.Contains(string(script), "# refusals expected") {
				t.Errorf("the %s game has a refusal:\n%s", id, got)
			}
			golden(t, "game-"+id, got)
		})
	}
}

func TestErrorTranscript(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("testdata", "errors.txt"))
	if err != nil {
		t.Fatal(err)
	}
	got := run(t, string(script))
	golden(t, "errors", got)
}

func TestLineForms(t *testing.T) {
	got := run(t, "!again\nalice e2e4\nalice:\n# a comment\nbob@other: /help\nbob: [Nothing]\n")
	for _, want := range []string{`! write "name: /command"`, "# a comment", "! nothing to send again", "> bob@other: /help", "! no button [Nothing] on screen"} {
		if !strings.Contains(got, want) {
			t.Errorf("transcript lacks %q:\n%s", want, got)
		}
	}
}

// TestGeneratedScripts checks the script generator on the variant main
// always has, with both endings, so new variants get a working script.
func TestGeneratedScripts(t *testing.T) {
	for _, resign := range []bool{false, true} {
		got := run(t, generatedScript(engine.MustVariant("standard"), resign))
		if strings.Contains(got, "refused") || !strings.Contains(got, map[bool]string{false: "Draw agreed", true: "resigned"}[resign]) {
			t.Errorf("generated script (resign %v):\n%s", resign, got)
		}
	}
}
