package discord

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestConfigRefusals(t *testing.T) {
	t.Parallel()
	good := Config{Token: "t", AppID: "1"}
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"no token", func(c *Config) { c.Token = " " }, "no token"},
		{"no app id", func(c *Config) { c.AppID = "" }, "app_id"},
		{"bad base URL", func(c *Config) { c.RESTBaseURL = "127.0.0.1:80" }, "rest_base_url"},
		{"endpoint without key", func(c *Config) { c.InteractionsListen = ":8081" }, "public_key"},
		{"short key", func(c *Config) { c.InteractionsListen, c.PublicKey = ":8081", "abcd" }, "public_key"},
		{"negative shard count", func(c *Config) { c.ShardCount = -1 }, "shard_count is the number of gateway shards"},
		{"shard without a count", func(c *Config) { c.ShardID = 1 }, "needs discord.shard_count above it"},
		{"shard beyond the count", func(c *Config) { c.ShardID, c.ShardCount = 2, 2 }, "between 0 and discord.shard_count-1 (1), not 2"},
		{"negative shard", func(c *Config) { c.ShardID, c.ShardCount = -1, 2 }, "not -1"},
		{"shards on the endpoint", func(c *Config) {
			c.ShardID, c.ShardCount, c.InteractionsListen, c.PublicKey = 0, 2, ":8081", strings.Repeat("ab", 32)
		}, "are for the gateway"},
	} {
		c := good
		tc.edit(&c)
		_, err := New(c, handlerFunc(nil), nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error about %s", tc.name, err, tc.want)
		}
	}
	if got := (&Config{Token: "abc"}).botToken(); got != "Bot abc" {
		t.Errorf("token %q", got)
	}
	if got := (&Config{Token: "Bot abc"}).botToken(); got != "Bot abc" {
		t.Errorf("token %q", got)
	}
}

func TestBaseURLWithPath(t *testing.T) {
	t.Parallel()
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = r.URL.Path + "?" + r.URL.RawQuery }))
	defer srv.Close()
	c := &Config{RESTBaseURL: srv.URL + "/proxy/discord/"}
	resp, err := c.httpClient().Get("https://discord.com/api/v9/webhooks/1/tok?wait=true")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got != "/proxy/discord/api/v9/webhooks/1/tok?wait=true" {
		t.Errorf("request reached %q", got)
	}
}
