// Package web is the local web chat: a single page where people pick a
// name, join a room and type the same slash commands as on Discord or
// Telegram. Replies, board pictures and buttons arrive live over
// server-sent events; clicks on a board picture become /moves and /move.
//
// Like every adapter it only translates: HTTP requests become
// bot.Commands, bot.Replies become events for the room's browsers. Names
// are not accounts: whoever types a name speaks as that user, which is
// why the chat binds to loopback unless a password guards it.
package web

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"strings"
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
	// loopback needs a Password.
	Listen string
	// Password, when set, must be entered once per browser (login form,
	// cookie) before anything else is served.
	Password string
	// Renderer maps clicks on board pictures to cells; it must draw the
	// same layout as the bot's painter (its size does not matter: clicks
	// are scaled to it). Default render.New().
	Renderer *render.Renderer
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
	// localOnly refuses Host headers that are not loopback names, so a
	// page elsewhere cannot reach a loopback-bound chat by DNS rebinding.
	localOnly bool
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
	if !loopback && opt.Password == "" {
		return nil, fmt.Errorf("web chat: %s is reachable from other machines, and anyone reaching it could play under any name: "+
			"set web.password (or TOPOCHESS_WEB_PASSWORD), or listen on 127.0.0.1", opt.Listen)
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
		h:         h,
		opt:       opt,
		log:       opt.Logger,
		hub:       newHub(),
		images:    newImageStore(maxImageBytes),
		btns:      newButtonStore(maxButtons),
		sess:      newSessionStore(maxSessions),
		sel:       newSelections(),
		localOnly: loopback,
	}
	if opt.Password != "" {
		s.auth = newAuth(opt.Password)
	}
	s.routes()
	return s, nil
}

// Limits that keep a long-running chat's memory bounded.
const (
	maxImageBytes = 96 << 20
	maxButtons    = 20000
	maxSessions   = 5000
	maxBody       = 8 << 10
)

func (s *Server) routes() {
	s.mux = http.NewServeMux()
	static, _ := fs.Sub(staticFiles, "static")
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	s.mux.HandleFunc("GET /{$}", s.serveIndex)
	s.mux.HandleFunc("GET /login", s.serveLogin)
	s.mux.HandleFunc("POST /login", s.postLogin)
	s.mux.HandleFunc("POST /api/join", s.apiJoin)
	s.mux.HandleFunc("POST /api/send", s.apiSend)
	s.mux.HandleFunc("POST /api/press", s.apiPress)
	s.mux.HandleFunc("POST /api/click", s.apiClick)
	s.mux.HandleFunc("GET /api/events", s.apiEvents)
	s.mux.HandleFunc("GET /api/commands", s.apiCommands)
	s.mux.HandleFunc("GET /img/{id}", s.serveImage)
}

// ServeHTTP checks the host and the password, then routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.localOnly && !loopbackHost(r.Host) {
		http.Error(w, "this chat answers only on localhost", http.StatusMisdirectedRequest)
		return
	}
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'")
	if s.auth != nil && r.URL.Path != "/login" && !strings.HasPrefix(r.URL.Path, "/static/") && !s.auth.ok(r) {
		if strings.HasPrefix(r.URL.Path, "/api/") || strings.HasPrefix(r.URL.Path, "/img/") {
			jsonError(w, http.StatusUnauthorized, "login needed")
			return
		}
		http.Redirect(w, r, "/login", http.StatusSeeOther)
		return
	}
	s.mux.ServeHTTP(w, r)
}

func (s *Server) serveIndex(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeFileFS(w, r, staticFiles, "static/index.html")
}

// pageURL is the address to open in a browser for a listening address;
// a wildcard host is shown as this machine's loopback.
func pageURL(addr string) string {
	host, port, _ := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}

// Run listens and serves until ctx is cancelled. ready, when not nil, is
// called with the page's URL once the port is open.
func (s *Server) Run(ctx context.Context, ready func(url string)) error {
	ln, err := net.Listen("tcp", s.opt.Listen)
	if err != nil {
		return fmt.Errorf("web chat: %w", err)
	}
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	if ready != nil {
		ready(pageURL(ln.Addr().String()))
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
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
