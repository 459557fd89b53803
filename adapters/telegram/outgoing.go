package telegram

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"topochess/bot"
)

// Telegram's sizes.
const (
	maxText     = 4096     // characters of a message
	maxCaption  = 1024     // characters of a photo caption
	maxPhoto    = 10 << 20 // bytes of an uploaded photo
	maxDocument = 50 << 20 // bytes of an uploaded document
)

// origin is where the replies to one update go by default.
type origin struct {
	chat    int64
	message int  // the user's message (or the pressed message)
	group   bool // a group or supergroup, not a private chat
	press   *press
}

// deliver turns replies into queued API calls.
func (a *Adapter) deliver(o origin, replies []bot.Reply) {
	for _, r := range replies {
		chat := o.chat
		if r.Channel != "" {
			id, ok := chatOf(r.Channel)
			if !ok {
				a.log.Warn("telegram: reply for another platform dropped", "channel", r.Channel)
				continue
			}
			chat = id
		}
		// A refusal after a button press shows as an alert on the presser's
		// screen rather than a message everyone in the group sees.
		if r.Private && o.press != nil && !o.press.answered && chat == o.chat &&
			r.Image == nil && len(r.Buttons) == 0 && r.Text != "" && utf16Len(r.Text) <= maxAlert {
			o.press.answer(r.Text, true)
			a.supersede(chat, r.Supersedes)
			continue
		}
		a.send(chat, o, r)
	}
}

// send queues one reply: a photo with a caption (and the rest of a long
// text after it), or text messages; the buttons go on the photo or the
// last text message.
func (a *Adapter) send(chat int64, o origin, r bot.Reply) {
	if r.EditOnly() {
		var keep *queued
		if r.Outbox != "" {
			keep = &queued{r: r}
			keep.r.Channel = chatChannel(chat)
		}
		a.queueEdits(chat, r.Edits, keep)
		a.supersede(chat, r.Supersedes)
		return
	}
	a.queueEdits(chat, r.Edits, nil)
	replyTo := 0
	if r.Private && o.group && chat == o.chat && o.press == nil {
		replyTo = o.message // so the group sees whom it is for
	}
	markup := a.keyboard(r)
	game := ""
	if r.Image != nil && !r.Error && !r.Private && !isAnimation(r.Image) {
		game = r.Image.Game
	}
	text := strings.TrimSpace(r.Text)
	photo := false
	sent := func(id int) {
		if r.Key != "" {
			a.keys.put(chat, r.Key, id)
			if photo {
				a.keys.put(chat, captionKey(r.Key), id)
			}
		}
		kb := "" // no buttons
		if markup != nil {
			kb = markupJSON(*markup)
		}
		a.shown.set(chat, id, kb)
		if game != "" {
			// Only the newest picture of a game keeps a Move button.
			if old := a.keys.swap(chat, "board:"+game, id); old != 0 && old != id {
				a.editKeyboard(chat, old, emptyKeyboard(), classTidy)
			}
		}
	}
	// Every reply is kept with its calls, so that a stop can hand the
	// ones not yet delivered to the outbox.
	keep := &queued{r: r}
	keep.r.Channel = chatChannel(chat)
	if r.Image == nil && r.File != nil && len(r.File.Data) > 0 && len(r.File.Data) <= maxDocument {
		// A document (a game's PGN), with the text as its caption when it
		// fits, else its first line, and the rest after it.
		caption, rest := text, ""
		if plain, _ := codeBlocks(text); utf16Len(plain) > maxCaption {
			caption, rest, _ = strings.Cut(text, "\n")
		}
		doc := tgbotapi.NewDocument(chat, tgbotapi.FileBytes{Name: r.File.Name, Bytes: r.File.Data})
		// The library drops a document's caption entities, so its code
		// block is written in HTML.
		doc.Caption, doc.ParseMode = htmlCode(caption), tgbotapi.ModeHTML
		doc.ReplyToMessageID, doc.AllowSendingWithoutReply = replyTo, true
		if markup != nil {
			doc.ReplyMarkup = *markup
		}
		photo = true
		a.sendMedia(chat, doc, "sendDocument", rest, r.Mentions, keep, sent)
	} else if r.Image != nil && len(r.Image.PNG) > 0 && len(r.Image.PNG) <= maxPhoto {
		photo = true
		caption, rest := cut(text, maxCaption)
		img := r.Image
		name := img.Name
		if name == "" {
			name = "board.png"
		}
		file := tgbotapi.FileBytes{Name: name, Bytes: img.PNG}
		var cfg tgbotapi.Chattable
		method := "sendPhoto"
		if isAnimation(img) {
			// A game replay: sent as an animation so it plays in the chat.
			an := tgbotapi.NewAnimation(chat, file)
			an.Caption, an.CaptionEntities = a.entities(caption, r.Mentions)
			an.ReplyToMessageID, an.AllowSendingWithoutReply = replyTo, true
			if markup != nil {
				an.ReplyMarkup = *markup
			}
			cfg, method = an, "sendAnimation"
		} else {
			ph := tgbotapi.NewPhoto(chat, file)
			ph.Caption, ph.CaptionEntities = a.entities(caption, r.Mentions)
			ph.ReplyToMessageID, ph.AllowSendingWithoutReply = replyTo, true
			if markup != nil {
				ph.ReplyMarkup = *markup
			}
			cfg = ph
		}
		a.sendMedia(chat, cfg, method, rest, r.Mentions, keep, sent)
	} else {
		if r.Image != nil && text == "" {
			text = r.Image.Alt
		}
		parts := split(text, maxText)
		for i, part := range parts {
			if i < len(parts)-1 {
				a.sendText(chat, part, r.Mentions, replyTo, nil, nil, keep, false)
				continue
			}
			a.sendText(chat, part, r.Mentions, replyTo, markup, sent, keep, true)
		}
	}
	a.supersede(chat, r.Supersedes)
}

