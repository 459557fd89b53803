package telegram

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"
)

// fakeAPI is a local Bot API server speaking Telegram's HTTP protocol
// (form and multipart requests, {"ok":…} answers). It records every
// request, so tests check what the library really sent.
type fakeAPI struct {
	t     *testing.T
	srv   *httptest.Server
	token string
	self  tgUser

	mu      sync.Mutex
	reqs    []apiRequest
	updates []map[string]any
	nextUpd int
	nextMsg int
	fail    map[string][]scripted // method → answers to give first
	// refused lists the fake's own 4xx answers (not the scripted ones):
	// calls a real Bot API would refuse too.
	refused  []string
	arrived  chan struct{} // closed and renewed on every update push
	messages map[int]map[string]any
	budget   *tgBudget // Telegram's sending limits, when a test turns them on
}

type tgUser struct {
	ID       int64
	First    string
	Username string
}

func (u tgUser) json() map[string]any {
	m := map[string]any{"id": u.ID, "is_bot": false, "first_name": u.First}
	if u.Username != "" {
		m["username"] = u.Username
	}
	return m
}

type apiRequest struct {
	Method string
	Params map[string]string
	File   []byte // the uploaded photo, if any
	At     time.Time
	Status int // 200, or the status of a refusal the fake was told to give
}

// scripted is an answer the fake gives instead of the normal one.
type scripted struct {
	status int
	body   string
}

const testToken = "123456789:AAFakeTokenForTestsOnly_abcdefghijk"

func newFakeAPI(t *testing.T) *fakeAPI {
	f := &fakeAPI{
		t: t, token: testToken,
		self:     tgUser{ID: 999, First: "Topochess", Username: "topochess_bot"},
		nextUpd:  100,
		nextMsg:  1000,
		fail:     map[string][]scripted{},
		arrived:  make(chan struct{}),
		messages: map[int]map[string]any{},
	}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// endpoint is the library's format string pointing at the fake.
func (f *fakeAPI) endpoint() string { return f.srv.URL + "/bot%s/%s" }

func (f *fakeAPI) script(method string, answers ...scripted) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail[method] = append(f.fail[method], answers...)
}

// dropConnection as a scripted status closes the connection without an
// answer, as a proxy or a network failure does.
const dropConnection = -1

// htmlError is what Telegram's front end answers during an outage.
func htmlError(status int) scripted {
	return scripted{status, "<html>\r\n<head><title>" + strconv.Itoa(status) + " Internal Server Error</title></head>\r\n<body><center><h1>" + strconv.Itoa(status) + " Internal Server Error</h1></center>\r\n<hr><center>nginx/1.18.0</center>\r\n</body>\r\n</html>\r\n"}
}

// unscript forgets the answers still scripted for a method.
func (f *fakeAPI) unscript(method string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.fail, method)
}

