package web

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
)

// capListener closes connections over a cap at once, so a flood of
// sockets cannot use up the process's file descriptors (when accept
// fails for lack of them, nobody gets in).
type capListener struct {
	net.Listener
	slots chan struct{}
}

func newCapListener(ln net.Listener, max int) net.Listener {
	return &capListener{Listener: ln, slots: make(chan struct{}, max)}
}

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		select {
		case l.slots <- struct{}{}:
			return &capConn{Conn: c, release: func() { <-l.slots }}, nil
		default:
			c.Close()
		}
	}
}

type capConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *capConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// parseProxies reads web.trusted_proxies: addresses or prefixes.
func parseProxies(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range list {
		s = strings.TrimSpace(s)
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, fmt.Errorf("web chat: web.trusted_proxies: %q is neither an address nor a prefix like 10.0.0.0/8", s)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

func (s *Server) trusted(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range s.proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// peer is the address the connection comes from.
func peer(r *http.Request) netip.Addr {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}
	}
	return ap.Addr().Unmap()
}

// clientAddr is the browser's address: the connection's, or, when that is
// a trusted proxy, the nearest address in X-Forwarded-For that is not
// one (the ones further left were written by the client and prove
// nothing).
func (s *Server) clientAddr(r *http.Request) string {
	a := peer(r)
	if !s.trusted(a) {
		return a.String()
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		h, err := forwardedAddr(hops[i])
		if err != nil {
			break
		}
		if !s.trusted(h) {
			return h.Unmap().String()
		}
	}
	return a.String()
}

// forwardedAddr reads one X-Forwarded-For entry: an address, or an
// address with a port as some proxies write it (203.0.113.9:51234,
// [2001:db8::1]:443), which would otherwise put every client behind
// that proxy under the proxy's own limits.
func forwardedAddr(hop string) (netip.Addr, error) {
	hop = strings.TrimSpace(hop)
	if a, err := netip.ParseAddr(hop); err == nil {
		return a, nil
	}
	ap, err := netip.ParseAddrPort(hop)
	if err != nil {
		return netip.Addr{}, err
	}
	return ap.Addr(), nil
}

// secure reports whether the browser reached the chat over HTTPS: to us
// directly, or to a trusted proxy that says so.
func (s *Server) secure(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	return s.trusted(peer(r)) && strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}
