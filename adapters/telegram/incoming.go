package telegram

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"topochess/bot"
)

func userID(u *tgbotapi.User) string { return platform + ":" + strconv.FormatInt(u.ID, 10) }

func chatChannel(id int64) string { return platform + ":" + strconv.FormatInt(id, 10) }

// chatOf reads a reply's channel back into a chat id.
func chatOf(channel string) (int64, bool) {
	s, ok := strings.CutPrefix(channel, platform+":")
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseInt(s, 10, 64)
	return id, err == nil
}

// person is a Telegram user as the bot sees them. Users without a
// @username are named by their first name; Reply.Mentions then become
// text_mention entities so they are notified all the same.
func person(u *tgbotapi.User) bot.User {
	name := strings.TrimSpace(u.FirstName + " " + u.LastName)
	if name == "" {
		name = u.UserName
	}
	if name == "" {
		name = "user " + strconv.FormatInt(u.ID, 10)
	}
	mention := name
	if u.UserName != "" {
		mention = "@" + u.UserName
	}
	return bot.User{ID: userID(u), Name: name, Mention: mention}
}

// userCache maps @usernames to users the bot has seen, because the Bot
// API cannot look a username up: "/challenge @bob" works once bob has
// written anything the bot received.
type userCache struct {
	mu     sync.Mutex
	byName map[string]tgbotapi.User
	byID   map[int64]tgbotapi.User
	order  []int64
	max    int
}

func newUserCache(max int) *userCache {
	return &userCache{byName: map[string]tgbotapi.User{}, byID: map[int64]tgbotapi.User{}, max: max}
}

func (c *userCache) remember(u *tgbotapi.User) {
	if u == nil || u.IsBot {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.byID[u.ID]; ok {
		if old.UserName != "" {
			delete(c.byName, strings.ToLower(old.UserName))
		}
	} else {
		c.order = append(c.order, u.ID)
	}
	c.byID[u.ID] = *u
	if u.UserName != "" {
		c.byName[strings.ToLower(u.UserName)] = *u
	}
	if len(c.order) > c.max {
		old := c.byID[c.order[0]]
		delete(c.byID, old.ID)
		if old.UserName != "" && c.byName[strings.ToLower(old.UserName)].ID == old.ID {
			delete(c.byName, strings.ToLower(old.UserName))
		}
		c.order = c.order[1:]
	}
}

func (c *userCache) byUsername(name string) (tgbotapi.User, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	u, ok := c.byName[strings.ToLower(strings.TrimPrefix(name, "@"))]
	return u, ok
}

func (c *userCache) get(id int64) (tgbotapi.User, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	u, ok := c.byID[id]
	return u, ok
}

// parseCommand reads "/name@bot rest". ok is false for text that is not a
// command (including "/ something" and paths like "/usr/bin").
func parseCommand(text string) (name, at, rest string, ok bool) {
	if !strings.HasPrefix(text, "/") {
		return "", "", "", false
	}
	word, rest, _ := strings.Cut(text[1:], " ")
	if i := strings.IndexFunc(word, unicode.IsSpace); i >= 0 { // "/move\ne2e4"
		word, rest = word[:i], word[i+1:]+" "+rest
	}
	name, at, _ = strings.Cut(word, "@")
	if name == "" || len(name) > 32 {
		return "", "", "", false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return "", "", "", false
		}
	}
	return strings.ToLower(name), at, strings.TrimSpace(rest), true
}

// known are the command names answered in groups even when not addressed
// to the bot by @name (other bots' commands are left alone).
var known = func() map[string]bool {
	m := map[string]bool{"start": true}
	for _, c := range commands {
		m[c.Command] = true
	}
	return m
}()

// utf16Slice cuts text by the UTF-16 offsets Telegram's entities use.
func utf16Slice(text string, off, n int) string {
	u := utf16.Encode([]rune(text))
	if off < 0 || n < 0 || off > len(u) || n > len(u)-off {
		return ""
	}
	return string(utf16.Decode(u[off : off+n]))
}

// mentions are the users a message points at: the author of the message
// it replies to, then @mentions and text mentions in order. unknown lists
// @usernames the bot has never seen.
func (a *Adapter) mentions(m *tgbotapi.Message) (users []bot.User, unknown []string) {
	seen := map[int64]bool{a.api.Self.ID: true}
	add := func(u *tgbotapi.User) {
		if u == nil || u.IsBot || seen[u.ID] {
			return
		}
		seen[u.ID] = true
		users = append(users, person(u))
	}
	if r := m.ReplyToMessage; r != nil {
		add(r.From)
	}
	for _, e := range m.Entities {
		switch e.Type {
		case "text_mention":
			a.users.remember(e.User)
			add(e.User)
		case "mention":
			name := strings.TrimPrefix(utf16Slice(m.Text, e.Offset, e.Length), "@")
			if strings.EqualFold(name, a.api.Self.UserName) {
				continue
			}
			if u, ok := a.users.byUsername(name); ok {
				add(&u)
			} else {
				unknown = append(unknown, "@"+name)
			}
		}
	}
	return users, unknown
}

func (a *Adapter) onMessage(update int, m *tgbotapi.Message) {
	if a.migrated(m) {
		return
	}
	if m.From == nil || m.From.IsBot || m.Chat == nil || m.Chat.IsChannel() {
		return
	}
	a.users.remember(m.From)
	if m.ReplyToMessage != nil {
		a.users.remember(m.ReplyToMessage.From)
	}
	o := origin{chat: m.Chat.ID, message: m.MessageID, group: !m.Chat.IsPrivate()}
	cmd := bot.Command{
		EventID:  fmt.Sprintf("%s:%d", platform, update),
		Platform: platform,
		Channel:  chatChannel(m.Chat.ID),
		Server:   chatChannel(m.Chat.ID), // a group is its own only channel
		User:     person(m.From),
	}
	name, at, rest, isCmd := parseCommand(m.Text)
	if !isCmd {
		if a.mover == nil || strings.TrimSpace(m.Text) == "" {
			return
		}
		cmd.Text = strings.TrimSpace(m.Text)
		if mv, ok := a.mover.PlainMove(cmd); ok {
			a.deliver(o, a.h.Handle(mv))
		}
		return
	}
	if at != "" && !strings.EqualFold(at, a.api.Self.UserName) {
		return // another bot's command
	}
	if o.group && at == "" && !known[name] {
		return
	}
	cmd.Name, cmd.Text = name, rest
	var unknown []string
	cmd.Mentions, unknown = a.mentions(m)
	if name == "challenge" && len(unknown) > 0 && len(cmd.Mentions) == 0 {
		a.deliver(o, []bot.Reply{{
			Channel: cmd.Channel, Private: true, Error: true,
			Text: fmt.Sprintf("I don't know %s yet: Telegram only lets me see people who have written where I am. "+
				"Reply to one of their messages with /challenge, or ask them to send /help here first.", unknown[0]),
		}})
		return
	}
	a.deliver(o, a.h.Handle(cmd))
}
