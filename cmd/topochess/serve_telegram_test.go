package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"topochess/storage"
)

// A configured token starts the Telegram adapter: here against a local
// Bot API that refuses it, so serve stops with a clear message.
func TestServeStartsTelegram(t *testing.T) {
	var calls atomic.Int32
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"ok":false,"error_code":401,"description":"Unauthorized"}`)
	}))
	defer api.Close()
	dir := t.TempDir()
	const token = "424242:AAsecretTokenThatMustNotBeLogged_x"
	path := filepath.Join(dir, "c.yaml")
	body := fmt.Sprintf("storage:\n  path: %s\ntelegram:\n  token: %q\n  api_endpoint: %q\n", filepath.Join(dir, "db"), token, api.URL+"/bot%s/%s")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	old := getenv
	getenv = func(string) string { return "" }
	defer func() { getenv = old }()
	var out, errOut bytes.Buffer
	code := cmdServe([]string{"--config", path}, nil, &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "token was refused") {
		t.Errorf("serve = %d, stderr %q", code, errOut.String())
	}
	if calls.Load() == 0 {
		t.Error("the Bot API was never called")
	}
	if strings.Contains(errOut.String()+out.String(), "AAsecretToken") {
		t.Error("the token reached the output")
	}
}

// A short token echoed by a proxy in front of the Bot API: serve's log
// and its last word must not show it.
func TestServeTelegramEchoedTokenNeverPrinted(t *testing.T) {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"ok":false,"error_code":401,"description":"no upstream for %s"}`, r.URL.Path)
	}))
	defer api.Close()
	dir := t.TempDir()
	const token = "9:zQx"
	path := filepath.Join(dir, "c.yaml")
	body := fmt.Sprintf("storage:\n  path: %s\ntelegram:\n  token: %q\n  api_endpoint: %q\n", filepath.Join(dir, "db"), token, api.URL+"/bot%s/%s")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	old := getenv
	getenv = func(string) string { return "" }
	defer func() { getenv = old }()
	var out, errOut bytes.Buffer
	code := cmdServe([]string{"--config", path}, nil, &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "token was refused (no upstream for /bot[redacted]/getMe)") {
		t.Errorf("serve = %d, stderr %q", code, errOut.String())
	}
	if strings.Contains(errOut.String()+out.String(), "zQx") {
		t.Errorf("the token reached the output:\n%s%s", out.String(), errOut.String())
	}
}

// On a shared PostgreSQL database one process long-polls a bot: a second
// one is refused with the way out (webhook mode), so is a poller while
// processes serve the bot by webhook, and a webhook process while one
// polls; once the first is gone the next one polls.
func TestServeTelegramPollsInOneProcess(t *testing.T) {
	url := pgDatabase(t)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"ok":false,"error_code":401,"description":"Unauthorized"}`)
	}))
	defer api.Close()
	dir := t.TempDir()
	const token = "424242:AAsecretTokenThatMustNotBeLogged_x"
	config := func(name, extra string) string {
		path := filepath.Join(dir, name)
		body := fmt.Sprintf("storage:\n  postgres_url: %q\ntelegram:\n  token: %q\n  api_endpoint: %q\n%s", url, token, api.URL+"/bot%s/%s", extra)
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	polling := config("polling.yaml", "")
	webhook := config("webhook.yaml", "  webhook_url: https://bot.example/tg\n  webhook_secret: s3cr3t\n  webhook_listen: 127.0.0.1:0\n")
	old := getenv
	getenv = func(string) string { return "" }
	defer func() { getenv = old }()
	// The other processes, as the lock sees them.
	other, err := storage.OpenPostgres(url, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	serve := func(path string) (int, string) {
		var out, errOut bytes.Buffer
		code := cmdServe([]string{"--config", path}, nil, &out, &errOut)
		if strings.Contains(errOut.String()+out.String(), "AAsecretToken") {
			t.Error("the token reached the output")
		}
		return code, errOut.String()
	}
	for _, tc := range []struct {
		name   string
		shared bool
		path   string
		want   []string
	}{
		{"a second poller", false, polling, []string{"already serves this bot", "telegram.webhook_url"}},
		{"a poller beside webhook processes", true, polling, []string{"already serves this bot", "switch off"}},
		{"a webhook process beside a poller", false, webhook, []string{"long-polls this bot", "Stop that process"}},
	} {
		release, err := other.HoldLock("telegram:424242", tc.shared)
		if err != nil {
			t.Fatal(err)
		}
		code, stderr := serve(tc.path)
		release()
		for _, w := range tc.want {
			if code != 1 || !strings.Contains(stderr, w) {
				t.Errorf("%s: serve = %d, stderr %q; want %q", tc.name, code, stderr, w)
			}
		}
	}
	if code, stderr := serve(polling); code != 1 || !strings.Contains(stderr, "token was refused") {
		t.Errorf("alone: serve = %d, stderr %q (want it to reach the Bot API)", code, stderr)
	}
}
