package bot

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"unicode"

	"topochess/engine"
	"topochess/render"
)

func TestParseLine(t *testing.T) {
	for _, tc := range []struct {
		line, name, text string
		ok               bool
	}{
		{"/move e2e4", "move", "e2e4", true},
		{"  /Board  ", "board", "", true},
		{"/move@topochessbot Nf3", "move", "Nf3", true},
		{"/challenge @bob variant:moebius", "challenge", "@bob variant:moebius", true},
		{"e2e4", "", "e2e4", false},
		{"/", "", "", true},
	} {
		name, text, ok := ParseLine(tc.line)
		if name != tc.name || text != tc.text || ok != tc.ok {
			t.Errorf("ParseLine(%q) = %q, %q, %v; want %q, %q, %v", tc.line, name, text, ok, tc.name, tc.text, tc.ok)
		}
	}
}

func TestSplitArgs(t *testing.T) {
	for _, tc := range []struct {
		given map[string]string
		text  string
		args  map[string]string
		words []string
	}{
		{nil, "@bob variant:moebius colour=white", map[string]string{"variant": "moebius", "color": "white"}, nil},
		{nil, "e7e8=q game:g3", map[string]string{"game": "g3"}, []string{"e7e8=q"}},
		{map[string]string{"move": "Nf3", "Game": "g2"}, "game:g1", map[string]string{"move": "Nf3", "game": "g2"}, nil},
		{nil, "e2 e4", map[string]string{}, []string{"e2", "e4"}},
		{nil, "variant:", map[string]string{}, []string{"variant:"}},
	} {
		args, words := splitArgs(tc.given, tc.text)
		if !maps.Equal(args, tc.args) || !slices.Equal(words, tc.words) {
			t.Errorf("splitArgs(%v, %q) = %v, %q; want %v, %q", tc.given, tc.text, args, words, tc.args, tc.words)
		}
	}
}

func FuzzParseLine(f *testing.F) {
	for _, s := range []string{"/move e2e4", "/challenge @bob variant:moebius color:white", "e7e8=Q", "/draw accept game:g1", "/@", "/move\x00", "game:=", "/ü ß:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		name, text, ok := ParseLine(line)
		if strings.IndexFunc(name, unicode.IsSpace) >= 0 || strings.Contains(name, "@") {
			t.Fatalf("name %q from %q", name, line)
		}
		if !ok && name != "" {
			t.Fatalf("no slash but name %q", name)
		}
		args, words := splitArgs(map[string]string{"move": line}, text)
		for _, w := range words {
			if w == "" || strings.HasPrefix(w, "@") {
				t.Fatalf("word %q from %q", w, line)
			}
		}
		for k, v := range args {
			if k == "" || v == "" {
				t.Fatalf("empty arg %q=%q from %q", k, v, line)
			}
		}
	})
}

// FuzzCommand sends arbitrary commands into a game in progress, bypassing
// the service's panic guard so that any panic fails.
func FuzzCommand(f *testing.F) {
	for _, s := range [][2]string{{"move", "e2e4"}, {"move", "Nf3"}, {"moves", "g1"}, {"challenge", "@bob standard white"}, {"draw", "accept"}, {"accept", "c9"}, {"board", "game:g1"}, {"rules", "moebius"}, {"settings", "orientation:black"}, {"move", "e7e8=q game:1"}, {"moves", "zz99"}} {
		f.Add(s[0], s[1])
	}
	h := newHarness(f, Limits{CommandsPer10s: 1 << 30})
	h.svc.painter = nopPainter{}
	h.startGame("standard")
	f.Fuzz(func(t *testing.T, name, text string) {
		cmd := h.command("alice", "")
		cmd.Name, cmd.Text = name, text
		cmd.EventID = "" // the same input may come twice
		c := cmd
		_ = h.svc.handle(c)
	})
}

type nopPainter struct{}

func (nopPainter) PNG(*engine.Position, render.Options) ([]byte, error) { return nil, nil }
