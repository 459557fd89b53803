package web

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strings"
	"testing"

	"topochess/bot"
	"topochess/engine"
	"topochess/render"
)

func TestCheckName(t *testing.T) {
	long := strings.Repeat("a", maxNameLen+1)
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"alice", "alice", true},
		{"  Bob_2.x-y ", "Bob_2.x-y", true},
		{"@carol", "carol", true},
		{"Zoë", "Zoë", true},
		{"", "", false},
		{"   ", "", false},
		{"<script>", "", false},
		{"a b", "", false},
		{"a\"b", "", false},
		{"a&b", "", false},
		{long, "", false},
		{strings.Repeat("é", maxNameLen), strings.Repeat("é", maxNameLen), true},
		{"bad\xffutf8", "", false},
	}
	for _, tc := range tests {
		got, err := checkName(tc.in, "name")
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("checkName(%q) = %q, %v; want %q ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestListenNeedsPassword(t *testing.T) {
	tests := []struct {
		listen, password string
		ok               bool
	}{
		{"", "", true}, // the default, loopback
		{"127.0.0.1:8080", "", true},
		{"127.0.0.2:8080", "", true},
		{"localhost:9000", "", true},
		{"[::1]:8080", "", true},
		{"0.0.0.0:8080", "", false},
		{":8080", "", false},
		{"192.168.1.5:8080", "", false},
		{"0.0.0.0:8080", "secret", false}, // plain HTTP: see TestPlainHTTPRefused
		{":8080", "secret", false},
		{"nonsense", "", false},
		{"127.0.0.1:", "", false},
	}
	for _, tc := range tests {
		_, err := New(&fakeBot{}, Options{Listen: tc.listen, Password: tc.password})
		if (err == nil) != tc.ok {
			t.Errorf("New(listen %q, password %v): err %v, want ok=%v", tc.listen, tc.password != "", err, tc.ok)
		}
		if err != nil && strings.HasPrefix(tc.listen, "0.0.0.0") && tc.password == "" && !strings.Contains(err.Error(), "web.password") {
			t.Errorf("refusal does not say how to fix it: %v", err)
		}
	}
}

func TestIndexAndStatic(t *testing.T) {
	_, _, ts := newTestServer(t, Options{})
	for _, path := range []string{"/", "/static/app.js", "/static/style.css", "/static/icon.svg"} {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || len(body) == 0 {
			t.Errorf("GET %s: %d, %d bytes", path, resp.StatusCode, len(body))
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
			t.Errorf("GET %s: CSP %q does not keep scripts to the page's own", path, csp)
		}
	}
	// The page must work offline: nothing is loaded from another host.
	for _, path := range []string{"/", "/static/app.js", "/static/style.css"} {
		resp, _ := http.Get(ts.URL + path)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if bytes.Contains(body, []byte("http://")) || bytes.Contains(body, []byte("https://")) || bytes.Contains(body, []byte("innerHTML")) {
			t.Errorf("%s refers to another host or uses innerHTML", path)
		}
	}
}

func TestHostMustBeLocal(t *testing.T) {
	_, _, ts := newTestServer(t, Options{})
	req, _ := http.NewRequest("GET", ts.URL+"/", nil)
	req.Host = "attacker.example:8080" // a DNS-rebound name pointing here
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("foreign Host: status %d, want 421", resp.StatusCode)
	}
}

