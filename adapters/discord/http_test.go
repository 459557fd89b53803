package discord

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"topochess/bot"
)

type signer struct {
	key ed25519.PrivateKey
	url string
}

// post sends an interaction to the endpoint as Discord does: the body
// signed together with the timestamp.
func (s signer) post(t *testing.T, body any, at time.Time, key ed25519.PrivateKey) (int, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(body)
	ts := strconv.FormatInt(at.Unix(), 10)
	req, _ := http.NewRequest(http.MethodPost, s.url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if key != nil {
		req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(key, append([]byte(ts), b...))))
		req.Header.Set("X-Signature-Timestamp", ts)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return resp.StatusCode, out
}

func TestHTTPInteractions(t *testing.T) {
	t.Parallel()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	_, other, _ := ed25519.GenerateKey(rand.Reader)
	img := tinyPNG(t)
	h := suggestHandler{
		handlerFunc: func(cmd bot.Command) []bot.Reply {
			switch cmd.Name {
			case "board":
				return []bot.Reply{{Text: "the board", Image: &bot.Image{Name: "g1.png", PNG: img, Alt: "alt text"}}}
			case "move":
				return []bot.Reply{{Text: "Not your turn.", Private: true, Error: true}}
			}
			return []bot.Reply{{Text: "help text"}}
		},
		suggest: func(bot.Command, string, string) []bot.Choice {
			return []bot.Choice{{Name: "e4 (e2-e4)", Value: "e2-e4"}}
		},
	}
	e := start(t, h, func(c *Config) {
		c.InteractionsListen = "127.0.0.1:0"
		c.PublicKey = hex.EncodeToString(pub)
	})
	s := signer{key: priv, url: "http://" + e.a.InteractionsAddr().String() + "/"}
	now := time.Now()

	if code, out := s.post(t, map[string]any{"id": "1", "type": 1, "application_id": testApp, "token": "t", "version": 1}, now, priv); code != 200 || jnum(out, "type") != 1 {
		t.Errorf("ping: %d %v", code, out)
	}
	// Refused: signed by another key, unsigned, signed long ago.
	for name, c := range map[string]struct {
		key ed25519.PrivateKey
		at  time.Time
	}{"other key": {other, now}, "unsigned": {nil, now}, "stale": {priv, now.Add(-time.Hour)}} {
		if code, _ := s.post(t, map[string]any{"type": 1}, c.at, c.key); code != http.StatusUnauthorized {
			t.Errorf("%s: status %d, want 401", name, code)
		}
	}
	if resp, err := http.Get(s.url); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET: %v %v", resp, err)
	}

	// A text answer is the HTTP response itself.
	code, out := s.post(t, e.interaction(2, alice, slashData("help")), time.Now(), priv)
	if code != 200 || jnum(out, "type") != 4 || jstr(out, "data", "content") != "help text" {
		t.Errorf("help: %d %s", code, pretty(out))
	}
	code, out = s.post(t, e.interaction(2, alice, slashData("move", str("move", "e4"))), time.Now(), priv)
	if code != 200 || jnum(out, "data", "flags") != 64 {
		t.Errorf("private answer: %d %s", code, pretty(out))
	}
	code, out = s.post(t, e.interaction(4, alice, slashData("move", opt{name: "move", typ: 3, value: "e", focused: true})), time.Now(), priv)
	if code != 200 || jnum(out, "type") != 8 || jstr(out, "data", "choices", 0, "value") != "e2-e4" {
		t.Errorf("autocomplete: %d %s", code, pretty(out))
	}

	// A picture cannot ride on the HTTP response: acknowledged, then sent
	// as a follow-up through the webhook with the file.
	in := e.interaction(2, alice, slashData("board"))
	code, out = s.post(t, in, time.Now(), priv)
	if code != 200 || jnum(out, "type") != 5 {
		t.Errorf("board: %d %s", code, pretty(out))
	}
	fu := e.webhook(in["id"].(string), "POST", "")
	if jstr(fu.JSON, "content") != "the board" || len(fu.Files) != 1 || !bytes.Equal(fu.Files[0].Data, img) || jstr(fu.JSON, "attachments", 0, "description") != "alt text" {
		t.Errorf("board follow-up: %s, %d files", fu.Raw, len(fu.Files))
	}
	for _, r := range e.f.all() {
		if strings.HasPrefix(r.Path, "/interactions/") {
			t.Errorf("REST callback in HTTP mode: %s", r.Path)
		}
	}
}
