package telegram

import (
	"context"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"topochess/bot"
)

// botMessages are the messages the bot really got into the chat (failed
// attempts leave none), oldest first.
func (f *fakeAPI) botMessages(chat int64) []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	var ids []int
	for id, m := range f.messages {
		from, _ := m["from"].(map[string]any)
		c, _ := m["chat"].(map[string]any)
		if from != nil && from["is_bot"] == true && c != nil && c["id"] == chat {
			ids = append(ids, id)
		}
	}
	sort.Ints(ids)
	out := make([]map[string]any, len(ids))
	for i, id := range ids {
		out[i] = maps.Clone(f.messages[id])
	}
	return out
}

// captions are the captions of the pictures that reached the chat.
func (f *fakeAPI) captions(chat int64) []string {
	var out []string
	for _, m := range f.botMessages(chat) {
		if _, ok := m["photo"]; ok {
			out = append(out, m["caption"].(string))
		}
	}
	return out
}

// startGroupGame has alice challenge bob in the group and bob accept; it
// returns once the first picture is there.
func startGroupGame(t *testing.T, g game) {
	t.Helper()
	g.f.say(bob, group, "hi")
	m := g.mark()
	g.f.say(alice, group, "/challenge @bob white")
	ch, m := g.next("sendMessage", m)
	g.f.press(bob, g.sentID(), buttonData(t, ch.Params["reply_markup"], "Accept"))
	_, m = g.photo(m, "@alice, your move")
	g.next("editMessageReplyMarkup", m) // the challenge's buttons go
}

func TestMovePhotoSurvivesHTML500AndDroppedConnection(t *testing.T) {
	f := newFakeAPI(t)
	r := start(t, f, newService(t), nil)
	g := game{t, f}
	startGroupGame(t, g)

	// The front end's HTML error page, then a connection that drops after
	// the upload: both are transient, so the picture must still arrive.
	f.script("sendPhoto", htmlError(500), scripted{dropConnection, ""}, htmlError(502))
	m := g.mark()
	f.say(alice, group, "f3")
	tries := f.waitSent("sendPhoto", m, 4)
	for _, p := range tries {
		if !strings.Contains(p.Params["caption"], "1. f3") {
			t.Errorf("attempt with caption %q, want the picture of 1. f3 each time", p.Params["caption"])
		}
	}
	f.waitFor("the picture of 1. f3 in the chat", func([]apiRequest) bool {
		c := f.captions(group)
		return len(c) == 2 && strings.Contains(c[1], "1. f3") && strings.Contains(c[1], "@bob, your move")
	})
	if l := r.logs.String(); strings.Contains(l, "refused") || strings.Contains(l, "giving up") {
		t.Errorf("a transient failure was treated as final:\n%s", r.logs.String())
	}
	// The game goes on: bob was prompted and can answer.
	m = g.mark()
	f.say(bob, group, "e5")
	g.photo(m, "1... e5")
}

func TestRefusedSendIsNotRetried(t *testing.T) {
	f := newFakeAPI(t)
	r := start(t, f, &scriptHandler{}, nil)
	f.script("sendMessage", scripted{403, `{"ok":false,"error_code":403,"description":"Forbidden: bot was blocked by the user"}`})
	f.say(alice, int64(alice.ID), "/help")
	f.waitFor("the refusal logged", func([]apiRequest) bool { return strings.Contains(r.logs.String(), "refused") })
	time.Sleep(100 * time.Millisecond)
	if n := f.count("sendMessage"); n != 1 {
		t.Errorf("a message refused with 403 was tried %d times, want once", n)
	}
}

func TestPGNIsADocument(t *testing.T) {
	f := newFakeAPI(t)
	start(t, f, newService(t), nil)
	g := game{t, f}
	startGroupGame(t, g)
	m := g.mark()
	f.say(alice, group, "f3")
	_, m = g.photo(m, "1. f3")
	f.say(bob, group, "e5")
	_, m = g.photo(m, "1... e5")

	f.say(alice, group, "/pgn")
	doc, _ := g.next("sendDocument", m)
	if doc.Params["document"] != "(file game1.pgn)" || !strings.Contains(string(doc.File), `[Event `) || !strings.Contains(string(doc.File), "1. f3 e5") {
		t.Errorf("document %s:\n%s", doc.Params["document"], doc.File)
	}
	// The text in a code block: HTML, since the library drops a
	// document's caption entities.
	caption := doc.Params["caption"]
	pgn := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(string(doc.File))
	if doc.Params["parse_mode"] != "HTML" || strings.Contains(caption, "```") || caption != "PGN of #1:\n<pre>"+pgn+"</pre>" {
		t.Errorf("caption (%s) %q", doc.Params["parse_mode"], caption)
	}
}

