package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestWebEnabled(t *testing.T) {
	tests := []struct {
		name                   string
		discord, telegram, web string
		want                   bool
	}{
		{"a fresh machine", "", "", "", true},
		{"discord only", "tok", "", "", false},
		{"telegram only", "", "tok", "", false},
		{"discord and an explicit web chat", "tok", "", "127.0.0.1:9000", true},
		{"web chat asked for", "", "", "127.0.0.1:9000", true},
	}
	for _, tc := range tests {
		cfg := &Config{}
		cfg.Discord.Token, cfg.Telegram.Token, cfg.Web.Listen = Secret(tc.discord), Secret(tc.telegram), tc.web
		if got := webEnabled(cfg); got != tc.want {
			t.Errorf("%s: web chat enabled %v, want %v", tc.name, got, tc.want)
		}
	}
}

// syncBuffer is a bytes.Buffer serve may write while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serveFor runs serve with a config until stop is called; it returns the
// exit code through the channel.
func serveFor(t *testing.T, config string) (stdout, stderr *syncBuffer, stop func(), code chan int) {
	t.Helper()
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(cfgPath, []byte("storage:\n  path: "+filepath.Join(dir, "t.db")+"\n"+config), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	old := serveContext
	serveContext = func() (context.Context, context.CancelFunc) { return ctx, cancel }
	t.Cleanup(func() { cancel(); serveContext = old })
	stdout, stderr, code = &syncBuffer{}, &syncBuffer{}, make(chan int, 1)
	go func() { code <- run([]string{"serve", "--config", cfgPath}, strings.NewReader(""), stdout, stderr) }()
	return stdout, stderr, cancel, code
}

func TestServeStartsWebChat(t *testing.T) {
	stdout, stderr, stop, code := serveFor(t, "web:\n  listen: 127.0.0.1:0\n")
	urlRE := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)
	deadline := time.Now().Add(10 * time.Second)
	for !urlRE.MatchString(stdout.String()) {
		select {
		case c := <-code:
			t.Fatalf("serve ended with %d: %s %s", c, stdout.String(), stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no address printed: %q %q", stdout.String(), stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	url := urlRE.FindString(stdout.String())
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Contains(page, []byte("/static/app.js")) {
		t.Errorf("GET %s: %d %.200s", url, resp.StatusCode, page)
	}
	// The page talks to the real bot.
	resp, err = http.Post(url+"api/join", "application/json", strings.NewReader(`{"name":"alice"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("join: %d", resp.StatusCode)
	}
	stop()
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("serve stopped with %d: %s", c, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
}

func TestServeRefusesOpenWebChatWithoutPassword(t *testing.T) {
	_, stderr, _, code := serveFor(t, "web:\n  listen: 0.0.0.0:0\n")
	select {
	case c := <-code:
		if c != 1 || !strings.Contains(stderr.String(), "web.password") {
			t.Errorf("serve: code %d, stderr %q", c, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve started a web chat open to every machine without a password")
	}
}

// Listening off loopback over plain HTTP is refused even with a password,
// unless allowed; the message names both ways out.
func TestServeRefusesPublicPlainHTTP(t *testing.T) {
	_, stderr, _, code := serveFor(t, "web:\n  listen: 0.0.0.0:0\n  password: pw\n")
	select {
	case c := <-code:
		if c != 1 || !strings.Contains(stderr.String(), "web.tls_cert") || !strings.Contains(stderr.String(), "allow_plain_http") {
			t.Errorf("serve: code %d, stderr %q", c, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve started a public web chat over plain HTTP")
	}
}

// serveURL waits for serve to print the web chat's address.
func serveURL(t *testing.T, stdout, stderr *syncBuffer, code chan int) string {
	t.Helper()
	urlRE := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)
	deadline := time.Now().Add(10 * time.Second)
	for !urlRE.MatchString(stdout.String()) {
		select {
		case c := <-code:
			t.Fatalf("serve ended with %d: %s %s", c, stdout.String(), stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no address printed: %q %q", stdout.String(), stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return urlRE.FindString(stdout.String())
}

// A web chat name claimed in one run of serve still needs its secret in
// the next run on the same database.
func TestServeKeepsWebNamesInTheDatabase(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "c.yaml")
	cfg := "storage:\n  path: " + filepath.Join(dir, "t.db") + "\nweb:\n  listen: 127.0.0.1:0\n"
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	joinAs := func(name, secret string) (int, map[string]any) {
		ctx, cancel := context.WithCancel(context.Background())
		old := serveContext
		serveContext = func() (context.Context, context.CancelFunc) { return ctx, cancel }
		defer func() { serveContext = old }()
		stdout, stderr, code := &syncBuffer{}, &syncBuffer{}, make(chan int, 1)
		go func() { code <- run([]string{"serve", "--config", cfgPath}, strings.NewReader(""), stdout, stderr) }()
		url := serveURL(t, stdout, stderr, code)
		body, _ := json.Marshal(map[string]string{"name": name, "secret": secret})
		resp, err := http.Post(url+"api/join", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]any{}
		_ = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		cancel()
		if c := <-code; c != 0 {
			t.Fatalf("serve stopped with %d: %s", c, stderr.String())
		}
		return resp.StatusCode, out
	}
	code, out := joinAs("alice", "")
	secret, _ := out["secret"].(string)
	if code != 200 || secret == "" {
		t.Fatalf("first join: %d %v", code, out)
	}
	if code, out := joinAs("Alice", ""); code != http.StatusForbidden {
		t.Errorf("after a restart, alice without her secret: %d %v", code, out)
	}
	if code, out := joinAs("Alice", secret); code != 200 {
		t.Errorf("after a restart, alice with her secret: %d %v", code, out)
	}
}
