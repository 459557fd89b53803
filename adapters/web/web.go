// Package web is the local web chat: a single page where people pick a
// name, join a room and type the same slash commands as on Discord or
// Telegram. Replies, board pictures and buttons arrive live over
// server-sent events; clicks on a board picture become /moves and /move.
//
// Like every adapter it only translates: HTTP requests become
// bot.Commands, bot.Replies become events for the room's browsers. Names
// belong to the first browser that takes them (it keeps a secret for
// it); the chat binds to loopback unless a password guards it.
package web

import (
	"context"
	"crypto/tls"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
	"time"

	"topochess/bot"
	"topochess/render"
)

//go:embed static
var staticFiles embed.FS

// DefaultListen is the address used when Options.Listen is empty.
const DefaultListen = "127.0.0.1:8080"

// Options configure the web chat.
type Options struct {
	// Listen is host:port (default DefaultListen). An address other than
	// loopback needs a Password, and TLS or AllowPlainHTTP.
	Listen string
	// Password, when set, must be entered once per browser (login form,
	// a session cookie of its own) before anything else is served.
	Password string
	// TLSCert and TLSKey are PEM files: the chat then serves HTTPS itself.
	TLSCert, TLSKey string
	// AllowPlainHTTP lets the chat listen off loopback without TLS: for a
	// TLS reverse proxy on another machine, or a trusted network.
	AllowPlainHTTP bool
	// TrustedProxies are the addresses (IPs or CIDR prefixes) of reverse
	// proxies in front of the chat. Only requests from them may say, in
	// X-Forwarded-Proto and X-Forwarded-For, that the browser used HTTPS
	// and where it is. The chat is then public, so it needs a Password.
	TrustedProxies []string
	// SessionTTL is how long a login stays valid (default 7 days).
	SessionTTL time.Duration
	// ReadTimeout bounds reading a request, body included (default 10 s);
	// event streams are exempt once their headers are read.
	ReadTimeout time.Duration
	// MaxConnections caps open connections; more are closed at once
	// (default 1000).
	MaxConnections int
	// Names keeps who owns each name (a hash of its secret), so that a
	// name stays its owner's across restarts and processes. Default: in
	// memory.
	Names NameStore
	// Renderer gives the cell maps (render.CellMap) that turn clicks on
	// board pictures into cells; it must draw the same layout as the
	// bot's painter (its size does not matter: maps are scaled to each
	// picture). Default render.New().
	Renderer *render.Renderer
	// Shared, when set, is the log several processes serving this chat
	// share (shared.go); Run reads it, so the chat shows nothing without
	// Run. nil: this process is the whole chat.
	Shared Shared
	// Logger receives request failures (default: discard).
	Logger *slog.Logger
	// Now is the clock (tests replace it).
	Now func() time.Time
}

// Server is the web chat. Create it with New; it is an http.Handler.
type Server struct {
	h      bot.Handler
	opt    Options
	log    *slog.Logger
	mux    *http.ServeMux
	hub    *hub
	images *imageStore
	btns   *buttonStore
	sess   *sessionStore
	sel    *selections
	auth   *auth
	names  *names
	// chat limits plain chat lines per user (commands are limited by the
	// bot).
	chat *limiter
	// joins limits joins per client address.
	joins *limiter
	// proxies are the trusted reverse proxies.
	proxies []netip.Prefix
	tls     bool
	// plainOffLoopback: allowed plain HTTP to other machines, worth a
	// warning at every start.
	plainOffLoopback bool
	// localOnly refuses Host headers that are not loopback names, so a
	// page elsewhere cannot reach a loopback-bound chat by DNS rebinding.
	localOnly bool
	// follow reads the shared log (nil without one).
	follow *follower
	// listening is for Connected: true while Run serves.
	listening atomic.Bool
}

