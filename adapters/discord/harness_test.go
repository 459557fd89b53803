package discord

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"topochess/bot"
)

const (
	testToken   = "tok.SECRET.abc123"
	testApp     = "4242"
	testGuild   = "800"
	testChannel = "900"
)

type member struct{ id, name string }

var (
	alice = member{"111", "alice"}
	bob   = member{"222", "bob"}
)

// handlerFunc is a bot.Handler for tests of the adapter's mechanics that
// need no game (the full game test uses the real bot.Service).
type handlerFunc func(cmd bot.Command) []bot.Reply

func (f handlerFunc) Handle(cmd bot.Command) []bot.Reply { return f(cmd) }

// suggestHandler adds suggestions to a handlerFunc.
type suggestHandler struct {
	handlerFunc
	suggest func(cmd bot.Command, option, typed string) []bot.Choice
}

func (s suggestHandler) Suggest(cmd bot.Command, option, typed string) []bot.Choice {
	return s.suggest(cmd, option, typed)
}

// recorder remembers the commands a handler saw.
type recorder struct {
	mu   sync.Mutex
	cmds []bot.Command
}

func (r *recorder) add(c bot.Command) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cmds = append(r.cmds, c)
}

func (r *recorder) list() []bot.Command {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]bot.Command(nil), r.cmds...)
}

// logBuffer collects the adapter's logs (to check them, and that no
// token is ever written).
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *logBuffer) waitFor(t *testing.T, s string) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if strings.Contains(l.String(), s) {
			return
		}
	}
	t.Fatalf("log never said %q:\n%s", s, l.String())
}

type env struct {
	t    *testing.T
	f    *fakeDiscord
	a    *Adapter
	logs *logBuffer
	ids  atomic.Int64
}

// start runs an adapter against a fresh fake Discord until the test ends.
func start(t *testing.T, h bot.Handler, tweak func(*Config)) *env {
	t.Helper()
	return startOn(t, newFakeDiscord(t, testToken), h, tweak)
}

// startOn runs an adapter against a fake prepared by the test.
func startOn(t *testing.T, f *fakeDiscord, h bot.Handler, tweak func(*Config)) *env {
	t.Helper()
	cfg := Config{Token: testToken, AppID: testApp, GuildIDs: []string{testGuild}, RESTBaseURL: f.srv.URL, DeferAfter: 2 * time.Second} // generous: -race on 2 cores is slow
	if tweak != nil {
		tweak(&cfg)
	}
	logs := &logBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	a, err := New(cfg, h, log)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
		if strings.Contains(logs.String(), "SECRET") || strings.Contains(logs.String(), "itok-") {
			t.Errorf("a token reached the logs:\n%s", logs.String())
		}
	})
	select {
	case <-a.Ready():
	case err := <-done:
		t.Fatalf("Run ended before ready: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatalf("adapter not ready:\n%s\nrequests:\n%s", logs.String(), f.dump())
	}
	return &env{t: t, f: f, a: a, logs: logs}
}

func userJSON(m member) map[string]any {
	return map[string]any{"id": m.id, "username": m.name, "global_name": strings.ToUpper(m.name[:1]) + m.name[1:]}
}

// interaction builds an interaction as Discord sends it in a guild.
func (e *env) interaction(typ int, who member, data map[string]any) map[string]any {
	id := fmt.Sprintf("7%05d", e.ids.Add(1))
	return map[string]any{
		"id": id, "application_id": testApp, "type": typ, "token": "itok-" + id, "version": 1,
		"guild_id": testGuild, "channel_id": testChannel,
		"member": map[string]any{"user": userJSON(who), "nick": ""},
		"data":   data,
	}
}

// opt is a slash command option; focused marks the one being typed.
type opt struct {
	name    string
	typ     int
	value   any
	focused bool
}

func str(name, value string) opt { return opt{name: name, typ: 3, value: value} }

func slashData(name string, opts ...opt) map[string]any {
	var os []any
	resolved := map[string]any{}
	for _, o := range opts {
		m := map[string]any{"name": o.name, "type": o.typ, "value": o.value}
		if o.focused {
			m["focused"] = true
		}
		if o.typ == 6 {
			for _, u := range []member{alice, bob} {
				if u.id == o.value {
					resolved[u.id] = userJSON(u)
				}
			}
		}
		os = append(os, m)
	}
	return map[string]any{"id": "cmd-" + name, "name": name, "type": 1, "options": os, "resolved": map[string]any{"users": resolved}}
}

