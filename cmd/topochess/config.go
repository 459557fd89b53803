package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"topochess/adapters/discord"
	"topochess/bot"
	"topochess/engine/search"
	"topochess/render"
	"topochess/storage"
)

// Secret is a token or password: it prints and logs as "[redacted]" so a
// config dump or a log line never leaks it. Use string(s) for the value.
type Secret string

func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return "[redacted]"
}

// LogValue keeps secrets out of slog output.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

// GoString keeps secrets out of %#v.
func (s Secret) GoString() string { return s.String() }

// MarshalJSON keeps secrets out of JSON logs of whole structs.
func (s Secret) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// MarshalYAML keeps secrets out of dumped configs.
func (s Secret) MarshalYAML() (any, error) { return s.String(), nil }

// Config is config.example.yaml; see there for each key.
type Config struct {
	Storage struct {
		Path    string        `yaml:"path"`
		Timeout time.Duration `yaml:"timeout"`
		// PostgresURL, when set, replaces the bbolt file with a PostgreSQL
		// database (docs/scaling.md); it may hold a password.
		PostgresURL Secret `yaml:"postgres_url"`
		// JobLease is how long another process waits before taking over
		// the jobs of one that stopped answering (0: storage.DefaultLease).
		JobLease time.Duration `yaml:"job_lease"`
	} `yaml:"storage"`
	Limits struct {
		CommandsPer10s int           `yaml:"commands_per_10s"`
		OpenChallenges int           `yaml:"open_challenges"`
		ActiveGames    int           `yaml:"active_games"`
		InputLength    int           `yaml:"input_length"`
		ChallengeTTL   time.Duration `yaml:"challenge_ttl"`
	} `yaml:"limits"`
	Images struct {
		Size int `yaml:"size"`
	} `yaml:"images"`
	Bot struct {
		Workers      int            `yaml:"workers"`
		MaxLevel     int            `yaml:"max_level"`
		DefaultLevel int            `yaml:"default_level"`
		ReplyDelay   *time.Duration `yaml:"reply_delay"`
	} `yaml:"bot"`
	Log struct {
		Level  string `yaml:"level"`
		Format string `yaml:"format"`
	} `yaml:"log"`
	Discord struct {
		Token              Secret   `yaml:"token"`
		AppID              string   `yaml:"app_id"`
		GuildIDs           []string `yaml:"guild_ids"`
		RESTBaseURL        string   `yaml:"rest_base_url"`
		PublicKey          string   `yaml:"public_key"`
		InteractionsListen string   `yaml:"interactions_listen"`
		// ShardID and ShardCount split the gateway between processes
		// (docs/scaling.md).
		ShardID    int `yaml:"shard_id"`
		ShardCount int `yaml:"shard_count"`
	} `yaml:"discord"`
	Telegram struct {
		Token         Secret `yaml:"token"`
		APIEndpoint   string `yaml:"api_endpoint"`
		WebhookURL    string `yaml:"webhook_url"`
		WebhookSecret Secret `yaml:"webhook_secret"`
		WebhookListen string `yaml:"webhook_listen"`
	} `yaml:"telegram"`
	Web struct {
		Listen         string        `yaml:"listen"`
		Password       Secret        `yaml:"password"`
		TLSCert        string        `yaml:"tls_cert"`
		TLSKey         string        `yaml:"tls_key"`
		AllowPlainHTTP bool          `yaml:"allow_plain_http"`
		TrustedProxies []string      `yaml:"trusted_proxies"`
		SessionTTL     time.Duration `yaml:"session_ttl"`
		ReadTimeout    time.Duration `yaml:"read_timeout"`
		MaxConnections int           `yaml:"max_connections"`
	} `yaml:"web"`
	Ops struct {
		Listen string `yaml:"listen"`
	} `yaml:"ops"`
}

