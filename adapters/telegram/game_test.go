package telegram

import (
	"bytes"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"topochess/bot"
	"topochess/render"
	"topochess/storage"
)

// newService is the real bot on a database in the test's directory.
func newService(t *testing.T) *bot.Service {
	t.Helper()
	svc, _ := newServiceAt(t, filepath.Join(t.TempDir(), "bot.db"))
	return svc
}

// newServiceAt is the real bot on the database at path, and the store.
func newServiceAt(t *testing.T, path string) (*bot.Service, *storage.Store) {
	t.Helper()
	st, err := storage.Open(path, storage.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return serviceOn(st), st
}

// serviceOn is the bot the tests play with, on an open store.
func serviceOn(st *storage.Store) *bot.Service {
	return bot.New(st, bot.Config{
		Limits:  bot.Limits{CommandsPer10s: 1000},
		Painter: &render.Renderer{Long: 96},
		Coin:    func() bool { return true },
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
}

var pngMagic = []byte("\x89PNG\r\n\x1a\n")

// game is a test's view of the chat: it waits for the bot's answers.
type game struct {
	t *testing.T
	f *fakeAPI
}

// next waits for the next request of method after the mark and returns
// it with a new mark.
func (g game) next(method string, mark int) (apiRequest, int) {
	g.t.Helper()
	var got apiRequest
	idx := 0
	g.f.waitFor(method, func(reqs []apiRequest) bool {
		for i := mark; i < len(reqs); i++ {
			if reqs[i].Method == method {
				got, idx = reqs[i], i
				return true
			}
		}
		return false
	})
	return got, idx + 1
}

// nextEdit waits for the next keyboard edit of one message.
func (g game) nextEdit(msg, mark int) (apiRequest, int) {
	g.t.Helper()
	for {
		e, m := g.next("editMessageReplyMarkup", mark)
		if e.Params["message_id"] == itoa(msg) {
			return e, m
		}
		mark = m
	}
}

func (g game) mark() int { return len(g.f.requests()) }

// photo waits for the next board picture and checks it is a PNG.
func (g game) photo(mark int, captionHas ...string) (apiRequest, int) {
	g.t.Helper()
	p, m := g.next("sendPhoto", mark)
	if !bytes.HasPrefix(p.File, pngMagic) {
		g.t.Errorf("sendPhoto uploaded %d bytes that are not a PNG", len(p.File))
	}
	cap := p.Params["caption"]
	if n := len([]rune(cap)); n == 0 || n > maxCaption {
		g.t.Errorf("caption of %d characters: %q", n, cap)
	}
	for _, s := range captionHas {
		if !strings.Contains(cap, s) {
			g.t.Errorf("caption %q does not say %q", cap, s)
		}
	}
	return p, m
}

// buttonData finds a button by its label in a keyboard.
func buttonData(t *testing.T, markup, label string) string {
	t.Helper()
	for _, b := range buttonsOf(markup) {
		if b[0] == label {
			if len(b[1]) > maxCallbackData {
				t.Errorf("button %q: callback_data of %d bytes", label, len(b[1]))
			}
			return b[1]
		}
	}
	t.Fatalf("no button %q in %s", label, markup)
	return ""
}

// sentID is the message id the fake gave the bot's newest message.
func (g game) sentID() int { return g.f.lastSent() }

func TestGameTypedInGroup(t *testing.T) {
	f := newFakeAPI(t)
	start(t, f, newService(t), nil)
	g := game{t, f}

	f.say(bob, group, "hi all")
	m := g.mark()
	f.say(alice, group, "/challenge@topochess_bot @bob white")
	ch, m := g.next("sendMessage", m)
	if !strings.Contains(ch.Params["text"], "@bob") {
		t.Errorf("challenge text %q does not mention @bob", ch.Params["text"])
	}
	challengeMsg := g.sentID()
	accept := buttonData(t, ch.Params["reply_markup"], "Accept")

	// Only bob may accept; the bot says why to anyone else.
	f.press(carol, challengeMsg, accept)
	ans, m := g.next("answerCallbackQuery", m)
	if ans.Params["text"] != "Challenge c1 is for Bob, not for you." {
		t.Errorf("carol pressing Accept: %v", ans.Params)
	}
	f.press(alice, challengeMsg, accept)
	ans, m = g.next("answerCallbackQuery", m)
	if !strings.HasPrefix(ans.Params["text"], "You cannot accept your own challenge") {
		t.Errorf("alice pressing Accept: %v", ans.Params)
	}
	f.press(bob, challengeMsg, accept)
	// The challenge says who accepted it and names the game.
	text, _ := g.next("editMessageText", m)
	if text.Params["message_id"] != itoa(challengeMsg) || !strings.Contains(text.Params["text"], "Accepted by Bob: game #1.") {
		t.Errorf("the accepted challenge's text: %v", text.Params)
	}
	start, m := g.photo(m, "Game", "@alice, your move")
	edit, _ := g.next("editMessageReplyMarkup", m)
	if edit.Params["message_id"] != itoa(challengeMsg) || edit.Params["reply_markup"] != `{"inline_keyboard":[]}` {
		t.Errorf("the accepted challenge's buttons were not removed: %v", edit.Params)
	}
	buttonData(t, start.Params["reply_markup"], "♟ Move")
	board := g.sentID()

	// Fool's mate, typed: plain text by the player to move, one /move.
	steps := []struct {
		who     tgUser
		text    string
		caption string
	}{
		{alice, "f3", "1. f3"},
		{bob, "e5", "1... e5"},
		{alice, "/move@topochess_bot g4", "2. g4"},
		{bob, "Qh4#", "Checkmate"},
	}
	for i, s := range steps {
		// Chatter and moves out of turn get no answer at all.
		f.say(bob, group, "nice one")
		f.say(carol, group, "e4")
		if i == 1 {
			f.say(alice, group, "d4") // not alice's turn
		}
		m = g.mark()
		f.say(s.who, group, s.text)
		var p apiRequest
		p, m = g.photo(m, s.caption)
		if i < len(steps)-1 {
			buttonData(t, p.Params["reply_markup"], "♟ Move")
		} else if strings.Contains(p.Params["reply_markup"], "Move") {
			t.Errorf("the final board still has a Move button: %s", p.Params["reply_markup"])
		}
		// The previous picture loses its Move button.
		e, _ := g.nextEdit(board, m)
		if e.Params["reply_markup"] != `{"inline_keyboard":[]}` {
			t.Errorf("move %d: previous board edited to %s", i+1, e.Params["reply_markup"])
		}
		board = g.sentID()
	}
	time.Sleep(50 * time.Millisecond)
	if n := f.count("sendMessage"); n != 1 {
		t.Errorf("%d text messages; only the challenge should be one (chatter is ignored):\n%s", n, f.dump())
	}

	// A refused move shaped like one is explained to the player.
	f.say(bob, group, "hi")
	m = g.mark()
	f.say(alice, group, "/challenge @bob")
	ch, m = g.next("sendMessage", m)
	f.press(bob, g.sentID(), buttonData(t, ch.Params["reply_markup"], "Accept"))
	_, m = g.photo(m)
	f.say(alice, group, "e5")
	refusal, _ := g.next("sendMessage", m)
	if !strings.Contains(refusal.Params["text"], "e5") || refusal.Params["reply_to_message_id"] == "" {
		t.Errorf("refusal of e5 = %v", refusal.Params)
	}
	time.Sleep(50 * time.Millisecond)
	f.noRefusals()
}

func TestGameTapToMove(t *testing.T) {
	f := newFakeAPI(t)
	start(t, f, newService(t), nil)
	g := game{t, f}

	hers := f.say(bob, group, "who wants to play?")
	m := g.mark()
	f.sayReplying(alice, group, "/challenge white", hers)
	ch, m := g.next("sendMessage", m)
	f.press(bob, g.sentID(), buttonData(t, ch.Params["reply_markup"], "Accept"))
	p, _ := g.photo(m, "@alice, your move")
	board := g.sentID()

	// tap plays one move through the keyboards under the newest board.
	tap := func(who tgUser, piece, dest string) {
		t.Helper()
		mark := g.mark()
		f.press(who, board, buttonData(t, p.Params["reply_markup"], "♟ Move"))
		e, mark := g.nextEdit(board, mark)
		f.press(who, board, buttonData(t, e.Params["reply_markup"], piece))
		e, mark = g.nextEdit(board, mark)
		buttonData(t, e.Params["reply_markup"], "◀ Back")
		f.press(who, board, buttonData(t, e.Params["reply_markup"], dest))
		p, _ = g.photo(mark)
		board = g.sentID()
	}
	tap(alice, "f2", "f3")
	if !strings.Contains(p.Params["caption"], "1. f3") {
		t.Errorf("caption %q", p.Params["caption"])
	}

	// Alice may not move for bob: her press gets an alert, nothing moves.
	m = g.mark()
	f.press(alice, board, buttonData(t, p.Params["reply_markup"], "♟ Move"))
	ans, _ := g.next("answerCallbackQuery", m)
	if !strings.Contains(ans.Params["text"], "not your turn") || ans.Params["show_alert"] != "true" {
		t.Errorf("alice tapping on bob's turn: %v", ans.Params)
	}

	// Bob opens the keyboard; only he can close it again.
	m = g.mark()
	f.press(bob, board, buttonData(t, p.Params["reply_markup"], "♟ Move"))
	e, m := g.nextEdit(board, m)
	closeData := buttonData(t, e.Params["reply_markup"], "✖ Close")
	for _, who := range []tgUser{carol, alice} {
		f.press(who, board, closeData)
		ans, m = g.next("answerCallbackQuery", m)
		if ans.Params["show_alert"] != "true" || !strings.Contains(ans.Params["text"], "Only the player to move") {
			t.Errorf("%s pressing Close: %v", who.First, ans.Params)
		}
	}
	f.press(bob, board, closeData)
	e, _ = g.nextEdit(board, m)
	if btns := buttonsOf(e.Params["reply_markup"]); len(btns) != 1 || btns[0][0] != "♟ Move" {
		t.Errorf("closed keyboard: %s", e.Params["reply_markup"])
	}
	if n := len(editsOf(f, board)); n != 2 {
		t.Errorf("%d edits of the board; others' Close presses must change nothing", n)
	}

	tap(bob, "e7", "e5")
	tap(alice, "g2", "g4")
	// The keyboards of an older board are out of date.
	old := board
	tap(bob, "Qd8", "Qh4#")
	if !strings.Contains(p.Params["caption"], "Checkmate") {
		t.Errorf("final caption %q", p.Params["caption"])
	}
	m = g.mark()
	f.press(alice, old, "t|g1|5|f3")
	ans, _ = g.next("answerCallbackQuery", m)
	if ans.Params["show_alert"] != "true" || !strings.Contains(ans.Params["text"], "over") {
		t.Errorf("tapping after the end: %v\n%s", ans.Params, f.dump())
	}

	// Every callback query was answered, once.
	asked, answered := 0, map[string]int{}
	for _, r := range f.requests() {
		if r.Method == "answerCallbackQuery" {
			answered[r.Params["callback_query_id"]]++
		}
	}
	f.mu.Lock()
	for _, u := range f.updates {
		if _, ok := u["callback_query"]; ok {
			asked++
		}
	}
	f.mu.Unlock()
	if len(answered) != asked {
		t.Errorf("%d callback queries, %d answered", asked, len(answered))
	}
	for id, n := range answered {
		if n != 1 {
			t.Errorf("callback %s answered %d times", id, n)
		}
	}

	// No edit sets the keyboard a message already has ("message is not
	// modified" spends the chat's budget on nothing).
	time.Sleep(100 * time.Millisecond)
	shows := map[string]string{}
	for _, r := range f.requests() {
		if r.Method != "editMessageReplyMarkup" {
			continue
		}
		id, kb := r.Params["message_id"], r.Params["reply_markup"]
		if old, ok := shows[id]; ok && old == kb {
			t.Errorf("message %s edited twice to %s", id, kb)
		}
		shows[id] = kb
	}
	f.noRefusals()
}

// editsOf lists the keyboard edits of one message.
func editsOf(f *fakeAPI, msg int) []apiRequest {
	var out []apiRequest
	for _, r := range f.requests() {
		if r.Method == "editMessageReplyMarkup" && r.Params["message_id"] == itoa(msg) {
			out = append(out, r)
		}
	}
	return out
}
