package telegram

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"topochess/adapters/internal/endpoint"
	"topochess/adapters/internal/endpoint/endpointtest"
)

func TestWebhookDropsSlowBodies(t *testing.T) {
	f := newFakeAPI(t)
	h := &scriptHandler{}
	r := start(t, f, h, func(c *Config) {
		c.WebhookURL = "https://bot.example.org/tg/hook"
		c.WebhookSecret = "s3cret_Value-1"
		c.WebhookListen = "127.0.0.1:0"
		c.limits = endpoint.Limits{ReadHeader: time.Second, Read: 3 * time.Second}
	})
	addr := <-r.a.listening
	type result struct {
		took time.Duration
		cut  bool
	}
	// Slow bodies from strangers (no secret) and from someone who has it.
	results := make(chan result, 4)
	for _, secret := range []string{"", "", "s3cret_Value-1", "s3cret_Value-1"} {
		go func() {
			head := "POST /tg/hook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n"
			if secret != "" {
				head += secretHeader + ": " + secret + "\r\n"
			}
			took, cut := endpointtest.SlowPost(t, addr, head+"\r\n{", 12*time.Second)
			results <- result{took, cut}
		}()
	}
	// Meanwhile Telegram's updates still get through, at once.
	time.Sleep(200 * time.Millisecond)
	body, _ := json.Marshal(f.message(alice, group, "/help", 0)["message"])
	began := time.Now()
	req, _ := http.NewRequest("POST", "http://"+addr+"/tg/hook", bytes.NewReader([]byte(`{"update_id":8001,"message":`+string(body)+`}`)))
	req.Header.Set(secretHeader, "s3cret_Value-1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || time.Since(began) > 1500*time.Millisecond {
		t.Errorf("an update beside slow bodies: status %d after %v", resp.StatusCode, time.Since(began))
	}
	f.waitSent("sendMessage", 0, 1)
	for range 4 {
		res := <-results
		if !res.cut || res.took > 6*time.Second {
			t.Errorf("a body sent one byte per 100 ms was held %v (cut: %v), want dropped after about 3 s", res.took, res.cut)
		}
	}
	if n := len(h.commands()); n != 1 {
		t.Errorf("%d commands handled, want 1 (the slow bodies are no updates)", n)
	}
	if strings.Contains(r.logs.String(), "unreadable webhook update") {
		t.Errorf("a slow body was taken for a broken update (Telegram would not send it again):\n%s", r.logs.String())
	}
}