func TestReplayHasNoMoveButton(t *testing.T) {
	f := newFakeAPI(t)
	start(t, f, newService(t), nil)
	g := game{t, f}
	startGroupGame(t, g)
	board := g.sentID()
	m := g.mark()
	f.say(alice, group, "/replay")
	an, m := g.next("sendAnimation", m)
	if an.Params["reply_markup"] != "" {
		t.Errorf("the replay has a keyboard: %s", an.Params["reply_markup"])
	}
	// The board keeps its Move button: the replay is no newer board.
	f.say(alice, group, "f3")
	_, _ = g.photo(m, "1. f3")
	e, _ := g.nextEdit(board, m)
	if e.Params["reply_markup"] != `{"inline_keyboard":[]}` {
		t.Errorf("board edited to %s", e.Params["reply_markup"])
	}
	for _, r := range f.requests()[m:] {
		if r.Method == "editMessageReplyMarkup" && r.Params["message_id"] != itoa(board) {
			t.Errorf("an edit of message %s, not the old board %d", r.Params["message_id"], board)
		}
	}
}

// The bot may post (a resumed game's computer move) before the adapter
// has connected: the reply waits in the queue.
func TestSendBeforeRun(t *testing.T) {
	f := newFakeAPI(t)
	a, err := New(Config{Token: f.token, APIEndpoint: f.endpoint(), PollTimeout: time.Second, Limits: fastLimits,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, &scriptHandler{})
	if err != nil {
		t.Fatal(err)
	}
	a.Send(bot.Reply{Channel: "telegram:-100123", Text: "g1 · 12... Qe7 · @alice, your move"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	got := f.waitSent("sendMessage", 0, 1)
	if !strings.Contains(got[0].Params["text"], "Qe7") {
		t.Errorf("sent %q", got[0].Params["text"])
	}
	cancel()
	if err := <-done; err != nil {
		t.Error(err)
	}
}

// What is transient, through the real HTTP client: a timeout, a refused
// connection, an error page; and what is a refusal.
func TestRetryClassification(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(300 * time.Millisecond)
	}))
	defer slow.Close()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(503)
		io.WriteString(w, "<html>503</html>")
	}))
	defer page.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	c := &ctxClient{c: &http.Client{Timeout: 50 * time.Millisecond}, poll: context.Background(), sendCtxt: context.Background()}
	do := func(url string) error {
		req, _ := http.NewRequest("POST", url+"/bot"+testToken+"/sendPhoto", nil)
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		return err
	}
	unit := time.Second
	for _, tc := range []struct {
		name  string
		err   error
		retry bool
		wait  time.Duration
	}{
		{"timeout", do(slow.URL), true, unit},
		{"refused connection", do(closed.URL), true, unit},
		{"HTML error page", do(page.URL), true, unit},
		{"JSON 500", &tgbotapi.Error{Code: 500, Message: "Internal Server Error"}, true, unit},
		{"429 upload", &tgbotapi.Error{ResponseParameters: tgbotapi.ResponseParameters{RetryAfter: 7}}, true, 7 * unit},
		{"403 blocked", &tgbotapi.Error{Code: 403, Message: "Forbidden: bot was blocked by the user"}, false, 0},
		{"400 chat not found", &tgbotapi.Error{Code: 400, Message: "Bad Request: chat not found"}, false, 0},
	} {
		if tc.err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if strings.Contains(tc.err.Error(), testToken) {
			t.Errorf("%s: the token is in the error: %v", tc.name, tc.err)
		}
		wait, retry := retryDelay(tc.err, unit, 1)
		if retry != tc.retry || wait != tc.wait {
			t.Errorf("%s (%v): retry %v after %v, want %v after %v", tc.name, tc.err, retry, wait, tc.retry, tc.wait)
		}
	}
	if w, _ := retryDelay(do(page.URL), unit, 4); w != 8*unit {
		t.Errorf("fourth try waits %v, want 8 s", w)
	}
}
