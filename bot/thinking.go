package bot

import (
	"fmt"
	"strings"
	"sync"
)

// The "…is thinking" line of a game against the computer is edited once
// the computer has moved, so the chat does not keep saying it thinks.
// The texts live in memory only: after a restart the old line stays as
// it was, which is harmless.

func thinkingKey(game string) string { return "thinking:" + game }

// thinkingLines remembers, per game, the text of the newest message that
// says the computer is thinking; bounded, oldest forgotten first.
type thinkingLines struct {
	mu    sync.Mutex
	text  map[string]string
	order []string
}

const maxThinking = 1024

func (t *thinkingLines) remember(game, text string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.text == nil {
		t.text = map[string]string{}
	}
	if _, ok := t.text[game]; !ok {
		t.order = append(t.order, game)
		if len(t.order) > maxThinking {
			delete(t.text, t.order[0])
			t.order = t.order[1:]
		}
	}
	t.text[game] = text
}

func (t *thinkingLines) take(game string) (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	text, ok := t.text[game]
	delete(t.text, game)
	return text, ok
}

// answeredEdit rewrites a game's thinking line to say what the computer
// played; ok is false when there is no line to edit.
func (t *thinkingLines) answeredEdit(game, bot string, num int, black bool, san string) (Edit, bool) {
	text, ok := t.take(game)
	if !ok {
		return Edit{}, false
	}
	dots := "."
	if black {
		dots = "..."
	}
	thinking := fmt.Sprintf(" %s is thinking…", bot)
	answered := fmt.Sprintf(" %s answered %d%s %s.", bot, num, dots, san)
	if !strings.Contains(text, thinking) {
		return Edit{}, false
	}
	return Edit{Key: thinkingKey(game), Text: strings.Replace(text, thinking, answered, 1)}, true
}
