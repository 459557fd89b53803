package web

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"maps"
	"sync"
	"time"

	"topochess/bot"
)

// Shared is a log kept in a database that several processes serve one
// chat from (storage.Postgres keeps it). With it, a process does not show
// what its own browsers do directly: it appends it to the log, and every
// process, this one included, reads the log in order and shows each
// record to its browsers under the record's id. So every browser sees
// the same events under the same ids whichever process it is connected
// to, and a page that reconnects elsewhere resumes where it was. Tab
// sessions and password logins travel through the log too, so any
// process accepts them; pictures are kept beside it.
type Shared interface {
	// AppendWebLog adds records in order and wakes the listeners.
	AppendWebLog(records [][]byte, expires time.Time) error
	// ReadWebLog calls fn with the unexpired records after id after, in
	// id order (at most limit), and returns how many it read.
	ReadWebLog(after int64, limit int, now time.Time, fn func(id int64, data []byte)) (int, error)
	// ListenWebLog calls wake whenever records were appended, and after
	// each (re)connection; it returns when ctx ends.
	ListenWebLog(ctx context.Context, wake func()) error
	PutWebImage(id string, meta, data []byte, now, expires time.Time) error
	WebImage(id string, now time.Time) (meta, data []byte, found bool, err error)
	// PruneWebLog forgets expired records and pictures, and the oldest
	// pictures over imageBytes.
	PruneWebLog(now time.Time, imageBytes int64) error
}

const (
	// logEventTTL: events older than this are not replayed to a process
	// that starts; rooms keep at most historyLen anyway.
	logEventTTL = time.Hour
	// Pictures stay servable for a day (the page caches them as long),
	// within a byte budget over all processes.
	sharedImageTTL   = 24 * time.Hour
	sharedImageBytes = 256 << 20
	logPage          = 500
	// logPoll reads the log even without a notification: a lost
	// notification delays an event, never drops it.
	logPoll  = 5 * time.Second
	logPrune = time.Minute
)

// logRecord is one row of the shared log.
type logRecord struct {
	Kind string `json:"k"` // "event", "session", "login", "logout"
	// Event records: the room, the event, who alone sees it, and the
	// buttons it shows (so any process can answer a press on them).
	Room    string      `json:"room,omitempty"`
	Event   *event      `json:"event,omitempty"`
	To      string      `json:"to,omitempty"`
	Buttons []logButton `json:"buttons,omitempty"`
	// Session and login records: the SHA-256 of the token, never the
	// token, as in memory.
	Digest  []byte    `json:"digest,omitempty"`
	User    *bot.User `json:"user,omitempty"`
	Expires int64     `json:"expires,omitempty"` // unix nanoseconds
}

type logButton struct {
	ID      string            `json:"id"`
	Label   string            `json:"label"`
	Command string            `json:"command"`
	Args    map[string]string `json:"args,omitempty"`
	For     string            `json:"for,omitempty"`
	Key     string            `json:"key,omitempty"`
}

// imageMeta is what a process that did not draw a picture needs to serve
// it and map clicks on it.
type imageMeta struct {
	ContentType string `json:"ct"`
	W           int    `json:"w"`
	H           int    `json:"h"`
	Variant     string `json:"variant,omitempty"`
	Orientation string `json:"orientation,omitempty"`
	Game        string `json:"game,omitempty"`
}

// follower reads the shared log; mu makes one reader at a time, so
// records are shown in order and once.
type follower struct {
	mu   sync.Mutex
	last int64
	wake chan struct{}
	// readAt is when the last read of the log started.
	readAt time.Time
}

func (f *follower) kick() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// publish shows an event to a room: directly on a chat of its own, else
// through the shared log. btns are the buttons the event shows.
func (s *Server) publish(room string, e *event, btns ...logButton) {
	if s.opt.Shared == nil {
		for _, b := range btns {
			s.btns.put(b.ID, storedOf(b, room))
		}
		s.hub.publish(room, e)
		return
	}
	s.appendLog(logEventTTL, logRecord{Kind: "event", Room: room, Event: e, To: e.to, Buttons: btns})
}

func (s *Server) appendLog(ttl time.Duration, recs ...logRecord) {
	data := make([][]byte, 0, len(recs))
	for _, r := range recs {
		b, err := json.Marshal(r)
		if err != nil {
			s.log.Error("web chat: log record", "err", err)
			return
		}
		data = append(data, b)
	}
	// A record that cannot be written is dropped rather than shown here
	// alone: shown out of the log's order, it would make pages skip
	// the records written after it.
	if err := s.opt.Shared.AppendWebLog(data, s.opt.Now().Add(ttl)); err != nil {
		s.log.Error("web chat: the shared log could not be written; an event is lost", "kind", recs[0].Kind, "err", err)
		return
	}
	s.follow.kick()
}

func storedOf(b logButton, room string) *storedButton {
	return &storedButton{label: b.Label, command: b.Command, args: maps.Clone(b.Args), forUser: b.For, key: b.Key, room: room}
}

// catchUp reads and applies the records not yet applied.
func (s *Server) catchUp() {
	s.follow.mu.Lock()
	defer s.follow.mu.Unlock()
	s.catchUpLocked()
}

