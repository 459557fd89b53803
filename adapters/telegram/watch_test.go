package telegram

import (
	"strconv"
	"strings"
	"testing"
)

// TestWatchStaysInItsGroup: a Telegram group is its own only channel, so
// its games are followed from no other chat: not from another group, not
// from a private chat; nor is a private chat's game followed in a group.
func TestWatchStaysInItsGroup(t *testing.T) {
	f := newFakeAPI(t)
	start(t, f, newService(t), nil)
	g := game{t, f}
	const otherGroup int64 = -100456
	privateAlice, privateBob := alice.ID, bob.ID

	m := g.mark()
	f.say(alice, group, "/challenge@topochess_bot bot level:1")
	g.photo(m, "Game #1 begins")
	m = g.mark()
	f.say(alice, privateAlice, "/challenge bot level:1")
	g.photo(m, "Game #2 begins")

	for _, tc := range []struct {
		what string
		chat int64
		game string
	}{
		{"a group's game from another group", otherGroup, "#1"},
		{"a group's game from a private chat", privateBob, "#1"},
		{"a private chat's game from a group", group, "#2"},
		{"a private chat's game from another private chat", privateBob, "#2"},
	} {
		m := g.mark()
		f.say(bob, tc.chat, "/watch "+tc.game)
		got, _ := g.next("sendMessage", m)
		if got.Params["chat_id"] != strconv.FormatInt(tc.chat, 10) || !strings.Contains(got.Params["text"], "I follow games only within the same server or group") {
			t.Errorf("%s: %v", tc.what, got.Params)
		}
	}
}
