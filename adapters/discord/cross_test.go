package discord

import (
	"strings"
	"testing"
	"time"

	"topochess/adapters/internal/crosstest"
	"topochess/bot"
)

// TestCommandTableAcrossPlatforms picks every command and option of the
// bot's command table in the fake Discord, each option only if the
// adapter registered it with the table's type, and compares the messages
// with the bot's own answers (the other adapters run the same script).
func TestCommandTableAcrossPlatforms(t *testing.T) {
	t.Parallel()
	h := crosstest.NewCounting(t)
	e := start(t, h, nil)
	h.Notify(platform, e.a.Send) // as serve does: what the bot posts on its own
	people := map[string]member{"alice": alice, "bob": bob}
	users := map[string]bot.User{}
	for name, m := range people {
		users[name] = bot.User{Name: strings.ToUpper(m.name[:1]) + m.name[1:], Mention: "<@" + m.id + ">"}
	}
	types := map[bot.OptionType]int{bot.OptionString: 3, bot.OptionBool: 5, bot.OptionUser: 6}
	handled := 0
	crosstest.Check(t, "discord", users, func(s crosstest.Step) crosstest.Seen {
		spec, _ := bot.CommandByName(s.Command)
		var opts []opt
		for _, o := range spec.Options {
			v, ok := s.Values[o.Name]
			if !ok {
				continue
			}
			if got := registeredOption(e, s.Command, o.Name); got != types[o.Type] {
				t.Fatalf("/%s %s is registered with type %d, the table says %s", s.Command, o.Name, got, o.Type)
			}
			switch o.Type {
			case bot.OptionUser:
				opts = append(opts, opt{name: o.Name, typ: 6, value: people[v].id})
			case bot.OptionBool:
				opts = append(opts, opt{name: o.Name, typ: 5, value: v == "true"})
			default:
				opts = append(opts, str(o.Name, v))
			}
		}
		mark := len(e.f.all())
		id := e.slash(people[s.User], s.Command, opts...)
		handled++
		n, ok := h.Handled(handled)
		if !ok {
			t.Fatalf("%s was not handled", s)
		}
		var seen crosstest.Seen
		sent := func() []string {
			seen = crosstest.Seen{}
			original := false // later edits of the answer are no answers
			for i, r := range e.f.all() {
				var msg any
				switch {
				case r.Method == "PATCH" && r.Path == "/webhooks/"+testApp+"/itok-"+id+"/messages/@original" && original:
					continue
				case i >= mark && r.Method == "POST" && strings.HasPrefix(r.Path, "/channels/") && strings.HasSuffix(r.Path, "/messages"):
					msg = r.JSON // posted by the bot on its own
				case r.Method == "POST" && r.Path == "/interactions/"+id+"/itok-"+id+"/callback":
					if jnum(r.JSON, "type") == 4 {
						msg, original = jsonPath(r.JSON, "data"), true
					}
				case r.Method == "PATCH" && r.Path == "/webhooks/"+testApp+"/itok-"+id+"/messages/@original":
					msg, original = r.JSON, true
				case r.Method == "POST" && r.Path == "/webhooks/"+testApp+"/itok-"+id:
					msg = r.JSON
				}
				if msg == nil {
					continue
				}
				seen.Texts = append(seen.Texts, jstr(msg, "content"))
				rows, _ := jsonPath(msg, "components").([]any)
				for _, row := range rows {
					cs, _ := jsonPath(row, "components").([]any)
					for _, c := range cs {
						seen.Buttons = append(seen.Buttons, jstr(c, "label"))
						opts, _ := jsonPath(c, "options").([]any)
						for _, o := range opts {
							seen.Buttons = append(seen.Buttons, jstr(o, "label"))
						}
					}
				}
			}
			return seen.Texts
		}
		wait := func() {
			for deadline := time.Now().Add(10 * time.Second); len(sent()) < n; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("%s: %d answers, want %d; requests:\n%s", s, len(sent()), n, e.f.dump())
				}
			}
		}
		wait()
		if p := h.Posted(); p > 0 {
			n += p
			wait()
		}
		for prev := len(sent()); ; prev = len(sent()) {
			time.Sleep(100 * time.Millisecond)
			if len(sent()) == prev {
				break
			}
		}
		sent()
		return seen
	})
}