func tooMany(retry int) scripted {
	return scripted{429, fmt.Sprintf(`{"ok":false,"error_code":429,"description":"Too Many Requests: retry after %d","parameters":{"retry_after":%d}}`, retry, retry)}
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	prefix := "/bot" + f.token + "/"
	if !strings.HasPrefix(r.URL.Path, prefix) {
		writeJSON(w, 404, map[string]any{"ok": false, "error_code": 404, "description": "Not Found"})
		return
	}
	method := strings.TrimPrefix(r.URL.Path, prefix)
	req := apiRequest{Method: method, Params: map[string]string{}, At: time.Now(), Status: 200}
	ct := r.Header.Get("Content-Type")
	if strings.HasPrefix(ct, "multipart/form-data") {
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return // the sender died in the middle of the upload
			}
			f.t.Errorf("fake API: bad multipart %s: %v", method, err)
			return
		}
		for k, v := range r.MultipartForm.Value {
			req.Params[k] = v[0]
		}
		for k, fhs := range r.MultipartForm.File {
			file, _ := fhs[0].Open()
			req.File, _ = io.ReadAll(file)
			file.Close()
			req.Params[k] = "(file " + fhs[0].Filename + ")"
		}
	} else {
		if err := r.ParseForm(); err != nil {
			f.t.Errorf("fake API: bad form %s: %v", method, err)
		}
		for k, v := range r.PostForm {
			req.Params[k] = v[0]
		}
	}
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	last := &f.reqs[len(f.reqs)-1]
	if b := f.budget; b != nil && limited[method] {
		if wait, ok := b.admit(req.Params["chat_id"], req.At); !ok {
			last.Status = 429
			f.mu.Unlock()
			retry := int((wait + b.unit - 1) / b.unit)
			writeJSON(w, 429, map[string]any{"ok": false, "error_code": 429, "description": "Too Many Requests: retry after " + strconv.Itoa(retry), "parameters": map[string]any{"retry_after": retry}})
			return
		}
	}
	if s := f.fail[method]; len(s) > 0 {
		last.Status = s[0].status
		f.fail[method] = s[1:]
		f.mu.Unlock()
		if s[0].status == dropConnection {
			// The request arrived; the answer never does.
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		if strings.HasPrefix(s[0].body, "<") {
			w.Header().Set("Content-Type", "text/html")
		} else {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(s[0].status)
		io.WriteString(w, s[0].body)
		return
	}
	f.mu.Unlock()
	switch method {
	case "getMe":
		me := f.self.json()
		me["is_bot"] = true
		ok(w, me)
	case "getUpdates":
		f.getUpdates(w, r, req)
	case "sendMessage", "sendPhoto", "sendAnimation", "sendDocument":
		ok(w, f.newMessage(req))
	case "editMessageReplyMarkup":
		id, _ := strconv.Atoi(req.Params["message_id"])
		f.mu.Lock()
		m := f.messages[id]
		if m == nil {
			f.mu.Unlock()
			f.refuse(w, 400, method, "Bad Request: message to edit not found")
			return
		}
		var kb any
		json.Unmarshal([]byte(req.Params["reply_markup"]), &kb)
		old, _ := json.Marshal(m["reply_markup"])
		now, _ := json.Marshal(kb)
		if string(old) == string(now) || (isEmptyKeyboard(m["reply_markup"]) && isEmptyKeyboard(kb)) {
			f.mu.Unlock()
			f.refuse(w, 400, method, "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message")
			return
		}
		m["reply_markup"] = kb
		answer := maps.Clone(m) // m may change again while it is written
		f.mu.Unlock()
		ok(w, answer)
	case "editMessageText", "editMessageCaption":
		id, _ := strconv.Atoi(req.Params["message_id"])
		field := map[string]string{"editMessageText": "text", "editMessageCaption": "caption"}[method]
		f.mu.Lock()
		m := f.messages[id]
		if m == nil {
			f.mu.Unlock()
			writeJSON(w, 400, map[string]any{"ok": false, "error_code": 400, "description": "Bad Request: message to edit not found"})
			return
		}
		m[field] = req.Params[field]
		answer := maps.Clone(m)
		f.mu.Unlock()
		ok(w, answer)
	case "answerCallbackQuery", "setMyCommands", "deleteWebhook", "setWebhook":
		ok(w, true)
	default:
		f.refuse(w, 404, method, "Not Found: method "+method)
	}
}

// isEmptyKeyboard: no keyboard and an empty one look the same to
// Telegram.
func isEmptyKeyboard(kb any) bool {
	if kb == nil {
		return true
	}
	m, _ := kb.(map[string]any)
	rows, _ := m["inline_keyboard"].([]any)
	return m != nil && len(rows) == 0
}

func ok(w http.ResponseWriter, result any) {
	writeJSON(w, 200, map[string]any{"ok": true, "result": result})
}

// noRefusals fails the test if the bot made a call the Bot API refused.
func (f *fakeAPI) noRefusals() {
	f.t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.refused {
		f.t.Errorf("the Bot API refused a call: %s", r)
	}
}

func (f *fakeAPI) refuse(w http.ResponseWriter, status int, method, description string) {
	f.mu.Lock()
	f.refused = append(f.refused, fmt.Sprintf("%s: %d %s", method, status, description))
	f.mu.Unlock()
	writeJSON(w, status, map[string]any{"ok": false, "error_code": status, "description": description})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (f *fakeAPI) newMessage(req apiRequest) map[string]any {
	chat, _ := strconv.ParseInt(req.Params["chat_id"], 10, 64)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextMsg++
	me := f.self.json()
	me["is_bot"] = true
	m := map[string]any{
		"message_id": f.nextMsg, "date": time.Now().Unix(),
		"chat": chatJSON(chat), "from": me,
	}
	if t, ok := req.Params["text"]; ok {
		m["text"] = t
	}
	if c, ok := req.Params["caption"]; ok {
		m["caption"] = c
	}
	if req.Method == "sendAnimation" {
		m["animation"] = map[string]any{"file_id": "a" + strconv.Itoa(f.nextMsg), "file_unique_id": "u", "width": 640, "height": 512, "duration": 10}
	}
	if req.Method == "sendDocument" {
		m["document"] = map[string]any{"file_id": "d" + strconv.Itoa(f.nextMsg), "file_unique_id": "u", "file_name": strings.TrimSuffix(strings.TrimPrefix(req.Params["document"], "(file "), ")")}
	}
	if req.Method == "sendPhoto" {
		m["photo"] = []any{map[string]any{"file_id": "p" + strconv.Itoa(f.nextMsg), "file_unique_id": "u", "width": 512, "height": 512}}
	}
	if kb, ok := req.Params["reply_markup"]; ok {
		var v any
		json.Unmarshal([]byte(kb), &v)
		m["reply_markup"] = v
	}
	f.messages[f.nextMsg] = m
	return m
}

func chatJSON(id int64) map[string]any {
	if id < 0 {
		return map[string]any{"id": id, "type": "supergroup", "title": "Chess club"}
	}
	return map[string]any{"id": id, "type": "private", "first_name": "someone"}
}

// getUpdates long-polls: it answers at once when updates are waiting,
// otherwise when one arrives or the timeout passes.
func (f *fakeAPI) getUpdates(w http.ResponseWriter, r *http.Request, req apiRequest) {
	offset, _ := strconv.Atoi(req.Params["offset"])
	timeout, _ := strconv.Atoi(req.Params["timeout"])
	deadline := time.After(time.Duration(timeout) * time.Second)
	for {
		f.mu.Lock()
		var out []map[string]any
		for _, u := range f.updates {
			if u["update_id"].(int) >= offset {
				out = append(out, u)
			}
		}
		wake := f.arrived
		f.mu.Unlock()
		if len(out) > 0 {
			ok(w, out)
			return
		}
		select {
		case <-wake:
		case <-deadline:
			ok(w, []any{})
			return
		case <-r.Context().Done():
			return
		}
	}
}

// push queues an update (giving it the next update id unless it has one)
// and returns its id.
func (f *fakeAPI) push(u map[string]any) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, has := u["update_id"]; !has {
		f.nextUpd++
		u["update_id"] = f.nextUpd
	}
	f.updates = append(f.updates, u)
	close(f.arrived)
	f.arrived = make(chan struct{})
	return u["update_id"].(int)
}

// message builds an update of a user's text message in a chat, with the
// entities Telegram would add (a leading command, @mentions).
func (f *fakeAPI) message(from tgUser, chat int64, text string, replyTo int) map[string]any {
	f.mu.Lock()
	f.nextMsg++
	id := f.nextMsg
	f.mu.Unlock()
	m := map[string]any{"message_id": id, "date": time.Now().Unix(), "chat": chatJSON(chat), "from": from.json(), "text": text}
	var ents []any
	u16 := func(s string) int { return len(utf16.Encode([]rune(s))) }
	if strings.HasPrefix(text, "/") {
		word, _, _ := strings.Cut(text, " ")
		ents = append(ents, map[string]any{"type": "bot_command", "offset": 0, "length": u16(word)})
	}
	for i := 0; i < len(text); i++ {
		if text[i] == '@' && (i == 0 || text[i-1] == ' ') {
			j := i + 1
			for j < len(text) && text[j] != ' ' {
				j++
			}
			ents = append(ents, map[string]any{"type": "mention", "offset": u16(text[:i]), "length": u16(text[i:j])})
		}
	}
	if ents != nil {
		m["entities"] = ents
	}
	if replyTo != 0 {
		f.mu.Lock()
		if r := f.messages[replyTo]; r != nil {
			m["reply_to_message"] = r
		}
		f.mu.Unlock()
	}
	f.mu.Lock()
	f.messages[id] = m
	f.mu.Unlock()
	return map[string]any{"message": m}
}

// say pushes a user's message and returns its message id.
func (f *fakeAPI) say(from tgUser, chat int64, text string) int {
	return f.sayReplying(from, chat, text, 0)
}

func (f *fakeAPI) sayReplying(from tgUser, chat int64, text string, replyTo int) int {
	u := f.message(from, chat, text, replyTo)
	f.push(u)
	return u["message"].(map[string]any)["message_id"].(int)
}

// press pushes a callback query on a bot message's button.
func (f *fakeAPI) press(from tgUser, msgID int, data string) string {
	f.mu.Lock()
	m := f.messages[msgID]
	f.nextUpd++
	qid := "q" + strconv.Itoa(f.nextUpd)
	f.mu.Unlock()
	if m == nil {
		f.t.Fatalf("press: no message %d", msgID)
	}
	f.push(map[string]any{"callback_query": map[string]any{
		"id": qid, "from": from.json(), "message": m, "chat_instance": "ci", "data": data,
	}})
	return qid
}

func (f *fakeAPI) requests() []apiRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]apiRequest(nil), f.reqs...)
}