// New builds the chat on a handler. It checks the options the way Run
// would, so a bad listen address or a missing password fails here.
func New(h bot.Handler, opt Options) (*Server, error) {
	if opt.Listen == "" {
		opt.Listen = DefaultListen
	}
	loopback, err := isLoopback(opt.Listen)
	if err != nil {
		return nil, err
	}
	proxies, err := parseProxies(opt.TrustedProxies)
	if err != nil {
		return nil, err
	}
	if (opt.TLSCert == "") != (opt.TLSKey == "") {
		return nil, errors.New("web chat: set both web.tls_cert and web.tls_key, or neither")
	}
	withTLS := opt.TLSCert != ""
	if withTLS {
		if _, err := tls.LoadX509KeyPair(opt.TLSCert, opt.TLSKey); err != nil {
			return nil, fmt.Errorf("web chat: web.tls_cert/web.tls_key: %w", err)
		}
	}
	public := !loopback || len(proxies) > 0
	switch {
	case public && opt.Password == "" && len(proxies) > 0:
		return nil, errors.New("web chat: behind a reverse proxy (web.trusted_proxies) the chat is public, and anyone reaching it could play under any free name: " +
			"set web.password (or TOPOCHESS_WEB_PASSWORD)")
	case public && opt.Password == "":
		return nil, fmt.Errorf("web chat: %s is reachable from other machines, and anyone reaching it could play under any free name: "+
			"set web.password (or TOPOCHESS_WEB_PASSWORD), or listen on 127.0.0.1", opt.Listen)
	case !loopback && !withTLS && !opt.AllowPlainHTTP:
		return nil, fmt.Errorf("web chat: %s is reachable from other machines over plain HTTP, where the password and sessions travel readable: "+
			"set web.tls_cert and web.tls_key, or put a TLS reverse proxy in front and set web.allow_plain_http: true (see docs/security.md)", opt.Listen)
	}
	if opt.SessionTTL <= 0 {
		opt.SessionTTL = 7 * 24 * time.Hour
	}
	if opt.ReadTimeout <= 0 {
		opt.ReadTimeout = 10 * time.Second
	}
	if opt.MaxConnections <= 0 {
		opt.MaxConnections = 1000
	}
	if opt.Names == nil {
		opt.Names = newMemNames()
	}
	if opt.Renderer == nil {
		opt.Renderer = render.New()
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	s := &Server{
		h:                h,
		opt:              opt,
		log:              opt.Logger,
		hub:              newHub(defaultStreamLimits, opt.Now),
		images:           newImageStore(maxImageBytes),
		btns:             newButtonStore(maxButtons),
		sess:             newSessionStore(maxSessions),
		sel:              newSelections(),
		names:            &names{store: opt.Names, log: opt.Logger},
		chat:             newLimiter(chatBurst, chatEvery, maxSessions),
		joins:            newLimiter(joinBurst, joinEvery, maxSessions),
		proxies:          proxies,
		tls:              withTLS,
		plainOffLoopback: !loopback && !withTLS,
		localOnly:        loopback && len(proxies) == 0,
	}
	if opt.Password != "" {
		s.auth = newAuth(opt.Password, opt.SessionTTL)
	}
	if opt.Shared != nil {
		s.follow = &follower{wake: make(chan struct{}, 1)}
	}
	s.routes()
	return s, nil
}

// Limits that keep a long-running chat's memory bounded.
const (
	maxImageBytes = 48 << 20
	maxButtons    = 20000
	maxSessions   = 5000
	maxBody       = 8 << 10
	// A person chats in bursts; a script flooding a room is slowed to a
	// line a second.
	chatBurst = 8
	chatEvery = time.Second
	joinBurst = 30
	joinEvery = 3 * time.Second
	// writeTimeout bounds sending one answer (a picture to a slow link).
	writeTimeout = time.Minute
)

func (s *Server) routes() {
	s.mux = http.NewServeMux()
	static, _ := fs.Sub(staticFiles, "static")
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	s.mux.HandleFunc("GET /{$}", s.serveIndex)
	s.mux.HandleFunc("GET /login", s.serveLogin)
	s.mux.HandleFunc("POST /login", s.postLogin)
	s.mux.HandleFunc("GET /logout", s.serveLogout)
	s.mux.HandleFunc("POST /logout", s.postLogout)
	s.mux.HandleFunc("POST /api/join", s.apiJoin)
	s.mux.HandleFunc("POST /api/send", s.apiSend)
	s.mux.HandleFunc("POST /api/press", s.apiPress)
	s.mux.HandleFunc("POST /api/click", s.apiClick)
	s.mux.HandleFunc("GET /api/events", s.apiEvents)
	s.mux.HandleFunc("GET /api/commands", s.apiCommands)
	s.mux.HandleFunc("GET /img/{id}", s.serveImage)
	s.mux.HandleFunc("GET /api/map/{id}", s.serveMap)
}

// eventsPath is the one long-lived request, exempt from the deadlines.
const eventsPath = "/api/events"

// ServeHTTP bounds the request's time, checks the host and the password,
// then routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != eventsPath {
		// A body trickled in byte by byte must not hold a connection (and
		// a file descriptor) for long; Run's server sets the same read
		// deadline, this also covers a server someone else built.
		rc := http.NewResponseController(w)
		now := time.Now()
		_ = rc.SetReadDeadline(now.Add(s.opt.ReadTimeout))
		_ = rc.SetWriteDeadline(now.Add(writeTimeout))
	}
	if s.localOnly && !loopbackHost(r.Host) {
		http.Error(w, "this chat answers only on localhost", http.StatusMisdirectedRequest)
		return
	}
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'")
	if s.tls {
		// Served over HTTPS by us: browsers should never try plain HTTP.
		h.Set("Strict-Transport-Security", "max-age=31536000")
	}
	if s.auth != nil && r.URL.Path != "/login" && !strings.HasPrefix(r.URL.Path, "/static/") && !s.loggedIn(r) {
		if strings.HasPrefix(r.URL.Path, "/api/") || strings.HasPrefix(r.URL.Path, "/img/") {
			jsonError(w, http.StatusUnauthorized, "login needed")
			return
		}
		http.Redirect(w, r, "/login", http.StatusSeeOther)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// loggedIn reports whether the request carries a valid login, made here
// or (with a shared log) on another process.
func (s *Server) loggedIn(r *http.Request) bool {
	if s.auth.ok(r, s.opt.Now()) {
		return true
	}
	if _, err := r.Cookie(authCookie); err != nil || !s.lookAgain() {
		return false
	}
	return s.auth.ok(r, s.opt.Now())
}

func (s *Server) serveIndex(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeFileFS(w, r, staticFiles, "static/index.html")
}

// pageURL is the address to open in a browser for a listening address;
// a wildcard host is shown as this machine's loopback.
func pageURL(addr string, withTLS bool) string {
	host, port, _ := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	scheme := "http://"
	if withTLS {
		scheme = "https://"
	}
	return scheme + net.JoinHostPort(host, port) + "/"
}

// Run listens and serves until ctx is cancelled. ready, when not nil, is
// called with the page's URL once the port is open.
func (s *Server) Run(ctx context.Context, ready func(url string)) error {
	ln, err := net.Listen("tcp", s.opt.Listen)
	if err != nil {
		return fmt.Errorf("web chat: %w", err)
	}
	ln = newCapListener(ln, s.opt.MaxConnections)
	if s.opt.Shared != nil {
		// What the log holds first (recent events, sessions, logins),
		// so the first pages find their rooms and tabs.
		s.catchUp()
		go s.followLog(ctx)
	}
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 5 * time.Second,
		// Bodies too; the event stream lifts it once it starts.
		ReadTimeout:    s.opt.ReadTimeout,
		IdleTimeout:    time.Minute,
		MaxHeaderBytes: 16 << 10,
		BaseContext:    func(net.Listener) context.Context { return ctx },
		ErrorLog:       slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	if s.plainOffLoopback {
		s.log.Warn("web chat: serving plain HTTP to other machines (web.allow_plain_http); passwords and sessions cross the network readable unless a TLS proxy is in front", "listen", s.opt.Listen)
	}
	if ready != nil {
		ready(pageURL(ln.Addr().String(), s.tls))
	}
	s.listening.Store(true)
	defer s.listening.Store(false)
	done := make(chan error, 1)
	go func() {
		if s.tls {
			done <- srv.ServeTLS(ln, s.opt.TLSCert, s.opt.TLSKey)
		} else {
			done <- srv.Serve(ln)
		}
	}()
	select {
	case err := <-done:
		return fmt.Errorf("web chat: %w", err)
	case <-ctx.Done():
	}
	s.hub.closeAll()
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("web chat: %w", err)
	}
	return nil
}

// isLoopback reports whether a listen address stays on this machine.
// An empty host means every interface.
func isLoopback(listen string) (bool, error) {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return false, fmt.Errorf("web chat: web.listen %q is not host:port (for example 127.0.0.1:8080): %w", listen, err)
	}
	if port == "" {
		return false, fmt.Errorf("web chat: web.listen %q has no port", listen)
	}
	if host == "" {
		return false, nil
	}
	if strings.EqualFold(host, "localhost") {
		return true, nil
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback(), nil
}

// loopbackHost reports whether a request's Host names this machine.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
