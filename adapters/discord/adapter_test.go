package discord

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"slices"
	"strings"
	"testing"
	"time"

	"topochess/bot"
)

func tinyPNG(t *testing.T) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestRegistersCommandsAndIdentifies(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		guilds []string
		paths  []string
	}{
		{"per guild", []string{"800", "801"}, []string{"/applications/4242/guilds/800/commands", "/applications/4242/guilds/801/commands"}},
		{"global", nil, []string{"/applications/4242/commands"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := start(t, handlerFunc(func(bot.Command) []bot.Reply { return nil }), func(c *Config) { c.GuildIDs = tc.guilds })
			var puts []*request
			for _, r := range e.f.all() {
				if r.Method == "PUT" {
					puts = append(puts, r)
				}
			}
			if len(puts) != len(tc.paths) {
				t.Fatalf("registrations: %s", e.f.dump())
			}
			for i, r := range puts {
				if r.Path != tc.paths[i] || r.Auth != "Bot "+testToken {
					t.Errorf("registration %d: %s auth %q", i, r.Path, r.Auth)
				}
			}
			var cmds []map[string]any
			if err := jsonUnmarshal(puts[0].Raw, &cmds); err != nil {
				t.Fatal(err)
			}
			names := map[string]map[string]any{}
			for _, c := range cmds {
				names[jstr(c, "name")] = c
				if d := jstr(c, "description"); d == "" || len(d) > 100 {
					t.Errorf("command %s: description %q", jstr(c, "name"), d)
				}
			}
			for _, n := range []string{"challenge", "accept", "decline", "cancel", "move", "board", "moves", "resign", "draw", "games", "variants", "rules", "help", "settings"} {
				if names[n] == nil {
					t.Errorf("command %s not registered", n)
				}
			}
			// Typed options: the opponent is a user (6), the move a string
			// (3) with autocomplete, the colour a fixed choice.
			checks := []struct {
				cmd, opt string
				typ      float64
				auto     bool
			}{
				{"challenge", "opponent", 6, false}, {"challenge", "variant", 3, true}, {"challenge", "color", 3, false},
				{"move", "move", 3, true}, {"move", "game", 3, true}, {"rules", "variant", 3, true}, {"moves", "cell", 3, true},
			}
			for _, c := range checks {
				var o any
				for _, x := range jsonPath(names[c.cmd], "options").([]any) {
					if jstr(x, "name") == c.opt {
						o = x
					}
				}
				if o == nil || jnum(o, "type") != c.typ || jsonPath(o, "autocomplete") != c.auto || jstr(o, "description") == "" {
					t.Errorf("/%s %s: %s", c.cmd, c.opt, pretty(o))
				}
			}
			if n := len(jsonPath(names["challenge"], "options", 2, "choices").([]any)); n != 3 {
				t.Errorf("colour choices: %d", n)
			}
			id := e.f.waitGateway(2, 1)
			if jstr(map[string]any{"d": jsonRaw(id.Data)}, "d", "token") != "Bot "+testToken {
				t.Errorf("identify: %s", id.Data)
			}
		})
	}
}

// A process running one shard of several says which in its Identify,
// and leaves registering the commands to shard 0; a single process sends
// no shard at all.
func TestShardInIdentify(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		id, count int
		want      string
		registers bool
	}{
		{"one process", 0, 0, "", true},
		{"shard 0 of 2", 0, 2, "[0,2]", true},
		{"shard 2 of 3", 2, 3, "[2,3]", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := start(t, handlerFunc(func(bot.Command) []bot.Reply { return nil }), func(c *Config) { c.ShardID, c.ShardCount = tc.id, tc.count })
			id := e.f.waitGateway(2, 1)
			var d struct {
				Shard json.RawMessage `json:"shard"`
			}
			if err := json.Unmarshal(id.Data, &d); err != nil {
				t.Fatal(err)
			}
			if string(d.Shard) != tc.want {
				t.Errorf("identify carries shard %s, want %q: %s", d.Shard, tc.want, id.Data)
			}
			puts := 0
			for _, r := range e.f.all() {
				if r.Method == "PUT" {
					puts++
				}
			}
			if (puts > 0) != tc.registers {
				t.Errorf("%d command registrations; registers %v", puts, tc.registers)
			}
		})
	}
}

