// Package discord connects the bot to Discord: slash commands with
// autocomplete, buttons and board pictures, over the gateway or over the
// HTTP interactions endpoint. It only translates between Discord's
// interactions and bot.Commands / bot.Replies.
package discord

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"topochess/adapters/internal/endpoint"
	"topochess/bot/metrics"
)

// Config is the discord section of the configuration file.
type Config struct {
	// Token is the bot token (with or without the "Bot " prefix).
	Token string
	// AppID is the application id; commands are registered under it.
	AppID string
	// GuildIDs, when set, registers the commands in these guilds only
	// (they appear at once); otherwise globally.
	GuildIDs []string
	// RESTBaseURL sends every REST call, gateway discovery included, to
	// another base URL (a proxy or a test server); "" is Discord itself.
	RESTBaseURL string
	// PublicKey is the application's hex Ed25519 key, needed to verify
	// requests to the HTTP interactions endpoint.
	PublicKey string
	// InteractionsListen is the address of the HTTP interactions
	// endpoint. When set, interactions come only there and no gateway
	// connection is made; "" for the gateway.
	InteractionsListen string
	// ShardID and ShardCount split the gateway between processes: this
	// one gets the events of the guilds with (guild_id >> 22) % ShardCount
	// == ShardID (and direct messages on shard 0). ShardCount 0 or 1 is
	// one process for every guild.
	ShardID, ShardCount int

	// DeferAfter is how long a command may take before the adapter
	// acknowledges it and follows up later (default 1.2 s). Discord
	// drops interactions not answered within 3 s.
	DeferAfter time.Duration
	// Metrics counts failed REST calls and 429s (nil: not counted).
	Metrics *metrics.Platform
	// limits bound the HTTP server facing the platform (tests shorten
	// them; the defaults suit the open internet).
	limits endpoint.Limits
}

const (
	defaultDeferAfter = 1200 * time.Millisecond
	// interactionWindow is Discord's limit for the first response.
	interactionWindow = 3 * time.Second
	// tokenLifetime is how long an interaction token can send follow-ups.
	tokenLifetime = 15 * time.Minute
)

func (c *Config) validate() error {
	if strings.TrimSpace(c.Token) == "" {
		return errors.New("discord: no token (set discord.token or TOPOCHESS_DISCORD_TOKEN)")
	}
	if c.AppID == "" {
		return errors.New("discord: discord.app_id is required to register the slash commands")
	}
	if c.RESTBaseURL != "" {
		if _, err := restBase(c.RESTBaseURL); err != nil {
			return err
		}
	}
	if c.InteractionsListen != "" {
		if _, err := publicKey(c.PublicKey); err != nil {
			return err
		}
	}
	return CheckShard(c.ShardID, c.ShardCount, c.InteractionsListen)
}

// maxShards is far above what a bot needs (Discord asks for a shard per
// 2,500 guilds), low enough to catch a typo.
const maxShards = 4096

// CheckShard refuses a shard setting that cannot work, in words that name
// the configuration keys (the configuration loader checks it early).
func CheckShard(id, count int, interactionsListen string) error {
	c := Config{ShardID: id, ShardCount: count, InteractionsListen: interactionsListen}
	switch {
	case c.ShardCount < 0 || c.ShardCount > maxShards:
		return fmt.Errorf("discord: discord.shard_count is the number of gateway shards, between 1 and %d (0: one process for every guild), not %d", maxShards, c.ShardCount)
	case c.ShardCount <= 1 && c.ShardID != 0:
		return fmt.Errorf("discord: discord.shard_id %d needs discord.shard_count above it (shard ids run from 0 to shard_count-1)", c.ShardID)
	case c.ShardID < 0 || c.ShardCount > 1 && c.ShardID >= c.ShardCount:
		return fmt.Errorf("discord: discord.shard_id must be between 0 and discord.shard_count-1 (%d), not %d", c.ShardCount-1, c.ShardID)
	case c.ShardCount > 1 && c.InteractionsListen != "":
		return errors.New("discord: discord.shard_id/shard_count are for the gateway; with discord.interactions_listen every process takes any interaction, so leave them unset")
	}
	return nil
}

func (c *Config) botToken() string {
	t := strings.TrimSpace(c.Token)
	if !strings.HasPrefix(t, "Bot ") {
		t = "Bot " + t
	}
	return t
}

func publicKey(s string) (ed25519.PublicKey, error) {
	b, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, errors.New("discord: discord.public_key must be the application's public key (64 hex digits) for the interactions endpoint")
	}
	return ed25519.PublicKey(b), nil
}

func restBase(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("discord: discord.rest_base_url %q must be an http(s) URL such as http://127.0.0.1:8080", s)
	}
	return u, nil
}

// rewriteTransport sends requests meant for discord.com to another base
// URL. discordgo computes its endpoints once from https://discord.com/api/
// and offers no setting for them, so this is the one place to move them.
type rewriteTransport struct {
	base *url.URL
	next http.RoundTripper
}

func (t *rewriteTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Host != "discord.com" {
		return t.next.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	r.URL.Scheme = t.base.Scheme
	r.URL.Host = t.base.Host
	r.URL.Path = strings.TrimSuffix(t.base.Path, "/") + r.URL.Path
	if r.URL.RawPath != "" {
		r.URL.RawPath = strings.TrimSuffix(t.base.EscapedPath(), "/") + r.URL.RawPath
	}
	r.Host = ""
	return t.next.RoundTrip(r)
}

// httpClient is the client for every REST call. The timeout bounds a call
// that hangs; calls inside an interaction's window carry tighter deadlines.
func (c *Config) httpClient() *http.Client {
	var rt http.RoundTripper = http.DefaultTransport
	if c.RESTBaseURL != "" {
		base, _ := restBase(c.RESTBaseURL)
		rt = &rewriteTransport{base: base, next: rt}
	}
	return &http.Client{Timeout: 20 * time.Second, Transport: rt}
}
