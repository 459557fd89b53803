package web

import (
	"net/http/httptest"
	"testing"

	"topochess/adapters/internal/crosstest"
	"topochess/bot"
)

// TestCommandTableAcrossPlatforms types every command and option of the
// bot's command table through the web chat's HTTP API and compares the
// replies the typing user's tab received with the bot's own answers (the
// other adapters run the same script).
func TestCommandTableAcrossPlatforms(t *testing.T) {
	h := crosstest.NewCounting(t)
	s, err := New(h, Options{})
	if err != nil {
		t.Fatal(err)
	}
	h.Notify("web", s.Send) // as serve does: what the bot posts on its own
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		s.hub.closeAll()
		ts.Close()
	})
	tabs := map[string]*client{}
	users := map[string]bot.User{}
	for _, name := range []string{"alice", "bob"} {
		tabs[name] = join(t, ts.URL, name, "club")
		tabs[name].listen(0)
		users[name] = bot.User{Name: name, Mention: "@" + name}
	}
	handled := 0
	crosstest.Check(t, "web", users, func(st crosstest.Step) crosstest.Seen {
		tab := tabs[st.User]
		tab.say(st.Typed())
		handled++
		n, ok := h.Handled(handled)
		if !ok {
			t.Fatalf("%s was not handled", st)
		}
		var seen crosstest.Seen
		public := 0
		read := func() {
			for len(seen.Texts) < n {
				if e := tab.next(); e.Kind == "reply" {
					seen.Texts = append(seen.Texts, e.Text)
					for _, b := range e.Buttons {
						seen.Buttons = append(seen.Buttons, b.Label)
					}
					if !e.Private {
						public++
					}
				}
			}
		}
		read()
		n += h.Posted()
		read()
		// The other tab sees the public replies too: they are read off
		// its stream, which keeps it in step for when it types.
		for _, other := range tabs {
			for seen := 0; other != tab && seen < public; {
				if e := other.next(); e.Kind == "reply" && !e.Private {
					seen++
				}
			}
		}
		return seen
	})
}
