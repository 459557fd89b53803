package console

import (
	"strings"
	"testing"

	"topochess/bot"
)

// recorder is a Handler that remembers what reached the bot.
type recorder struct{ got []bot.Command }

func (r *recorder) Handle(cmd bot.Command) []bot.Reply {
	r.got = append(r.got, cmd)
	return []bot.Reply{{Text: "ok"}}
}

// A line must name who speaks: "@room2: /board" and "@: /board" have a
// room but nobody, and used to reach the bot as the user "console:" with
// an empty name ("(only , refused)").
func TestLineWithoutSpeaker(t *testing.T) {
	for _, line := range []string{"@room2: /board", "@: /board", " @room2 : e4", ": /help", "   : /help"} {
		rec := &recorder{}
		var out strings.Builder
		if err := New(rec, Options{}).Line(line, &out); err != nil {
			t.Fatal(err)
		}
		if len(rec.got) > 0 {
			t.Errorf("%q reached the bot as user %q", line, rec.got[0].User.ID)
		}
		if !strings.Contains(out.String(), `write "name: /command"`) {
			t.Errorf("%q: no hint, got %q", line, out.String())
		}
	}
	// A speaker with a room, and a speaker with an empty room, still speak.
	for line, want := range map[string]string{"alice@room2: /board": "console:room2", "alice@: /board": "console:main"} {
		rec := &recorder{}
		var out strings.Builder
		if err := New(rec, Options{}).Line(line, &out); err != nil {
			t.Fatal(err)
		}
		if len(rec.got) != 1 || rec.got[0].User.ID != "console:alice" || rec.got[0].Channel != want {
			t.Errorf("%q: got %+v", line, rec.got)
		}
	}
}