// Environment variables that override secrets in the file, so the file
// can be committed without them.
var envOverrides = []struct {
	name string
	set  func(*Config, string)
}{
	{"TOPOCHESS_DISCORD_TOKEN", func(c *Config, v string) { c.Discord.Token = Secret(v) }},
	{"TOPOCHESS_TELEGRAM_TOKEN", func(c *Config, v string) { c.Telegram.Token = Secret(v) }},
	{"TOPOCHESS_TELEGRAM_WEBHOOK_SECRET", func(c *Config, v string) { c.Telegram.WebhookSecret = Secret(v) }},
	{"TOPOCHESS_WEB_PASSWORD", func(c *Config, v string) { c.Web.Password = Secret(v) }},
	{"TOPOCHESS_POSTGRES_URL", func(c *Config, v string) { c.Storage.PostgresURL = Secret(v) }},
	// Not secrets, but what a container sets without editing the file.
	{"TOPOCHESS_STORAGE_PATH", func(c *Config, v string) { c.Storage.Path = v }},
	{"TOPOCHESS_WEB_LISTEN", func(c *Config, v string) { c.Web.Listen = v }},
	{"TOPOCHESS_OPS_LISTEN", func(c *Config, v string) { c.Ops.Listen = v }},
	{"TOPOCHESS_DISCORD_APP_ID", func(c *Config, v string) { c.Discord.AppID = v }},
	{"TOPOCHESS_WEB_ALLOW_PLAIN_HTTP", func(c *Config, v string) { c.Web.AllowPlainHTTP = v == "true" || v == "1" }},
}

// envNumbers are whole numbers set from the environment: one process of
// several gets its shard this way from the same file.
var envNumbers = []struct {
	name, key string
	set       func(*Config, int)
}{
	{"TOPOCHESS_DISCORD_SHARD_ID", "discord.shard_id", func(c *Config, n int) { c.Discord.ShardID = n }},
	{"TOPOCHESS_DISCORD_SHARD_COUNT", "discord.shard_count", func(c *Config, n int) { c.Discord.ShardCount = n }},
}

// loadConfig reads the file (when path is not "") and then the
// environment; getenv is os.Getenv outside tests.
func loadConfig(path string, getenv func(string) string) (*Config, error) {
	cfg := &Config{}
	cfg.Storage.Path = "topochess.db"
	if path != "" {
		data, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("config file %s does not exist (config.example.yaml is a template)", path)
		}
		if err != nil {
			return nil, fmt.Errorf("config: %w", err)
		}
		dec := yaml.NewDecoder(strings.NewReader(string(data)))
		dec.KnownFields(true)
		if err := dec.Decode(cfg); err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("config %s: %w", path, err)
		}
	}
	for _, e := range envOverrides {
		if v := getenv(e.name); v != "" {
			e.set(cfg, v)
		}
	}
	for _, e := range envNumbers {
		if v := getenv(e.name); v != "" {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return nil, fmt.Errorf("config: %s (%s) must be a whole number, not %q", e.name, e.key, v)
			}
			e.set(cfg, n)
		}
	}
	if cfg.Storage.Path == "" {
		return nil, errors.New("config: storage.path must not be empty")
	}
	// The job loop renews leases every second: a shorter lease could run
	// out under a live process that is merely busy.
	if l := cfg.Storage.JobLease; l != 0 && l < minJobLease {
		return nil, fmt.Errorf("config: storage.job_lease must be at least %v (0: the default, %v), not %v", minJobLease, storage.DefaultLease, l)
	}
	switch cfg.Log.Format {
	case "", "text", "json":
	default:
		return nil, fmt.Errorf("config: log.format must be text or json, not %q", cfg.Log.Format)
	}
	if _, err := parseLevel(cfg.Log.Level); err != nil {
		return nil, err
	}
	if err := cfg.checkBot(); err != nil {
		return nil, err
	}
	if err := cfg.checkWeb(); err != nil {
		return nil, err
	}
	if err := cfg.checkOps(); err != nil {
		return nil, err
	}
	if d := cfg.Discord; d.ShardID != 0 || d.ShardCount != 0 {
		if err := discord.CheckShard(d.ShardID, d.ShardCount, d.InteractionsListen); err != nil {
			return nil, fmt.Errorf("config: %w", err)
		}
	}
	// Wider pictures cost render time for nothing (Telegram shrinks photos
	// to 1280 px) and, the height being up to 1.8× the width, approach
	// Telegram's limit of 10000 for width plus height.
	if s := cfg.Images.Size; s < 0 || s > maxImageWidth || s > 0 && s < minImageWidth {
		return nil, fmt.Errorf("config: images.size is the picture width, between %d and %d pixels (0: the default, %d), not %d",
			minImageWidth, maxImageWidth, render.DefaultWidth, s)
	}
	return cfg, nil
}

