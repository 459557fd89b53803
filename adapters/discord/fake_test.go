package discord

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// fakeDiscord is a local stand-in for Discord: the REST API under
// /api/v9/ and a gateway websocket under /gateway, enough of both for
// discordgo to connect, and a log of every request it was sent.
type fakeDiscord struct {
	t     *testing.T
	srv   *httptest.Server
	token string // the bot token it expects

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced on every new request or gateway event
	requests []*request
	gateway  []gatewayEvent
	conn     *websocket.Conn
	seq      int64
	session  string
	nextID   int
	// limits answers the next requests whose path has a prefix with a 429.
	limits []rateLimit
	// failIf answers the requests it picks with a Discord error.
	failIf func(*request) *discordError
	// refuseResume answers resumes with an invalid session (op 9), so the
	// client must identify again.
	refuseResume bool
	// acked are the interactions answered; a second answer is refused
	// as Discord does (40060).
	acked map[string]bool
	// nonces are the channel messages made with enforce_nonce, by nonce.
	nonces map[string]string
	// made counts the messages the fake really created (posts that were
	// answered, or carried out before a cut).
	made int
}

type request struct {
	Method, Path, Query, ContentType, Auth string
	JSON                                   map[string]any // the JSON body or payload_json
	Raw                                    []byte         // the JSON body as sent
	Files                                  []filePart
	At                                     time.Time
}

type filePart struct {
	Field, Name, ContentType string
	Data                     []byte
}

type gatewayEvent struct {
	Op   int
	Data json.RawMessage
}

type rateLimit struct {
	prefix     string
	retryAfter float64
}

type discordError struct {
	status, code int
	message      string
	html         string // an error page instead of Discord's JSON
	// arrived: the request is carried out, then the connection is cut
	// before the answer (status 0).
	arrived bool
}

func newFakeDiscord(t *testing.T, token string) *fakeDiscord {
	f := &fakeDiscord{t: t, token: token, changed: make(chan struct{}), session: "sess-1"}
	mux := http.NewServeMux()
	mux.HandleFunc("/gateway/", f.serveGateway) // discordgo adds the slash
	mux.HandleFunc("/api/v9/", f.serveREST)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.close)
	return f
}

func (f *fakeDiscord) close() {
	f.mu.Lock()
	if f.conn != nil {
		f.conn.Close()
	}
	f.mu.Unlock()
	f.srv.Close()
}

func (f *fakeDiscord) notify() {
	close(f.changed)
	f.changed = make(chan struct{})
}

func (f *fakeDiscord) id() string {
	f.nextID++
	return fmt.Sprintf("5%05d", f.nextID)
}

// rateLimitNext makes the next request under prefix fail with a 429.
func (f *fakeDiscord) rateLimitNext(prefix string, retryAfter float64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.limits = append(f.limits, rateLimit{prefix, retryAfter})
}

