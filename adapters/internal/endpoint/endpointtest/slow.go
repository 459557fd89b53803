// Package endpointtest helps the adapters' tests of their HTTP endpoints.
package endpointtest

import (
	"io"
	"net"
	"testing"
	"time"
)

// SlowPost sends head (a POST's request line and headers, with a
// Content-Length larger than what follows, and the first bytes of its
// body), then one more byte of body every 100 ms. It returns how long the
// server kept the connection, or giveUp and false if it never let go. It
// may run in a goroutine of its own: failures are reported with t.Error.
func SlowPost(t testing.TB, addr, head string, giveUp time.Duration) (time.Duration, bool) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Error(err)
		return 0, false
	}
	defer conn.Close()
	began := time.Now()
	if _, err := io.WriteString(conn, head); err != nil {
		t.Error(err)
		return 0, false
	}
	go func() {
		for {
			time.Sleep(100 * time.Millisecond)
			if _, err := conn.Write([]byte(" ")); err != nil {
				return
			}
		}
	}()
	_ = conn.SetReadDeadline(began.Add(giveUp))
	_, err = io.Copy(io.Discard, conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return giveUp, false
	}
	return time.Since(began), true
}
