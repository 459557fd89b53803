package discord

import (
	"strings"
	"testing"
)

// slashIn sends a slash command from another place than the test
// channel: a channel of a guild, or a direct message (guild "").
func (e *env) slashIn(guild, channel string, who member, name string, opts ...opt) string {
	in := e.interaction(2, who, slashData(name, opts...))
	in["channel_id"] = channel
	if guild == "" {
		// A direct message carries the user instead of a member.
		delete(in, "guild_id")
		delete(in, "member")
		in["user"] = userJSON(who)
	} else {
		in["guild_id"] = guild
	}
	e.f.dispatch("INTERACTION_CREATE", in)
	return in["id"].(string)
}

// TestWatchStaysInItsServer: a game is followed into another channel of
// its own guild, never into another guild or a direct message, and a game
// played in a direct message is followed nowhere.
func TestWatchStaysInItsServer(t *testing.T) {
	t.Parallel()
	e := start(t, newService(t), nil)
	challenge := func(guild, channel string) string {
		t.Helper()
		ch, _ := e.answer(e.slashIn(guild, channel, alice, "challenge", str("opponent", "bot"), str("level", "1")))
		if !strings.HasPrefix(jstr(ch, "content"), "Game ") {
			t.Fatalf("game against the computer: %s", pretty(ch))
		}
		return strings.Fields(jstr(ch, "content"))[1]
	}
	watch := func(guild, channel, game string) (string, bool) {
		t.Helper()
		msg, _ := e.answer(e.slashIn(guild, channel, bob, "watch", str("game", game)))
		return jstr(msg, "content"), jnum(msg, "flags") == 64
	}
	inGuild := challenge(testGuild, testChannel)
	inDM := challenge("", "950")

	for _, tc := range []struct {
		what, guild, channel, game, want string
	}{
		{"from another guild", "801", "901", inGuild, "I follow games only within the same server or group"},
		{"into a direct message", "", "951", inGuild, "I follow games only within the same server or group"},
		{"a game of a direct message into a guild", testGuild, "902", inDM, "I follow games only within the same server or group"},
		{"a game of a direct message into another one", "", "951", inDM, "I follow games only within the same server or group"},
		{"into another channel of its guild", testGuild, "903", inGuild, "This channel now follows " + inGuild},
	} {
		got, private := watch(tc.guild, tc.channel, tc.game)
		if !strings.Contains(got, tc.want) || private != strings.HasPrefix(tc.want, "I follow") {
			t.Errorf("%s: %q (private %v); want %q", tc.what, got, private, tc.want)
		}
	}
}
