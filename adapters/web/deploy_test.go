package web

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"topochess/storage"
)

// runServer runs s.Run on a free loopback port and returns the page URL.
func runServer(t *testing.T, s *Server) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, func(u string) { ready <- u }) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	})
	select {
	case u := <-ready:
		return u
	case err := <-done:
		t.Fatalf("run: %v", err)
	}
	return ""
}

// trickle sends a request's headers and then its body a byte at a time,
// and returns how long the server kept the connection open.
func trickle(t *testing.T, addr, path, contentType string) time.Duration {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	_, err = io.WriteString(conn, "POST "+path+" HTTP/1.1\r\nHost: "+addr+"\r\nContent-Type: "+contentType+"\r\nContent-Length: 4000\r\n\r\n")
	if err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, conn) // returns when the server closes
		close(closed)
	}()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-closed:
			return time.Since(start)
		case <-tick.C:
			if time.Since(start) > 8*time.Second {
				return time.Since(start)
			}
			_, _ = conn.Write([]byte("a"))
		}
	}
}

// Bodies trickled in byte by byte are dropped within seconds, the login
// form (which needs no login) included; event streams live on.
func TestSlowBodiesDropped(t *testing.T) {
	s, err := New(newFakeBot(t), Options{Listen: "127.0.0.1:0", Password: "hunter2", ReadTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	base := strings.TrimSuffix(runServer(t, s), "/")
	addr := strings.TrimPrefix(base, "http://")
	for _, path := range []string{"/login", "/api/join"} {
		if held := trickle(t, addr, path, "application/x-www-form-urlencoded"); held > 3*time.Second {
			t.Errorf("a slow body to %s held the connection %v", path, held)
		}
	}

	// A logged-in page's event stream outlives the read deadline.
	cookie := authCookieOf(login(t, browser(t, ""), base, "hunter2"))
	if cookie == nil {
		t.Fatal("login failed")
	}
	req, _ := http.NewRequest("POST", base+"/api/join", strings.NewReader(`{"name":"alice"}`))
	req.Header.Set("Content-Type", "application/json")
	req.AddCookie(cookie)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("join: %v %v", resp, err)
	}
	var tok string
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if i := strings.Index(string(raw), `"token":"`); i >= 0 {
		tok = strings.SplitN(string(raw)[i+9:], `"`, 2)[0]
	}
	req, _ = http.NewRequest("GET", base+"/api/events?s="+tok, nil)
	req.AddCookie(cookie)
	stream, err := http.DefaultClient.Do(req)
	if err != nil || stream.StatusCode != 200 {
		t.Fatalf("events: %v %v", stream, err)
	}
	defer stream.Body.Close()
	time.Sleep(2500 * time.Millisecond)
	s.hub.publish("lobby", &event{Kind: "chat", From: "x", Text: "still there"})
	if !streamSees(stream.Body, "still there", 5*time.Second) {
		t.Error("the event stream was closed by the read deadline")
	}
}

// Connections over the cap are closed at once; the chat serves again
// when one closes.
func TestConnectionCap(t *testing.T) {
	s, err := New(newFakeBot(t), Options{Listen: "127.0.0.1:0", MaxConnections: 4})
	if err != nil {
		t.Fatal(err)
	}
	base := runServer(t, s)
	addr := strings.TrimSuffix(strings.TrimPrefix(base, "http://"), "/")
	var held []net.Conn
	for range 4 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	time.Sleep(100 * time.Millisecond) // let the server accept them
	extra, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	_ = extra.SetReadDeadline(time.Now().Add(2 * time.Second))
	_, _ = io.WriteString(extra, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	if n, err := extra.Read(make([]byte, 1)); n != 0 || err == nil || isTimeout(err) {
		t.Errorf("a fifth connection was served: %d %v", n, err)
	}
	extra.Close()
	for _, c := range held {
		c.Close()
	}
	// The server notices the closes by itself; allow it a moment.
	deadline := time.Now().Add(5 * time.Second)
	for {
		resp, err := http.Get(base)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Errorf("after the others closed: %d", resp.StatusCode)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not served after the others closed: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// selfSigned writes a certificate for 127.0.0.1 and its key.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "topochess test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, _ := x509.MarshalECPrivateKey(key)
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// Off loopback the chat needs a password and TLS (its own, or a proxy's
// with allow_plain_http); the errors say what to set.
func TestPublicListenNeedsTLS(t *testing.T) {
	cert, key, _ := selfSigned(t)
	tests := []struct {
		opt  Options
		want string // "" = accepted
	}{
		{Options{Listen: "0.0.0.0:8080", Password: "p"}, "web.tls_cert"},
		{Options{Listen: "0.0.0.0:8080", Password: "p"}, "allow_plain_http"},
		{Options{Listen: "0.0.0.0:8080", Password: "p", AllowPlainHTTP: true}, ""},
		{Options{Listen: "0.0.0.0:8080", Password: "p", TLSCert: cert, TLSKey: key}, ""},
		{Options{Listen: "0.0.0.0:8080", AllowPlainHTTP: true}, "web.password"},
		{Options{Listen: "0.0.0.0:8080", Password: "p", TLSCert: cert}, "both"},
		{Options{Listen: "0.0.0.0:8080", Password: "p", TLSCert: key, TLSKey: key}, "tls_cert"},
		{Options{Listen: "127.0.0.1:8080", TrustedProxies: []string{"127.0.0.1"}}, "web.password"},
		{Options{Listen: "127.0.0.1:8080", Password: "p", TrustedProxies: []string{"nonsense"}}, "trusted_proxies"},
		{Options{Listen: "127.0.0.1:8080", Password: "p", TrustedProxies: []string{"127.0.0.1", "10.0.0.0/8"}}, ""},
	}
	for _, tc := range tests {
		_, err := New(newFakeBot(t), tc.opt)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v refused: %v", tc.opt, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v: %v, want a refusal naming %s", tc.opt, err, tc.want)
		}
	}
}

// With its own certificate the chat serves HTTPS and its cookies are
// Secure.
func TestBuiltInTLS(t *testing.T) {
	cert, key, pool := selfSigned(t)
	s, err := New(newFakeBot(t), Options{Listen: "127.0.0.1:0", Password: "hunter2", TLSCert: cert, TLSKey: key, ReadTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	base := runServer(t, s)
	if !strings.HasPrefix(base, "https://") {
		t.Fatalf("page URL %s", base)
	}
	c := browser(t, "")
	tr := c.Transport.(*http.Transport)
	tr.TLSClientConfig = &tls.Config{RootCAs: pool}
	tr.ForceAttemptHTTP2 = true
	ck := authCookieOf(login(t, c, strings.TrimSuffix(base, "/"), "hunter2"))
	if ck == nil || !ck.Secure {
		t.Errorf("cookie over TLS: %+v", ck)
	}
	resp, err := c.Get(base)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Strict-Transport-Security") == "" {
		t.Errorf("logged in over TLS: %d, HSTS %q", resp.StatusCode, resp.Header.Get("Strict-Transport-Security"))
	}

	// The event stream, over HTTP/2, outlives the read deadline too.
	body := strings.NewReader(`{"name":"alice"}`)
	resp, err = c.Post(base+"api/join", "application/json", body)
	if err != nil {
		t.Fatal(err)
	}
	var joined struct{ Token string }
	_ = json.NewDecoder(resp.Body).Decode(&joined)
	resp.Body.Close()
	stream, err := c.Get(base + "api/events?s=" + joined.Token)
	if err != nil || stream.StatusCode != 200 {
		t.Fatalf("events: %v %v", stream, err)
	}
	defer stream.Body.Close()
	if stream.ProtoMajor != 2 {
		t.Errorf("served over %s, want HTTP/2", stream.Proto)
	}
	time.Sleep(2500 * time.Millisecond)
	s.hub.publish("lobby", &event{Kind: "chat", From: "x", Text: "still there"})
	if !streamSees(stream.Body, "still there", 5*time.Second) {
		t.Error("the event stream over TLS was cut")
	}
}

// streamSees reads an event stream until a line contains text.
func streamSees(r io.Reader, text string, within time.Duration) bool {
	got := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if strings.Contains(sc.Text(), text) {
				got <- true
				return
			}
		}
		got <- false
	}()
	select {
	case ok := <-got:
		return ok
	case <-time.After(within):
		return false
	}
}

// Behind a trusted proxy its X-Forwarded-Proto makes cookies Secure and
// its X-Forwarded-For is the address guesses are counted for; from any
// other peer both headers are ignored.
func TestTrustedProxy(t *testing.T) {
	post := func(base, xff, proto, password string) *http.Response {
		req, _ := http.NewRequest("POST", base+"/login", strings.NewReader(url.Values{"password": {password}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Forwarded-For", xff)
		req.Header.Set("X-Forwarded-Proto", proto)
		resp, err := browser(t, "").Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	_, _, ts := newTestServer(t, Options{Password: "hunter2", TrustedProxies: []string{"127.0.0.1"}})
	if ck := authCookieOf(post(ts.URL, "203.0.113.9", "https", "hunter2")); ck == nil || !ck.Secure {
		t.Errorf("behind a TLS proxy: cookie %+v", ck)
	}
	for range 10 {
		post(ts.URL, "198.51.100.1, 203.0.113.5", "https", "wrong")
	}
	if resp := post(ts.URL, "203.0.113.5", "https", "hunter2"); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("the guesser behind the proxy: %d", resp.StatusCode)
	}
	if ck := authCookieOf(post(ts.URL, "203.0.113.6", "https", "hunter2")); ck == nil {
		t.Error("another client behind the same proxy was refused")
	}
	// A proxy that writes the client's port too: still one client each.
	for range 10 {
		post(ts.URL, "203.0.113.7:51234", "https", "wrong")
	}
	if resp := post(ts.URL, "203.0.113.7:40000", "https", "hunter2"); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("the guesser behind a proxy writing ports: %d", resp.StatusCode)
	}
	if ck := authCookieOf(post(ts.URL, "[2001:db8::8]:443", "https", "hunter2")); ck == nil {
		t.Error("another client behind a proxy writing ports was refused")
	}

	_, _, ts = newTestServer(t, Options{Password: "hunter2", TrustedProxies: []string{"10.0.0.0/8"}})
	if ck := authCookieOf(post(ts.URL, "203.0.113.9", "https", "hunter2")); ck == nil || ck.Secure {
		t.Errorf("an untrusted peer's X-Forwarded-Proto was believed: %+v", ck)
	}
	for i := range 10 {
		post(ts.URL, "203.0.113."+string(rune('0'+i)), "http", "wrong")
	}
	if resp := post(ts.URL, "203.0.113.100", "http", "hunter2"); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("an untrusted peer escaped the throttle with X-Forwarded-For: %d", resp.StatusCode)
	}
}

// A name's claim is kept in the database: after a restart (another
// process on the same file) the name still needs its secret.
func TestNamesSurviveRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "n.db")
	serve := func() (*storage.Store, string) {
		st, err := storage.Open(path, storage.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(newFakeBot(t), Options{Names: st})
		if err != nil {
			t.Fatal(err)
		}
		return st, newHTTP(t, s)
	}
	st, base := serve()
	bob := join(t, base, "bob", "lobby")
	st.Close()
	st, base = serve()
	defer st.Close()
	for _, name := range []string{"bob", "BOB", "b\u043e\u0432"} {
		if code, out := postJSON(t, base+"/api/join", "", map[string]string{"name": name}); code == 200 {
			t.Errorf("after a restart %q joined without bob's secret: %v", name, out)
		}
	}
	if again := joinWith(t, base, "Bob", "lobby", bob.secret); again.user != "web:bob" {
		t.Errorf("bob with his secret: %s", again.user)
	}
}
