package web

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"image"
	_ "image/gif" // replays
	_ "image/png"
	"slices"
	"sync"
	"time"

	"topochess/bot"
)

// newID returns an unguessable identifier: image and button ids are
// capabilities, and session tokens are the user's identity.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}

// storedImage is a picture served from memory, with what is needed to map
// a click on it to a cell.
type storedImage struct {
	png         []byte // the picture's bytes (a GIF for replays)
	contentType string
	w, h        int
	variant     string
	orientation string
	game        string
}

// imageStore keeps the newest pictures up to a byte budget.
type imageStore struct {
	mu    sync.Mutex
	m     map[string]*storedImage
	order []string
	bytes int
	max   int
}

func newImageStore(max int) *imageStore {
	return &imageStore{m: map[string]*storedImage{}, max: max}
}

// add stores a reply's picture and returns its id and size.
func (st *imageStore) add(img *bot.Image) (string, *storedImage) {
	si := &storedImage{png: img.PNG, contentType: img.ContentType(), variant: img.Variant, orientation: img.Orientation, game: img.Game}
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(img.PNG)); err == nil {
		si.w, si.h = cfg.Width, cfg.Height
	}
	id := newID()
	st.put(id, si)
	return id, si
}

// put stores a picture under its id (one another process drew, too).
func (st *imageStore) put(id string, si *storedImage) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if _, ok := st.m[id]; ok {
		return
	}
	st.m[id] = si
	st.order = append(st.order, id)
	st.bytes += cap(si.png) // what the slice holds, not only what it shows
	for st.bytes > st.max && len(st.order) > 1 {
		old := st.order[0]
		st.order[0] = ""
		st.order = st.order[1:]
		st.bytes -= cap(st.m[old].png)
		delete(st.m, old)
	}
}

func (st *imageStore) get(id string) (*storedImage, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	si, ok := st.m[id]
	return si, ok
}

// storedButton is a button shown in a room; pressing it by id sends its
// command.
type storedButton struct {
	label   string
	command string
	args    map[string]string
	forUser string
	key     string // the reply's key, so Supersedes can retire it
	room    string
	stale   bool
}

type buttonStore struct {
	mu    sync.Mutex
	m     map[string]*storedButton
	order []string
	byKey map[string][]string
	max   int
}

func newButtonStore(max int) *buttonStore {
	return &buttonStore{m: map[string]*storedButton{}, byKey: map[string][]string{}, max: max}
}

// put stores a button under its id; a button already known is kept as
// it is (it may have been retired since).
func (st *buttonStore) put(id string, b *storedButton) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if _, ok := st.m[id]; ok {
		return
	}
	st.m[id] = b
	st.order = append(st.order, id)
	if b.key != "" {
		st.byKey[b.key] = append(st.byKey[b.key], id)
	}
	for len(st.order) > st.max {
		old := st.order[0]
		st.order = st.order[1:]
		if k := st.m[old].key; k != "" {
			ids := st.byKey[k][1:] // buttons of a key are added and dropped in order
			if len(ids) == 0 {
				delete(st.byKey, k)
			} else {
				st.byKey[k] = ids
			}
		}
		delete(st.m, old)
	}
}

// get returns a copy of a button, so callers need no lock.
func (st *buttonStore) get(id string) (storedButton, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	b, ok := st.m[id]
	if !ok {
		return storedButton{}, false
	}
	return *b, true
}

// retire marks the buttons of superseded replies stale and returns the
// rooms that showed them.
func (st *buttonStore) retire(keys []string) []string {
	st.mu.Lock()
	defer st.mu.Unlock()
	var rooms []string
	for _, k := range keys {
		for _, id := range st.byKey[k] {
			b := st.m[id]
			b.stale = true
			if !slices.Contains(rooms, b.room) {
				rooms = append(rooms, b.room)
			}
		}
	}
	return rooms
}

// session is one browser tab that joined: who it speaks as and where.
type session struct {
	user bot.User
	room string // "lobby", not "web:lobby"
	last time.Time
}

// sessionStore keeps tabs under the SHA-256 of their token: the table
// holds nothing a client could present, and a lookup compares digests,
// so its timing tells nothing about a valid token.
type sessionStore struct {
	mu  sync.Mutex
	m   map[[32]byte]*session
	max int
}

func newSessionStore(max int) *sessionStore {
	return &sessionStore{m: map[[32]byte]*session{}, max: max}
}

func (st *sessionStore) add(s *session) string {
	id := newID()
	st.put(sha256.Sum256([]byte(id)), s)
	return id
}

// put keeps a session under its token's digest (one another process
// made, too).
func (st *sessionStore) put(key [32]byte, s *session) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if _, ok := st.m[key]; !ok && len(st.m) >= st.max {
		// Forget the tab idle the longest; it joins again by itself.
		var oldest *[32]byte
		for k, v := range st.m {
			if oldest == nil || v.last.Before(st.m[*oldest].last) {
				oldest = &k
			}
		}
		if oldest != nil {
			delete(st.m, *oldest)
		}
	}
	st.m[key] = s
}

func (st *sessionStore) get(id string, now time.Time) (session, bool) {
	key := sha256.Sum256([]byte(id))
	st.mu.Lock()
	defer st.mu.Unlock()
	s, ok := st.m[key]
	if !ok {
		return session{}, false
	}
	s.last = now
	return *s, true
}

// selections remember the piece a user clicked on a game's picture, until
// the next click on that game.
type selections struct {
	mu sync.Mutex
	m  map[selKey]selection
}

type selKey struct{ user, game string }

type selection struct {
	cell string
	at   time.Time
}

// selectionTTL: a click long after the first one starts afresh.
const selectionTTL = 10 * time.Minute

func newSelections() *selections { return &selections{m: map[selKey]selection{}} }

// take returns and clears the pending selection.
func (st *selections) take(user, game string, now time.Time) (string, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	k := selKey{user, game}
	s, ok := st.m[k]
	delete(st.m, k)
	if !ok || now.Sub(s.at) > selectionTTL {
		return "", false
	}
	return s.cell, true
}

func (st *selections) set(user, game, cell string, now time.Time) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.m) > 10000 {
		for k, s := range st.m {
			if now.Sub(s.at) > selectionTTL {
				delete(st.m, k)
			}
		}
	}
	st.m[selKey{user, game}] = selection{cell: cell, at: now}
}
