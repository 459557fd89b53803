package discord

import (
	"strings"
	"testing"
	"time"

	"topochess/bot"
)

func textHandler(text string) bot.Handler {
	return handlerFunc(func(bot.Command) []bot.Reply { return []bot.Reply{{Text: text}} })
}

func TestRateLimitWithinTheWindow(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t, testToken)
	f.rateLimitNext("/applications/", 0.1) // at start-up too
	e := startOn(t, f, textHandler("hello"), nil)
	if n := len(e.f.waitN("registration", 2, func(r *request) bool { return r.Method == "PUT" })); n != 2 {
		t.Errorf("registration tried %d times", n)
	}

	// A short 429 on the answer: waited out, answered within the window.
	e.f.rateLimitNext("/interactions/", 0.25)
	id := e.slash(alice, "help")
	tries := e.f.waitN("two callbacks", 2, func(r *request) bool { return strings.HasPrefix(r.Path, "/interactions/"+id+"/") })
	if gap := tries[1].At.Sub(tries[0].At); gap < 250*time.Millisecond || gap > 2*time.Second {
		t.Errorf("retried after %v, want retry_after 250ms", gap)
	}
	if jstr(tries[1].JSON, "data", "content") != "hello" {
		t.Errorf("answer: %s", tries[1].Raw)
	}
	e.logs.waitFor(t, "discord rate limit: waiting")
}

func TestLongRateLimitNeverBlocksTheInteraction(t *testing.T) {
	t.Parallel()
	e := start(t, textHandler("hello"), nil)
	// retry_after far beyond the 3-second window: discordgo would sleep a
	// minute inside the call; the adapter gives up at once instead.
	e.f.rateLimitNext("/interactions/", 60)
	began := time.Now()
	id := e.slash(alice, "help")
	e.callback(id)
	e.logs.waitFor(t, "discord rate limit: giving up")
	if d := time.Since(began); d > 2*time.Second {
		t.Errorf("gave up after %v", d)
	}
	// The next interaction is answered at once.
	next := e.slash(bob, "help")
	if r := e.callback(next); jstr(r.JSON, "data", "content") != "hello" {
		t.Errorf("next answer: %s", r.Raw)
	}
	n := 0
	for _, r := range e.f.all() {
		if strings.HasPrefix(r.Path, "/interactions/"+id+"/") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("rate-limited callback tried %d times", n)
	}
}

func TestRateLimitedFollowUpIsRetried(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	e := start(t, handlerFunc(func(bot.Command) []bot.Reply {
		<-release
		return []bot.Reply{{Text: "slow hello"}}
	}), func(c *Config) { c.DeferAfter = 20 * time.Millisecond })
	e.f.rateLimitNext("/webhooks/", 0.2)
	id := e.slash(alice, "help")
	if cb := e.callback(id); jnumReq(cb, "type") != 5 {
		t.Fatalf("not deferred: %s", cb.Raw)
	}
	close(release)
	edits := e.webhooksN(id, "PATCH", "/messages/@original", 2)
	if jstr(edits[1].JSON, "content") != "slow hello" {
		t.Errorf("edit: %s", edits[1].Raw)
	}
}

func TestRefusedAnswerGetsAnApology(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t, testToken)
	// Discord refuses anything with a file: the user still hears why.
	f.failIf = func(r *request) *discordError {
		if len(r.Files) > 0 {
			return &discordError{status: 413, code: 40005, message: "Request entity too large"}
		}
		return nil
	}
	e := startOn(t, f, handlerFunc(func(bot.Command) []bot.Reply {
		return []bot.Reply{{Text: "board", Image: &bot.Image{Name: "b.png", PNG: tinyPNG(t), Alt: "alt"}}}
	}), nil)
	id := e.slash(alice, "board")
	tries := e.f.waitN("apology", 2, func(r *request) bool { return strings.HasPrefix(r.Path, "/interactions/"+id+"/") })
	if jnumReq(tries[1], "data", "flags") != 64 || !strings.Contains(jstr(tries[1].JSON, "data", "content"), "too large") {
		t.Errorf("apology: %s", tries[1].Raw)
	}
	e.logs.waitFor(t, "code=40005")
}

func TestGatewayDropResumes(t *testing.T) {
	t.Parallel()
	e := start(t, textHandler("still here"), nil)
	// Drops come between heartbeats: discordgo's heartbeat goroutine,
	// caught writing at the moment of a drop, closes the next connection
	// too (it recovers, but the test would see two reconnections).
	e.f.waitGateway(1, 1)
	e.f.drop()
	// discordgo comes back with a resume of the same session.
	res := jsonRaw(e.f.waitGateway(6, 1).Data)
	if jstr(res, "session_id") != "sess-1" || jnum(res, "seq") < 1 || jstr(res, "token") != "Bot "+testToken {
		t.Errorf("resume: %s", pretty(res))
	}
	e.logs.waitFor(t, "discord gateway resumed")
	if r := e.callback(e.slash(alice, "help")); jstr(r.JSON, "data", "content") != "still here" {
		t.Errorf("after resume: %s", r.Raw)
	}

	// When Discord refuses the resume, the client identifies again.
	e.f.waitGateway(1, 2)
	e.f.mu.Lock()
	e.f.refuseResume = true
	e.f.mu.Unlock()
	e.f.drop()
	e.f.waitGateway(6, 2)
	e.f.waitGateway(2, 2)
	if r := e.callback(e.slash(bob, "help")); jstr(r.JSON, "data", "content") != "still here" {
		t.Errorf("after identifying again: %s", r.Raw)
	}
}

func TestNetworkErrorsAreLoggedWithoutTokens(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t, testToken)
	f.failIf = func(r *request) *discordError {
		if strings.HasPrefix(r.Path, "/webhooks/") && r.Method == "POST" {
			return &discordError{} // the follow-up's connection is cut
		}
		return nil
	}
	e := startOn(t, f, handlerFunc(func(bot.Command) []bot.Reply {
		return []bot.Reply{{Text: "first"}, {Text: "second"}}
	}), nil)
	id := e.slash(alice, "help")
	if cb := e.callback(id); jstr(cb.JSON, "data", "content") != "first" {
		t.Errorf("answer: %s", cb.Raw)
	}
	e.logs.waitFor(t, "call=follow-up")
	// The harness checks at the end that no token reached the logs.
}
