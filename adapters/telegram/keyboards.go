package telegram

import (
	"encoding/json"
	"sync"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// keyboards remembers the inline keyboard each recent bot message shows,
// so that an edit that would change nothing is not sent: Telegram refuses
// it ("message is not modified") and it spends the chat's flood budget.
// It is bounded and in memory; after a restart an edit is sent blind and
// a "not modified" answer counts as success.
type keyboards struct {
	mu    sync.Mutex
	shown map[msgRef]string
	order []msgRef
	max   int
}

type msgRef struct {
	chat int64
	msg  int
}

func newKeyboards(max int) *keyboards {
	return &keyboards{shown: map[msgRef]string{}, max: max}
}

// keyboardOf is a keyboard as Telegram compares it: "" for none, which
// an empty keyboard also is.
func keyboardOf(kb *tgbotapi.InlineKeyboardMarkup) string {
	if kb == nil || len(kb.InlineKeyboard) == 0 {
		return ""
	}
	b, _ := json.Marshal(kb)
	return string(b)
}

// showing reports the keyboard a message is known to show.
func (k *keyboards) showing(chat int64, msg int) (string, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	kb, ok := k.shown[msgRef{chat, msg}]
	return kb, ok
}

func (k *keyboards) set(chat int64, msg int, kb string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	r := msgRef{chat, msg}
	if _, ok := k.shown[r]; !ok {
		k.order = append(k.order, r)
		if len(k.order) > k.max {
			delete(k.shown, k.order[0])
			k.order = k.order[1:]
		}
	}
	k.shown[r] = kb
}
