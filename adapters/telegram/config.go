// Package telegram connects the bot to Telegram through the Bot API: typed
// commands in private chats and groups, plain-text moves, inline keyboards
// (challenges, draws, tap-to-move) and board pictures. It only translates
// between Telegram updates and bot.Commands / bot.Replies.
package telegram

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"topochess/adapters/internal/endpoint"
	"topochess/bot/metrics"
)

// Config is the telegram section of the configuration file.
type Config struct {
	// Token is the bot token from BotFather (telegram.token or the
	// environment variable TOPOCHESS_TELEGRAM_TOKEN).
	Token string
	// APIEndpoint is the Bot API URL in the library's format, with two %s
	// for the token and the method: "http://host:8081/bot%s/%s" for a
	// self-hosted Bot API server. Empty: api.telegram.org.
	APIEndpoint string
	// WebhookURL switches from long polling to a webhook: Telegram posts
	// updates to this public HTTPS URL, whose path the adapter serves.
	WebhookURL string
	// WebhookSecret is sent by Telegram in X-Telegram-Bot-Api-Secret-Token;
	// requests without it are refused with 401. Required with WebhookURL.
	WebhookSecret string
	// WebhookListen is the local address of the webhook server (default
	// ":8443"); a reverse proxy usually terminates TLS in front of it.
	WebhookListen string

	// PollTimeout is the long-poll timeout of getUpdates (default 50 s).
	PollTimeout time.Duration
	// Backoff is the first wait after a failed poll; it doubles up to
	// MaxBackoff (defaults 1 s and 1 min).
	Backoff, MaxBackoff time.Duration
	// Limits keep the outgoing messages within Telegram's flood limits.
	Limits Limits
	// Logger receives the adapter's logs (default slog.Default()).
	Logger *slog.Logger
	// Metrics counts failed Bot API calls and 429s (nil: not counted).
	Metrics *metrics.Platform
	// limits bound the HTTP server facing the platform (tests shorten
	// them; the defaults suit the open internet).
	limits endpoint.Limits
}

// Limits are Telegram's documented sending limits; zero fields take them.
type Limits struct {
	// PerChat is the least time between two messages to one chat (1 s).
	PerChat time.Duration
	// GroupMessages per GroupWindow at most to one group (20 per minute).
	GroupMessages int
	GroupWindow   time.Duration
	// Global messages per GlobalWindow at most, all chats together (30/s).
	Global       int
	GlobalWindow time.Duration
}

func (l Limits) withDefaults() Limits {
	if l.PerChat <= 0 {
		l.PerChat = time.Second
	}
	if l.GroupMessages <= 0 {
		l.GroupMessages = 20
	}
	if l.GroupWindow <= 0 {
		l.GroupWindow = time.Minute
	}
	if l.Global <= 0 {
		l.Global = 30
	}
	if l.GlobalWindow <= 0 {
		l.GlobalWindow = time.Second
	}
	return l
}

func (c Config) withDefaults() Config {
	if c.APIEndpoint == "" {
		c.APIEndpoint = tgbotapi.APIEndpoint
	}
	if c.WebhookListen == "" {
		c.WebhookListen = ":8443"
	}
	if c.PollTimeout <= 0 {
		c.PollTimeout = 50 * time.Second
	}
	if c.Backoff <= 0 {
		c.Backoff = time.Second
	}
	if c.MaxBackoff < c.Backoff {
		c.MaxBackoff = max(time.Minute, c.Backoff)
	}
	c.Limits = c.Limits.withDefaults()
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c
}

// validate explains configuration mistakes before anything is contacted.
func (c Config) validate() error {
	if strings.TrimSpace(c.Token) == "" {
		return errors.New("telegram: no token (set telegram.token or TOPOCHESS_TELEGRAM_TOKEN; BotFather gives one)")
	}
	if strings.Count(c.APIEndpoint, "%s") != 2 {
		return fmt.Errorf("telegram: api_endpoint %q must contain %%s twice, like https://api.telegram.org/bot%%s/%%s", c.APIEndpoint)
	}
	if c.WebhookURL != "" {
		u, err := url.Parse(c.WebhookURL)
		if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
			return fmt.Errorf("telegram: webhook_url %q is not an absolute URL (https://host/path)", c.WebhookURL)
		}
		if c.WebhookSecret == "" {
			return errors.New("telegram: webhook_url needs webhook_secret (1-256 characters A-Z a-z 0-9 _ -), so that only Telegram can post updates")
		}
		for _, r := range c.WebhookSecret {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
				return errors.New("telegram: webhook_secret may only contain A-Z a-z 0-9 _ - (Telegram's rule)")
			}
		}
		if len(c.WebhookSecret) > 256 {
			return errors.New("telegram: webhook_secret is longer than 256 characters (Telegram's limit)")
		}
	}
	return nil
}
