package discord

import (
	"sync"
	"time"
)

// sentRef locates a sent message whose buttons may have to be cleared.
type sentRef struct {
	channelID, messageID string
	// appID, token and webhookMsg ("@original" or the follow-up's id)
	// edit it through its interaction while the token lives.
	appID, token, webhookMsg string
	private                  bool
	at                       time.Time
}

// sentIndex maps reply keys (bot.Reply.Key) to the messages that carry
// them. It lives in memory and forgets the oldest first: after a restart
// old buttons stay, and pressing one gets the bot's own "no longer open".
type sentIndex struct {
	mu    sync.Mutex
	max   int
	refs  map[string]sentRef
	order []string
}

func newSentIndex(max int) *sentIndex {
	return &sentIndex{max: max, refs: map[string]sentRef{}}
}

func (x *sentIndex) put(key string, ref sentRef) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if _, ok := x.refs[key]; !ok {
		x.order = append(x.order, key)
	}
	x.refs[key] = ref
	for len(x.order) > x.max {
		delete(x.refs, x.order[0])
		x.order = x.order[1:]
	}
}

// take removes and returns the message a key names.
func (x *sentIndex) take(key string) (sentRef, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	ref, ok := x.refs[key]
	if ok {
		delete(x.refs, key)
		for i, k := range x.order {
			if k == key {
				x.order = append(x.order[:i], x.order[i+1:]...)
				break
			}
		}
	}
	return ref, ok
}

// peek returns the message a key names, leaving it indexed.
func (x *sentIndex) peek(key string) (sentRef, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	ref, ok := x.refs[key]
	return ref, ok
}

// update changes the entry of key if it is still the message sent with
// token (not superseded or replaced meanwhile).
func (x *sentIndex) update(key, token string, f func(*sentRef)) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if ref, ok := x.refs[key]; ok && ref.token == token {
		f(&ref)
		x.refs[key] = ref
	}
}
