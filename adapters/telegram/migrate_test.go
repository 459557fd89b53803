package telegram

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestGroupUpgradedToSupergroupKeepsItsGames: a group playing a game is
// upgraded to a supergroup, which has a new chat id; the game goes on
// there, through the fake Bot API.
func TestGroupUpgradedToSupergroupKeepsItsGames(t *testing.T) {
	f := newFakeAPI(t)
	r := start(t, f, newService(t), nil)
	const old, super = int64(-4567), int64(-1004567000111)
	// sayIn writes in a chat; the old chat is a basic group.
	sayIn := func(who tgUser, chat int64, text string, extra map[string]any) {
		u := f.message(who, chat, text, 0)
		m := u["message"].(map[string]any)
		if chat == old {
			m["chat"] = map[string]any{"id": old, "type": "group", "title": "Chess club"}
		}
		for k, v := range extra {
			m[k] = v
		}
		f.push(u)
	}
	// answered waits for a message of the bot in a chat saying want.
	answered := func(chat int64, want string) {
		t.Helper()
		f.waitFor(want, func(reqs []apiRequest) bool {
			for _, q := range reqs {
				text := q.Params["text"] + q.Params["caption"]
				if q.Params["chat_id"] == strconv.FormatInt(chat, 10) && strings.Contains(text, want) {
					return true
				}
			}
			return false
		})
	}
	sayIn(bob, old, "/help", nil)
	answered(old, "Commands")
	sayIn(alice, old, "/challenge @bob color:white", nil)
	answered(old, "challenges")
	sayIn(bob, old, "/accept", nil)
	answered(old, "Game #1 begins")
	sayIn(alice, old, "/move e2e4", nil)
	answered(old, "1. e4")

	// Telegram's two notices of the upgrade: one in each chat.
	sayIn(alice, old, "", map[string]any{"migrate_to_chat_id": super})
	for end := time.Now().Add(10 * time.Second); !strings.Contains(r.logs.String(), "games follow"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the upgrade was not followed:\n%s", r.logs.String())
		}
	}
	sayIn(alice, super, "", map[string]any{"migrate_from_chat_id": old})

	sayIn(bob, super, "/move e7e5", nil)
	answered(super, "1... e5")
	sayIn(alice, super, "/games", nil)
	answered(super, "Your games here (1)")
	sayIn(alice, super, "/move Nf3", nil)
	answered(super, "2. Nf3")
	f.noRefusals()
	if strings.Contains(r.logs.String(), "not moved") {
		t.Errorf("logs:\n%s", r.logs.String())
	}
}