// slash sends a slash command over the gateway and returns its id.
func (e *env) slash(who member, name string, opts ...opt) string {
	in := e.interaction(2, who, slashData(name, opts...))
	e.f.dispatch("INTERACTION_CREATE", in)
	return in["id"].(string)
}

func (e *env) typing(who member, name string, opts ...opt) string {
	in := e.interaction(4, who, slashData(name, opts...))
	e.f.dispatch("INTERACTION_CREATE", in)
	return in["id"].(string)
}

// press clicks a button (or picks a menu value) on a message.
func (e *env) press(who member, customID string, values ...string) string {
	data := map[string]any{"custom_id": customID, "component_type": 2}
	if len(values) > 0 {
		data["component_type"] = 3
		data["values"] = values
	}
	in := e.interaction(3, who, data)
	in["message"] = map[string]any{"id": "m1", "channel_id": testChannel}
	e.f.dispatch("INTERACTION_CREATE", in)
	return in["id"].(string)
}

// callback waits for the answer to interaction id.
func (e *env) callback(id string) *request {
	e.t.Helper()
	return e.f.waitFor("callback of "+id, func(r *request) bool {
		return r.Method == "POST" && strings.HasPrefix(r.Path, "/interactions/"+id+"/itok-"+id+"/callback")
	})
}

// webhook waits for a request on interaction id's webhook (follow-ups and
// edits of its answer); method and tail ("" for follow-ups,
// "/messages/@original", …) select it.
func (e *env) webhook(id, method, tail string) *request {
	e.t.Helper()
	path := "/webhooks/" + testApp + "/itok-" + id + tail
	return e.f.waitFor(method+" "+path, func(r *request) bool { return r.Method == method && r.Path == path })
}

// webhooksN waits for n such requests.
func (e *env) webhooksN(id, method, tail string, n int) []*request {
	e.t.Helper()
	path := "/webhooks/" + testApp + "/itok-" + id + tail
	return e.f.waitN(method+" "+path, n, func(r *request) bool { return r.Method == method && r.Path == path })
}

// jsonPath digs into a decoded JSON value: keys for objects, ints for
// arrays.
func jsonPath(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			s, _ := v.([]any)
			if k >= len(s) {
				return nil
			}
			v = s[k]
		}
	}
	return v
}

func jstr(v any, path ...any) string {
	s, _ := jsonPath(v, path...).(string)
	return s
}

func jnum(v any, path ...any) float64 {
	n, _ := jsonPath(v, path...).(float64)
	return n
}

// buttons lists the custom ids of a message's buttons, row by row.
func buttons(msg any) []string {
	var ids []string
	rows, _ := jsonPath(msg, "components").([]any)
	for _, row := range rows {
		cs, _ := jsonPath(row, "components").([]any)
		for _, c := range cs {
			ids = append(ids, jstr(c, "custom_id"))
		}
	}
	return ids
}

func pretty(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

func jsonRaw(b []byte) any {
	var v any
	_ = json.Unmarshal(b, &v)
	return v
}

// TestMain fails the run when a test leaves a gateway connection behind
// (discordgo reconnects forever on its own).
//
// Each test ends with discordgo's Close, which sleeps a second waiting for
// Discord to close the socket; the tests mostly wait, so more of them run
// at once than there are cores (unless -parallel says otherwise).
func TestMain(m *testing.M) {
	flag.Parse()
	if p := flag.Lookup("test.parallel"); p != nil && p.Value.String() == strconv.Itoa(runtime.GOMAXPROCS(0)) {
		_ = p.Value.Set("8")
	}
	code := m.Run()
	if code == 0 {
		time.Sleep(100 * time.Millisecond)
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		if s := string(buf[:n]); strings.Contains(s, "discordgo.(*Session)") {
			fmt.Fprintf(os.Stderr, "leaked discordgo goroutines:\n%s\n", s)
			code = 1
		}
	}
	os.Exit(code)
}

// answer waits for the message answering interaction id, however it was
// sent: in the callback, or after a deferral as the edited original (type
// 5) or the first follow-up (type 6). It returns the message and the
// request that carried it (for its files).
func (e *env) answer(id string) (map[string]any, *request) {
	e.t.Helper()
	cb := e.callback(id)
	switch jnumReq(cb, "type") {
	case 5:
		r := e.webhook(id, "PATCH", "/messages/@original")
		return r.JSON, r
	case 6:
		r := e.webhook(id, "POST", "")
		return r.JSON, r
	}
	data, _ := jsonPath(cb.JSON, "data").(map[string]any)
	return data, cb
}
