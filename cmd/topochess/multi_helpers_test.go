package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Helpers for the tests that run several real topochess serve processes
// on one PostgreSQL database and talk to them as browsers do.

var (
	binOnce sync.Once
	binDir  string
	binErr  error
)

// servingBinary builds topochess once for the tests that run several
// serve processes (TestMain removes it).
func servingBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "topochess-bin-"); binErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, "topochess"), ".").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return filepath.Join(binDir, "topochess")
}

// serveProc is one running `topochess serve`.
type serveProc struct {
	t        *testing.T
	cmd      *exec.Cmd
	web, ops string // base URLs, without the final slash
	stdout   *syncBuffer
	stderr   *syncBuffer
	exited   chan struct{}
}

var (
	webURLRE = regexp.MustCompile(`the web chat is on (http://[^ /]+)/`)
	opsURLRE = regexp.MustCompile(`operations on (http://[^ /]+)/`)
)

// startServe starts serve from bin on the database at dbURL (passed in
// the environment, as a deployment does), with a web chat and an ops
// listener of its own on free loopback ports.
func startServe(t *testing.T, bin, dbURL string) *serveProc {
	t.Helper()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.yaml")
	body := "web:\n  listen: 127.0.0.1:0\nops:\n  listen: 127.0.0.1:0\nbot:\n  reply_delay: 0s\nlimits:\n  commands_per_10s: 1000\nimages:\n  size: 128\nlog:\n  level: warn\n"
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	p := &serveProc{t: t, stdout: &syncBuffer{}, stderr: &syncBuffer{}, exited: make(chan struct{})}
	p.cmd = exec.Command(bin, "serve", "--config", cfg)
	p.cmd.Env = append(os.Environ(), "TOPOCHESS_POSTGRES_URL="+dbURL, "TOPOCHESS_STORAGE_PATH="+filepath.Join(dir, "unused.db"))
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() { p.stop() })
	deadline := time.Now().Add(60 * time.Second)
	for {
		w, o := webURLRE.FindStringSubmatch(p.stdout.String()), opsURLRE.FindStringSubmatch(p.stdout.String())
		if w != nil && o != nil {
			p.web, p.ops = w[1], o[1]
			return p
		}
		select {
		case <-p.exited:
			t.Fatalf("serve exited at start:\n%s%s", p.stdout.String(), p.stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not say where it listens:\n%s%s", p.stdout.String(), p.stderr.String())
		}
	}
}

// stop ends the process with SIGTERM (SIGKILL if it hangs).
func (p *serveProc) stop() {
	select {
	case <-p.exited:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(20 * time.Second):
		p.t.Errorf("serve did not stop on SIGTERM:\n%s", p.stderr.String())
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
}

// kill ends the process with SIGKILL, as a machine dying would.
func (p *serveProc) kill() {
	p.t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		p.t.Fatal(err)
	}
	<-p.exited
}

// get fetches an ops or web path and returns the status and body.
func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// checkOps asks the process's ops listener whether it lives, is ready
// and counts.
func (p *serveProc) checkOps(t *testing.T) {
	t.Helper()
	if code, body := httpGet(t, p.ops+"/healthz"); code != 200 || body != "ok\n" {
		t.Errorf("%s/healthz: %d %q", p.ops, code, body)
	}
	if code, body := httpGet(t, p.ops+"/readyz"); code != 200 || body != "ready\n" {
		t.Errorf("%s/readyz: %d %q", p.ops, code, body)
	}
	code, body := httpGet(t, p.ops+"/metrics")
	if code != 200 || !strings.Contains(body, "topochess_active_games") || !strings.Contains(body, "topochess_commands_total") {
		t.Errorf("%s/metrics: %d\n%s", p.ops, code, body)
	}
}

// webEvent is what the page reads from the event stream.
type webEvent struct {
	Seq     uint64 `json:"seq"`
	Kind    string `json:"kind"`
	From    string `json:"from"`
	Text    string `json:"text"`
	Private bool   `json:"private"`
	Error   bool   `json:"error"`
}

// webTab is one browser tab: its session works on every process.
type webTab struct {
	t      *testing.T
	name   string
	token  string
	secret string
	events chan webEvent
	stream io.Closer
}

func postTo(t *testing.T, url, token string, body any) (int, map[string]any) {
	t.Helper()
	data, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", url, bytes.NewReader(data))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("X-Session", token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Error(err) // Error, not Fatal: racing goroutines send too
		return 0, nil
	}
	defer resp.Body.Close()
	out := map[string]any{}
	raw, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(raw, &out)
	return resp.StatusCode, out
}

// joinTab joins a room under a name (with its secret, once taken).
func joinTab(t *testing.T, base, name, room, secret string) *webTab {
	t.Helper()
	code, out := postTo(t, base+"/api/join", "", map[string]string{"name": name, "room": room, "secret": secret})
	if code != 200 {
		t.Fatalf("join %s on %s: %d %v", name, base, code, out)
	}
	tab := &webTab{t: t, name: name, token: out["token"].(string), secret: secret}
	if s, ok := out["secret"].(string); ok {
		tab.secret = s
	}
	return tab
}

// send types a line on a process; event is the page's id for it ("":
// none), which makes a second delivery of the same line recognisable.
func (w *webTab) send(base, text, event string) {
	w.t.Helper()
	if code, out := postTo(w.t, base+"/api/send", w.token, map[string]string{"text": text, "event": event}); code != 200 {
		w.t.Errorf("%s on %s: %q: %d %v", w.name, base, text, code, out)
	}
}

// listen opens the tab's event stream on a process, from after seq since.
func (w *webTab) listen(base string, since uint64) {
	w.t.Helper()
	if w.stream != nil {
		w.stream.Close()
	}
	req, _ := http.NewRequest("GET", fmt.Sprintf("%s/api/events?s=%s&since=%d", base, w.token, since), nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		w.t.Fatalf("%s's events on %s: %d", w.name, base, resp.StatusCode)
	}
	w.stream = resp.Body
	w.t.Cleanup(func() { resp.Body.Close() })
	events := make(chan webEvent, 1000)
	w.events = events
	go func() {
		defer close(events)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var e webEvent
				if json.Unmarshal([]byte(data), &e) == nil {
					events <- e
				}
			}
		}
	}()
}

// until reads events until one of kind contains text; it returns the
// events read, that one last.
func (w *webTab) until(kind, text string) []webEvent {
	w.t.Helper()
	var seen []webEvent
	timeout := time.After(20 * time.Second)
	for {
		select {
		case e, ok := <-w.events:
			if !ok {
				w.t.Fatalf("%s's event stream closed while waiting for %s %q", w.name, kind, text)
			}
			seen = append(seen, e)
			if e.Kind == kind && strings.Contains(e.Text, text) {
				return seen
			}
		case <-timeout:
			w.t.Fatalf("%s never saw %s %q; saw %+v", w.name, kind, text, seen)
		}
	}
}
