package telegram

import (
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// ChannelMover follows a chat whose id changed; *bot.Service has it
// (bot/channels.go).
type ChannelMover interface {
	MoveChannel(from, to string) error
}

// migrated handles the notice Telegram posts when a group becomes a
// supergroup, which gets a new chat id: migrate_to_chat_id in the old
// group, migrate_from_chat_id in the new supergroup. Either moves the
// group's games and challenges to the new id (the second finds nothing
// left to move). It reports whether the message was such a notice.
func (a *Adapter) migrated(m *tgbotapi.Message) bool {
	if m.Chat == nil {
		return false
	}
	from, to := int64(0), int64(0)
	switch {
	case m.MigrateToChatID != 0:
		from, to = m.Chat.ID, m.MigrateToChatID
	case m.MigrateFromChatID != 0:
		from, to = m.MigrateFromChatID, m.Chat.ID
	default:
		return false
	}
	if mv, ok := a.h.(ChannelMover); ok && from != to {
		if err := mv.MoveChannel(chatChannel(from), chatChannel(to)); err != nil {
			a.log.Error("telegram: the games of an upgraded group were not moved", "from", from, "to", to, "err", err)
		} else {
			a.log.Info("telegram: group upgraded to a supergroup; its games follow", "from", from, "to", to)
		}
	}
	return true
}
