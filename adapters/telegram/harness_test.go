package telegram

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"topochess/bot"
)

// syncBuffer is a log sink tests read while the adapter writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type running struct {
	a    *Adapter
	logs *syncBuffer
	stop func()
	// waits records the pauses the adapter asked for (retry_after and
	// backoff), before they were shortened for the test.
	mu    sync.Mutex
	waits []time.Duration
}

func (r *running) asked() []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]time.Duration(nil), r.waits...)
}

// fastLimits keep Telegram's shape at a test's time scale.
var fastLimits = Limits{PerChat: 2 * time.Millisecond, GroupMessages: 1000, GroupWindow: time.Second, Global: 1000, GlobalWindow: time.Second}

// start runs an adapter against the fake until the test ends. One second
// of retry_after lasts 20 ms.
func start(t *testing.T, f *fakeAPI, h bot.Handler, tweak func(*Config)) *running {
	t.Helper()
	logs := &syncBuffer{}
	cfg := Config{
		Token: f.token, APIEndpoint: f.endpoint(),
		PollTimeout: time.Second, Backoff: 10 * time.Millisecond, MaxBackoff: 40 * time.Millisecond,
		Limits: fastLimits,
		Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	if tweak != nil {
		tweak(&cfg)
	}
	a, err := New(cfg, h)
	if err != nil {
		t.Fatal(err)
	}
	r := &running{a: a, logs: logs}
	a.retryUnit = 20 * time.Millisecond
	a.sleep = func(ctx context.Context, d time.Duration) error {
		r.mu.Lock()
		r.waits = append(r.waits, d)
		r.mu.Unlock()
		return sleepCtx(ctx, d)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	var once sync.Once
	r.stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Error("Run did not stop")
			}
			if strings.Contains(logs.String(), f.token) || strings.Contains(logs.String(), strings.Split(f.token, ":")[1]) {
				t.Errorf("the token reached the logs:\n%s", logs.String())
			}
		})
	}
	t.Cleanup(r.stop)
	f.waitFor("setMyCommands", func(reqs []apiRequest) bool {
		for _, q := range reqs {
			if q.Method == "setMyCommands" {
				return true
			}
		}
		return false
	})
	return r
}

// scriptHandler is a stand-in bot for the transport tests: it records the
// commands and answers with what the test's function returns.
type scriptHandler struct {
	mu    sync.Mutex
	cmds  []bot.Command
	reply func(bot.Command) []bot.Reply
}

func (h *scriptHandler) Handle(cmd bot.Command) []bot.Reply {
	h.mu.Lock()
	h.cmds = append(h.cmds, cmd)
	h.mu.Unlock()
	if h.reply == nil {
		return []bot.Reply{{Text: "ok " + cmd.Name + " " + cmd.Text}}
	}
	return h.reply(cmd)
}

func (h *scriptHandler) commands() []bot.Command {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]bot.Command(nil), h.cmds...)
}

var (
	alice = tgUser{ID: 11, First: "Alice", Username: "alice"}
	bob   = tgUser{ID: 22, First: "Bob", Username: "bob"}
	carol = tgUser{ID: 33, First: "Carol"} // no @username
)

const group int64 = -100123
