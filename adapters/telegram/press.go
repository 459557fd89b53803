package telegram

import (
	"fmt"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"topochess/bot"
)

// maxAlert is the longest text answerCallbackQuery shows (Telegram: 200).
const maxAlert = 200

// press is one callback query being handled; it is answered exactly once.
type press struct {
	a        *Adapter
	q        *tgbotapi.CallbackQuery
	answered bool
}

func (p *press) answer(text string, alert bool) {
	if p.answered {
		return
	}
	p.answered = true
	cfg := tgbotapi.NewCallback(p.q.ID, truncate(text, maxAlert))
	cfg.ShowAlert = alert && text != ""
	// Answers are not messages and must come quickly (the client shows a
	// spinner until then), so they skip the queue.
	if _, err := p.a.api.Request(cfg); err != nil {
		p.a.log.Warn("telegram: answerCallbackQuery failed", "err", err)
	}
}

func (a *Adapter) onCallback(update int, q *tgbotapi.CallbackQuery) {
	p := &press{a: a, q: q}
	defer p.answer("", false)
	if q.From == nil || q.Message == nil || q.Message.Chat == nil {
		p.answer("This button no longer works here.", true)
		return
	}
	a.users.remember(q.From)
	o := origin{chat: q.Message.Chat.ID, message: q.Message.MessageID, group: !q.Message.Chat.IsPrivate(), press: p}
	cmd := bot.Command{
		EventID:  fmt.Sprintf("%s:%d", platform, update),
		Platform: platform,
		Channel:  chatChannel(q.Message.Chat.ID),
		Server:   chatChannel(q.Message.Chat.ID),
		User:     person(q.From),
	}
	if t, ok := parseTap(q.Data); ok {
		a.onTap(p, o, cmd, t)
		return
	}
	b, ok := a.buttons.decode(q.Data)
	if !ok {
		p.answer("This button has expired; type the command instead (/help lists them).", true)
		return
	}
	if b.For != "" && b.For != cmd.User.ID {
		p.answer("This button is not for you.", false)
		return
	}
	cmd.Name, cmd.Args = b.Command, b.Args
	a.deliver(o, a.h.Handle(cmd))
}

// onTap is one step of tap-to-move: the keyboard under the board picture
// is replaced by the next step's, and the last step plays the move.
func (a *Adapter) onTap(p *press, o origin, cmd bot.Command, t tapRequest) {
	if a.mover == nil {
		p.answer("Tap-to-move is not available; type the move, e.g. /move e2e4.", true)
		return
	}
	msg := p.q.Message.MessageID
	if t.close {
		// The keyboard was opened by the player to move, and only that
		// player may close it: asking the bot for the first step is the
		// check (others are refused there).
		if _, refused := a.mover.Tap(cmd, t.game, -1, nil); refused != nil {
			p.answer("Only the player to move can close these buttons.", true)
			return
		}
		a.editKeyboard(o.chat, msg, moveKeyboard(t.game), classEdit)
		return
	}
	menu, refused := a.mover.Tap(cmd, t.game, t.ply, t.path)
	if refused != nil {
		p.answer(refused.Text, true)
		return
	}
	if menu.Move != "" {
		// The tap is answered before the move is played and drawn, so the
		// player's spinner stops at once; a refusal then comes as a message.
		p.answer("", false)
		cmd.Name, cmd.Args = "move", map[string]string{"game": menu.Game, "move": menu.Move}
		replies := a.h.Handle(cmd)
		if !(len(replies) == 1 && replies[0].Error) {
			// Played: the keyboard goes (the new picture brings its own);
			// a refusal leaves it for another try.
			a.editKeyboard(o.chat, msg, emptyKeyboard(), classTidy)
		}
		a.deliver(o, replies)
		return
	}
	p.answer(menu.Prompt, false)
	a.editKeyboard(o.chat, msg, tapKeyboard(menu, t.path), classEdit)
}

func emptyKeyboard() tgbotapi.InlineKeyboardMarkup {
	return tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{}}
}

func moveKeyboard(game string) tgbotapi.InlineKeyboardMarkup {
	d, _ := tapData(game, -1)
	return tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(tgbotapi.NewInlineKeyboardButtonData("♟ Move", d)))
}

// maxTapButtons stays under Telegram's 100 buttons per keyboard with room
// for the Back/Close row.
const maxTapButtons = 96

func tapKeyboard(menu bot.TapMenu, path []string) tgbotapi.InlineKeyboardMarkup {
	var btns []tgbotapi.InlineKeyboardButton
	for _, c := range menu.Choices {
		d, ok := tapData(menu.Game, menu.Ply, append(path[:len(path):len(path)], c.Step)...)
		if !ok {
			continue
		}
		btns = append(btns, tgbotapi.NewInlineKeyboardButtonData(truncate(c.Label, 60), d))
		if len(btns) == maxTapButtons {
			break
		}
	}
	rows := layout(btns)
	var nav []tgbotapi.InlineKeyboardButton
	if len(path) > 0 {
		if d, ok := tapData(menu.Game, menu.Ply, path[:len(path)-1]...); ok {
			nav = append(nav, tgbotapi.NewInlineKeyboardButtonData("◀ Back", d))
		}
	}
	if d, ok := tapData(menu.Game, -1, "x"); ok {
		nav = append(nav, tgbotapi.NewInlineKeyboardButtonData("✖ Close", d))
	}
	rows = append(rows, nav)
	return tgbotapi.InlineKeyboardMarkup{InlineKeyboard: rows}
}

// layout puts buttons in rows: short labels (cells) five to a row, longer
// ones fewer, never more than Telegram's eight.
func layout(btns []tgbotapi.InlineKeyboardButton) [][]tgbotapi.InlineKeyboardButton {
	rows := [][]tgbotapi.InlineKeyboardButton{}
	var row []tgbotapi.InlineKeyboardButton
	width := 0
	for _, b := range btns {
		w := max(len([]rune(b.Text)), 4)
		if len(row) > 0 && (width+w > 28 || len(row) == 5) {
			rows = append(rows, row)
			row, width = nil, 0
		}
		row = append(row, b)
		width += w
	}
	if len(row) > 0 {
		rows = append(rows, row)
	}
	return rows
}

func truncate(s string, n int) string {
	r := []rune(strings.TrimSpace(s))
	if len(r) <= n {
		return string(r)
	}
	return string(r[:n-1]) + "…"
}
