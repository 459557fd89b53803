package main

import (
	"bytes"
	"image/png"
	"path/filepath"
	"strings"
	"testing"
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
