package main

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestBotConfig(t *testing.T) {
	cfg, err := loadConfig("../../config.example.yaml", func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if b := cfg.botConfig(); b.Workers != 2 || b.MaxLevel != 5 || b.DefaultLevel != 3 || b.Delay != time.Second {
		t.Errorf("example bot section read as %+v", b)
	}
	dir := t.TempDir()
	load := func(body string) (*Config, error) {
		p := filepath.Join(dir, "c.yaml")
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return loadConfig(p, func(string) string { return "" })
	}
	cfg, err = load("bot:\n  reply_delay: 0s\n  max_level: 3\n")
	if err != nil {
		t.Fatal(err)
	}
	if b := cfg.botConfig(); b.Delay != 0 || b.MaxLevel != 3 || b.Workers != 0 {
		t.Errorf("bot section read as %+v", b)
	}
	if cfg, err = load("log:\n  level: info\n"); err != nil || cfg.botConfig().Delay != defaultReplyDelay {
		t.Errorf("without a bot section: %v, %+v", err, cfg)
	}
	for _, tc := range []struct{ body, want string }{
		{"bot:\n  workers: -1\n", "bot.workers"},
		{"bot:\n  max_level: 6\n", "bot.max_level"},
		{"bot:\n  max_level: 2\n  default_level: 3\n", "bot.default_level"},
		{"bot:\n  reply_delay: 2h\n", "bot.reply_delay"},
		{"bot:\n  level: 3\n", "field level not found"},
	} {
		if _, err := load(tc.body); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("config %q: error %v, want %q", tc.body, err, tc.want)
		}
	}
}

// TestServeBotMoveReachesWebChat plays against the computer through the
// real serve and web chat: the computer's first move arrives in the
// room's event stream on its own, through the web adapter's sender.
func TestServeBotMoveReachesWebChat(t *testing.T) {
	stdout, stderr, stop, code := serveFor(t, "web:\n  listen: 127.0.0.1:0\nbot:\n  workers: 1\n  max_level: 2\n  reply_delay: 0s\n")
	urlRE := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)
	deadline := time.Now().Add(10 * time.Second)
	for !urlRE.MatchString(stdout.String()) {
		if time.Now().After(deadline) {
			t.Fatalf("no address printed: %q %q", stdout.String(), stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	url := urlRE.FindString(stdout.String())
	resp, err := http.Post(url+"api/join", "application/json", strings.NewReader(`{"name":"alice"}`))
	if err != nil {
		t.Fatal(err)
	}
	var join struct{ Token string }
	json.NewDecoder(resp.Body).Decode(&join)
	resp.Body.Close()
	events, err := http.Get(url + "api/events?s=" + join.Token)
	if err != nil {
		t.Fatal(err)
	}
	defer events.Body.Close()
	req, _ := http.NewRequest("POST", url+"api/send", strings.NewReader(`{"text":"/challenge bot level:2 black"}`))
	req.Header.Set("X-Session", join.Token)
	req.Header.Set("Content-Type", "application/json")
	if resp, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("send: %s", resp.Status)
	}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(events.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if line := sc.Text(); strings.Contains(line, "#1 · 1. ") && strings.Contains(line, "your move (Black)") {
				found <- line
				return
			}
		}
	}()
	select {
	case <-found:
	case <-time.After(30 * time.Second):
		t.Fatalf("the computer's move never reached the web chat; log:\n%s", stderr.String())
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

// TestConsoleBotGame: the console subcommand starts the computer's
// workers and prints its answer before the next line.
func TestConsoleBotGame(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "c.yaml")
	os.WriteFile(cfgPath, []byte("storage:\n  path: "+filepath.Join(dir, "t.db")+"\nimages:\n  size: 64\n"), 0o600)
	in := "alice: /challenge bot level:1 black\nalice: /board\n"
	var out, errOut strings.Builder
	if code := run([]string{"console", "--config", cfgPath, "--images", filepath.Join(dir, "img")}, strings.NewReader(in), &out, &errOut); code != 0 {
		t.Fatalf("console: code %d, err %q", code, errOut.String())
	}
	got := out.String()
	answer := strings.Index(got, "< #1 · 1. ")
	board := strings.Index(got, "> alice: /board")
	if answer < 0 || board < answer || !strings.Contains(got, "1 move(s) played") {
		t.Errorf("the computer's first move is not shown before the next line:\n%s", got)
	}
}
