package telegram

import (
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"topochess/bot"
)

// Edits of earlier messages (bot.Reply.Edits): a text message gets new
// text, a photo a new caption. Which of the two a key names is kept
// beside it in the key store.

// captionKey marks in the key store that a reply key's message is a
// photo (its text is a caption).
func captionKey(key string) string { return "\x00caption " + key }

// queueEdits queues the edits of a reply ahead of its other calls, so
// they still find messages the reply supersedes.
func (a *Adapter) queueEdits(chat int64, edits []bot.Edit) {
	for _, e := range edits {
		a.out.enqueue(chat, job{method: "editMessageText", do: func() error {
			id := a.keys.get(chat, e.Key)
			if id == 0 {
				return nil // unknown here, or sent before a restart
			}
			var req tgbotapi.Chattable
			if a.keys.get(chat, captionKey(e.Key)) == id {
				text, _ := cut(e.Text, maxCaption)
				req = tgbotapi.NewEditMessageCaption(chat, id, text)
			} else {
				text, _ := cut(e.Text, maxText)
				req = tgbotapi.NewEditMessageText(chat, id, text)
			}
			_, err := a.api.Request(req)
			if notModified(err) {
				return nil
			}
			return err
		}})
	}
}
