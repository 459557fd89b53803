package discord

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"topochess/bot/metrics"
)

// Connected follows the gateway; a 429 given up on is counted.
func TestConnectedAndRateLimitCount(t *testing.T) {
	t.Parallel()
	m := metrics.New()
	e := start(t, textHandler("hello"), func(c *Config) { c.Metrics = m.Platform("discord") })
	deadline := time.Now().Add(10 * time.Second)
	for e.a.Connected() != nil {
		if time.Now().After(deadline) {
			t.Fatalf("gateway open, Connected() = %v", e.a.Connected())
		}
		time.Sleep(5 * time.Millisecond)
	}
	e.f.rateLimitNext("/interactions/", 60)
	e.callback(e.slash(alice, "help"))
	e.logs.waitFor(t, "discord rate limit: giving up")

	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if v := sample(rec.Body.String(), `topochess_platform_rate_limited_total{platform="discord"}`); v != 1 {
		t.Errorf("429s counted: %v, want 1\n%s", v, rec.Body.String())
	}
	// discordgo clears DataReady when the gateway connection closes.
	e.a.s.Close()
	if err := e.a.Connected(); err == nil || !strings.Contains(err.Error(), "gateway connection is down") {
		t.Errorf("after the gateway closed: %v", err)
	}
}

func TestNotConnectedBeforeRun(t *testing.T) {
	a, err := New(Config{Token: testToken, AppID: testApp}, textHandler("hello"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Connected(); err == nil {
		t.Error("connected before Run")
	}
}

// sample reads one sample from the text exposition; -1 if absent.
func sample(exposition, name string) float64 {
	for _, line := range strings.Split(exposition, "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			var f float64
			if _, err := fmt.Sscan(v, &f); err == nil {
				return f
			}
		}
	}
	return -1
}
