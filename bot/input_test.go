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

// The other entry points adapters use refuse the same bytes.
func TestInvalidUTF8OtherEntryPoints(t *testing.T) {
	h := newHarness(t, Limits{})
	id := h.startGame("standard")
	cmd := h.command("alice", "e4")
	cmd.User.Name = "al\xffce"
	if _, ok := h.svc.PlainMove(cmd); ok {
		t.Error("PlainMove took a command with a bad name")
	}
	if ch := h.svc.Suggest(cmd, "move", "e"); len(ch) != 0 {
		t.Errorf("Suggest answered a bad name: %v", ch)
	}
	if _, r := h.svc.Tap(cmd, id, -1, nil); r == nil || !strings.Contains(r.Text, "UTF-8") {
		t.Errorf("Tap with a bad name: %+v", r)
	}
	good := h.command("alice", "e4")
	if _, r := h.svc.Tap(good, id, -1, []string{"e\xff2"}); r == nil || !strings.Contains(r.Text, "UTF-8") {
		t.Errorf("Tap with a bad step: %+v", r)
	}
	if _, ok := h.svc.PlainMove(good); !ok {
		t.Error("PlainMove refused a good move")
	}
}