func (f *fakeDiscord) serveREST(w http.ResponseWriter, r *http.Request) {
	req := &request{Method: r.Method, Path: strings.TrimPrefix(r.URL.Path, "/api/v9"), Query: r.URL.RawQuery,
		ContentType: r.Header.Get("Content-Type"), Auth: r.Header.Get("Authorization"), At: time.Now()}
	if err := parseBody(r, req); err != nil {
		f.t.Errorf("fake discord: %s %s: %v", r.Method, r.URL.Path, err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.requests = append(f.requests, req)
	f.notify()
	for i, l := range f.limits {
		if strings.HasPrefix(req.Path, l.prefix) {
			f.limits = append(f.limits[:i], f.limits[i+1:]...)
			f.mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Retry-After", fmt.Sprint(l.retryAfter))
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprintf(w, `{"message":"You are being rate limited.","retry_after":%g,"global":false}`, l.retryAfter)
			return
		}
	}
	var cut *discordError
	if f.failIf != nil {
		if e := f.failIf(req); e != nil && e.arrived {
			cut = e
		} else if e != nil {
			f.mu.Unlock()
			if e.status == 0 { // a connection cut without an answer
				conn, _, _ := w.(http.Hijacker).Hijack()
				conn.Close()
				return
			}
			if e.html != "" {
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(e.status)
				io.WriteString(w, e.html)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(e.status)
			fmt.Fprintf(w, `{"message":%q,"code":%d}`, e.message, e.code)
			return
		}
	}
	id := f.id()
	parts := strings.Split(strings.Trim(req.Path, "/"), "/")
	if r.Method == http.MethodPost && parts[0] == "interactions" {
		if f.acked == nil {
			f.acked = map[string]bool{}
		}
		if f.acked[parts[1]] {
			f.mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"message":"Interaction has already been acknowledged.","code":40060}`)
			return
		}
		f.acked[parts[1]] = true
	}
	if r.Method == http.MethodPost && (parts[0] == "channels" || parts[0] == "webhooks" || parts[0] == "interactions") {
		if nonce, _ := req.JSON["nonce"].(string); nonce != "" && req.JSON["enforce_nonce"] == true {
			if f.nonces == nil {
				f.nonces = map[string]string{}
			}
			if old, ok := f.nonces[nonce]; ok {
				id = old // the message made by the first attempt
			} else {
				f.nonces[nonce] = id
				f.made++
			}
		} else {
			f.made++
		}
	}
	f.mu.Unlock()
	if cut != nil {
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close()
		return
	}

	needsBot := !strings.HasPrefix(req.Path, "/webhooks/") && !strings.HasPrefix(req.Path, "/interactions/")
	if needsBot && req.Auth != "Bot "+f.token {
		http.Error(w, `{"message":"401: Unauthorized","code":0}`, http.StatusUnauthorized)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.Method == http.MethodGet && req.Path == "/gateway":
		fmt.Fprintf(w, `{"url":"ws://%s/gateway"}`, f.srv.Listener.Addr())
	case r.Method == http.MethodPut && parts[0] == "applications":
		w.Write(req.Raw)
	case r.Method == http.MethodPost && parts[0] == "interactions":
		w.WriteHeader(http.StatusNoContent)
	case parts[0] == "webhooks" && r.Method == http.MethodDelete:
		w.WriteHeader(http.StatusNoContent)
	case parts[0] == "webhooks" && len(parts) == 5: // GET/PATCH .../messages/{id}
		msgID := parts[4]
		if msgID == "@original" {
			msgID = "orig-" + parts[2]
		}
		fmt.Fprintf(w, `{"id":%q,"channel_id":"900"}`, msgID)
	case parts[0] == "webhooks" || parts[0] == "channels":
		ch := "900"
		if parts[0] == "channels" {
			ch = parts[1]
		}
		fmt.Fprintf(w, `{"id":%q,"channel_id":%q}`, id, ch)
	default:
		http.Error(w, `{"message":"404: Not Found","code":0}`, http.StatusNotFound)
	}
}

func parseBody(r *http.Request, req *request) error {
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt == "multipart/form-data" {
		mr := multipart.NewReader(r.Body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			data, err := io.ReadAll(p)
			if err != nil {
				return err
			}
			if p.FormName() == "payload_json" {
				req.Raw = data
				if err := json.Unmarshal(data, &req.JSON); err != nil {
					return fmt.Errorf("payload_json: %w", err)
				}
				continue
			}
			req.Files = append(req.Files, filePart{Field: p.FormName(), Name: p.FileName(), ContentType: p.Header.Get("Content-Type"), Data: data})
		}
	}
	data, err := io.ReadAll(r.Body)
	if err != nil {
		return err
	}
	if len(data) > 0 {
		req.Raw = data
		if data[0] == '{' {
			return json.Unmarshal(data, &req.JSON)
		}
	}
	return nil
}

var upgrader = websocket.Upgrader{}

func (f *fakeDiscord) serveGateway(w http.ResponseWriter, r *http.Request) {
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	f.mu.Lock()
	f.conn = conn
	f.mu.Unlock()
	f.send(conn, map[string]any{"op": 10, "d": map[string]any{"heartbeat_interval": 45000}})
	for {
		var p struct {
			Op int             `json:"op"`
			D  json.RawMessage `json:"d"`
		}
		if err := conn.ReadJSON(&p); err != nil {
			return
		}
		f.mu.Lock()
		f.gateway = append(f.gateway, gatewayEvent{p.Op, p.D})
		f.notify()
		f.mu.Unlock()
		switch p.Op {
		case 1:
			f.send(conn, map[string]any{"op": 11})
		case 2:
			var id struct {
				Token string `json:"token"`
			}
			json.Unmarshal(p.D, &id)
			if id.Token != "Bot "+f.token {
				conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(4004, "Authentication failed."))
				conn.Close()
				return
			}
			f.dispatch("READY", map[string]any{"v": 10, "session_id": f.session, "user": map[string]any{"id": "1000", "username": "topochess", "bot": true}, "guilds": []any{}})
		case 6:
			f.mu.Lock()
			refuse := f.refuseResume
			f.mu.Unlock()
			if refuse {
				f.send(conn, map[string]any{"op": 9, "d": false})
				continue
			}
			f.dispatch("RESUMED", map[string]any{})
		}
	}
}

func (f *fakeDiscord) send(conn *websocket.Conn, v any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := conn.WriteJSON(v); err != nil {
		f.t.Logf("fake gateway write: %v", err)
	}
}

// dispatch sends an event on the current gateway connection.
func (f *fakeDiscord) dispatch(event string, data any) {
	f.mu.Lock()
	f.seq++
	conn, seq := f.conn, f.seq
	f.mu.Unlock()
	if conn == nil {
		f.t.Fatalf("dispatch %s: no gateway connection", event)
	}
	f.send(conn, map[string]any{"op": 0, "t": event, "s": seq, "d": data})
}

// drop closes the gateway connection from the server side.
func (f *fakeDiscord) drop() {
	f.mu.Lock()
	conn := f.conn
	f.conn = nil
	f.mu.Unlock()
	conn.UnderlyingConn().Close()
}

// waitFor waits until a request satisfies ok and returns the first.
func (f *fakeDiscord) waitFor(what string, ok func(*request) bool) *request {
	f.t.Helper()
	return f.waitN(what, 1, ok)[0]
}

// waitN waits until n requests satisfy ok and returns them.
func (f *fakeDiscord) waitN(what string, n int, ok func(*request) bool) []*request {
	f.t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		f.mu.Lock()
		var found []*request
		for _, r := range f.requests {
			if ok(r) {
				found = append(found, r)
			}
		}
		if len(found) >= n {
			f.mu.Unlock()
			return found
		}
		ch := f.changed
		f.mu.Unlock()
		select {
		case <-ch:
		case <-deadline:
			f.t.Fatalf("fake discord: no %s; requests:\n%s", what, f.dump())
			return nil
		}
	}
}

// waitGateway waits for a gateway packet with op (the n-th one, from 1).
func (f *fakeDiscord) waitGateway(op, n int) gatewayEvent {
	f.t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		f.mu.Lock()
		seen := 0
		for _, e := range f.gateway {
			if e.Op == op {
				seen++
				if seen == n {
					f.mu.Unlock()
					return e
				}
			}
		}
		ch := f.changed
		f.mu.Unlock()
		select {
		case <-ch:
		case <-deadline:
			f.t.Fatalf("fake gateway: no op %d #%d", op, n)
		}
	}
}

func (f *fakeDiscord) all() []*request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*request(nil), f.requests...)
}

func (f *fakeDiscord) dump() string {
	var b strings.Builder
	for _, r := range f.all() {
		fmt.Fprintf(&b, "  %s %s?%s files=%d %.300s\n", r.Method, r.Path, r.Query, len(r.Files), r.Raw)
	}
	return b.String()
}
