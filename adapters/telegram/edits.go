package telegram

import (
	"encoding/json"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"topochess/bot"
)

// Edits of earlier messages (bot.Reply.Edits): a text message gets new
// text, a photo or document a new caption. Which of the two a key names
// is kept beside it in the key store.

// captionKey marks in the key store that a reply key's message is a
// photo (its text is a caption).
func captionKey(key string) string { return "\x00caption " + key }

// queueEdits queues the edits of a reply. Like keyboard edits they come
// after the chat's queued messages, and a newer edit of the text of one
// message takes the place of an older one still queued. keep is the
// reply when it consists of nothing but edits: its last edit reports its
// delivery.
func (a *Adapter) queueEdits(chat int64, edits []bot.Edit, keep *queued) {
	for i, e := range edits {
		a.out.enqueue(chat, &job{method: "editMessageText", class: classEdit, text: true,
			msg: a.keys.get(chat, e.Key), reply: keep, last: keep != nil && i == len(edits)-1,
			do: func() error {
				// The key is looked up again: the message may have been
				// sent only after the edit was queued.
				id := a.keys.get(chat, e.Key)
				if id == 0 {
					return nil // unknown here, or forgotten
				}
				// An edit without a keyboard would take the buttons away.
				kb := a.shownKeyboard(chat, id)
				var req tgbotapi.Chattable
				if a.keys.get(chat, captionKey(e.Key)) == id {
					text, _ := cut(e.Text, maxCaption)
					c := tgbotapi.NewEditMessageCaption(chat, id, text)
					c.ReplyMarkup = kb
					req = c
				} else {
					text, _ := cut(e.Text, maxText)
					c := tgbotapi.NewEditMessageText(chat, id, text)
					c.ReplyMarkup = kb
					req = c
				}
				_, err := a.api.Request(req)
				if notModified(err) {
					return nil
				}
				return err
			}})
	}
}

// shownKeyboard is the keyboard a message shows now, as far as known
// (nil: none).
func (a *Adapter) shownKeyboard(chat int64, msg int) *tgbotapi.InlineKeyboardMarkup {
	now, ok := a.shown.get(chat, msg)
	if !ok || now == "" {
		return nil
	}
	var kb tgbotapi.InlineKeyboardMarkup
	if json.Unmarshal([]byte(now), &kb) != nil {
		return nil
	}
	return &kb
}
