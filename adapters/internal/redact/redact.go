// Package redact keeps bot tokens out of logs and error texts. The chat
// adapters pass every log line, and every error they return, through one
// Filter: the exact secrets they were configured with (whatever their
// length) and the shapes of Telegram and Discord bot tokens are cut out.
package redact

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Mask replaces a secret.
const Mask = "[redacted]"

// patterns are the shapes of tokens the filter was not told about (a
// token echoed by a proxy after it was rotated, another bot's token).
var patterns = []*regexp.Regexp{
	// Telegram: "<bot id>:<secret>".
	regexp.MustCompile(`\d{5,}:[A-Za-z0-9_-]{20,}`),
	// Discord: three base64url parts, the middle one a timestamp.
	regexp.MustCompile(`[A-Za-z0-9_-]{23,}\.[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{27,}`),
}

// Filter removes secrets from text. The zero value knows only the token
// patterns; Add teaches it exact strings. It is safe for concurrent use.
type Filter struct {
	mu      sync.RWMutex
	secrets []string // longest first, so a secret inside another goes last
}

// New returns a filter for these secrets.
func New(secrets ...string) *Filter {
	f := &Filter{}
	f.Add(secrets...)
	return f
}

// Add teaches the filter more secrets. Each is also removed in the forms
// it takes inside a URL, since tokens travel in request paths.
func (f *Filter) Add(secrets ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range secrets {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		for _, v := range []string{s, url.PathEscape(s), url.QueryEscape(s)} {
			if !slices.Contains(f.secrets, v) {
				f.secrets = append(f.secrets, v)
			}
		}
	}
	slices.SortFunc(f.secrets, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
}

// With returns a new filter that knows f's secrets and more, for a text
// that may hold a secret of its own (a URL with a short-lived token).
func (f *Filter) With(more ...string) *Filter {
	g := New()
	if f != nil {
		f.mu.RLock()
		g.secrets = append(g.secrets, f.secrets...)
		f.mu.RUnlock()
	}
	g.Add(more...)
	return g
}

// String returns s without any known secret or token-shaped text.
func (f *Filter) String(s string) string {
	if f != nil {
		f.mu.RLock()
		for _, sec := range f.secrets {
			s = strings.ReplaceAll(s, sec, Mask)
		}
		f.mu.RUnlock()
	}
	for _, p := range patterns {
		s = p.ReplaceAllString(s, Mask)
	}
	return s
}

// Error returns err with a redacted text; errors.Is and errors.As still
// see the original beneath. A clean error is returned as it is.
func (f *Filter) Error(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if clean := f.String(msg); clean != msg {
		return &redacted{msg: clean, err: err}
	}
	return err
}

type redacted struct {
	msg string
	err error
}

func (e *redacted) Error() string { return e.msg }
func (e *redacted) Unwrap() error { return e.err }

// Logger wraps l so that everything it writes is filtered: the message
// and every attribute, however deep in groups.
func (f *Filter) Logger(l *slog.Logger) *slog.Logger {
	if l == nil {
		l = slog.Default()
	}
	if h, ok := l.Handler().(*handler); ok && h.f == f {
		return l
	}
	return slog.New(&handler{f: f, next: l.Handler()})
}

type handler struct {
	f    *Filter
	next slog.Handler
}

func (h *handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h *handler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, h.f.String(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.f.attr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h *handler) WithAttrs(as []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(as))
	for i, a := range as {
		clean[i] = h.f.attr(a)
	}
	return &handler{f: h.f, next: h.next.WithAttrs(clean)}
}

func (h *handler) WithGroup(name string) slog.Handler {
	return &handler{f: h.f, next: h.next.WithGroup(name)}
}

func (f *Filter) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, f.String(v.String()))
	case slog.KindGroup:
		g := v.Group()
		clean := make([]any, len(g))
		for i, ga := range g {
			clean[i] = f.attr(ga)
		}
		return slog.Group(a.Key, clean...)
	case slog.KindAny:
		switch x := v.Any().(type) {
		case error:
			return slog.String(a.Key, f.String(x.Error()))
		case []byte:
			return slog.String(a.Key, f.String(string(x)))
		default:
			// Any other value is written by the handler in its own way; if
			// its text holds a secret, the redacted text is written instead.
			s := fmt.Sprintf("%+v", x)
			if clean := f.String(s); clean != s {
				return slog.String(a.Key, clean)
			}
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}
