package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"topochess/adapters/web"
	"topochess/bot"
	"topochess/storage"
)

// opsURL waits for serve to print an address (the first group of pattern).
func opsURL(t *testing.T, stdout, stderr *syncBuffer, code chan int, pattern string) string {
	t.Helper()
	re := regexp.MustCompile(pattern)
	deadline := time.Now().Add(10 * time.Second)
	for !re.MatchString(stdout.String()) {
		select {
		case c := <-code:
			t.Fatalf("serve ended with %d: %s %s", c, stdout.String(), stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no ops address printed: %q %q", stdout.String(), stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return re.FindStringSubmatch(stdout.String())[1]
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// webUser joins the web chat and returns a function that sends a line as
// that user, with the HTTP status of the answer.
func webUser(t *testing.T, url, name string) func(line string) int {
	t.Helper()
	resp, err := http.Post(url+"api/join", "application/json", strings.NewReader(`{"name":"`+name+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	var join struct{ Token string }
	json.NewDecoder(resp.Body).Decode(&join)
	resp.Body.Close()
	if join.Token == "" {
		t.Fatalf("join %s: %s", name, resp.Status)
	}
	return func(line string) int {
		body, _ := json.Marshal(map[string]string{"text": line})
		req, _ := http.NewRequest("POST", url+"api/send", strings.NewReader(string(body)))
		req.Header.Set("X-Session", join.Token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Errorf("send %q: %v", line, err)
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
}

// metricValue reads one sample from the text exposition; -1 if absent.
func metricValue(exposition, sample string) float64 {
	for _, line := range strings.Split(exposition, "\n") {
		if v, ok := strings.CutPrefix(line, sample+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err == nil {
				return f
			}
		}
	}
	return -1
}

// waitReady polls /readyz until it answers 200: the web chat registers
// before it listens.
func waitReady(t *testing.T, ops string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		status, body := get(t, ops+"readyz")
		if status == http.StatusOK && body == "ready\n" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz never ready: %d %q", status, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestServeOpsListener(t *testing.T) {
	stdout, stderr, stop, code := serveFor(t, "web:\n  listen: 127.0.0.1:0\nops:\n  listen: 127.0.0.1:0\n")
	ops := opsURL(t, stdout, stderr, code, `operations on (http://127\.0\.0\.1:\d+/)`)
	url := opsURL(t, stdout, stderr, code, `web chat is on (http://127\.0\.0\.1:\d+/)`)
	if status, body := get(t, ops+"healthz"); status != 200 || body != "ok\n" {
		t.Errorf("/healthz: %d %q", status, body)
	}
	waitReady(t, ops)

	_, before := get(t, ops+"metrics")
	for _, sample := range []string{
		`topochess_commands_total{kind="move",outcome="ok"}`,
		`topochess_reply_seconds_count{platform="web"}`,
	} {
		if v := metricValue(before, sample); v != -1 {
			t.Errorf("before any command, %s = %v", sample, v)
		}
	}
	if v := metricValue(before, "topochess_active_games"); v != 0 {
		t.Errorf("before any game, topochess_active_games = %v", v)
	}

	alice, bob := webUser(t, url, "alice"), webUser(t, url, "bob")
	for _, step := range []struct {
		say  func(string) int
		line string
	}{
		{alice, "/challenge @bob color:white"},
		{bob, "/accept"},
		{alice, "/move e2e4"},
		{alice, "/move d2d4"}, // not her turn: refused
		{bob, "/frobnicate"},  // no such command
	} {
		if status := step.say(step.line); status != 200 {
			t.Fatalf("%q: %d", step.line, status)
		}
	}
	status, after := get(t, ops+"metrics")
	if status != 200 {
		t.Fatalf("/metrics: %d", status)
	}
	for sample, want := range map[string]float64{
		`topochess_commands_total{kind="challenge",outcome="ok"}`:    1,
		`topochess_commands_total{kind="accept",outcome="ok"}`:       1,
		`topochess_commands_total{kind="move",outcome="ok"}`:         1,
		`topochess_commands_total{kind="move",outcome="refused"}`:    1,
		`topochess_commands_total{kind="unknown",outcome="refused"}`: 1,
		`topochess_reply_seconds_count{platform="web"}`:              5,
		`topochess_active_games`:                                     1,
		`topochess_bot_queue_depth`:                                  0,
		`topochess_outbox_undelivered`:                               0,
		`topochess_job_queue_depth{kind="clock"}`:                    0,
		`topochess_job_queue_depth{kind="bot"}`:                      0,
		`topochess_job_lag_seconds{kind="challenges"}`:               0,
	} {
		if got := metricValue(after, sample); got != want {
			t.Errorf("%s = %v, want %v", sample, got, want)
		}
	}
	for _, name := range []string{"# TYPE topochess_reply_seconds histogram", "go_goroutines"} {
		if !strings.Contains(after, name) {
			t.Errorf("/metrics lacks %q", name)
		}
	}

	stop()
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("serve stopped with %d: %s", c, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop")
	}
	if _, err := http.Get(ops + "healthz"); err == nil {
		t.Error("the ops listener still answers after serve stopped")
	}
}

// /readyz names what is wrong: an adapter that does not listen yet, a
// closed database.
func TestReadyzReasons(t *testing.T) {
	store, err := storage.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	svc := bot.New(store, bot.Config{Logger: slog.New(slog.DiscardHandler)})
	o := newOps(svc, store, []platform{{name: "web"}})
	if _, err := o.listen(t.Context(), "", slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(o.mux())
	defer srv.Close()
	readyz := func() (int, string) { return get(t, srv.URL+"/readyz") }

	if status, body := readyz(); status != 503 || !strings.Contains(body, "web: not started") {
		t.Errorf("before the adapter exists: %d %q", status, body)
	}
	chat, err := web.New(svc, web.Options{Listen: "127.0.0.1:0", Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	o.connected("web", chat)
	if status, body := readyz(); status != 503 || !strings.Contains(body, "web chat: not listening") {
		t.Errorf("adapter built, not running: %d %q", status, body)
	}
	runCtx, stopChat := context.WithCancel(t.Context())
	defer stopChat()
	ran := make(chan error, 1)
	go func() { ran <- chat.Run(runCtx, nil) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		status, body := readyz()
		if status == 200 && body == "ready\n" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("never ready with the chat running: %d %q", status, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	if status, body := readyz(); status != 503 || !strings.Contains(body, "database: ") || strings.Contains(body, "web chat") {
		t.Errorf("database closed: %d %q", status, body)
	}
	stopChat()
	if err := <-ran; err != nil {
		t.Errorf("chat: %v", err)
	}
	if status, body := readyz(); status != 503 || !strings.Contains(body, "web chat: not listening") {
		t.Errorf("chat stopped: %d %q", status, body)
	}
}

// A stop lets a command in progress finish and be saved before the
// storage closes, even when it outlasts the web chat's own shutdown
// grace (5 s); commands that come after are not started.
func TestServeDrainsCommandsInProgress(t *testing.T) {
	held, release := make(chan struct{}), make(chan struct{})
	beforeHandle = func(cmd bot.Command) {
		if cmd.Name == "move" {
			close(held)
			<-release
		}
	}
	defer func() { beforeHandle = nil }()
	// The database where the test can find it afterwards.
	path := filepath.Join(t.TempDir(), "drain.db")
	oldEnv := getenv
	getenv = func(k string) string {
		if k == "TOPOCHESS_STORAGE_PATH" {
			return path
		}
		return ""
	}
	defer func() { getenv = oldEnv }()
	stdout, stderr, stop, code := serveFor(t, "web:\n  listen: 127.0.0.1:0\nops:\n  listen: 127.0.0.1:0\n")
	ops := opsURL(t, stdout, stderr, code, `operations on (http://127\.0\.0\.1:\d+/)`)
	url := opsURL(t, stdout, stderr, code, `web chat is on (http://127\.0\.0\.1:\d+/)`)
	alice, bob := webUser(t, url, "alice"), webUser(t, url, "bob")
	if alice("/challenge @bob color:white") != 200 || bob("/accept") != 200 {
		t.Fatal("no game")
	}
	moved := make(chan int, 1)
	go func() { moved <- alice("/move e2e4") }()
	<-held
	stop()
	if status, body := get(t, ops+"readyz"); status != 503 || !strings.Contains(body, "stopping") {
		t.Errorf("/readyz while stopping: %d %q", status, body)
	}
	select {
	case c := <-code:
		t.Fatalf("serve ended (%d) with a command in progress", c)
	case <-time.After(6 * time.Second):
	}
	close(release)
	if status := <-moved; status != 200 {
		t.Errorf("the move in progress: %d", status)
	}
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("serve stopped with %d: %s", c, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop")
	}
	store, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	games, err := store.UserActiveGames("web:alice")
	if err != nil || len(games) != 1 || len(games[0].Moves) != 1 {
		t.Fatalf("the move in progress was not saved: %v %+v\n%s", err, games, stderr.String())
	}
}

func TestOpsListenConfig(t *testing.T) {
	for listen, want := range map[string]string{
		"9090": "127.0.0.1:9090", ":9090": "127.0.0.1:9090", "0.0.0.0:9090": "0.0.0.0:9090",
		"[::1]:9090": "[::1]:9090", "127.0.0.1:0": "127.0.0.1:0",
	} {
		if got, err := opsAddress(listen); err != nil || got != want {
			t.Errorf("ops.listen %q: %q, %v; want %q", listen, got, err, want)
		}
	}
	env := func(k string) string {
		if k == "TOPOCHESS_OPS_LISTEN" {
			return "9191"
		}
		return ""
	}
	cfg, err := loadConfig("", env)
	if err != nil || cfg.Ops.Listen != "9191" {
		t.Errorf("TOPOCHESS_OPS_LISTEN: %v %+v", err, cfg)
	}
	cfg, err = loadConfig("../../config.example.yaml", func(string) string { return "" })
	if err != nil || cfg.Ops.Listen != "" {
		t.Errorf("the example turns the ops listener on: %v %q", err, cfg.Ops.Listen)
	}
	for _, bad := range []string{"abc", "1.2.3.4", "host:port", "127.0.0.1:99999"} {
		_, err := loadConfig("", func(k string) string {
			if k == "TOPOCHESS_OPS_LISTEN" {
				return bad
			}
			return ""
		})
		if err == nil || !strings.Contains(err.Error(), "ops.listen") {
			t.Errorf("ops.listen %q: %v", bad, err)
		}
	}
}