func (s *Server) catchUpLocked() {
	f := s.follow
	f.readAt = time.Now()
	for {
		n, err := s.opt.Shared.ReadWebLog(f.last, logPage, s.opt.Now(), func(id int64, data []byte) {
			f.last = id
			s.apply(id, data)
		})
		if err != nil {
			s.log.Warn("web chat: reading the shared log", "err", err)
			return
		}
		if n < logPage {
			return
		}
	}
}

// apply makes one record of the log true in this process.
func (s *Server) apply(id int64, data []byte) {
	var r logRecord
	if err := json.Unmarshal(data, &r); err != nil {
		s.log.Warn("web chat: a damaged log record is skipped", "id", id, "err", err)
		return
	}
	var digest [32]byte
	copy(digest[:], r.Digest)
	switch r.Kind {
	case "event":
		if r.Event == nil {
			return
		}
		e := r.Event
		e.Seq, e.to = uint64(id), r.To
		for _, b := range r.Buttons {
			s.btns.put(b.ID, storedOf(b, r.Room))
		}
		if e.Kind == "stale" {
			s.btns.retire(e.Stale)
		}
		s.hub.publish(r.Room, e)
	case "session":
		if r.User != nil && len(r.Digest) == len(digest) {
			s.sess.put(digest, &session{user: *r.User, room: r.Room, last: s.opt.Now()})
		}
	case "login":
		if s.auth != nil && len(r.Digest) == len(digest) {
			s.auth.put(digest, time.Unix(0, r.Expires))
		}
	case "logout":
		if s.auth != nil {
			s.auth.drop(digest)
		}
	}
}

// followLog keeps applying the log until ctx ends: on every notification,
// every logPoll, and it prunes the log every logPrune.
func (s *Server) followLog(ctx context.Context) {
	go func() { _ = s.opt.Shared.ListenWebLog(ctx, s.follow.kick) }()
	poll := time.NewTicker(logPoll)
	defer poll.Stop()
	prune := time.NewTicker(logPrune)
	defer prune.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.follow.wake:
		case <-poll.C:
		case <-prune.C:
			if err := s.opt.Shared.PruneWebLog(s.opt.Now(), sharedImageBytes); err != nil {
				s.log.Warn("web chat: pruning the shared log", "err", err)
			}
		}
		s.catchUp()
	}
}

// shareSession tells the other processes about a tab's session.
func (s *Server) shareSession(tok string, se *session) {
	if s.opt.Shared == nil {
		return
	}
	d := sha256.Sum256([]byte(tok))
	u := se.user
	s.appendLog(s.opt.SessionTTL, logRecord{Kind: "session", Digest: d[:], User: &u, Room: se.room,
		Expires: s.opt.Now().Add(s.opt.SessionTTL).UnixNano()})
}

// shareLogin tells the other processes about a password login (out false)
// or its end (out true).
func (s *Server) shareLogin(tok string, out bool) {
	if s.opt.Shared == nil {
		return
	}
	d := s.auth.key(tok)
	if out {
		s.appendLog(s.opt.SessionTTL, logRecord{Kind: "logout", Digest: d[:]})
		return
	}
	s.appendLog(s.opt.SessionTTL, logRecord{Kind: "login", Digest: d[:], Expires: s.opt.Now().Add(s.opt.SessionTTL).UnixNano()})
}

// shareImage keeps a picture where every process can serve it.
func (s *Server) shareImage(id string, si *storedImage) {
	if s.opt.Shared == nil {
		return
	}
	meta, _ := json.Marshal(imageMeta{ContentType: si.contentType, W: si.w, H: si.h, Variant: si.variant, Orientation: si.orientation, Game: si.game})
	now := s.opt.Now()
	if err := s.opt.Shared.PutWebImage(id, meta, si.png, now, now.Add(sharedImageTTL)); err != nil {
		s.log.Warn("web chat: a picture is served by this process only", "err", err)
	}
}

// image finds a picture: in memory, else (another process drew it) in
// the shared store, keeping it in memory from then on.
func (s *Server) image(id string) (*storedImage, bool) {
	if si, ok := s.images.get(id); ok || s.opt.Shared == nil || len(id) != 32 {
		return si, ok
	}
	meta, data, found, err := s.opt.Shared.WebImage(id, s.opt.Now())
	if err != nil {
		s.log.Warn("web chat: reading a shared picture", "err", err)
		return nil, false
	}
	var m imageMeta
	if !found || json.Unmarshal(meta, &m) != nil {
		return nil, false
	}
	si := &storedImage{png: data, contentType: m.ContentType, w: m.W, h: m.H, variant: m.Variant, orientation: m.Orientation, game: m.Game}
	s.images.put(id, si)
	return si, true
}

// lookAgain reads the log at once when a session, login or button is not
// known here: it may have been made on another process a moment ago. A
// read that started after the caller asked serves it too, so however
// many requests come with made-up tokens, each process reads the log
// once at a time for them, and the log's reader still gets its turns.
func (s *Server) lookAgain() bool {
	if s.opt.Shared == nil {
		return false
	}
	asked := time.Now()
	s.follow.mu.Lock()
	defer s.follow.mu.Unlock()
	if !s.follow.readAt.After(asked) {
		s.catchUpLocked()
	}
	return true
}
