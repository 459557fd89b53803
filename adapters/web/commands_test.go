package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"topochess/bot"
)

// TestCommandList serves the bot's command table to the page: every
// command with its description and options.
func TestCommandList(t *testing.T) {
	_, _, ts := newTestServer(t, Options{})
	resp, err := http.Get(ts.URL + "/api/commands")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got []webCommand
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil || resp.StatusCode != 200 {
		t.Fatalf("status %d: %v", resp.StatusCode, err)
	}
	if len(got) != len(bot.Commands) {
		t.Fatalf("%d commands, the table has %d", len(got), len(bot.Commands))
	}
	for i, c := range bot.Commands {
		if got[i].Name != c.Name || got[i].Description != c.Description || len(got[i].Options) != len(c.Options) {
			t.Errorf("command %d: %+v, table %+v", i, got[i], c)
		}
	}
}

// TestBrowserCommandSuggestions: the page's input suggests every command
// of the table as the user types.
func TestBrowserCommandSuggestions(t *testing.T) {
	browser, stop := newBrowser(t)
	defer stop()
	_, ts := newServiceServer(t, 240)
	p := newPage(t, browser, "alice")
	p.join(ts.URL)
	p.waitFor("the command suggestions", fmt.Sprintf(
		`document.querySelector('#line').getAttribute('list') === 'commands' && document.querySelectorAll('#commands option').length === %d`, len(bot.Commands)))
	if v := eval[string](p, `document.querySelector('#commands option[value="/challenge "]').label`); v != bot.Commands[0].Description {
		t.Errorf("the /challenge suggestion says %q", v)
	}
}