// sendMedia queues an upload and the text that did not fit its caption.
func (a *Adapter) sendMedia(chat int64, cfg tgbotapi.Chattable, method, rest string, mentions []string, keep *queued, sent func(int)) {
	parts := split(rest, maxText)
	a.out.enqueue(chat, &job{method: method, reply: keep, last: len(parts) == 0, do: func() error {
		m, err := a.api.Send(cfg)
		if err == nil {
			sent(m.MessageID)
		}
		return err
	}})
	for i, part := range parts {
		a.sendText(chat, part, mentions, 0, nil, nil, keep, i == len(parts)-1)
	}
}

func (a *Adapter) sendText(chat int64, text string, mentions []string, replyTo int, markup *tgbotapi.InlineKeyboardMarkup, sent func(int), keep *queued, last bool) {
	cfg := tgbotapi.NewMessage(chat, "")
	cfg.Text, cfg.Entities = a.entities(text, mentions)
	cfg.DisableWebPagePreview = true
	cfg.ReplyToMessageID, cfg.AllowSendingWithoutReply = replyTo, true
	if markup != nil {
		cfg.ReplyMarkup = *markup
	}
	a.out.enqueue(chat, &job{method: "sendMessage", reply: keep, last: last, do: func() error {
		m, err := a.api.Send(cfg)
		if err == nil && sent != nil {
			sent(m.MessageID)
		}
		return err
	}})
}

// supersede removes the buttons of earlier messages whose choices are
// stale (an accepted challenge, an answered draw offer).
func (a *Adapter) supersede(chat int64, keys []string) {
	for _, k := range keys {
		a.out.enqueue(chat, &job{method: "editMessageReplyMarkup", class: classTidy, do: func() error {
			id := a.keys.take(chat, k)
			if id == 0 {
				return nil // unknown here, or sent before a restart
			}
			return a.edit(chat, id, emptyKeyboard())
		}})
	}
}

// editKeyboard queues a change of a message's buttons.
func (a *Adapter) editKeyboard(chat int64, msg int, kb tgbotapi.InlineKeyboardMarkup, c class) {
	a.out.enqueue(chat, &job{method: "editMessageReplyMarkup", class: c, msg: msg, do: func() error { return a.edit(chat, msg, kb) }})
}