func TestCommandTranslationAndAnswer(t *testing.T) {
	t.Parallel()
	var rec recorder
	img := tinyPNG(t)
	e := start(t, handlerFunc(func(cmd bot.Command) []bot.Reply {
		rec.add(cmd)
		return []bot.Reply{{
			Text:     "<@111> challenges <@222> to Möbius chess.",
			Image:    &bot.Image{Name: "c1.png", PNG: img, Alt: "The start position of Möbius chess."},
			Buttons:  []bot.Button{{Label: "Accept", Command: "accept", Args: map[string]string{"challenge": "c1"}, Style: "success", For: "discord:222"}, {Label: "Decline", Command: "decline", Args: map[string]string{"challenge": "c1"}, Style: "danger", For: "discord:222"}},
			Mentions: []string{"discord:222"},
			Key:      "challenge:c1",
		}}
	}), nil)
	id := e.slash(alice, "challenge", opt{name: "opponent", typ: 6, value: bob.id}, str("variant", "moebius"), str("color", "white"))
	cb := e.callback(id)

	cmds := rec.list()
	if len(cmds) != 1 {
		t.Fatalf("commands: %+v", cmds)
	}
	c := cmds[0]
	if c.EventID != id || c.Platform != "discord" || c.Channel != "discord:900" || c.Name != "challenge" ||
		c.User != (bot.User{ID: "discord:111", Name: "Alice", Mention: "<@111>"}) ||
		c.Args["variant"] != "moebius" || c.Args["color"] != "white" ||
		len(c.Mentions) != 1 || c.Mentions[0] != (bot.User{ID: "discord:222", Name: "Bob", Mention: "<@222>"}) {
		t.Errorf("command: %+v", c)
	}

	// The answer is a multipart callback: payload_json and files[0].
	if !strings.HasPrefix(cb.ContentType, "multipart/form-data") || len(cb.Files) != 1 {
		t.Fatalf("callback: %s, %d files", cb.ContentType, len(cb.Files))
	}
	f := cb.Files[0]
	if f.Field != "files[0]" || f.Name != "c1.png" || f.ContentType != "image/png" || !bytes.Equal(f.Data, img) {
		t.Errorf("file: %s %s %s %d bytes", f.Field, f.Name, f.ContentType, len(f.Data))
	}
	if jnum(cb.JSON, "type") != 4 || jstr(cb.JSON, "data", "content") != "<@111> challenges <@222> to Möbius chess." ||
		jstr(cb.JSON, "data", "attachments", 0, "description") != "The start position of Möbius chess." ||
		jstr(cb.JSON, "data", "attachments", 0, "filename") != "c1.png" || jnum(cb.JSON, "data", "flags") != 0 {
		t.Errorf("callback payload: %s", pretty(cb.JSON))
	}
	if got := jsonPath(cb.JSON, "data", "allowed_mentions"); jsonPath(got, "users", 0) != "222" || len(jsonPath(got, "parse").([]any)) != 0 {
		t.Errorf("allowed mentions: %s", pretty(got))
	}
	ids := buttons(jsonPath(cb.JSON, "data"))
	if len(ids) != 2 || jnum(cb.JSON, "data", "components", 0, "components", 0, "style") != 3 || jstr(cb.JSON, "data", "components", 0, "components", 0, "label") != "Accept" {
		t.Fatalf("buttons: %s", pretty(jsonPath(cb.JSON, "data", "components")))
	}
	for _, id := range ids {
		if len(id) > 100 {
			t.Errorf("custom_id longer than 100: %q", id)
		}
	}
	// The keyed answer's id is looked up, so its buttons can be cleared.
	e.webhook(id, "GET", "/messages/@original")
}

