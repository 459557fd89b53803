package main

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestExampleConfigLoads(t *testing.T) {
	cfg, err := loadConfig("../../config.example.yaml", func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Storage.Path != "topochess.db" || cfg.Storage.Timeout != time.Second || cfg.Limits.ChallengeTTL != 24*time.Hour || cfg.Limits.CommandsPer10s != 10 {
		t.Errorf("example config read as %+v", cfg)
	}
}

func TestConfigErrorsAndEnvironment(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	env := map[string]string{"TOPOCHESS_DISCORD_TOKEN": "env-discord-token", "TOPOCHESS_TELEGRAM_TOKEN": "env-telegram-token"}
	getenv := func(k string) string { return env[k] }
	cfg, err := loadConfig(write("a.yaml", "discord:\n  token: file-token\ntelegram:\n  token: file-tg\n"), getenv)
	if err != nil {
		t.Fatal(err)
	}
	if string(cfg.Discord.Token) != "env-discord-token" || string(cfg.Telegram.Token) != "env-telegram-token" {
		t.Errorf("environment did not override: %q %q", string(cfg.Discord.Token), string(cfg.Telegram.Token))
	}
	// Secrets never reach logs or formatted dumps.
	var logs bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	log.Info("config", "discord_token", cfg.Discord.Token, "cfg", cfg)
	cfg.logger(&logs).Info("config", "telegram", cfg.Telegram)
	dump := logs.String() + fmt.Sprintf("%v %+v %#v %s", cfg, cfg, cfg, cfg.Discord.Token)
	if strings.Contains(dump, "env-discord-token") || strings.Contains(dump, "env-telegram-token") {
		t.Errorf("a secret leaked: %s", dump)
	}
	for _, tc := range []struct{ body, want string }{
		{"storage:\n  pth: x\n", "field pth not found"},
		{"log:\n  level: loud\n", "log.level"},
		{"log:\n  format: xml\n", "log.format"},
		{"storage:\n  path: \"\"\n", "storage.path"},
		{"limits:\n  challenge_ttl: soon\n", "soon"},
		{"web:\n  read_timeout: -1s\n", "web.read_timeout"},
		{"web:\n  session_ttl: -1h\n", "web.session_ttl"},
		{"web:\n  max_connections: -5\n", "web.max_connections"},
		{"web:\n  allow_plain_htp: true\n", "allow_plain_htp"},
		{"images:\n  size: 5000\n", "images.size is the picture width"},
		{"images:\n  size: -1\n", "images.size"},
		{"images:\n  size: 10\n", "images.size"},
		{"discord:\n  shard_id: 3\n  shard_count: 2\n", "discord.shard_id must be between 0 and discord.shard_count-1 (1), not 3"},
		{"discord:\n  shard_id: 1\n", "needs discord.shard_count above it"},
		{"discord:\n  shard_count: -2\n", "discord.shard_count is the number of gateway shards"},
		{"discord:\n  shard_id: one\n", "`one` into int"},
		{"storage:\n  job_lease: 1s\n", "storage.job_lease must be at least 3s"},
	} {
		_, err := loadConfig(write("bad.yaml", tc.body), getenv)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("config %q: error %v, want %q", tc.body, err, tc.want)
		}
	}
	// One file for every process, the shard from each one's environment.
	env["TOPOCHESS_DISCORD_SHARD_ID"], env["TOPOCHESS_DISCORD_SHARD_COUNT"] = "1", " 4"
	if cfg, err := loadConfig(write("s.yaml", "discord:\n  shard_count: 2\n"), getenv); err != nil || cfg.Discord.ShardID != 1 || cfg.Discord.ShardCount != 4 {
		t.Errorf("shard from the environment: %v, %+v", err, cfg)
	} else if dc := discordConfig(cfg); dc.ShardID != 1 || dc.ShardCount != 4 {
		t.Errorf("shard not passed to the adapter: %d/%d", dc.ShardID, dc.ShardCount)
	}
	env["TOPOCHESS_DISCORD_SHARD_ID"] = "first"
	if _, err := loadConfig(write("s.yaml", ""), getenv); err == nil || !strings.Contains(err.Error(), `TOPOCHESS_DISCORD_SHARD_ID (discord.shard_id) must be a whole number, not "first"`) {
		t.Errorf("a shard id that is not a number: %v", err)
	}
	env["TOPOCHESS_DISCORD_SHARD_ID"] = "4"
	if _, err := loadConfig(write("s.yaml", ""), getenv); err == nil || !strings.Contains(err.Error(), "not 4") {
		t.Errorf("a shard id beyond the count: %v", err)
	}
	delete(env, "TOPOCHESS_DISCORD_SHARD_ID")
	delete(env, "TOPOCHESS_DISCORD_SHARD_COUNT")
	if _, err := loadConfig(filepath.Join(dir, "missing.yaml"), getenv); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing file: %v", err)
	}
}

func TestConsoleCommand(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "c.yaml")
	os.WriteFile(cfgPath, []byte("storage:\n  path: "+filepath.Join(dir, "t.db")+"\nimages:\n  size: 64\n"), 0o600)
	images := filepath.Join(dir, "img")
	in := "alice: /challenge @bob white\nbob: [Accept]\nalice: e4\n"
	var out, errOut bytes.Buffer
	if code := run([]string{"console", "--config", cfgPath, "--images", images}, strings.NewReader(in), &out, &errOut); code != 0 {
		t.Fatalf("console: code %d, err %q", code, errOut.String())
	}
	files, _ := filepath.Glob(filepath.Join(images, "*.png"))
	if len(files) != 2 || !strings.Contains(out.String(), files[1]) {
		t.Errorf("pictures %v, output:\n%s", files, out.String())
	}
	// A second run continues the same game from the file.
	out.Reset()
	if code := run([]string{"console", "--config", cfgPath, "--images", images}, strings.NewReader("bob: e5\n"), &out, &errOut); code != 0 || !strings.Contains(out.String(), "1... e5") {
		t.Errorf("second run: %q", out.String())
	}
}
