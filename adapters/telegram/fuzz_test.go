package telegram

import (
	"strings"
	"testing"
	"unicode/utf8"

	"topochess/bot"
)

// FuzzInput feeds what users control — message text, callback data,
// entity offsets — through the parsers; none may panic, and text split
// for Telegram keeps its characters and its limits.
func FuzzInput(f *testing.F) {
	for _, s := range []string{"/move@topochess_bot e2e4", "/challenge @bob moebius", "t|g1|5|e7|e8|Q", "t|g1|x", "b|_c=accept&_f=22&challenge=c1", "k|7", "/ x", "Ålice ♞ e4\nNf3", ""} {
		f.Add(s, 3, 4)
	}
	store := newButtonStore(4)
	f.Fuzz(func(t *testing.T, s string, off, n int) {
		parseCommand(s)
		parseTap(s)
		store.decode(s)
		utf16Slice(s, off, n)
		if !utf8.ValidString(s) {
			return
		}
		b := bot.Button{Command: "move", Args: map[string]string{"move": s}, For: "telegram:1"}
		if d := store.encode(b); len(d) > maxCallbackData {
			t.Fatalf("callback data of %d bytes", len(d))
		} else if got, ok := store.decode(d); !ok || got.Args["move"] != s || got.For != b.For {
			t.Fatalf("button %q came back as %+v", s, got)
		}
		limit := max(2, n%50)
		parts := split(s, limit)
		for _, p := range parts {
			if utf16Len(p) > limit {
				t.Fatalf("part %q longer than %d", p, limit)
			}
		}
		// Only the white space at a cut may go.
		if strings.Join(strings.Fields(strings.Join(parts, "")), "") != strings.Join(strings.Fields(s), "") {
			t.Fatalf("split(%q, %d) = %q loses text", s, limit, parts)
		}
	})
}