func TestButtonsAreReservedAndSuperseded(t *testing.T) {
	t.Parallel()
	var rec recorder
	e := start(t, handlerFunc(func(cmd bot.Command) []bot.Reply {
		rec.add(cmd)
		switch cmd.Name {
		case "challenge":
			return []bot.Reply{{Text: "challenge c1", Key: "challenge:c1",
				Buttons: []bot.Button{{Label: "Accept", Command: "accept", Args: map[string]string{"challenge": "c1"}, For: "discord:222"}}}}
		case "accept":
			return []bot.Reply{{Text: "game g1 starts", Supersedes: []string{"challenge:c1"}}}
		}
		return nil
	}), nil)
	id := e.slash(alice, "challenge", opt{name: "opponent", typ: 6, value: bob.id})
	cb := e.callback(id)
	e.webhook(id, "GET", "/messages/@original")
	accept := buttons(jsonPath(cb.JSON, "data"))[0]

	// Alice may not press Bob's button: a private notice, no command.
	wrong := e.press(alice, accept)
	n := e.callback(wrong)
	if jnumReq(n, "type") != 4 || jnum(n.JSON, "data", "flags") != 64 || !strings.Contains(jstr(n.JSON, "data", "content"), "not yours") {
		t.Errorf("notice: %s", pretty(n.JSON))
	}
	if len(rec.list()) != 1 {
		t.Errorf("the wrong user's press reached the bot: %+v", rec.list())
	}

	right := e.press(bob, accept)
	a := e.callback(right)
	if jstr(a.JSON, "data", "content") != "game g1 starts" {
		t.Errorf("accept answer: %s", pretty(a.JSON))
	}
	cmds := rec.list()
	if last := cmds[len(cmds)-1]; last.Name != "accept" || last.Args["challenge"] != "c1" || last.User.ID != "discord:222" || last.EventID != right {
		t.Errorf("press became %+v", last)
	}
	// The challenge's buttons are removed by editing it with none.
	edit := e.webhook(id, "PATCH", "/messages/@original")
	if comps, ok := jsonPath(edit.JSON, "components").([]any); !ok || len(comps) != 0 {
		t.Errorf("superseding edit: %s", edit.Raw)
	}
}

func jnumReq(r *request, path ...any) float64 { return jnum(r.JSON, path...) }

func TestErrorsArePrivate(t *testing.T) {
	t.Parallel()
	e := start(t, handlerFunc(func(cmd bot.Command) []bot.Reply {
		return []bot.Reply{{Text: "It is not your turn.", Private: true, Error: true}}
	}), nil)
	cb := e.callback(e.slash(alice, "move", str("move", "e2e4")))
	if jnumReq(cb, "type") != 4 || jnumReq(cb, "data", "flags") != 64 || jstr(cb.JSON, "data", "content") != "It is not your turn." {
		t.Errorf("error answer: %s", pretty(cb.JSON))
	}
}

func TestSlowCommandsAreDeferred(t *testing.T) {
	t.Parallel()
	img := tinyPNG(t)
	release := make(chan struct{})
	e := start(t, handlerFunc(func(cmd bot.Command) []bot.Reply {
		<-release // the bot is slow until the test says otherwise
		if cmd.Name == "moves" {
			return []bot.Reply{{Text: "g1: Nf3, Nh3", Private: true}}
		}
		return []bot.Reply{{Text: "board", Image: &bot.Image{Name: "g1-0.png", PNG: img, Alt: "alt"}, Key: "k1"}, {Text: "second", Private: true}}
	}), func(c *Config) { c.DeferAfter = 50 * time.Millisecond })

	// Acknowledged while the bot is still working.
	id := e.slash(alice, "board")
	cb := e.callback(id)
	if jnumReq(cb, "type") != 5 || len(cb.Files) != 0 {
		t.Fatalf("expected a deferred acknowledgement: %s", pretty(cb.JSON))
	}
	release <- struct{}{}
	edit := e.webhook(id, "PATCH", "/messages/@original")
	if jstr(edit.JSON, "content") != "board" || len(edit.Files) != 1 || jstr(edit.JSON, "attachments", 0, "description") != "alt" {
		t.Errorf("deferred answer: %s, %d files", pretty(edit.JSON), len(edit.Files))
	}
	follow := e.webhook(id, "POST", "")
	if follow.Query != "wait=true" || jnumReq(follow, "flags") != 64 || jstr(follow.JSON, "content") != "second" {
		t.Errorf("follow-up: %s %s", follow.Query, pretty(follow.JSON))
	}

	// A private first answer cannot replace a public "thinking…": it is
	// deleted and the answer follows privately.
	id = e.slash(alice, "moves", str("cell", "g1"))
	e.callback(id)
	release <- struct{}{}
	e.webhook(id, "DELETE", "/messages/@original")
	p := e.webhook(id, "POST", "")
	if jnumReq(p, "flags") != 64 || jstr(p.JSON, "content") != "g1: Nf3, Nh3" {
		t.Errorf("private follow-up: %s", pretty(p.JSON))
	}
}