func TestJoinRefusals(t *testing.T) {
	_, _, ts := newTestServer(t, Options{})
	tests := []struct {
		name, room, want string
	}{
		{"", "lobby", "Pick a name"},
		{"<script>", "lobby", "letters, digits"},
		{"alice", "no room", "letters, digits"},
		{strings.Repeat("x", 40), "", "at most 24"},
	}
	for _, tc := range tests {
		code, out := postJSON(t, ts.URL+"/api/join", "", map[string]string{"name": tc.name, "room": tc.room})
		if code != 400 || !strings.Contains(out["error"].(string), tc.want) {
			t.Errorf("join %q in %q: %d %v, want 400 with %q", tc.name, tc.room, code, out, tc.want)
		}
	}
	c := join(t, ts.URL, "Alice", "")
	if c.user != "web:alice" {
		t.Errorf("user id %q, want web:alice", c.user)
	}
	// Commands without a known session ask the page to join again.
	code, out := postJSON(t, ts.URL+"/api/send", "not-a-token", map[string]string{"text": "/help"})
	if code != 401 || out["rejoin"] != true {
		t.Errorf("unknown session: %d %v", code, out)
	}
	// Only JSON is accepted, so a form on another site cannot post.
	resp, err := http.Post(ts.URL+"/api/send", "application/x-www-form-urlencoded", strings.NewReader("text=/resign"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode == 200 {
		t.Error("a form post was accepted")
	}
}

func TestCommandsRepliesAndPrivacy(t *testing.T) {
	fb, _, ts := newTestServer(t, Options{})
	alice, bob := join(t, ts.URL, "alice", "lobby"), join(t, ts.URL, "Bob", "lobby")
	carol := join(t, ts.URL, "carol", "other")
	alice.listen(0)
	bob.listen(0)
	carol.listen(0)

	alice.say("/board")
	if c := fb.last(t); c.Name != "board" || c.Channel != "web:lobby" || c.User.ID != "web:alice" || c.Platform != "web" || c.User.Mention != "@alice" {
		t.Errorf("command %+v", c)
	}
	for _, c := range []*client{alice, bob} {
		said := c.expect("said", "/board")
		if said.From != "alice" {
			t.Errorf("said from %q", said.From)
		}
		e := c.expect("reply", "g1 board")
		if sw, sh := (&render.Renderer{Long: 512}).Size(engine.MustVariant("standard")); e.Image == nil || !e.Image.Board || e.Image.W != sw || e.Image.H != sh {
			t.Fatalf("board picture %+v", e.Image)
		}
		resp, err := http.Get(ts.URL + e.Image.URL)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(resp.Body); err != nil || resp.Header.Get("Content-Type") != "image/png" {
			t.Errorf("picture: %v, %s", err, resp.Header.Get("Content-Type"))
		}
		resp.Body.Close()
	}

	// Help is private: its line and its answer go to alice's tabs only;
	// bob's next event is the chat line that follows.
	alice.say("/help")
	if e := alice.expect("said", "/help"); !e.Private {
		t.Error("the typed /help should be private as its answer is")
	}
	alice.expect("reply", "help text")
	alice.say("<b>hi</b> & welcome")
	bob.expect("chat", "<b>hi</b> & welcome")
	alice.expect("chat", "<b>hi</b> & welcome")
	if n := fb.count(); n != 2 {
		t.Errorf("plain chat reached the bot: %d commands", n)
	}

	// A reply addressed to another room goes there; one for another
	// platform is dropped.
	alice.say("/elsewhere")
	seen := alice.expect("said", "/elsewhere")
	carol.expect("reply", "to the other room")

	// A second tab of the same user (same name, other case, with the
	// name's secret) sees private replies.
	alice2 := joinWith(t, ts.URL, "ALICE", "lobby", alice.secret)
	alice2.listen(seen.Seq)
	alice.say("/help")
	alice2.expect("said", "/help")
	alice2.expect("reply", "help text")

	// The room never saw carol's room, nor alice's private lines.
	carol.say("hello")
	carol.expect("chat", "hello")
	bob.expect("said", "/elsewhere")
	bob.say("/boom")
	bob.expect("said", "/boom")
	if e := bob.expect("reply", "Something went wrong on my side with that command."); !e.Error {
		t.Error("a panic should be an error reply")
	}
}

func TestMentionsAndButtons(t *testing.T) {
	fb, _, ts := newTestServer(t, Options{})
	alice, bob := join(t, ts.URL, "alice", "lobby"), join(t, ts.URL, "bob", "lobby")
	alice.listen(0)
	bob.listen(0)

	alice.say("/challenge @Bob variant:moebius")
	c := fb.last(t)
	if c.Text != "@Bob variant:moebius" || len(c.Mentions) != 1 || c.Mentions[0].ID != "web:bob" || c.Mentions[0].Mention != "@Bob" {
		t.Fatalf("challenge command %+v", c)
	}
	alice.expect("said", "/challenge @Bob variant:moebius")
	e := alice.expect("reply", "alice challenges web:bob")
	bob.next()
	bob.next()
	if len(e.Buttons) != 2 || e.Buttons[0].For != "web:bob" || e.Key != "c1" {
		t.Fatalf("buttons %+v", e)
	}
	accept := e.Buttons[0].ID

	// The button is bob's: alice's press is refused and the bot never hears it.
	before := fb.count()
	code, out := alice.post("/api/press", map[string]string{"button": accept})
	if code != 403 || !strings.Contains(out["error"].(string), "for bob") {
		t.Errorf("alice pressing bob's button: %d %v", code, out)
	}
	if fb.count() != before {
		t.Error("the refused press reached the bot")
	}
	code, out = bob.post("/api/press", map[string]string{"button": accept, "event": "ev-1"})
	if code != 200 {
		t.Fatalf("bob's press: %d %v", code, out)
	}
	if c := fb.last(t); c.Name != "accept" || c.Args["challenge"] != "c1" || c.User.ID != "web:bob" || c.EventID != "web:bob:ev-1" {
		t.Errorf("press became %+v", c)
	}
	bob.expect("said", "[Accept]")
	if e := bob.next(); e.Kind != "stale" || !slices.Equal(e.Stale, []string{"c1"}) {
		t.Errorf("want the stale note for c1, got %+v", e)
	}
	bob.expect("reply", "accepted")
	// Superseded buttons cannot be pressed again.
	if code, _ := bob.post("/api/press", map[string]string{"button": accept}); code != 410 {
		t.Errorf("stale button press: %d, want 410", code)
	}
	if code, _ := bob.post("/api/press", map[string]string{"button": "nope"}); code != 410 {
		t.Errorf("unknown button press: %d, want 410", code)
	}
	// opponent:name without @ names the user too.
	alice.say("/challenge opponent:bob")
	if c := fb.last(t); len(c.Mentions) != 1 || c.Mentions[0].ID != "web:bob" {
		t.Errorf("opponent:bob gave mentions %+v", c.Mentions)
	}
}

// cellPoint is a cell's centre in the fake bot's picture, drawn at 512
// pixels while the adapter's renderer draws at 1024, so a click that is
// not scaled lands elsewhere.
func cellPoint(file, rank int) (x, y float64) {
	sw, sh := (&render.Renderer{Long: 512}).Size(engine.MustVariant("standard"))
	return cellCentre(sw, sh, "white", string(rune('a'+file))+string(rune('0'+rank)))
}

func TestBoardClicks(t *testing.T) {
	fb, _, ts := newTestServer(t, Options{})
	alice := join(t, ts.URL, "alice", "lobby")
	alice.listen(0)
	alice.say("/board")
	alice.next()
	img := alice.next().Image.ID

	click := func(file, rank int) map[string]any {
		t.Helper()
		x, y := cellPoint(file, rank)
		code, out := alice.post("/api/click", map[string]any{"image": img, "x": x, "y": y})
		if code != 200 {
			t.Fatalf("click: %d %v", code, out)
		}
		return out
	}
	// First click: /moves for e2, shown privately with the destinations.
	if out := click(4, 2); out["selected"] != "e2" {
		t.Fatalf("first click: %v", out)
	}
	if c := fb.last(t); c.Name != "moves" || c.Args["cell"] != "e2" || c.Args["game"] != "g1" {
		t.Errorf("first click sent %+v", c)
	}
	alice.expect("said", "/moves e2 game:g1")
	if e := alice.expect("reply", "e2 can move."); e.Image == nil {
		t.Error("the destinations picture is missing")
	}
	// Second click: the move.
	if out := click(4, 4); out["selected"] != "" {
		t.Errorf("second click: %v", out)
	}
	if c := fb.last(t); c.Name != "move" || c.Args["move"] != "e2-e4" || c.Args["game"] != "g1" {
		t.Errorf("second click sent %+v", c)
	}
	alice.expect("said", "/move e2-e4 game:g1")
	alice.expect("reply", "moved e2-e4")

	// A refused first click selects nothing, so the next click starts afresh.
	click(4, 5)
	if c := fb.last(t); c.Name != "moves" || c.Args["cell"] != "e5" {
		t.Errorf("sent %+v", c)
	}
	click(4, 2)
	if c := fb.last(t); c.Name != "moves" || c.Args["cell"] != "e2" {
		t.Errorf("after a refusal the click should select again, sent %+v", c)
	}
	// Clicking the chosen cell again drops the choice without a command.
	n := fb.count()
	if out := click(4, 2); out["selected"] != "" || fb.count() != n {
		t.Errorf("re-click: %v, %d commands", out, fb.count()-n)
	}
	// Off the board (the label margin) drops it too.
	click(4, 2)
	n = fb.count()
	code, out := alice.post("/api/click", map[string]any{"image": img, "x": 3, "y": 3})
	if code != 200 || out["selected"] != "" || fb.count() != n {
		t.Errorf("margin click: %d %v", code, out)
	}
	// The cancel link clears the server's choice too.
	click(4, 2)
	alice.post("/api/click", map[string]any{"image": img, "clear": true})
	click(3, 2)
	if c := fb.last(t); c.Name != "moves" || c.Args["cell"] != "d2" {
		t.Errorf("after clear the click should select, sent %+v", c)
	}
	// Unknown pictures and wild coordinates are refused gently.
	if code, _ := alice.post("/api/click", map[string]any{"image": "gone", "x": 1, "y": 1}); code != 410 {
		t.Errorf("unknown picture: %d", code)
	}
	for _, xy := range [][2]float64{{-5, 10}, {10, 1e9}, {1e300, 1e300}} {
		code, out := alice.post("/api/click", map[string]any{"image": img, "x": xy[0], "y": xy[1]})
		if code != 200 || out["selected"] != "" {
			t.Errorf("click at %v: %d %v", xy, code, out)
		}
	}
}

func TestReconnectReplaysMissedEvents(t *testing.T) {
	_, _, ts := newTestServer(t, Options{})
	alice := join(t, ts.URL, "alice", "lobby")
	alice.listen(0)
	alice.say("one")
	first := alice.expect("chat", "one")
	alice.say("two")
	alice.say("three")
	// A page that had seen "one" reconnects with Last-Event-ID.
	again := &client{t: t, base: ts.URL, token: alice.token}
	again.listen(first.Seq)
	again.expect("chat", "two")
	again.expect("chat", "three")
}

func TestPassword(t *testing.T) {
	_, _, ts := newTestServer(t, Options{Password: "hunter2"})
	jar, _ := cookiejar.New(nil)
	noFollow := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	resp, err := noFollow.Get(ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/login" {
		t.Errorf("page without login: %d → %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if code, _ := postJSON(t, ts.URL+"/api/join", "", map[string]string{"name": "mallory"}); code != 401 {
		t.Errorf("join without login: %d", code)
	}
	resp, _ = noFollow.Get(ts.URL + "/login")
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Contains(body, []byte(`type="password"`)) {
		t.Error("the login page has no password field")
	}
	resp, _ = noFollow.PostForm(ts.URL+"/login", url.Values{"password": {"wrong"}})
	resp.Body.Close()
	if resp.Header.Get("Location") != "/login?bad=1" || len(jar.Cookies(mustURL(ts.URL))) != 0 {
		t.Errorf("wrong password: → %q, cookies %v", resp.Header.Get("Location"), jar.Cookies(mustURL(ts.URL)))
	}
	resp, _ = noFollow.PostForm(ts.URL+"/login", url.Values{"password": {"hunter2"}})
	resp.Body.Close()
	if resp.Header.Get("Location") != "/" {
		t.Errorf("right password: → %q", resp.Header.Get("Location"))
	}
	resp, _ = noFollow.Get(ts.URL + "/")
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("page after login: %d", resp.StatusCode)
	}
}

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

func TestSendFromTheBot(t *testing.T) {
	_, s, ts := newTestServer(t, Options{})
	alice := join(t, ts.URL, "alice", "lobby")
	carol := join(t, ts.URL, "carol", "other")
	alice.listen(0)
	carol.listen(0)
	s.Send(bot.Reply{Channel: "web:lobby", Text: "g1: @alice, half your time for this move is gone."})
	alice.expect("reply", "g1: @alice, half your time for this move is gone.")
	s.Send(bot.Reply{Channel: "web:other", Text: "for carol"})
	carol.expect("reply", "for carol")
}

func TestReplayServedAsGIF(t *testing.T) {
	fb, _, ts := newTestServer(t, Options{})
	var buf bytes.Buffer
	frame := image.NewPaletted(image.Rect(0, 0, 4, 3), color.Palette{color.Black, color.White})
	if err := gif.EncodeAll(&buf, &gif.GIF{Image: []*image.Paletted{frame}, Delay: []int{10}}); err != nil {
		t.Fatal(err)
	}
	fb.replay = buf.Bytes()
	alice := join(t, ts.URL, "alice", "lobby")
	alice.listen(0)
	alice.say("/replay")
	alice.expect("said", "/replay")
	e := alice.expect("reply", "g1 replay")
	if e.Image == nil || !strings.HasSuffix(e.Image.URL, ".gif") || e.Image.W != 4 || e.Image.H != 3 {
		t.Fatalf("replay picture %+v", e.Image)
	}
	resp, err := http.Get(ts.URL + e.Image.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "image/gif" {
		t.Errorf("served as %s", ct)
	}
	if _, err := gif.DecodeAll(resp.Body); err != nil {
		t.Errorf("served bytes are not a GIF: %v", err)
	}
}
