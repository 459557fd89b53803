package web

import (
	"sync"
	"time"
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
	// History is bounded in bytes too, per room and over all rooms: a
	// count alone let 2,000-character lines fill gigabytes.
	historyRoomBytes  = 256 << 10
	historyTotalBytes = 16 << 20
	// roomIdle: a room nobody listens to and nobody spoke in for this
	// long is forgotten (its games live on in storage).
	roomIdle = 30 * time.Minute
)

// streamLimits cap open event streams: in all, per session (a tab needs
// one, two while it reconnects), per user (a few tabs) and per client
// address (people behind one router), so one browser cannot take every
// stream.
type streamLimits struct {
	total, perSession, perUser, perAddr int
}

var defaultStreamLimits = streamLimits{total: 500, perSession: 3, perUser: 12, perAddr: 60}

// hub fans events out to the browsers in each room and keeps a short
// history so a reconnecting page (EventSource's Last-Event-ID) misses
// nothing.
type hub struct {
	mu     sync.Mutex
	seq    uint64
	rooms  map[string]*room
	subs   int
	bytes  int // history bytes over all rooms
	limits streamLimits
	// open counts streams per session token, user ID and address.
	bySession, byUser, byAddr map[string]int
	now                       func() time.Time
	swept                     time.Time
}

type room struct {
	history []*event
	bytes   int
	subs    map[*sub]struct{}
	last    uint64    // seq of the newest event, for evicting idle rooms
	active  time.Time // when it last had an event or a listener
}

// sub is one open event stream. ch is closed when the hub drops it (the
// page was too slow, or the server stops); the page reconnects.
type sub struct {
	user, session, addr string
	ch                  chan *event
	// since is the last event the page had when it connected: a process
	// still catching up on the shared log publishes events the page
	// already has, and those must not reach it twice.
	since uint64
}

func newHub(limits streamLimits, now func() time.Time) *hub {
	return &hub{rooms: map[string]*room{}, limits: limits, bySession: map[string]int{}, byUser: map[string]int{}, byAddr: map[string]int{}, now: now}
}

// size estimates the memory an event holds, for the history budget.
func (e *event) size() int {
	n := 160 + len(e.From) + len(e.Text) + len(e.Key) + len(e.to)
	if e.Image != nil {
		n += 96 + len(e.Image.URL) + len(e.Image.ID) + len(e.Image.Alt)
	}
	for _, b := range e.Buttons {
		n += 64 + len(b.ID) + len(b.Label) + len(b.Style) + len(b.For)
	}
	for _, x := range e.Stale {
		n += 16 + len(x)
	}
	for _, x := range e.Mentions {
		n += 16 + len(x)
	}
	return n
}

// roomLocked returns the room, creating it (and evicting an idle one when
// there are too many) as needed; nil when every room is busy.
func (h *hub) roomLocked(name string) *room {
	now := h.now()
	if now.Sub(h.swept) > time.Minute {
		h.swept = now
		for n, r := range h.rooms {
			if len(r.subs) == 0 && now.Sub(r.active) > roomIdle {
				h.forgetLocked(n, r)
			}
		}
	}
	if r, ok := h.rooms[name]; ok {
		r.active = now
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
		h.forgetLocked(oldest, h.rooms[oldest])
	}
	r := &room{subs: map[*sub]struct{}{}, active: now}
	h.rooms[name] = r
	return r
}

func (h *hub) forgetLocked(name string, r *room) {
	h.bytes -= r.bytes
	delete(h.rooms, name)
}

// trimLocked drops a room's oldest events until it is within its own
// bounds, then, while all rooms together hold too much, the oldest
// events of the room that was quiet the longest.
func (h *hub) trimLocked(r *room) {
	for len(r.history) > 0 && (len(r.history) > historyLen || r.bytes > historyRoomBytes) {
		h.dropOldestLocked(r)
	}
	for h.bytes > historyTotalBytes {
		var quiet *room
		for _, o := range h.rooms {
			if len(o.history) > 0 && (quiet == nil || o.last < quiet.last) {
				quiet = o
			}
		}
		if quiet == nil {
			return
		}
		for len(quiet.history) > 0 && h.bytes > historyTotalBytes-historyTotalBytes/8 {
			h.dropOldestLocked(quiet)
		}
	}
}

func (h *hub) dropOldestLocked(r *room) {
	n := r.history[0].size()
	r.history[0] = nil
	r.history = r.history[1:]
	r.bytes -= n
	h.bytes -= n
	if len(r.history) == 0 {
		r.history = nil // let the backing array go
	}
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
		// Events from a shared log come numbered by it.
		if e.Seq == 0 {
			h.seq++
			e.Seq = h.seq
		} else {
			h.seq = max(h.seq, e.Seq)
		}
		r.last = e.Seq
		r.history = append(r.history, e)
		n := e.size()
		r.bytes += n
		h.bytes += n
		h.trimLocked(r)
		for s := range r.subs {
			if !e.visibleTo(s.user) || e.Seq <= s.since {
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
		h.countLocked(h.bySession, s.session, -1)
		h.countLocked(h.byUser, s.user, -1)
		h.countLocked(h.byAddr, s.addr, -1)
	}
}

func (h *hub) countLocked(m map[string]int, k string, d int) {
	if m[k]+d <= 0 {
		delete(m, k)
	} else {
		m[k] += d
	}
}

// streamRefusal says why a stream was refused.
type streamRefusal string

const (
	streamsFull       streamRefusal = "The chat is full right now; try again later."
	streamsPerSession streamRefusal = "This tab has too many live connections; close the others and reload."
	streamsPerUser    streamRefusal = "You have too many tabs open in this chat; close some and reload."
	streamsPerAddr    streamRefusal = "Too many live connections from your address; close some tabs and reload."
)

// subscribe opens a stream for a user in a room and returns the events it
// should show first: those after since, or with since 0 the recent ones.
// refusal is set when too many streams are open (in all, for this
// session or for this user).
func (h *hub) subscribe(roomName, session, user, addr string, since uint64) (s *sub, backlog []*event, refusal streamRefusal) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.subs >= h.limits.total:
		return nil, nil, streamsFull
	case h.bySession[session] >= h.limits.perSession:
		return nil, nil, streamsPerSession
	case h.byUser[user] >= h.limits.perUser:
		return nil, nil, streamsPerUser
	case h.byAddr[addr] >= h.limits.perAddr:
		return nil, nil, streamsPerAddr
	}
	r := h.roomLocked(roomName)
	if r == nil {
		return nil, nil, streamsFull
	}
	for _, e := range r.history {
		if e.Seq > since && e.visibleTo(user) {
			backlog = append(backlog, e)
		}
	}
	if since == 0 && len(backlog) > backlogLen {
		backlog = backlog[len(backlog)-backlogLen:]
	}
	s = &sub{user: user, session: session, addr: addr, ch: make(chan *event, subBuffer), since: since}
	r.subs[s] = struct{}{}
	h.subs++
	h.bySession[session]++
	h.byUser[user]++
	h.byAddr[addr]++
	return s, backlog, ""
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
