package telegram

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"topochess/bot"
)

func TestCommandsRegisteredAndParsed(t *testing.T) {
	f := newFakeAPI(t)
	h := &scriptHandler{}
	start(t, f, h, nil)

	var reg []struct{ Command, Description string }
	for _, r := range f.requests() {
		if r.Method == "setMyCommands" {
			json.Unmarshal([]byte(r.Params["commands"]), &reg)
		}
	}
	var names []string
	for _, c := range reg {
		names = append(names, c.Command)
		if len(c.Description) < 3 || len(c.Description) > 256 {
			t.Errorf("/%s: description length %d outside Telegram's 3..256", c.Command, len(c.Description))
		}
	}
	want := []string{"challenge", "accept", "decline", "cancel", "move", "board", "moves", "resign", "draw", "games", "variants", "rules", "help", "settings", "takeback", "pgn", "replay", "history", "leaderboard", "stats", "rematch", "review", "watch", "puzzle"}
	if !slices.Equal(names, want) {
		t.Errorf("setMyCommands registered %v, want %v", names, want)
	}

	f.say(bob, group, "hello everyone")                  // chatter: not a command, no reply
	f.say(alice, group, "/move@topochess_bot e2e4")      // addressed to us
	f.say(alice, group, "/move@otherbot e2e4")           // another bot's
	f.say(alice, group, "/frobnicate")                   // unknown, not addressed: someone else's
	f.say(alice, group, "/challenge @bob moebius white") // bob is known: he spoke
	f.say(alice, int64(alice.ID), "/start")              // private chat
	f.waitSent("sendMessage", 0, 3)

	got := h.commands()
	if len(got) != 3 {
		t.Fatalf("handled %d commands, want 3: %+v", len(got), got)
	}
	// Chats are handled in parallel, so only the group's order is fixed.
	byName := map[string]bot.Command{}
	for _, c := range got {
		byName[c.Name] = c
	}
	mv, ch, st := byName["move"], byName["challenge"], byName["start"]
	if mv.Name != "move" || mv.Text != "e2e4" || mv.Channel != "telegram:-100123" || mv.User.ID != "telegram:11" || mv.Platform != "telegram" {
		t.Errorf("move command = %+v", mv)
	}
	if ch.Name != "challenge" || ch.Text != "@bob moebius white" || len(ch.Mentions) != 1 || ch.Mentions[0].ID != "telegram:22" || ch.Mentions[0].Mention != "@bob" {
		t.Errorf("challenge command = %+v", ch)
	}
	if st.Name != "start" || st.Channel != "telegram:11" {
		t.Errorf("private command = %+v", st)
	}
	if mv.EventID == "" || mv.EventID == ch.EventID {
		t.Errorf("event ids %q and %q should be set and distinct", mv.EventID, ch.EventID)
	}
}

func TestChallengeByReplyAndUnknownUsername(t *testing.T) {
	f := newFakeAPI(t)
	h := &scriptHandler{reply: func(c bot.Command) []bot.Reply {
		return []bot.Reply{{Text: "Ålice ♞ challenges Carol to a game.", Mentions: []string{"telegram:33"}}}
	}}
	start(t, f, h, nil)

	hers := f.say(carol, group, "anyone up for a game?")
	f.sayReplying(alice, group, "/challenge torus", hers)
	f.say(alice, group, "/challenge @nobody_here")
	sent := f.waitSent("sendMessage", 0, 2)

	got := h.commands()
	if len(got) != 1 || len(got[0].Mentions) != 1 || got[0].Mentions[0].ID != "telegram:33" || got[0].Mentions[0].Name != "Carol" {
		t.Fatalf("challenge by reply: %+v", got)
	}
	// Carol has no @username: her name becomes a text mention, which
	// notifies her. Offsets count UTF-16 units: "Ålice ♞ challenges " is
	// 5+1+1+1+10+1 = 19 of them (Å and ♞ one each, though 2 and 3 bytes).
	var ents []struct {
		Type           string
		Offset, Length int
		User           struct{ ID int64 }
	}
	json.Unmarshal([]byte(sent[0].Params["entities"]), &ents)
	if len(ents) != 1 || ents[0].Type != "text_mention" || ents[0].Offset != 19 || ents[0].Length != 5 || ents[0].User.ID != 33 {
		t.Errorf("mention entities = %+v (from %s)", ents, sent[0].Params["entities"])
	}
	if !strings.Contains(sent[1].Params["text"], "I don't know @nobody_here yet") || sent[1].Params["reply_to_message_id"] == "" {
		t.Errorf("unknown username answer = %v", sent[1].Params)
	}
}

