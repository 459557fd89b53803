package bot

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCommandTable checks the table against the service: every command
// it lists is handled and every handled command is listed, every option
// it lists is one the bot reads, and everything fits the platforms'
// limits (Discord: names of 1-32 lower-case characters, descriptions of
// at most 100; Telegram: commands of at most 32 characters).
func TestCommandTable(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Commands {
		if seen[c.Name] {
			t.Errorf("/%s is listed twice", c.Name)
		}
		seen[c.Name] = true
		if _, ok := handlers[c.Name]; !ok {
			t.Errorf("/%s is in the table but the bot has no handler", c.Name)
		}
		if !validName(c.Name) || c.Description == "" || utf8.RuneCountInString(c.Description) > 100 {
			t.Errorf("/%s: bad name or description %q", c.Name, c.Description)
		}
		if !strings.HasPrefix(c.Usage, "/"+c.Name) || !strings.Contains(HelpText, "\n"+c.Usage) {
			t.Errorf("/%s: usage %q is not in /help", c.Name, c.Usage)
		}
		for _, o := range c.Options {
			if !validName(o.Name) || o.Description == "" || utf8.RuneCountInString(o.Description) > 100 || o.Example == "" {
				t.Errorf("/%s %s: bad name, description or example", c.Name, o.Name)
			}
			switch o.Type {
			case OptionUser:
			case OptionString, OptionBool:
				if namedArgs[o.Name] != o.Name {
					t.Errorf("/%s %s: typed %s:value is not read as the option", c.Name, o.Name, o.Name)
				}
			default:
				t.Errorf("/%s %s: unknown type %q", c.Name, o.Name, o.Type)
			}
			if len(o.Choices) > 0 && !slices.Contains(o.Choices, o.Example) {
				t.Errorf("/%s %s: example %q is not one of the choices", c.Name, o.Name, o.Example)
			}
		}
	}
	for name := range handlers {
		if !seen[name] {
			t.Errorf("/%s is handled but missing from the table", name)
		}
	}
}

func validName(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

func TestTyped(t *testing.T) {
	c, _ := CommandByName("challenge")
	got := c.Typed(map[string]string{"rated": "false", "opponent": "bob", "variant": "moebius"})
	if want := "/challenge @bob variant:moebius rated:false"; got != want {
		t.Errorf("Typed = %q, want %q", got, want)
	}
}
