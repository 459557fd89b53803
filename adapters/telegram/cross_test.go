package telegram

import (
	"html"
	"strings"
	"testing"
	"time"

	"topochess/adapters/internal/crosstest"
	"topochess/bot"
)

// TestCommandTableAcrossPlatforms types every command and option of the
// bot's command table in a group through the fake Bot API and compares
// the messages the group saw with the bot's own answers (the other
// adapters run the same script).
func TestCommandTableAcrossPlatforms(t *testing.T) {
	f := newFakeAPI(t)
	h := crosstest.NewCounting(t)
	r := start(t, f, h, nil)
	h.Notify(platform, r.a.Send) // as serve does: what the bot posts on its own
	people := map[string]tgUser{"alice": alice, "bob": bob}
	users := map[string]bot.User{}
	for name, u := range people {
		users[name] = bot.User{Name: u.First, Mention: "@" + u.Username}
	}
	handled := 0
	crosstest.Check(t, "telegram", users, func(s crosstest.Step) crosstest.Seen {
		mark := len(f.requests())
		f.say(people[s.User], group, s.Typed())
		handled++
		n, ok := h.Handled(handled)
		if !ok {
			t.Fatalf("%s was not handled", s)
		}
		var seen crosstest.Seen
		sent := func() []string {
			seen = crosstest.Seen{}
			for _, r := range f.requests()[mark:] {
				switch r.Method {
				case "sendMessage":
					seen.Texts = append(seen.Texts, r.Params["text"])
				case "sendPhoto", "sendAnimation":
					seen.Texts = append(seen.Texts, r.Params["caption"])
				case "sendDocument":
					// A document's caption is HTML: its <pre> block is the
					// bot's ``` block as Telegram formats one.
					c := strings.NewReplacer("<pre>", "```\n", "</pre>", "```").Replace(r.Params["caption"])
					seen.Texts = append(seen.Texts, html.UnescapeString(c))
				default:
					continue
				}
				for _, b := range buttonsOf(r.Params["reply_markup"]) {
					seen.Buttons = append(seen.Buttons, b[0])
				}
			}
			return seen.Texts
		}
		f.waitFor("the answers", func([]apiRequest) bool { return len(sent()) >= n })
		if p := h.Posted(); p > 0 {
			n += p
			f.waitFor("what the bot posted", func([]apiRequest) bool { return len(sent()) >= n })
		}
		// A long answer may still have parts on the way.
		for prev := len(sent()); ; prev = len(sent()) {
			time.Sleep(100 * time.Millisecond)
			if len(sent()) == prev {
				break
			}
		}
		sent()
		return seen
	})
	f.noRefusals()
}
