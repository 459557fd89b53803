package discord

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"topochess/adapters/internal/endpoint"
	"topochess/adapters/internal/endpoint/endpointtest"
	"topochess/bot"
)

// httpMode starts an adapter on the interactions endpoint against f and
// returns a signer for it.
func httpMode(t *testing.T, f *fakeDiscord, h bot.Handler, tweak func(*Config)) (*env, signer) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	e := startOn(t, f, h, func(c *Config) {
		c.InteractionsListen = "127.0.0.1:0"
		c.PublicKey = hex.EncodeToString(pub)
		if tweak != nil {
			tweak(c)
		}
	})
	return e, signer{key: priv, url: "http://" + e.a.InteractionsAddr().String() + "/"}
}

// noGateway fails the test if the adapter ever looked for or opened a
// gateway connection.
func noGateway(t *testing.T, f *fakeDiscord) {
	t.Helper()
	for _, r := range f.all() {
		if strings.HasPrefix(r.Path, "/gateway") {
			t.Errorf("gateway discovery in HTTP mode: %s %s", r.Method, r.Path)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.conn != nil || len(f.gateway) > 0 {
		t.Errorf("a gateway connection was opened in HTTP mode (%d packets)", len(f.gateway))
	}
}

func TestHTTPInteractionsNeedNoGateway(t *testing.T) {
	t.Parallel()
	img := tinyPNG(t)
	h := handlerFunc(func(cmd bot.Command) []bot.Reply {
		return []bot.Reply{{Text: "<@222>, your move", Mentions: []string{prefix + bob.id}, Key: "board:g1",
			Image: &bot.Image{Name: "g1.png", PNG: img, Alt: "the board", Game: "g1"}}}
	})
	// Discord is slow to take the commands at first: the endpoint must
	// answer meanwhile (Discord checks it when its URL is saved).
	f := newFakeDiscord(t, testToken)
	var refuse atomic.Bool
	refuse.Store(true)
	f.failIf = func(r *request) *discordError {
		if r.Method == http.MethodPut && refuse.Load() {
			return &discordError{status: 503, message: "upstream connect error"}
		}
		return nil
	}
	e, s := httpMode(t, f, h, nil)
	if code, out := s.post(t, map[string]any{"id": "1", "type": 1, "application_id": testApp, "token": "t", "version": 1}, time.Now(), s.key); code != 200 || jnum(out, "type") != 1 {
		t.Fatalf("ping while the commands are not registered: %d %v", code, out)
	}
	in := e.interaction(2, alice, slashData("board"))
	code, out := s.post(t, in, time.Now(), s.key)
	if code != 200 || jnum(out, "type") != 5 {
		t.Errorf("board: %d %s", code, pretty(out))
	}
	fu := e.webhook(in["id"].(string), "POST", "")
	if fu.Query != "wait=true" || jstr(fu.JSON, "content") != "<@222>, your move" || len(fu.Files) != 1 || !bytes.Equal(fu.Files[0].Data, img) ||
		jstr(fu.JSON, "attachments", 0, "description") != "the board" || jstr(fu.JSON, "allowed_mentions", "users", 0) != bob.id {
		t.Errorf("picture follow-up: %s?%s, %d files", fu.Raw, fu.Query, len(fu.Files))
	}
	// Let Discord refuse at least once before it takes the commands, however
	// late the background registration gets going on a loaded machine.
	f.waitN("a refused registration", 1, func(r *request) bool { return r.Method == http.MethodPut })
	refuse.Store(false)
	e.logs.waitFor(t, "discord commands registered")
	if n := len(f.waitN("registrations", 2, func(r *request) bool { return r.Method == http.MethodPut })); n < 2 {
		t.Errorf("registration tried %d times", n)
	}
	noGateway(t, f)
}

func TestInteractionsEndpointDropsSlowBodies(t *testing.T) {
	t.Parallel()
	e, s := httpMode(t, newFakeDiscord(t, testToken), textHandler("hello"), func(c *Config) {
		c.limits = endpoint.Limits{ReadHeader: time.Second, Read: 3 * time.Second}
	})
	addr := e.a.InteractionsAddr().String()
	type result struct {
		took time.Duration
		cut  bool
	}
	results := make(chan result, 3)
	for range 3 {
		go func() {
			head := fmt.Sprintf("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\nX-Signature-Ed25519: %s\r\nX-Signature-Timestamp: %d\r\n\r\n{",
				strings.Repeat("ab", 64), time.Now().Unix())
			took, cut := endpointtest.SlowPost(t, addr, head, 12*time.Second)
			results <- result{took, cut}
		}()
	}
	time.Sleep(200 * time.Millisecond)
	began := time.Now()
	code, out := s.post(t, e.interaction(2, alice, slashData("help")), time.Now(), s.key)
	if code != 200 || jstr(out, "data", "content") != "hello" || time.Since(began) > 1500*time.Millisecond {
		t.Errorf("an interaction beside slow bodies: %d %v after %v", code, out, time.Since(began))
	}
	for range 3 {
		if r := <-results; !r.cut || r.took > 6*time.Second {
			t.Errorf("a body sent one byte per 100 ms was held %v (cut: %v), want dropped after about 3 s", r.took, r.cut)
		}
	}
}

func TestTokensNeverLoggedWhenEchoed(t *testing.T) {
	t.Parallel()
	const short = "Qz9x" // shorter than any token pattern
	f := newFakeDiscord(t, short)
	// A proxy that echoes the request, credentials included, in its errors.
	var calls atomic.Int32
	f.failIf = func(r *request) *discordError {
		if strings.HasPrefix(r.Path, "/applications/") && calls.Add(1) == 1 {
			return &discordError{status: 500, message: fmt.Sprintf("server error for %s %s (authorization: %s)", r.Method, r.Path, r.Auth)}
		}
		if strings.HasPrefix(r.Path, "/channels/") || strings.HasPrefix(r.Path, "/webhooks/") {
			return &discordError{status: 400, code: 50035, message: fmt.Sprintf("invalid form for %s (authorization: %s)", r.Path, r.Auth)}
		}
		return nil
	}
	e, s := httpMode(t, f, handlerFunc(func(bot.Command) []bot.Reply {
		return []bot.Reply{{Text: "board", Image: &bot.Image{Name: "g.png", PNG: tinyPNG(t)}}, {Text: "away", Channel: prefix + "901"}}
	}), func(c *Config) { c.Token = short })
	e.logs.waitFor(t, "discord commands registered")
	in := e.interaction(2, alice, slashData("board"))
	if code, _ := s.post(t, in, time.Now(), s.key); code != 200 {
		t.Fatalf("board: %d", code)
	}
	e.a.Send(bot.Reply{Text: "your clock", Channel: prefix + "902"})
	e.logs.waitFor(t, "invalid form for /channels/902")
	e.logs.waitFor(t, "invalid form for /webhooks/")
	e.logs.waitFor(t, "server error for PUT")
	if logs := e.logs.String(); strings.Contains(logs, short) {
		t.Errorf("the token reached the logs:\n%s", logs)
	}
}
