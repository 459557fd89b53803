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
