package redact

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	f := New("7:ab", "  Bot short.tok  ", "")
	for _, c := range []struct{ in, want string }{
		{"POST /bot7:ab/sendPhoto failed", "POST /bot[redacted]/sendPhoto failed"},
		{"path /bot7%3Aab/getMe", "path /bot[redacted]/getMe"},
		{"auth Bot short.tok", "auth [redacted]"},
		{"another bot 123456789:AAbcdefghijklmnopqrstuvwxyz_012345 echoed", "another bot [redacted] echoed"},
		{"MTA5ODc2NTQzMjEwOTg3NjU0Mw.GhIjKl.abcdefghijklmnopqrstuvwxyz012345 in a line", "[redacted] in a line"},
		{"nothing secret: 12:30, a.b.c", "nothing secret: 12:30, a.b.c"},
	} {
		if got := f.String(c.in); got != c.want {
			t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	var zero *Filter
	if got := zero.String("x 123456789:AAbcdefghijklmnopqrstuvwxyz_0 y"); got != "x [redacted] y" {
		t.Errorf("a nil filter does not apply the patterns: %q", got)
	}
}

func TestError(t *testing.T) {
	f := New("7:ab")
	base := fmt.Errorf("getMe /bot7:ab/getMe: %w", fs.ErrNotExist)
	err := f.Error(base)
	if strings.Contains(err.Error(), "7:ab") || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Error = %q (is ErrNotExist: %v)", err, errors.Is(err, fs.ErrNotExist))
	}
	if clean := errors.New("fine"); f.Error(clean) != clean || f.Error(nil) != nil {
		t.Error("a clean error was changed")
	}
}

type secretHolder struct{ Token string }

func TestLogger(t *testing.T) {
	for _, json := range []bool{false, true} {
		var buf bytes.Buffer
		var h slog.Handler = slog.NewTextHandler(&buf, nil)
		if json {
			h = slog.NewJSONHandler(&buf, nil)
		}
		f := New("7:ab")
		l := f.Logger(slog.New(h)).With("token", "7:ab").WithGroup("g")
		l.Info("sent to /bot7:ab/x",
			"err", errors.New("502 from /bot7:ab/sendMessage"),
			"raw", []byte("7:ab"),
			"value", secretHolder{"7:ab"},
			slog.Group("inner", "url", "http://h/bot7:ab/getMe"),
			"n", 3)
		out := buf.String()
		if strings.Contains(out, "7:ab") || strings.Count(out, Mask) < 6 || !strings.Contains(out, "3") {
			t.Errorf("json=%v: %s", json, out)
		}
		if f.Logger(l) != l {
			t.Error("a filtered logger was wrapped twice")
		}
	}
}
