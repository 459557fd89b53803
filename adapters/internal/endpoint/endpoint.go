// Package endpoint runs the small HTTP servers through which chat
// platforms push events to the bot (Telegram's webhook, Discord's
// interactions endpoint). They face the open internet: every request
// gets a deadline for its headers and its body, a client that sends
// slowly is cut off, and the number of open connections is capped so
// that slow clients cannot use up the process's file descriptors.
package endpoint

import (
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"
)

// Limits bound one server; zero fields take the defaults.
type Limits struct {
	// ReadHeader is the time to send the request line and headers (5 s).
	ReadHeader time.Duration
	// Read is the time to send the whole request, body included (10 s).
	// The platforms send a few kilobytes at once.
	Read time.Duration
	// Write bounds producing and sending the answer (15 s); Discord
	// waits 3 s at most, Telegram a little longer.
	Write time.Duration
	// Idle is how long a kept-alive connection may wait for its next
	// request (60 s).
	Idle time.Duration
	// Conns is the most connections open at once (256); more wait in the
	// kernel's backlog until one closes.
	Conns int
	// MaxBody is the largest request body accepted (1 MiB).
	MaxBody int64
}

func (l Limits) withDefaults() Limits {
	if l.ReadHeader <= 0 {
		l.ReadHeader = 5 * time.Second
	}
	if l.Read <= 0 {
		l.Read = 10 * time.Second
	}
	if l.Write <= 0 {
		l.Write = 15 * time.Second
	}
	if l.Idle <= 0 {
		l.Idle = time.Minute
	}
	if l.Conns <= 0 {
		l.Conns = 256
	}
	if l.MaxBody <= 0 {
		l.MaxBody = 1 << 20
	}
	return l
}

// Server returns a server for h with the limits applied; its own errors
// (bad TLS handshakes, panics in a handler) are logged through log at
// warning level.
func Server(h http.Handler, log *slog.Logger, l Limits) *http.Server {
	l = l.withDefaults()
	return &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r.Body = http.MaxBytesReader(w, r.Body, l.MaxBody)
			h.ServeHTTP(w, r)
		}),
		ReadHeaderTimeout: l.ReadHeader,
		ReadTimeout:       l.Read,
		WriteTimeout:      l.Write,
		IdleTimeout:       l.Idle,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// Listen listens on addr and accepts at most l.Conns connections at once.
func Listen(addr string, l Limits) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return Limit(ln, l.withDefaults().Conns), nil
}

// Limit caps the connections of ln open at once at n: Accept waits while
// n are open.
func Limit(ln net.Listener, n int) net.Listener {
	return &limited{Listener: ln, slots: make(chan struct{}, n), done: make(chan struct{})}
}

type limited struct {
	net.Listener
	slots     chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

func (l *limited) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &slotConn{Conn: c, free: func() { <-l.slots }}, nil
}

func (l *limited) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// slotConn gives its slot back when closed (once, however often Close is
// called).
type slotConn struct {
	net.Conn
	once sync.Once
	free func()
}

func (c *slotConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.free)
	return err
}
