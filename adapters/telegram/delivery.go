package telegram

import (
	"sync"

	"topochess/bot"
)

// Outbox is the bot's durable store of replies not yet delivered
// (bot/outbox.go); *bot.Service has it. Without one, replies live only in
// the queue and a stop loses what is still queued.
type Outbox interface {
	// Undelivered returns the platform's replies left from an earlier
	// run, in order per channel.
	Undelivered(platform string) []bot.Reply
	// Delivered is told when a reply that came with an outbox id went
	// out, or was refused for good (refused non-nil).
	Delivered(r bot.Reply, refused error)
	// Keep stores the replies still queued at a stop, in order per
	// channel, so the next start sends them.
	Keep(platform string, queued []bot.Reply)
}

// shownStore remembers the keyboard each recent message shows, so an edit
// to the same keyboard is not sent at all ("message is not modified"
// costs a call of the chat's budget). It is bounded; the oldest go first.
type shownStore struct {
	mu    sync.Mutex
	kb    map[shownKey]string
	order []shownKey
	max   int
}

type shownKey struct {
	chat int64
	msg  int
}

func newShownStore(max int) *shownStore { return &shownStore{kb: map[shownKey]string{}, max: max} }

func (s *shownStore) get(chat int64, msg int) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	kb, ok := s.kb[shownKey{chat, msg}]
	return kb, ok
}

func (s *shownStore) set(chat int64, msg int, kb string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := shownKey{chat, msg}
	if _, had := s.kb[k]; !had {
		s.order = append(s.order, k)
		if len(s.order) > s.max {
			delete(s.kb, s.order[0])
			s.order = s.order[1:]
		}
	}
	s.kb[k] = kb
}

// forget drops what a message shows, as a restart does.
func (s *shownStore) forget(chat int64, msg int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.kb, shownKey{chat, msg})
}