// minJobLease is the shortest storage.job_lease accepted.
const minJobLease = 3 * time.Second

// Picture widths images.size accepts.
const (
	minImageWidth = 64
	maxImageWidth = 1600
)

// checkBot refuses bot settings out of range (zero means the default).
func (c *Config) checkBot() error {
	b := c.Bot
	if b.Workers < 0 || b.Workers > 64 {
		return fmt.Errorf("config: bot.workers must be between 1 and 64 (0: the default, 2), not %d", b.Workers)
	}
	if b.MaxLevel < 0 || b.MaxLevel > search.MaxLevel {
		return fmt.Errorf("config: bot.max_level must be between 1 and %d, not %d", search.MaxLevel, b.MaxLevel)
	}
	maxLevel := b.MaxLevel
	if maxLevel == 0 {
		maxLevel = search.MaxLevel
	}
	if b.DefaultLevel < 0 || b.DefaultLevel > maxLevel {
		return fmt.Errorf("config: bot.default_level must be between 1 and bot.max_level (%d), not %d", maxLevel, b.DefaultLevel)
	}
	if b.ReplyDelay != nil && (*b.ReplyDelay < 0 || *b.ReplyDelay > time.Minute) {
		return fmt.Errorf("config: bot.reply_delay must be between 0s and 1m, not %v", *b.ReplyDelay)
	}
	return nil
}

// checkWeb refuses web settings out of range (zero means the default).
func (c *Config) checkWeb() error {
	w := c.Web
	switch {
	case w.SessionTTL < 0:
		return fmt.Errorf("config: web.session_ttl must be positive (0: the default, 168h), not %v", w.SessionTTL)
	case w.ReadTimeout < 0 || w.ReadTimeout > 10*time.Minute:
		return fmt.Errorf("config: web.read_timeout must be between 1s and 10m (0: the default, 10s), not %v", w.ReadTimeout)
	case w.MaxConnections < 0:
		return fmt.Errorf("config: web.max_connections must be positive (0: the default, 1000), not %d", w.MaxConnections)
	}
	return nil
}

// defaultReplyDelay keeps the bot's answer behind the human's move on the
// way to the chat (an upload to Discord or Telegram takes a moment).
const defaultReplyDelay = time.Second

// botConfig converts the bot section for the service.
func (c *Config) botConfig() bot.BotConfig {
	delay := defaultReplyDelay
	if c.Bot.ReplyDelay != nil {
		delay = *c.Bot.ReplyDelay
	}
	return bot.BotConfig{Workers: c.Bot.Workers, MaxLevel: c.Bot.MaxLevel, DefaultLevel: c.Bot.DefaultLevel, Delay: delay}
}

func parseLevel(s string) (slog.Level, error) {
	var l slog.Level
	if s == "" {
		return slog.LevelInfo, nil
	}
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return 0, fmt.Errorf("config: log.level must be debug, info, warn or error, not %q", s)
	}
	return l, nil
}

// logger writes structured logs to w.
func (c *Config) logger(w io.Writer) *slog.Logger {
	level, _ := parseLevel(c.Log.Level)
	opts := &slog.HandlerOptions{Level: level}
	if c.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// limits converts the config section for the service (zero: default).
func (c *Config) limits() bot.Limits {
	return bot.Limits{
		CommandsPer10s: c.Limits.CommandsPer10s,
		OpenChallenges: c.Limits.OpenChallenges,
		ActiveGames:    c.Limits.ActiveGames,
		InputLength:    c.Limits.InputLength,
		ChallengeTTL:   c.Limits.ChallengeTTL,
	}
}