func (f *fakeAPI) count(method string) int {
	n := 0
	for _, r := range f.requests() {
		if r.Method == method {
			n++
		}
	}
	return n
}

// waitFor polls until cond holds for the recorded requests.
func (f *fakeAPI) waitFor(what string, cond func(reqs []apiRequest) bool) []apiRequest {
	f.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if reqs := f.requests(); cond(reqs) {
			return reqs
		}
		time.Sleep(5 * time.Millisecond)
	}
	f.t.Fatalf("timed out waiting for %s; requests:\n%s", what, f.dump())
	return nil
}

// waitSent waits until n requests of a method were made after index from
// and returns them.
func (f *fakeAPI) waitSent(method string, from, n int) []apiRequest {
	f.t.Helper()
	var got []apiRequest
	f.waitFor(fmt.Sprintf("%d %s", n, method), func(reqs []apiRequest) bool {
		got = nil
		for _, r := range reqs[min(from, len(reqs)):] {
			if r.Method == method {
				got = append(got, r)
			}
		}
		return len(got) >= n
	})
	return got
}

func (f *fakeAPI) dump() string {
	var b strings.Builder
	for _, r := range f.requests() {
		if r.Method == "getUpdates" {
			continue
		}
		fmt.Fprintf(&b, "  %s %v\n", r.Method, r.Params)
	}
	return b.String()
}

