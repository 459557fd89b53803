package web

import (
	"fmt"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// browser is an HTTP client with its own cookies that does not follow
// redirects; from, when set, is the loopback address it connects from.
func browser(t *testing.T, from string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	tr := &http.Transport{}
	if from != "" {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		tr.DialContext = d.DialContext
	}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Jar: jar, Transport: tr, Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func login(t *testing.T, c *http.Client, base, password string) *http.Response {
	t.Helper()
	resp, err := c.PostForm(base+"/login", url.Values{"password": {password}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

func authCookieOf(resp *http.Response) *http.Cookie {
	for _, c := range resp.Cookies() {
		if c.Name == authCookie {
			return c
		}
	}
	return nil
}

// status is the answer to GET path.
func status(t *testing.T, c *http.Client, u string) int {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// Each login gets its own random session; logging out ends only that
// one; sessions expire.
func TestLoginSessions(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	_, _, ts := newTestServer(t, Options{Password: "hunter2", Now: clock, SessionTTL: 24 * time.Hour})
	a, b := browser(t, ""), browser(t, "")
	ca, cb := authCookieOf(login(t, a, ts.URL, "hunter2")), authCookieOf(login(t, b, ts.URL, "hunter2"))
	if ca == nil || cb == nil || ca.Value == cb.Value || len(ca.Value) < 32 {
		t.Fatalf("session cookies %v and %v: want two different random values", ca, cb)
	}
	if ca.Secure || !ca.HttpOnly || ca.SameSite != http.SameSiteStrictMode {
		t.Errorf("cookie over plain HTTP: %+v", ca)
	}
	if status(t, a, ts.URL+"/") != 200 || status(t, b, ts.URL+"/") != 200 {
		t.Fatal("logged-in browsers are refused")
	}
	resp, err := a.PostForm(ts.URL+"/logout", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if status(t, a, ts.URL+"/") != http.StatusSeeOther {
		t.Error("a logged-out browser still gets in")
	}
	// The old cookie value, replayed by hand, is dead too.
	req, _ := http.NewRequest("GET", ts.URL+"/", nil)
	req.AddCookie(&http.Cookie{Name: authCookie, Value: ca.Value})
	if resp, err := browser(t, "").Do(req); err != nil || resp.StatusCode != http.StatusSeeOther {
		t.Errorf("replayed logged-out cookie: %v %v", resp.StatusCode, err)
	}
	if status(t, b, ts.URL+"/") != 200 {
		t.Error("logging one browser out ended another's session")
	}
	mu.Lock()
	now = now.Add(25 * time.Hour)
	mu.Unlock()
	if status(t, b, ts.URL+"/") != http.StatusSeeOther {
		t.Error("an expired session still gets in")
	}
	// A new password (a restart with it) ends every session.
	_, _, ts2 := newTestServer(t, Options{Password: "new one"})
	req, _ = http.NewRequest("GET", ts2.URL+"/", nil)
	req.AddCookie(&http.Cookie{Name: authCookie, Value: cb.Value})
	if resp, err := browser(t, "").Do(req); err != nil || resp.StatusCode != http.StatusSeeOther {
		t.Errorf("an old session on a new password: %v %v", resp.StatusCode, err)
	}
}

// Wrong passwords are throttled per client address: a guesser is told
// to wait at once, and someone else logging in at the same time is not
// held up (a global lock once made a typo wait over 10 s).
func TestWrongPasswordsThrottledPerAddress(t *testing.T) {
	_, _, ts := newTestServer(t, Options{Password: "hunter2"})
	guesser := browser(t, "127.0.0.1")
	var wg sync.WaitGroup
	for range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			login(t, guesser, ts.URL, "wrong")
		}()
	}
	start := time.Now()
	friend := browser(t, "127.0.0.2")
	if resp := login(t, friend, ts.URL, "hunter2"); authCookieOf(resp) == nil {
		t.Fatalf("the friend's login: %d", resp.StatusCode)
	}
	// (Each wrong guess used to sleep 400 ms under one lock: 12 s here.)
	if took := time.Since(start); took > time.Second {
		t.Errorf("the friend's login took %v while another address guessed", took)
	}
	wg.Wait()
	start = time.Now()
	resp := login(t, guesser, ts.URL, "hunter2")
	if resp.StatusCode != http.StatusTooManyRequests || authCookieOf(resp) != nil || resp.Header.Get("Retry-After") == "" {
		t.Errorf("after 30 wrong guesses even the right password: %d, cookie %v", resp.StatusCode, authCookieOf(resp))
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("the refusal took %v", took)
	}
	resp, _ = guesser.Get(ts.URL + "/login")
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("login page: %d", resp.StatusCode)
	}
}

// Session tokens are kept only as digests: what the server holds is not
// a cookie anyone could present. The cap still drops the session closest
// to expiring first.
func TestSessionTokensStoredHashed(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	a := newAuth("hunter2", time.Hour)
	req := func(tok string) *http.Request {
		r, _ := http.NewRequest("GET", "/", nil)
		r.AddCookie(&http.Cookie{Name: authCookie, Value: tok})
		return r
	}
	first := a.login(now)
	if held := fmt.Sprint(a.sessions); strings.Contains(held, first) {
		t.Fatalf("the session table holds the raw token: %s", held)
	}
	if !a.ok(req(first), now) {
		t.Fatal("a fresh session is refused")
	}
	for k := range a.sessions {
		if a.ok(req(fmt.Sprintf("%x", k)), now) || a.ok(req(string(k[:])), now) {
			t.Fatal("the stored digest works as a cookie")
		}
	}
	for i := 1; i < maxLogins; i++ {
		a.login(now.Add(time.Duration(i) * time.Millisecond))
	}
	last := a.login(now.Add(time.Minute))
	if len(a.sessions) != maxLogins || a.ok(req(first), now) || !a.ok(req(last), now) {
		t.Errorf("over the cap: %d sessions, first kept %v, last kept %v",
			len(a.sessions), a.ok(req(first), now), a.ok(req(last), now))
	}
}

// Chat tab tokens are kept only as digests too; a full table forgets the
// tab idle the longest.
func TestChatSessionTokensStoredHashed(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	st := newSessionStore(3)
	old := st.add(&session{room: "lobby", last: now})
	if held := fmt.Sprint(st.m); strings.Contains(held, old) {
		t.Fatalf("the session table holds the raw token: %s", held)
	}
	for k := range st.m {
		if _, ok := st.get(fmt.Sprintf("%x", k), now); ok {
			t.Fatal("the stored digest works as a token")
		}
	}
	mid := st.add(&session{room: "lobby", last: now.Add(time.Second)})
	st.add(&session{room: "lobby", last: now.Add(2 * time.Second)})
	if _, ok := st.get(old, now.Add(3*time.Second)); !ok {
		t.Fatal("a fresh tab is refused")
	}
	st.add(&session{room: "lobby", last: now.Add(4 * time.Second)})
	if _, ok := st.get(mid, now); ok || len(st.m) != 3 {
		t.Errorf("over the cap the idlest tab stays (%v) or the table has %d", ok, len(st.m))
	}
	if _, ok := st.get(old, now); !ok {
		t.Error("a tab used recently was dropped")
	}
}

// An open event stream is counted under its tab's digest: the hub holds
// no token either, and the per-tab stream cap still applies.
func TestEventStreamsCountedByDigest(t *testing.T) {
	_, s, ts := newTestServer(t, Options{})
	c := join(t, ts.URL, "ann", "lobby")
	c.listen(0)
	deadline := time.Now().Add(5 * time.Second)
	for {
		s.hub.mu.Lock()
		n, held := len(s.hub.bySession), fmt.Sprint(s.hub.bySession)
		s.hub.mu.Unlock()
		if n == 1 {
			if strings.Contains(held, c.token) {
				t.Fatalf("the hub holds the raw token: %s", held)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stream is not counted: %s", held)
		}
		time.Sleep(10 * time.Millisecond)
	}
	for range defaultStreamLimits.perSession - 1 {
		c.listen(0)
	}
	req, _ := http.NewRequest("GET", ts.URL+"/api/events?s="+c.token, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a stream over the per-tab cap: %d", resp.StatusCode)
	}
}
