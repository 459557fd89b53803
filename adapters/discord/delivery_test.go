package discord

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"topochess/bot"
)

const htmlPage = "<html><head><title>500 Internal Server Error</title></head><body>cloudflare</body></html>"

// failFirst answers the first requests pick matches with the given
// failures, in order, and lets the rest through.
func failFirst(pick func(*request) bool, fails ...*discordError) func(*request) *discordError {
	var mu sync.Mutex
	return func(r *request) *discordError {
		mu.Lock()
		defer mu.Unlock()
		if !pick(r) || len(fails) == 0 {
			return nil
		}
		e := fails[0]
		fails = fails[1:]
		return e
	}
}

func boardReply(t *testing.T) bot.Handler {
	png := tinyPNG(t)
	return handlerFunc(func(bot.Command) []bot.Reply {
		return []bot.Reply{{Text: "g1 · 1. f3 · <@222>, your move", Image: &bot.Image{Name: "g1-1.png", PNG: png, Alt: "board"}}}
	})
}

// A 500 with an error page and a connection cut after the answer had
// arrived: the picture is answered once, and nobody gets an apology.
func TestPictureAnswerSurvives500AndDrop(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t, testToken)
	f.failIf = failFirst(func(r *request) bool { return strings.HasPrefix(r.Path, "/interactions/") && len(r.Files) > 0 },
		&discordError{status: 500, html: htmlPage},
		&discordError{arrived: true})
	e := startOn(t, f, boardReply(t), nil)
	id := e.slash(alice, "board")
	tries := e.f.waitN("three callbacks", 3, func(r *request) bool { return strings.HasPrefix(r.Path, "/interactions/"+id+"/") })
	for i, r := range tries {
		if len(r.Files) != 1 || !bytes.Equal(r.Files[0].Data, tinyPNG(t)) {
			t.Errorf("attempt %d without the picture", i+1)
		}
	}
	e.logs.waitFor(t, "an earlier attempt had arrived")
	time.Sleep(100 * time.Millisecond)
	for _, r := range e.f.all() {
		if strings.Contains(string(r.Raw), "Sorry") {
			t.Errorf("an apology was sent: %s", r.Raw)
		}
	}
	if n := len(e.f.all()); strings.Contains(e.logs.String(), "REST call failed") {
		t.Errorf("a transient failure was final (%d requests):\n%s", n, e.logs.String())
	}
}

// A channel message with a file (a clock message, the computer's move):
// an error page and a cut after arrival, retried with the same nonce, make
// one message.
func TestChannelPictureSurvives500AndDrop(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t, testToken)
	f.failIf = failFirst(func(r *request) bool { return strings.HasPrefix(r.Path, "/channels/") && r.Method == "POST" },
		&discordError{status: 503, html: htmlPage},
		&discordError{arrived: true})
	e := startOn(t, f, textHandler("-"), nil)
	e.a.Send(bot.Reply{Channel: "discord:900", Text: "g1 · 5... Nf6 · <@111>, your move", Image: &bot.Image{Name: "g1-10.png", PNG: tinyPNG(t)}})
	tries := e.f.waitN("three posts", 3, func(r *request) bool { return strings.HasPrefix(r.Path, "/channels/900/messages") })
	nonce := jstr(tries[0].JSON, "nonce")
	for i, r := range tries {
		if len(r.Files) != 1 || jstr(r.JSON, "nonce") != nonce || nonce == "" || r.JSON["enforce_nonce"] != true {
			t.Errorf("attempt %d: %d files, nonce %q (first %q)", i+1, len(r.Files), jstr(r.JSON, "nonce"), nonce)
		}
	}
	e.f.mu.Lock()
	made := e.f.made
	e.f.mu.Unlock()
	if made != 1 {
		t.Errorf("%d messages made, want 1", made)
	}
}

