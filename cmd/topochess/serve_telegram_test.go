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
// one is refused with the way out (webhook mode), and once the first is
// gone the next one polls.
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
	path := filepath.Join(dir, "c.yaml")
	body := fmt.Sprintf("storage:\n  postgres_url: %q\ntelegram:\n  token: %q\n  api_endpoint: %q\n", url, token, api.URL+"/bot%s/%s")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	old := getenv
	getenv = func(string) string { return "" }
	defer func() { getenv = old }()
	// The first process, as the lock sees it.
	first, err := storage.OpenPostgres(url, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	release, err := first.HoldLock("telegram-polling:424242")
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := cmdServe([]string{"--config", path}, nil, &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "already long-polls this bot") || !strings.Contains(errOut.String(), "telegram.webhook_url") {
		t.Errorf("second poller: serve = %d, stderr %q", code, errOut.String())
	}
	release()
	errOut.Reset()
	code = cmdServe([]string{"--config", path}, nil, &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "token was refused") {
		t.Errorf("after the first stopped: serve = %d, stderr %q (want it to reach the Bot API)", code, errOut.String())
	}
}