func TestAutocomplete(t *testing.T) {
	t.Parallel()
	var got []string
	var mu = make(chan struct{}, 1)
	mu <- struct{}{}
	h := suggestHandler{
		handlerFunc: func(bot.Command) []bot.Reply { return nil },
		suggest: func(cmd bot.Command, option, typed string) []bot.Choice {
			<-mu
			got = append(got, cmd.Name+"/"+option+"/"+typed+"/"+cmd.Args["game"]+"/"+cmd.User.ID)
			mu <- struct{}{}
			var out []bot.Choice
			for i := range 40 { // more than Discord takes, some too long
				out = append(out, bot.Choice{Name: "Nf3 (g1-f3) " + strings.Repeat("x", i*5), Value: "g1-f3"})
			}
			return out
		},
	}
	e := start(t, h, nil)
	id := e.typing(alice, "move", opt{name: "move", typ: 3, value: "Nf", focused: true}, str("game", "g7"))
	cb := e.callback(id)
	if jnumReq(cb, "type") != 8 {
		t.Fatalf("autocomplete answer: %s", pretty(cb.JSON))
	}
	cs := jsonPath(cb.JSON, "data", "choices").([]any)
	if len(cs) != 25 {
		t.Errorf("%d choices, want Discord's 25", len(cs))
	}
	for _, c := range cs {
		if n := []rune(jstr(c, "name")); len(n) > 100 || len(n) == 0 || jstr(c, "value") != "g1-f3" {
			t.Errorf("choice %s", pretty(c))
		}
	}
	<-mu
	if !slices.Equal(got, []string{"move/move/Nf/g7/discord:111"}) {
		t.Errorf("suggest asked %q", got)
	}
	mu <- struct{}{}
}

func TestManyChoicesBecomeSelectMenus(t *testing.T) {
	t.Parallel()
	var rec recorder
	e := start(t, handlerFunc(func(cmd bot.Command) []bot.Reply {
		rec.add(cmd)
		if cmd.Name != "games" {
			return []bot.Reply{{Text: "showing " + cmd.Args["game"]}}
		}
		r := bot.Reply{Text: "Which game?", Private: true}
		for i := range 30 {
			g := "g" + string(rune('a'+i%26)) + strings.Repeat("z", i/26)
			r.Buttons = append(r.Buttons, bot.Button{Label: "Game " + g, Command: "board", Args: map[string]string{"game": g}, For: "discord:111"})
		}
		return []bot.Reply{r}
	}), nil)
	cb := e.callback(e.slash(alice, "games"))
	rows := jsonPath(cb.JSON, "data", "components").([]any)
	if len(rows) != 2 || jnum(rows[0], "components", 0, "type") != 3 ||
		len(jsonPath(rows[0], "components", 0, "options").([]any)) != 25 || len(jsonPath(rows[1], "components", 0, "options").([]any)) != 5 {
		t.Fatalf("select menus: %s", pretty(rows))
	}
	menu := jstr(rows[1], "components", 0, "custom_id")
	value := jstr(rows[1], "components", 0, "options", 2, "value")
	// Bob may not choose from Alice's menu; Alice may.
	if n := e.callback(e.press(bob, menu, value)); !strings.Contains(jstr(n.JSON, "data", "content"), "not yours") {
		t.Errorf("bob's choice: %s", pretty(n.JSON))
	}
	a := e.callback(e.press(alice, menu, value))
	if jstr(a.JSON, "data", "content") != "showing gbz" {
		t.Errorf("choice answered %s", pretty(a.JSON))
	}
	cmds := rec.list()
	if last := cmds[len(cmds)-1]; last.Name != "board" || last.Args["game"] != "gbz" {
		t.Errorf("choice became %+v", last)
	}
}

