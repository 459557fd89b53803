package crosstest

import (
	"strings"
	"testing"

	"topochess/bot"
)

func TestScriptCoversTable(t *testing.T) {
	if m := Covered(); len(m) > 0 {
		t.Errorf("the script never uses: %s", strings.Join(m, ", "))
	}
}

// TestReference checks that the script means something: every step is
// answered, and the answers that carry the story say what they should.
func TestReference(t *testing.T) {
	ref := Reference(t, "test", map[string]bot.User{
		"alice": {ID: "test:a", Name: "alice", Mention: "@alice"},
		"bob":   {ID: "test:b", Name: "bob", Mention: "@bob"},
	})
	script := Script()
	for i, texts := range ref {
		if texts == "" {
			t.Errorf("step %d (%s) has no answer", i, script[i])
		}
		t.Logf("%s\n\t%q", script[i], texts)
	}
}
