package web

import (
	"sync"
)

// event is one thing a browser shows: a bot reply, a typed line, a chat
// message, or a note that some buttons are stale.
type event struct {
	Seq  uint64 `json:"seq"`
	Kind string `json:"kind"` // "reply", "said", "chat", "stale", "edit"
	// to is the only user who may see the event ("" = the whole room).
	to       string
	From     string      `json:"from,omitempty"` // display name of who typed
	Text     string      `json:"text,omitempty"`
	Image    *imageRef   `json:"image,omitempty"`
	Buttons  []buttonRef `json:"buttons,omitempty"`
	Private  bool        `json:"private,omitempty"`
	Error    bool        `json:"error,omitempty"`
	Key      string      `json:"key,omitempty"`
	Stale    []string    `json:"stale,omitempty"`
	Mentions []string    `json:"mentions,omitempty"`
	Time     int64       `json:"time"` // Unix milliseconds
}

type imageRef struct {
	URL string `json:"url"`
	ID  string `json:"id"`
	W   int    `json:"w"`
	H   int    `json:"h"`
	Alt string `json:"alt"`
	// Board: clicks on it select cells.
	Board bool `json:"board"`
}

type buttonRef struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Style string `json:"style,omitempty"`
	// For is the user ID the button belongs to ("" = anyone).
	For string `json:"for,omitempty"`
}

// visibleTo reports whether a user may see the event.
func (e *event) visibleTo(user string) bool { return e.to == "" || e.to == user }

const (
	historyLen = 300 // events kept per room for late joiners and reconnects
	backlogLen = 60  // events a fresh page shows
	subBuffer  = 64  // events queued per connection before it is dropped
	maxRooms   = 2000
	maxSubs    = 500
)

// hub fans events out to the browsers in each room and keeps a short
// history so a reconnecting page (EventSource's Last-Event-ID) misses
// nothing.
type hub struct {
	mu    sync.Mutex
	seq   uint64
	rooms map[string]*room
	subs  int
}

type room struct {
	history []*event
	subs    map[*sub]struct{}
	last    uint64 // seq of the newest event, for evicting idle rooms
}

// sub is one open event stream. ch is closed when the hub drops it (the
// page was too slow, or the server stops); the page reconnects.
type sub struct {
	user string
	ch   chan *event
}

func newHub() *hub { return &hub{rooms: map[string]*room{}} }

// roomLocked returns the room, creating it (and evicting an idle one when
// there are too many) as needed; nil when every room is busy.
func (h *hub) roomLocked(name string) *room {
	if r, ok := h.rooms[name]; ok {
		return r
	}
	if len(h.rooms) >= maxRooms {
		var oldest string
		var at uint64
		for n, r := range h.rooms {
			if len(r.subs) == 0 && (oldest == "" || r.last < at) {
				oldest, at = n, r.last
			}
		}
		if oldest == "" {
			return nil
		}
		delete(h.rooms, oldest)
	}
	r := &room{subs: map[*sub]struct{}{}}
	h.rooms[name] = r
	return r
}

// publish stamps events with sequence numbers, keeps them and sends them
// to the room's connections that may see them.
func (h *hub) publish(roomName string, evs ...*event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.roomLocked(roomName)
	if r == nil {
		return
	}
	for _, e := range evs {
		h.seq++
		e.Seq = h.seq
		r.last = e.Seq
		r.history = append(r.history, e)
		if len(r.history) > historyLen {
			r.history = append(r.history[:0], r.history[len(r.history)-historyLen:]...)
		}
		for s := range r.subs {
			if !e.visibleTo(s.user) {
				continue
			}
			select {
			case s.ch <- e:
			default:
				h.dropLocked(r, s)
			}
		}
	}
}

func (h *hub) dropLocked(r *room, s *sub) {
	if _, ok := r.subs[s]; ok {
		delete(r.subs, s)
		close(s.ch)
		h.subs--
	}
}

// subscribe opens a stream for a user in a room and returns the events it
// should show first: those after since, or with since 0 the recent ones.
// ok is false when the server has too many streams open.
func (h *hub) subscribe(roomName, user string, since uint64) (s *sub, backlog []*event, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs >= maxSubs {
		return nil, nil, false
	}
	r := h.roomLocked(roomName)
	if r == nil {
		return nil, nil, false
	}
	for _, e := range r.history {
		if e.Seq > since && e.visibleTo(user) {
			backlog = append(backlog, e)
		}
	}
	if since == 0 && len(backlog) > backlogLen {
		backlog = backlog[len(backlog)-backlogLen:]
	}
	s = &sub{user: user, ch: make(chan *event, subBuffer)}
	r.subs[s] = struct{}{}
	h.subs++
	return s, backlog, true
}

func (h *hub) unsubscribe(roomName string, s *sub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r, ok := h.rooms[roomName]; ok {
		h.dropLocked(r, s)
	}
}

// closeAll ends every stream, so a server shutdown is not held up by them.
func (h *hub) closeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range h.rooms {
		for s := range r.subs {
			h.dropLocked(r, s)
		}
	}
}
