package discord

import (
	"strings"
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
// them. It keeps recent ones in memory, the oldest forgotten first; with
// a MessageMemory the public messages are also stored with the games, so
// that after a restart a later reply still takes their buttons away
// (through the channel, the interaction token being gone by then).
type sentIndex struct {
	mu    sync.Mutex
	max   int
	refs  map[string]sentRef
	order []string
	mem   MessageMemory
}

func newSentIndex(max int) *sentIndex {
	return &sentIndex{max: max, refs: map[string]sentRef{}}
}

func (x *sentIndex) put(key string, ref sentRef) {
	x.mu.Lock()
	if _, ok := x.refs[key]; !ok {
		x.order = append(x.order, key)
	}
	x.refs[key] = ref
	for len(x.order) > x.max {
		delete(x.refs, x.order[0])
		x.order = x.order[1:]
	}
	x.mu.Unlock()
	x.store(key, ref)
}

// store writes a message's key through to the MessageMemory: a public
// message by its channel and id, and for any other the older entry goes.
func (x *sentIndex) store(key string, ref sentRef) {
	switch {
	case x.mem == nil:
	case !ref.private && ref.channelID != "" && ref.messageID != "":
		x.mem.SwapMessage(platform, key, ref.channelID+"/"+ref.messageID)
	default:
		x.mem.TakeMessage(platform, key)
	}
}

// take removes and returns the message a key names.
func (x *sentIndex) take(key string) (sentRef, bool) {
	x.mu.Lock()
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
	x.mu.Unlock()
	if x.mem != nil {
		stored := x.mem.TakeMessage(platform, key)
		if ch, msg, found := strings.Cut(stored, "/"); !ok && found {
			return sentRef{channelID: ch, messageID: msg}, true
		}
	}
	return ref, ok
}

// peek returns the message a key names, leaving it indexed; one sent
// before a restart too, when the memory can look it up.
func (x *sentIndex) peek(key string) (sentRef, bool) {
	x.mu.Lock()
	ref, ok := x.refs[key]
	x.mu.Unlock()
	if ok {
		return ref, true
	}
	if l, can := x.mem.(interface {
		Message(channel, key string) string
	}); can {
		if ch, msg, found := strings.Cut(l.Message(platform, key), "/"); found {
			return sentRef{channelID: ch, messageID: msg}, true
		}
	}
	return sentRef{}, false
}

// update changes the entry of key if it is still the message sent with
// token (not superseded or replaced meanwhile).
func (x *sentIndex) update(key, token string, f func(*sentRef)) {
	x.mu.Lock()
	ref, ok := x.refs[key]
	if ok && ref.token == token {
		f(&ref)
		x.refs[key] = ref
	}
	x.mu.Unlock()
	if ok && ref.token == token {
		x.store(key, ref)
	}
}
