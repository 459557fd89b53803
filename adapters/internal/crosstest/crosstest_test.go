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

// TestReference checks that the script means something (every step is
// answered) and that the table says which commands answer with buttons:
// those and only those do in the script.
func TestReference(t *testing.T) {
	ref := Reference(t, "test", map[string]bot.User{
		"alice": {ID: "test:a", Name: "alice", Mention: "@alice"},
		"bob":   {ID: "test:b", Name: "bob", Mention: "@bob"},
	})
	script := Script()
	buttons := map[string]bool{}
	for i, seen := range ref {
		if Normalize(seen.Texts) == "" {
			t.Errorf("step %d (%s) has no answer", i, script[i])
		}
		if len(seen.Buttons) > 0 {
			buttons[script[i].Command] = true
		}
	}
	for _, c := range bot.Commands {
		if c.Buttons != buttons[c.Name] {
			t.Errorf("/%s: the table says buttons %v, the script's answers %v", c.Name, c.Buttons, buttons[c.Name])
		}
	}
}
