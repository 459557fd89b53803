package bot

import (
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"topochess/storage"
)

func TestCommandKind(t *testing.T) {
	for name, want := range map[string]string{
		"move": "move", "/M@topochess_bot": "move", "play": "move", " Board ": "board",
		"challenge": "challenge", "frobnicate": "unknown", "": "unknown", "move\x00": "unknown",
	} {
		if got := CommandKind(Command{Name: name}); got != want {
			t.Errorf("CommandKind(%q) = %q, want %q", name, got, want)
		}
	}
}

// Outcome tells the bot's own failures from refusals, on the replies the
// service really gives.
func TestOutcome(t *testing.T) {
	store, err := storage.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := New(store, Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	alice := User{ID: "web:alice", Name: "alice"}
	cmd := func(name, text string) Command {
		return Command{Platform: "web", Channel: "web:room", User: alice, Name: name, Text: text}
	}
	if got := Outcome(s.Handle(cmd("help", ""))); got != "ok" {
		t.Errorf("/help: %s", got)
	}
	if got := Outcome(s.Handle(cmd("frobnicate", ""))); got != "refused" {
		t.Errorf("unknown command: %s", got)
	}
	if got := Outcome(s.Handle(cmd("move", "e2e4"))); got != "refused" {
		t.Errorf("a move without a game: %s", got)
	}
	store.Close()
	if got := Outcome(s.Handle(cmd("challenge", "bot"))); got != "error" {
		t.Errorf("a challenge with the database closed: %s", got)
	}
	if got := Outcome(s.internal(&call{Command: cmd("board", "")}, io.ErrUnexpectedEOF)); got != "error" {
		t.Errorf("internal: %s", got)
	}
	if n, lag := s.BotQueue(); n != 0 || lag != 0 {
		t.Errorf("an idle queue: %d, %v", n, lag)
	}
}