func TestButtonsOnlyForTheirUser(t *testing.T) {
	f := newFakeAPI(t)
	h := &scriptHandler{reply: func(c bot.Command) []bot.Reply {
		switch c.Name {
		case "challenge":
			args := map[string]string{"challenge": "c7"}
			return []bot.Reply{{Text: "Alice challenges @bob", Key: "challenge:c7", Mentions: []string{"telegram:22"}, Buttons: []bot.Button{
				{Label: "Accept", Command: "accept", Args: args, For: "telegram:22"},
				{Label: "Decline", Command: "decline", Args: args, For: "telegram:22"},
			}}}
		case "accept":
			return []bot.Reply{{Text: "Game g1 begins", Supersedes: []string{"challenge:c7"}}}
		}
		return nil
	}}
	r := start(t, f, h, nil)
	f.say(bob, group, "hi")
	f.say(alice, group, "/challenge @bob")
	sent := f.waitSent("sendMessage", 0, 1)
	btns := buttonsOf(sent[0].Params["reply_markup"])
	if len(btns) != 2 || btns[0][0] != "Accept" || len(btns[0][1]) > 64 {
		t.Fatalf("challenge buttons = %v", btns)
	}
	msg := f.lastSent()

	n := len(f.requests())
	f.press(alice, msg, btns[0][1])
	ans := f.waitSent("answerCallbackQuery", n, 1)
	if ans[0].Params["text"] != "This button is not for you." {
		t.Errorf("answer to the wrong user = %v", ans[0].Params)
	}
	n = len(f.requests())
	f.press(bob, msg, btns[0][1])
	f.waitSent("answerCallbackQuery", n, 1)
	edits := f.waitSent("editMessageReplyMarkup", n, 1)
	if edits[0].Params["reply_markup"] != `{"inline_keyboard":[]}` {
		t.Errorf("superseded keyboard edited to %s", edits[0].Params["reply_markup"])
	}
	cmds := h.commands()
	last := cmds[len(cmds)-1]
	if last.Name != "accept" || last.Args["challenge"] != "c7" || last.User.ID != "telegram:22" {
		t.Errorf("button press = %+v", last)
	}
	// Removing the keyboard again is "message is not modified" for
	// Telegram: success, neither retried nor logged as a failure.
	r.a.editKeyboard(group, msg, emptyKeyboard())
	f.waitSent("editMessageReplyMarkup", n, 2)
	time.Sleep(30 * time.Millisecond)
	if f.count("editMessageReplyMarkup") != 2 || strings.Contains(r.logs.String(), "call failed") {
		t.Errorf("message is not modified was treated as a failure:\n%s", r.logs.String())
	}
}

func TestRetryAfter(t *testing.T) {
	f := newFakeAPI(t)
	png := bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 100)
	h := &scriptHandler{reply: func(c bot.Command) []bot.Reply {
		return []bot.Reply{
			{Text: "board", Image: &bot.Image{Name: "g1-0.png", PNG: png, Game: "g1"}},
			{Text: "after the board"},
		}
	}}
	// Both kinds of 429: the multipart upload (Code 0, only retry_after)
	// and the form request.
	f.script("sendPhoto", tooMany(3))
	f.script("sendMessage", tooMany(2))
	r := start(t, f, h, nil)
	f.say(alice, group, "/board")
	msgs := f.waitSent("sendMessage", 0, 2)
	photos := f.waitSent("sendPhoto", 0, 2)
	if !bytes.Equal(photos[1].File, png) {
		t.Errorf("the retried photo upload is %d bytes, want the %d-byte PNG", len(photos[1].File), len(png))
	}
	unit := r.a.retryUnit
	if gap := photos[1].At.Sub(photos[0].At); gap < 3*unit {
		t.Errorf("photo retried after %v, want ≥ retry_after 3 s (%v here)", gap, 3*unit)
	}
	if gap := msgs[1].At.Sub(msgs[0].At); gap < 2*unit {
		t.Errorf("message retried after %v, want ≥ 2 s of retry_after (%v here)", gap, 2*unit)
	}
	if msgs[0].At.Before(photos[1].At) {
		t.Error("the text was sent before the photo it follows")
	}
}