func TestLongTextIsSplit(t *testing.T) {
	t.Parallel()
	line := strings.Repeat("a", 99) + "\n"
	e := start(t, handlerFunc(func(cmd bot.Command) []bot.Reply {
		return []bot.Reply{{Text: strings.Repeat(line, 45), Private: true}} // 4500 characters
	}), nil)
	id := e.slash(alice, "variants")
	cb := e.callback(id)
	parts := []string{jstr(cb.JSON, "data", "content")}
	for _, f := range e.webhooksN(id, "POST", "", 2) {
		parts = append(parts, jstr(f.JSON, "content"))
		if jnumReq(f, "flags") != 64 {
			t.Errorf("a part of a private text is public")
		}
	}
	total := 0
	for _, p := range parts {
		if len(p) > 2000 || len(p) == 0 {
			t.Errorf("part of %d characters", len(p))
		}
		total += len(p)
	}
	if total+len(parts)-1 != 4500 { // the line breaks where it was cut are dropped
		t.Errorf("parts total %d characters", total)
	}
}

func TestLongButtonCodesRoundTrip(t *testing.T) {
	t.Parallel()
	var rec recorder
	long := strings.Repeat("e2-e4,", 30)
	e := start(t, handlerFunc(func(cmd bot.Command) []bot.Reply {
		rec.add(cmd)
		return []bot.Reply{{Text: "pick", Buttons: []bot.Button{{Label: "this", Command: "move", Args: map[string]string{"move": long}}}}}
	}), nil)
	cb := e.callback(e.slash(alice, "move", str("move", "x")))
	code := buttons(jsonPath(cb.JSON, "data"))[0]
	if len(code) > 100 {
		t.Fatalf("custom_id of %d characters", len(code))
	}
	e.callback(e.press(bob, code))
	cmds := rec.list()
	if last := cmds[len(cmds)-1]; last.Name != "move" || last.Args["move"] != long {
		t.Errorf("press became %+v", last)
	}
}

func TestUnknownButton(t *testing.T) {
	t.Parallel()
	var rec recorder
	e := start(t, handlerFunc(func(cmd bot.Command) []bot.Reply { rec.add(cmd); return nil }), nil)
	for _, code := range []string{"k:999", "nonsense", "b:::", "s:0"} {
		n := e.callback(e.press(alice, code))
		if jnumReq(n, "data", "flags") != 64 {
			t.Errorf("%q: %s", code, pretty(n.JSON))
		}
	}
	if len(rec.list()) != 0 {
		t.Errorf("unknown buttons reached the bot: %+v", rec.list())
	}
}

func TestSendFromTheBot(t *testing.T) {
	e := start(t, handlerFunc(func(bot.Command) []bot.Reply { return nil }), nil)
	e.a.Send(bot.Reply{Channel: "discord:777", Text: "g1: <@22>, half your time for this move is gone.", Mentions: []string{"discord:22"}, Private: true})
	e.a.Send(bot.Reply{Channel: "web:lobby", Text: "not ours"})
	r := e.f.waitFor("channel message", func(r *request) bool {
		return r.Method == "POST" && r.Path == "/channels/777/messages"
	})
	if got, _ := r.JSON["content"].(string); !strings.Contains(got, "half your time") {
		t.Errorf("content %q", got)
	}
	if flags, _ := r.JSON["flags"].(float64); flags != 0 {
		t.Errorf("a channel message cannot be ephemeral: flags %v", flags)
	}
}
