package bot

import (
	"strings"
	"testing"
)

// Bytes that are not UTF-8 never reach storage: whatever part of the
// command carries them, it is refused and nothing changes.
func TestInvalidUTF8IsRefused(t *testing.T) {
	h := newHarness(t, Limits{})
	bad := "al\xffce"
	cases := map[string]func(*Command){
		"user name": func(c *Command) { c.User.Name = bad },
		"user id":   func(c *Command) { c.User.ID = "test:" + bad },
		"mention":   func(c *Command) { c.Mentions = []User{testUser(bad)} },
		"text":      func(c *Command) { c.Text = "@bob variant:" + bad },
		"arg":       func(c *Command) { c.Args = map[string]string{"variant": bad} },
	}
	for what, spoil := range cases {
		cmd := h.command("carol", "/challenge @bob")
		spoil(&cmd)
		rs := h.svc.Handle(cmd)
		if len(rs) != 1 || !rs[0].Error || !strings.Contains(rs[0].Text, "not valid text (UTF-8)") || !strings.Contains(rs[0].Text, "Nothing was changed") {
			t.Errorf("%s: %s", what, dump(rs))
		}
	}
	if cs, err := h.store.ChannelChallenges("test:chan", h.clock()); err != nil || len(cs) != 0 {
		t.Fatalf("challenges stored: %d (%v)", len(cs), err)
	}
	// The same command with valid text goes through.
	h.ok("carol", "/challenge @bob")
	cmd := h.command("bob", "/accept")
	cmd.User.Name = bad
	if rs := h.svc.Handle(cmd); len(rs) != 1 || !rs[0].Error {
		t.Fatalf("accept with a bad name: %s", dump(rs))
	}
	h.ok("bob", "/accept")
}