func TestPollingRecoversAndDuplicatesApplyOnce(t *testing.T) {
	f := newFakeAPI(t)
	h := &scriptHandler{}
	f.script("getMe", scripted{502, `<html>Bad Gateway</html>`}) // at start: retried
	f.script("getUpdates",
		scripted{502, `<html>Bad Gateway</html>`},
		scripted{500, `{"ok":false,"error_code":500,"description":"Internal Server Error"}`},
		tooMany(1),
	)
	r := start(t, f, h, nil)
	u := f.message(alice, group, "/board", 0)
	u["update_id"] = 500
	f.push(u)
	f.push(u) // the same update twice in one answer
	f.waitSent("sendMessage", 0, 1)
	time.Sleep(50 * time.Millisecond)
	if n := len(h.commands()); n != 1 {
		t.Errorf("a duplicated update was handled %d times", n)
	}
	if f.count("sendMessage") != 1 {
		t.Errorf("%d replies to one update", f.count("sendMessage"))
	}
	polls := 0
	for _, q := range f.requests() {
		if q.Method == "getUpdates" {
			polls++
			if q.Params["timeout"] == "" || q.Params["timeout"] == "0" {
				t.Errorf("getUpdates without a long-poll timeout: %v", q.Params)
			}
		}
	}
	if polls < 4 {
		t.Errorf("%d polls; the three failures should have been followed by more", polls)
	}
	w := r.asked()
	// getMe once (10ms), then the polls: 10ms, 20ms, then retry_after.
	if len(w) < 4 || w[0] != 10*time.Millisecond || w[1] != 10*time.Millisecond || w[2] != 20*time.Millisecond || w[3] != r.a.retryUnit {
		t.Errorf("backoff waits %v: want 10ms (getMe), then 10ms, 20ms, retry_after (1 unit)", w)
	}
	if !strings.Contains(r.logs.String(), "getUpdates failed") {
		t.Error("failed polls were not logged")
	}
}

