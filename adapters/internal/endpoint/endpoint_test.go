package endpoint

import (
	"bytes"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"topochess/adapters/internal/endpoint/endpointtest"
)

// serve runs a server with limits l on loopback until the test ends.
func serve(t *testing.T, h http.Handler, l Limits, logs io.Writer) string {
	t.Helper()
	ln, err := Listen("127.0.0.1:0", l)
	if err != nil {
		t.Fatal(err)
	}
	srv := Server(h, slog.New(slog.NewTextHandler(logs, nil)), l)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

func TestSlowBodyIsDropped(t *testing.T) {
	read := make(chan error, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		read <- err
		http.Error(w, "slow", http.StatusRequestTimeout)
	})
	addr := serve(t, h, Limits{ReadHeader: 300 * time.Millisecond, Read: time.Second}, io.Discard)
	took, cut := endpointtest.SlowPost(t, addr, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n", 8*time.Second)
	if !cut || took > 3*time.Second {
		t.Fatalf("a body sent one byte per 100 ms was held %v (cut: %v), want dropped after about 1 s", took, cut)
	}
	if err := <-read; err == nil {
		t.Error("the handler read a whole body that never arrived")
	}
}

func TestConnectionsAreCapped(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	addr := serve(t, h, Limits{Conns: 2}, io.Discard)
	var idle []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		idle = append(idle, c)
	}
	got := make(chan error, 1)
	go func() {
		resp, err := http.Get("http://" + addr + "/")
		if err == nil {
			resp.Body.Close()
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("a third connection was served while two were open (err %v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	idle[0].Close()
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the waiting connection was not served after a slot came free")
	}
}

func TestServerErrorsGoThroughSlog(t *testing.T) {
	var logs bytes.Buffer
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { panic("boom") })
	addr := serve(t, h, Limits{}, &syncWriter{w: &logs})
	if resp, err := http.Get("http://" + addr + "/"); err == nil {
		resp.Body.Close()
	}
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if s := logText(&logs); strings.Contains(s, "level=WARN") && strings.Contains(s, "boom") {
			return
		}
	}
	t.Errorf("the handler's panic was not logged through slog: %q", logText(&logs))
}

var logMu = make(chan struct{}, 1)

type syncWriter struct{ w *bytes.Buffer }

func (s *syncWriter) Write(p []byte) (int, error) {
	logMu <- struct{}{}
	defer func() { <-logMu }()
	return s.w.Write(p)
}

func logText(b *bytes.Buffer) string {
	logMu <- struct{}{}
	defer func() { <-logMu }()
	return b.String()
}
