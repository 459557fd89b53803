package telegram

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"topochess/bot/metrics"
)

// Connected follows the long poll: an error while getUpdates fails,
// nil once it goes through again; failed calls and 429s are counted.
func TestConnectedAndFailureCounts(t *testing.T) {
	f := newFakeAPI(t)
	m := metrics.New()
	failing := []scripted{tooMany(1)}
	for range 200 {
		failing = append(failing, scripted{500, `{"ok":false,"error_code":500,"description":"Internal Server Error"}`})
	}
	f.script("getUpdates", failing...)
	f.script("sendMessage", tooMany(1))
	r := start(t, f, &scriptHandler{}, func(c *Config) { c.Metrics = m.Platform("telegram") })
	waitConnected := func(want string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			err := r.a.Connected()
			if want == "" && err == nil || want != "" && err != nil && strings.Contains(err.Error(), want) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("Connected() = %v, want %q", err, want)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	waitConnected("getUpdates: Bot API answered 500") // after the 429
	f.unscript("getUpdates")
	waitConnected("")
	f.say(alice, group, "/board")
	f.waitSent("sendMessage", 0, 2) // the 429, then the message

	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body := rec.Body.String()
	if v := metricValue(body, `topochess_platform_rate_limited_total{platform="telegram"}`); v != 2 {
		t.Errorf("429s counted: %v, want 2 (one poll, one message)\n%s", v, body)
	}
	if v := metricValue(body, `topochess_platform_errors_total{platform="telegram"}`); v < 1 {
		t.Errorf("failed polls counted: %v", v)
	}
}

func TestNotConnectedBeforeRun(t *testing.T) {
	a, err := New(Config{Token: testToken}, &scriptHandler{})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Connected(); err == nil || !strings.Contains(err.Error(), "not connected") {
		t.Errorf("before Run: %v", err)
	}
}

// metricValue reads one sample from the text exposition; -1 if absent.
func metricValue(exposition, sample string) float64 {
	for _, line := range strings.Split(exposition, "\n") {
		if v, ok := strings.CutPrefix(line, sample+" "); ok {
			var f float64
			if _, err := fmt.Sscan(v, &f); err == nil {
				return f
			}
		}
	}
	return -1
}
