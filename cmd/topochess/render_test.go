package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"topochess/engine"
	"topochess/render"
)

func TestRenderCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "b.png")
	var stdout, stderr bytes.Buffer
	code := run([]string{"render", "--variant", "standard", "--moves", "e2-e4,e7-e5", "--highlight", "e4,d5",
		"--orientation", "black", "-o", out}, nil, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	stdout.Reset()
	if code := run([]string{"render", "-o", "-"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if _, err := png.Decode(&stdout); err != nil {
		t.Fatalf("standard output is not a PNG: %v", err)
	}
}

func TestRenderCommandErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"render", "--variant", "nope", "-o", "x.png"}, "unknown variant"},
		{[]string{"render", "--moves", "e2-e5", "-o", "x.png"}, "--moves"},
		{[]string{"render", "--highlight", "z9", "-o", "x.png"}, "no cell"},
		{[]string{"render", "--orientation", "sideways", "-o", "x.png"}, "orientation"},
		{[]string{"render"}, "-o FILE"},
		{[]string{"render", "--width", "5", "-o", "x.png"}, "--width"},
		{[]string{"render", "--position", "garbage", "-o", "x.png"}, "bad position"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(tc.args, nil, &stdout, &stderr)
		msg := stderr.String()
		if code == 0 || !strings.Contains(strings.ToLower(msg), strings.ToLower(tc.want)) || strings.Count(msg, "\n") != 1 {
			t.Errorf("%v: exit %d, message %q; want a one-line error mentioning %q", tc.args, code, msg, tc.want)
		}
	}
}

func TestRenderCommandMap(t *testing.T) {
	dir := t.TempDir()
	out, mp := filepath.Join(dir, "b.png"), filepath.Join(dir, "b.json")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"render", "--variant", "moebius", "--moves", "e2-e4", "--width", "400", "--map", mp, "-o", out},
		nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	data, _ := os.ReadFile(out)
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	js, _ := os.ReadFile(mp)
	var m render.CellMap
	if err := json.Unmarshal(js, &m); err != nil {
		t.Fatalf("map is not JSON: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 400 || m.Width != 400 || m.Height != b.Dy() {
		t.Errorf("picture %v, map %d×%d; want both 400 wide and the same height", b, m.Width, m.Height)
	}
	if n := engine.MustVariant("moebius").Geo.N; len(m.Cells) != n {
		t.Errorf("map lists %d cells, want %d", len(m.Cells), n)
	}
}

func TestRenderHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"render", "--help"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{"-width", "-map", "-o", "Example:"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("render --help lacks %q:\n%s", want, stdout.String())
		}
	}
}
