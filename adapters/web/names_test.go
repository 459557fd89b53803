package web

import (
	"strings"
	"testing"
)

// The probe that forged moves and a resignation: a second browser joined
// as "BOB" and as "Alice". A taken name now needs the secret its first
// browser got; look-alikes and the bot's names are refused.
func TestTakenNamesNeedTheirSecret(t *testing.T) {
	fb, _, ts := newTestServer(t, Options{})
	bob := join(t, ts.URL, "bob", "lobby")
	alice := join(t, ts.URL, "alice", "lobby")
	if len(bob.secret) < 32 || len(alice.secret) < 32 || bob.secret == alice.secret {
		t.Fatalf("the first joins got secrets %q and %q", bob.secret, alice.secret)
	}
	refused := []struct{ name, secret, want string }{
		{"BOB", "", "taken"},
		{"Alice", "", "taken"},
		{"alice", bob.secret, "not the secret"}, // another name's secret
		{"ＢＯＢ", "", "taken"},                    // fullwidth letters are bob after NFKC
		{"b\u043eb", "", "alphabets"},           // Cyrillic о among Latin letters
		{"\u0430lice", "", "alphabets"},         // Cyrillic а
		{"\u0432\u043e\u0432", "", "looks"},     // вов: all Cyrillic, reads as "bob" in capitals
		{"b0b", "", "looks"},
		{"bób", "", "looks"},
		{"ALlCE", "", "looks"}, // l for i
		{"bot", "", "bot's"},
		{"Topochess", "", "bot's"},
		{"computer", "", "bot's"},
		{"t\u043epochess", "", "alphabets"},
	}
	for _, tc := range refused {
		code, out := postJSON(t, ts.URL+"/api/join", "", map[string]string{"name": tc.name, "room": "lobby", "secret": tc.secret})
		msg, _ := out["error"].(string)
		if code == 200 || !strings.Contains(msg, tc.want) {
			t.Errorf("join as %q: %d %v, want a refusal saying %q", tc.name, code, out, tc.want)
		}
	}
	// Nothing was sent to the bot in a refused name.
	if n := fb.count(); n != 0 {
		t.Errorf("the bot got %d commands", n)
	}
	// The owner joins from another tab, in any case, with the secret.
	bob2 := joinWith(t, ts.URL, "BOB", "lobby", bob.secret)
	if bob2.user != bob.user || bob2.secret != "" {
		t.Errorf("bob's second tab: user %q (want %q), new secret %q", bob2.user, bob.user, bob2.secret)
	}
	bob2.say("/move e2e4")
	if c := fb.last(t); c.User.ID != "web:bob" {
		t.Errorf("the move was made by %q", c.User.ID)
	}
	// Names in other scripts are fine on their own.
	for _, name := range []string{"Дмитрий", "Ελένη", "Zoë", "山田"} {
		if c := join(t, ts.URL, name, "lobby"); c.secret == "" {
			t.Errorf("%s got no secret", name)
		}
	}
}

func TestSkeleton(t *testing.T) {
	same := [][2]string{
		{"bob", "b\u043eb"}, {"bob", "b0b"}, {"alice", "allce"}, {"alice", "\u0430lice"},
		{"bob", "\u0432\u043e\u0432"}, {"paypal", "\u0440\u0430\u0443\u0440\u0430l"}, {"modern", "rnodern"},
		{"bob", "bób"}, {"kat", "\u03ba\u03b1\u03c4"}, {"www", "vvvvvv"},
	}
	for _, p := range same {
		if a, b := skeleton(canonical(p[0])), skeleton(canonical(p[1])); a != b {
			t.Errorf("%q → %q and %q → %q should look alike", p[0], a, p[1], b)
		}
	}
	differ := [][2]string{{"bob", "rob"}, {"alice", "alicia"}, {"ivan", "иван"}}
	for _, p := range differ {
		if a, b := skeleton(canonical(p[0])), skeleton(canonical(p[1])); a == b {
			t.Errorf("%q and %q both → %q", p[0], p[1], a)
		}
	}
}
