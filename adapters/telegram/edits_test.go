package telegram

import (
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"topochess/bot"
)

// A newer edit of a message's text replaces the older one still queued,
// and leaves a queued edit of its keyboard alone (and the other way
// round).
func TestTextEditsCoalesce(t *testing.T) {
	s := newSender(fastLimits, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer s.stop(0)
	text1 := &job{method: "editMessageText", class: classEdit, msg: 5, text: true}
	kb := &job{method: "editMessageReplyMarkup", class: classEdit, msg: 5}
	text2 := &job{method: "editMessageText", class: classEdit, msg: 5, text: true}
	other := &job{method: "editMessageText", class: classEdit, msg: 6, text: true}
	for _, j := range []*job{text1, kb, text2, other} {
		s.enqueue(group, j)
	}
	s.mu.Lock()
	got := slices.Clone(s.chats[group].jobs)
	s.mu.Unlock()
	if want := []*job{text2, kb, other}; !slices.Equal(got, want) {
		t.Errorf("queued %d jobs, want the newer text edit in the older one's place, the keyboard edit, the other message's edit", len(got))
	}
}

// boxHandler is a bot with an outbox that records what was delivered.
type boxHandler struct {
	scriptHandler
	mu        sync.Mutex
	delivered []string
}

func (h *boxHandler) Undelivered(string) []bot.Reply { return nil }
func (h *boxHandler) Keep(string, []bot.Reply)       {}
func (h *boxHandler) Delivered(r bot.Reply, refused error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.delivered = append(h.delivered, r.Outbox)
}

func (h *boxHandler) isDelivered(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Contains(h.delivered, id)
}

// A reply that only edits an earlier message changes its text, keeps its
// buttons, and counts as delivered for the outbox.
func TestEditOnlyReplyThroughTheQueue(t *testing.T) {
	f := newFakeAPI(t)
	h := &boxHandler{scriptHandler: scriptHandler{reply: func(c bot.Command) []bot.Reply {
		return []bot.Reply{{Text: "Challenge c1 is open.", Key: "challenge:c1", Buttons: []bot.Button{{Label: "Accept", Command: "accept"}}}}
	}}}
	r := start(t, f, h, nil)
	f.say(alice, group, "/challenge")
	f.waitSent("sendMessage", 0, 1)
	msg := f.lastSent()
	n := len(f.requests())
	r.a.Send(bot.Reply{Channel: chatChannel(group), Outbox: "box1", Edits: []bot.Edit{{Key: "challenge:c1", Text: "Challenge c1 was accepted."}}})
	edit := f.waitSent("editMessageText", n, 1)[0]
	if edit.Params["message_id"] != itoa(msg) || edit.Params["text"] != "Challenge c1 was accepted." || !strings.Contains(edit.Params["reply_markup"], "Accept") {
		t.Errorf("edit: %v", edit.Params)
	}
	for end := time.Now().Add(5 * time.Second); !h.isDelivered("box1"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the edit-only reply was never reported delivered")
		}
	}
	if c := f.count("sendMessage"); c != 1 {
		t.Errorf("an edit-only reply sent a message: %d sendMessage calls", c)
	}
}
