package console

import (
	"strings"
	"testing"
)

// A name that is not UTF-8 is refused by the bot, so no challenge is
// left that nobody could type back to accept or cancel; a line over
// MaxLine is skipped and the session goes on.
func TestBadLinesDoNotEndTheSession(t *testing.T) {
	long := "carol: /challenge " + strings.Repeat("x", MaxLine) + "\n"
	script := "al\xffce: /challenge @bob\n" +
		"bob: /accept\n" +
		long +
		"alice: /challenge @bob\n" +
		"bob: /accept\n" +
		strings.Repeat("y", 3*MaxLine) // no newline at the end either
	got := run(t, script)
	for _, want := range []string{
		"contains bytes that are not valid text (UTF-8)",
		"There is no challenge for you to accept here",
		"longer than 1048576 bytes; skipped",
		"Game #1 begins",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("transcript lacks %q:\n%.2000s", want, got)
		}
	}
	if n := strings.Count(got, "skipped"); n != 2 {
		t.Errorf("%d lines skipped, want 2", n)
	}
	if strings.Contains(got, "xxxxxxxx") {
		t.Error("the overlong line reached the bot")
	}
}