// A follow-up the interaction cannot carry goes to the channel.
func TestFollowUpFallsBackToTheChannel(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t, testToken)
	f.failIf = func(r *request) *discordError {
		if strings.HasPrefix(r.Path, "/webhooks/") && r.Method == "POST" {
			return &discordError{status: 404, code: 10015, message: "Unknown Webhook"}
		}
		return nil
	}
	e := startOn(t, f, handlerFunc(func(bot.Command) []bot.Reply {
		return []bot.Reply{{Text: "first"}, {Text: "the picture's prompt"}}
	}), nil)
	id := e.slash(alice, "board")
	e.callback(id)
	post := e.f.waitFor("the channel message", func(r *request) bool { return strings.HasPrefix(r.Path, "/channels/") && r.Method == "POST" })
	if jstr(post.JSON, "content") != "the picture's prompt" {
		t.Errorf("channel message %s", post.Raw)
	}
}

// boxHandler is a bot with an outbox: it has one reply left from a
// "last run" and records the deliveries reported.
type boxHandler struct {
	handlerFunc
	mu        sync.Mutex
	left      []bot.Reply
	delivered map[string]error
}

func (h *boxHandler) Undelivered(platform string) []bot.Reply {
	h.mu.Lock()
	defer h.mu.Unlock()
	if platform != "discord" {
		return nil
	}
	out := h.left
	h.left = nil
	return out
}

func (h *boxHandler) Delivered(r bot.Reply, refused error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.delivered[r.Outbox] = refused
}

func (h *boxHandler) report(id string) (error, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	err, ok := h.delivered[id]
	return err, ok
}

func TestOutboxOnDiscord(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t, testToken)
	png := tinyPNG(t)
	h := &boxHandler{delivered: map[string]error{}}
	h.left = []bot.Reply{{Channel: "discord:901", Text: "g4 · 3. Nf3 · <@222>, your move", Image: &bot.Image{Name: "g4-5.png", PNG: png}, Outbox: "0000000000000007"}}
	h.handlerFunc = func(c bot.Command) []bot.Reply {
		return []bot.Reply{{Text: "g4 · 3... Nc6", Image: &bot.Image{Name: "g4-6.png", PNG: png}, Outbox: "0000000000000009"}}
	}
	// Refused for good: the bot may not post in that channel.
	f.failIf = failFirst(func(r *request) bool { return strings.HasPrefix(r.Path, "/interactions/") },
		&discordError{status: 403, code: 50013, message: "Missing Permissions"})
	e := startOn(t, f, h, nil)

	// Left from the last run: posted in its channel at start, reported.
	post := e.f.waitFor("the reply left from the last run", func(r *request) bool { return r.Path == "/channels/901/messages" })
	if len(post.Files) != 1 || !strings.Contains(jstr(post.JSON, "content"), "3. Nf3") {
		t.Errorf("resent reply: %s", post.Raw)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if err, ok := h.report("0000000000000007"); ok {
			if err != nil {
				t.Errorf("delivery reported as refused: %v", err)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the delivery was not reported")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// A refusal is reported as one.
	e.slash(alice, "move")
	for {
		if err, ok := h.report("0000000000000009"); ok {
			if err == nil {
				t.Error("a refused answer was reported as delivered")
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the refusal was not reported")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestPGNIsAFile(t *testing.T) {
	t.Parallel()
	pgn := "[Event \"Casual game\"]\n\n1. f3 e5 *\n"
	e := start(t, handlerFunc(func(bot.Command) []bot.Reply {
		return []bot.Reply{{Text: "PGN of g1:\n```\n" + pgn + "```", File: &bot.File{Name: "g1.pgn", Type: "application/x-chess-pgn", Data: []byte(pgn)}}}
	}), nil)
	msg, req := e.answer(e.slash(alice, "pgn"))
	if len(req.Files) != 1 || req.Files[0].Name != "g1.pgn" || string(req.Files[0].Data) != pgn || strings.HasPrefix(req.Files[0].ContentType, "image/") {
		t.Errorf("files %+v", req.Files)
	}
	if c := jstr(msg, "content"); !strings.Contains(c, "```\n[Event") {
		t.Errorf("content %q: the PGN in a code block", c)
	}
	if jstr(msg, "attachments", 0, "filename") != "g1.pgn" {
		t.Errorf("attachments: %s", req.Raw)
	}
}
