package telegram

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"topochess/bot"
)

// shortToken is shorter than any token pattern: only the exact string
// the adapter was configured with can catch it.
const shortToken = "70:Qz9x"

// echoing is the fake's error answer when a proxy in front of the Bot
// API puts the request path into its error text.
func echoing(status int, method string) scripted {
	return scripted{status, fmt.Sprintf(`{"ok":false,"error_code":%d,"description":"upstream failed for POST /bot%s/%s"}`, status, shortToken, method)}
}

func noToken(t *testing.T, where, text string) {
	t.Helper()
	if strings.Contains(text, shortToken) || strings.Contains(text, "Qz9x") {
		t.Errorf("the token reached %s:\n%s", where, text)
	}
}

func TestTokenNeverLoggedWhenEchoed(t *testing.T) {
	f := newFakeAPI(t)
	f.token = shortToken
	png := bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 50)
	h := &scriptHandler{reply: func(c bot.Command) []bot.Reply {
		return []bot.Reply{
			{Text: "board", Image: &bot.Image{Name: "g1-0.png", PNG: png}},
			{Text: "after the board"},
		}
	}}
	// Two 500s then success on both sends (the retries' warnings), and a
	// refusal of the next message (the final error).
	f.script("sendPhoto", echoing(500, "sendPhoto"), echoing(502, "sendPhoto"))
	f.script("sendMessage", echoing(500, "sendMessage"), echoing(500, "sendMessage"))
	f.script("getUpdates", echoing(500, "getUpdates"))
	r := start(t, f, h, nil)
	f.say(alice, group, "/board")
	f.waitSent("sendPhoto", 0, 3)
	f.waitSent("sendMessage", 0, 3)
	f.script("sendMessage", echoing(400, "sendMessage"))
	f.say(alice, group, "/board")
	f.waitSent("sendMessage", 0, 4)
	f.waitSent("sendPhoto", 0, 4)
	waitLog(t, r.logs, "call failed")
	r.stop()
	logs := r.logs.String()
	if n := strings.Count(logs, "call failed, will retry"); n < 4 {
		t.Errorf("%d retry warnings, want 4 (two 500s on each send):\n%s", n, logs)
	}
	if !strings.Contains(logs, "upstream failed for POST /bot[redacted]/sendMessage") {
		t.Errorf("the echoed error is not logged (redacted):\n%s", logs)
	}
	noToken(t, "the logs", logs)
}

func TestRefusedTokenNeverLogged(t *testing.T) {
	f := newFakeAPI(t)
	f.token = shortToken
	f.script("getMe", echoing(502, "getMe"), echoing(401, "getMe"))
	logs := &syncBuffer{}
	a, err := New(Config{
		Token: shortToken, APIEndpoint: f.endpoint(), Backoff: 10 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}, &scriptHandler{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = a.Run(ctx)
	if err == nil || !strings.Contains(err.Error(), "token was refused") {
		t.Fatalf("Run = %v, want the refused token reported", err)
	}
	noToken(t, "the error", err.Error())
	if !strings.Contains(logs.String(), "cannot reach the Bot API") {
		t.Errorf("the 502 at start was not logged:\n%s", logs.String())
	}
	noToken(t, "the logs", logs.String())
}

func waitLog(t *testing.T, logs *syncBuffer, s string) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if strings.Contains(logs.String(), s) {
			return
		}
	}
	t.Fatalf("the log never said %q:\n%s", s, logs.String())
}