// lastSent is the id of the newest message the bot sent. The fake records
// a request before it stores the message that answers it, so this first
// waits (up to 10 s) until every send it did not refuse has its message:
// a test that has just seen a picture's request then gets that picture.
func (f *fakeAPI) lastSent() int {
	deadline := time.Now().Add(10 * time.Second)
	for {
		f.mu.Lock()
		sends := 0
		for _, r := range f.reqs {
			switch r.Method {
			case "sendMessage", "sendPhoto", "sendAnimation", "sendDocument":
				if r.Status == 200 {
					sends++
				}
			}
		}
		best, mine := 0, 0
		for id, m := range f.messages {
			if from, _ := m["from"].(map[string]any); from != nil && from["is_bot"] == true {
				mine++
				best = max(best, id)
			}
		}
		f.mu.Unlock()
		if mine >= sends || time.Now().After(deadline) {
			return best
		}
		time.Sleep(time.Millisecond)
	}
}

// buttons lists a keyboard's (text, callback_data) pairs.
func buttonsOf(markup string) [][2]string {
	var kb struct {
		InlineKeyboard [][]struct {
			Text string `json:"text"`
			Data string `json:"callback_data"`
		} `json:"inline_keyboard"`
	}
	json.Unmarshal([]byte(markup), &kb)
	var out [][2]string
	for _, row := range kb.InlineKeyboard {
		for _, b := range row {
			out = append(out, [2]string{b.Text, b.Data})
		}
	}
	return out
}