func TestWebhookSecret(t *testing.T) {
	f := newFakeAPI(t)
	h := &scriptHandler{}
	r := start(t, f, h, func(c *Config) {
		c.WebhookURL = "https://bot.example.org/tg/hook"
		c.WebhookSecret = "s3cret_Value-1"
		c.WebhookListen = "127.0.0.1:0"
	})
	addr := <-r.a.listening
	var set apiRequest
	f.waitFor("setWebhook", func(reqs []apiRequest) bool {
		for _, q := range reqs {
			if q.Method == "setWebhook" {
				set = q
				return true
			}
		}
		return false
	})
	if set.Params["url"] != "https://bot.example.org/tg/hook" || set.Params["secret_token"] != "s3cret_Value-1" || !strings.Contains(set.Params["allowed_updates"], "callback_query") {
		t.Errorf("setWebhook params = %v", set.Params)
	}
	if f.count("getUpdates") != 0 {
		t.Error("webhook mode polled too")
	}
	body, _ := json.Marshal(f.message(alice, group, "/help", 0)["message"])
	post := func(secret string, id int) int {
		upd := []byte(`{"update_id":` + itoa(id) + `,"message":` + string(body) + `}`)
		req, _ := http.NewRequest("POST", "http://"+addr+"/tg/hook", bytes.NewReader(upd))
		if secret != "" {
			req.Header.Set(secretHeader, secret)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, c := range []struct {
		secret string
		id     int
		want   int
	}{
		{"", 7001, 401},
		{"wrong", 7002, 401},
		{"s3cret_Value-", 7003, 401},
		{"s3cret_Value-1", 7004, 200},
		{"s3cret_Value-1", 7004, 200}, // Telegram redelivers: applied once
	} {
		if got := post(c.secret, c.id); got != c.want {
			t.Errorf("secret %q: status %d, want %d", c.secret, got, c.want)
		}
	}
	f.waitSent("sendMessage", 0, 1)
	time.Sleep(30 * time.Millisecond)
	if n := len(h.commands()); n != 1 {
		t.Errorf("handled %d commands, want 1 (one good update, delivered twice)", n)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestFloodLimits(t *testing.T) {
	f := newFakeAPI(t)
	h := &scriptHandler{reply: func(c bot.Command) []bot.Reply {
		var out []bot.Reply
		for i := 0; i < 5; i++ {
			out = append(out, bot.Reply{Text: "line " + itoa(i)})
		}
		return out
	}}
	start(t, f, h, func(c *Config) {
		c.Limits = Limits{PerChat: 30 * time.Millisecond, GroupMessages: 3, GroupWindow: 300 * time.Millisecond, Global: 1000, GlobalWindow: time.Second}
	})
	f.say(alice, group, "/games")
	sent := f.waitSent("sendMessage", 0, 5)
	// Times are taken when requests reach the fake, so one request's
	// transit may shorten a gap by a little: 5 ms are allowed for that.
	const slack = 5 * time.Millisecond
	for i := 1; i < len(sent); i++ {
		if gap := sent[i].At.Sub(sent[i-1].At); gap < 30*time.Millisecond-slack {
			t.Errorf("messages %d and %d %v apart, want ≥ 30ms per chat", i-1, i, gap)
		}
		if !strings.HasSuffix(sent[i].Params["text"], itoa(i)) {
			t.Errorf("message %d is %q: out of order", i, sent[i].Params["text"])
		}
	}
	if gap := sent[3].At.Sub(sent[0].At); gap < 300*time.Millisecond-slack {
		t.Errorf("4th message %v after the 1st, want ≥ the 300ms group window for 3 messages", gap)
	}
}

func TestSendFromTheBot(t *testing.T) {
	f := newFakeAPI(t)
	r := start(t, f, &scriptHandler{}, nil)
	r.a.Send(bot.Reply{Channel: "telegram:-100123", Text: "g1: half your time for this move is gone."})
	r.a.Send(bot.Reply{Channel: "web:lobby", Text: "not ours"})
	f.waitSent("sendMessage", 0, 1)
	sent := 0
	for _, q := range f.requests() {
		if q.Method != "sendMessage" {
			continue
		}
		if strings.Contains(q.Params["text"], "not ours") {
			t.Error("a reply for another platform was sent")
		}
		if strings.Contains(q.Params["text"], "half your time") && q.Params["chat_id"] == "-100123" {
			sent++
		}
	}
	if sent != 1 {
		t.Errorf("the reminder was sent %d times to the group, want once", sent)
	}
}

func TestReplayIsAnAnimation(t *testing.T) {
	f := newFakeAPI(t)
	gif := []byte("GIF89a-fake-bytes")
	h := &scriptHandler{reply: func(c bot.Command) []bot.Reply {
		return []bot.Reply{{Text: "g1 replay", Image: &bot.Image{Name: "g1.gif", PNG: gif}}}
	}}
	start(t, f, h, nil)
	f.say(alice, group, "/replay")
	got := f.waitSent("sendAnimation", 0, 1)
	if !bytes.Equal(got[0].File, gif) || got[0].Params["caption"] != "g1 replay" {
		t.Errorf("sendAnimation %q with %d bytes", got[0].Params["caption"], len(got[0].File))
	}
	if n := f.count("sendPhoto"); n != 0 {
		t.Errorf("the replay also went out as %d photos", n)
	}
}
