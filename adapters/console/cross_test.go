package console

import (
	"strings"
	"testing"

	"topochess/adapters/internal/crosstest"
	"topochess/bot"
)

// TestCommandTableAcrossPlatforms types every command and option of the
// bot's command table at the console and compares the answers with the
// bot's own (the other adapters run the same script).
func TestCommandTableAcrossPlatforms(t *testing.T) {
	c := New(crosstest.NewService(t), Options{})
	users := map[string]bot.User{"alice": user("alice"), "bob": user("bob")}
	crosstest.Check(t, "console", users, func(s crosstest.Step) crosstest.Seen {
		var out strings.Builder
		if err := c.Line(s.User+": "+s.Typed(), &out); err != nil {
			t.Fatal(err)
		}
		return crosstest.Seen{Texts: replyTexts(out.String()), Buttons: buttonLabels(out.String())}
	})
}

// replyTexts reads the replies' texts back from a transcript: "< " lines
// (without their "(only alice, refused)" head) and their indented
// continuation, up to the first note about mentions, buttons, pictures or
// edits of earlier messages.
func replyTexts(transcript string) []string {
	var texts []string
	in := false
	for _, line := range strings.Split(transcript, "\n") {
		switch {
		case strings.HasPrefix(line, "< "):
			text := line[2:]
			if head, rest, ok := strings.Cut(text, ") "); ok && strings.HasPrefix(head, "(") && isHead(head[1:]) {
				text = rest
			}
			texts = append(texts, text)
			in = true
		case strings.HasPrefix(line, "  ") && in:
			for _, note := range []string{"notify: ", "buttons: ", "buttons of ", "picture: ", "edited "} {
				if strings.HasPrefix(line[2:], note) {
					in = false
				}
			}
			if in {
				texts[len(texts)-1] += "\n" + line[2:]
			}
		default:
			in = false
		}
	}
	return texts
}

func isHead(s string) bool {
	for _, part := range strings.Split(s, ", ") {
		if !strings.HasPrefix(part, "in ") && !strings.HasPrefix(part, "only ") && part != "refused" {
			return false
		}
	}
	return true
}

// buttonLabels reads the labels of "  buttons: [Accept] (for bob) …" lines.
func buttonLabels(transcript string) []string {
	var labels []string
	for _, line := range strings.Split(transcript, "\n") {
		rest, ok := strings.CutPrefix(line, "  buttons: ")
		for ok {
			if _, rest, ok = strings.Cut(rest, "["); ok {
				var label string
				if label, rest, ok = strings.Cut(rest, "]"); ok {
					labels = append(labels, label)
				}
			}
		}
	}
	return labels
}
