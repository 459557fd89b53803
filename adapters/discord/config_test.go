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