// edit changes a message's keyboard, unless it already shows that one:
// an edit that changes nothing would spend the chat's budget on an error.
func (a *Adapter) edit(chat int64, msg int, kb tgbotapi.InlineKeyboardMarkup) error {
	want := markupJSON(kb)
	if now, ok := a.shown.get(chat, msg); ok && now == want {
		return nil
	}
	_, err := a.api.Request(tgbotapi.NewEditMessageReplyMarkup(chat, msg, kb))
	if err == nil || notModified(err) {
		a.shown.set(chat, msg, want)
		return nil
	}
	return err
}

func markupJSON(kb tgbotapi.InlineKeyboardMarkup) string {
	if len(kb.InlineKeyboard) == 0 {
		return "" // no buttons, however written
	}
	b, _ := json.Marshal(kb)
	return string(b)
}

// isAnimation tells a game replay (a GIF): it plays in the chat and is no
// position to move in, so it gets no Move button.
func isAnimation(img *bot.Image) bool {
	return strings.HasSuffix(strings.ToLower(img.Name), ".gif") || img.ContentType() == "image/gif"
}

// keyboard builds the inline keyboard of a reply: its buttons, and a Move
// button under the picture of a running game.
func (a *Adapter) keyboard(r bot.Reply) *tgbotapi.InlineKeyboardMarkup {
	var btns []tgbotapi.InlineKeyboardButton
	for _, b := range r.Buttons {
		btns = append(btns, tgbotapi.NewInlineKeyboardButtonData(truncate(b.Label, 60), a.buttons.encode(b)))
		if len(btns) == maxTapButtons {
			break
		}
	}
	rows := layout(btns)
	if a.mover != nil && r.Image != nil && r.Image.Game != "" && !r.Error && !r.Private && !isAnimation(r.Image) && a.mover.GameActive(r.Image.Game) {
		if _, ok := tapData(r.Image.Game, -1); ok {
			rows = append(rows, moveKeyboard(r.Image.Game).InlineKeyboard...)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	return &tgbotapi.InlineKeyboardMarkup{InlineKeyboard: rows}
}

// entities are a text as Telegram shows it and its entities: code blocks
// and mentions.
func (a *Adapter) entities(text string, mentions []string) (string, []tgbotapi.MessageEntity) {
	plain, ents := codeBlocks(text)
	ents = append(ents, a.mentionEntities(plain, mentions)...)
	sort.SliceStable(ents, func(i, j int) bool { return ents[i].Offset < ents[j].Offset })
	return plain, ents
}

// codeBlocks turns Markdown code fences (```…```), which Telegram would
// show literally in a plain-text message, into pre entities.
func codeBlocks(text string) (string, []tgbotapi.MessageEntity) {
	var b strings.Builder
	var ents []tgbotapi.MessageEntity
	for {
		i := strings.Index(text, "```")
		if i < 0 {
			break
		}
		j := strings.Index(text[i+3:], "```")
		if j < 0 {
			break
		}
		b.WriteString(text[:i])
		code := strings.TrimPrefix(text[i+3:i+3+j], "\n")
		if code != "" {
			ents = append(ents, tgbotapi.MessageEntity{Type: "pre", Offset: utf16Len(b.String()), Length: utf16Len(code)})
		}
		b.WriteString(code)
		text = text[i+3+j+3:]
	}
	b.WriteString(text)
	return b.String(), ents
}

// htmlCode writes a text for Telegram's HTML parse mode, its code blocks
// as <pre>.
func htmlCode(text string) string {
	plain, ents := codeBlocks(text)
	esc := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	u := utf16.Encode([]rune(plain))
	var b strings.Builder
	at := 0
	for _, e := range ents {
		b.WriteString(esc.Replace(string(utf16.Decode(u[at:e.Offset]))))
		b.WriteString("<pre>" + esc.Replace(string(utf16.Decode(u[e.Offset:e.Offset+e.Length]))) + "</pre>")
		at = e.Offset + e.Length
	}
	b.WriteString(esc.Replace(string(utf16.Decode(u[at:]))))
	return b.String()
}

// mentionEntities turn the names of mentioned users without a @username
// into text mentions, which notify them like a @mention does.
func (a *Adapter) mentionEntities(text string, ids []string) []tgbotapi.MessageEntity {
	var out []tgbotapi.MessageEntity
	for _, id := range ids {
		chatID, ok := chatOf(id)
		if !ok {
			continue
		}
		u, ok := a.users.get(chatID)
		if !ok || u.UserName != "" {
			continue
		}
		name := person(&u).Name
		i := strings.Index(text, name)
		if i < 0 {
			continue
		}
		out = append(out, tgbotapi.MessageEntity{
			Type: "text_mention", Offset: utf16Len(text[:i]), Length: utf16Len(name),
			User: &tgbotapi.User{ID: u.ID, FirstName: u.FirstName, LastName: u.LastName},
		})
	}
	return out
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// cut splits s after at most limit UTF-16 units, at a line break or a
// space when there is one in the second half.
func cut(s string, limit int) (head, tail string) {
	n, end := 0, len(s)
	for i, r := range s {
		if n+utf16.RuneLen(r) > limit {
			end = i
			break
		}
		n += utf16.RuneLen(r)
	}
	if end == len(s) {
		return s, ""
	}
	head = s[:end]
	if i := strings.LastIndexAny(head, "\n "); i > end/2 {
		head = s[:i]
	}
	return strings.TrimSpace(head), strings.TrimSpace(s[len(head):])
}

func split(s string, limit int) []string {
	var out []string
	for s != "" {
		var head string
		head, s = cut(s, limit)
		if head != "" {
			out = append(out, head)
		}
	}
	return out
}

// keyStore maps (chat, reply key) to the message that carries it, for
// superseding its buttons later. It is bounded; the oldest keys go first.
type keyStore struct {
	mu    sync.Mutex
	ids   map[chatKey]int
	order []chatKey
	max   int
	// mem keeps the keys across restarts (nil: memory only).
	mem MessageMemory
}

type chatKey struct {
	chat int64
	key  string
}

func newKeyStore(max int) *keyStore { return &keyStore{ids: map[chatKey]int{}, max: max} }

func (s *keyStore) put(chat int64, key string, id int) { s.swap(chat, key, id) }

// swap sets a key and returns the message it named before (0: none).
func (s *keyStore) swap(chat int64, key string, id int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := chatKey{chat, key}
	old, had := s.ids[k]
	s.ids[k] = id
	if !had {
		s.order = append(s.order, k)
		if len(s.order) > s.max {
			delete(s.ids, s.order[0])
			s.order = s.order[1:]
		}
	}
	if s.mem != nil {
		prev := s.mem.SwapMessage(chatChannel(chat), key, strconv.Itoa(id))
		if !had {
			old, _ = strconv.Atoi(prev)
		}
	}
	return old
}

// get returns a key's message (0: none), also one sent before a restart
// when the memory can look it up.
func (s *keyStore) get(chat int64, key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id, ok := s.ids[chatKey{chat, key}]; ok {
		return id
	}
	if l, ok := s.mem.(interface {
		Message(channel, key string) string
	}); ok {
		id, _ := strconv.Atoi(l.Message(chatChannel(chat), key))
		return id
	}
	return 0
}

// take returns and forgets a key's message.
func (s *keyStore) take(chat int64, key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := chatKey{chat, key}
	id, had := s.ids[k]
	delete(s.ids, k)
	if s.mem != nil {
		m := s.mem.TakeMessage(chatChannel(chat), key)
		if !had {
			id, _ = strconv.Atoi(m)
		}
	}
	return id
}

// Send delivers a reply the bot produced on its own (clock reminders, loss
// on time) to the chat its Channel names, through the same queues.
func (a *Adapter) Send(r bot.Reply) {
	if _, ok := chatOf(r.Channel); !ok {
		a.log.Warn("telegram: unaddressed reply dropped", "channel", r.Channel)
		return
	}
	a.deliver(origin{}, []bot.Reply{r})
}
