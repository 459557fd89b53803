package telegram

import (
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"

	"topochess/bot"
)

// Telegram gives a button at most 64 bytes of callback_data. A bot button
// is written into it whole when it fits ("b|" and a query string), so it
// still works after a restart; otherwise it is stored with the games
// under a number ("K|17"), or kept in memory ("k|17") when the handler
// cannot store it. Tap-to-move buttons are "t|game|ply|step|step…".
const maxCallbackData = 64

const (
	prefixButton = "b|"
	prefixKept   = "k|"
	prefixStored = "K|"
	prefixTap    = "t|"
)

// buttonStore encodes bot buttons into callback data.
type buttonStore struct {
	mu    sync.Mutex
	seq   int
	kept  map[int]bot.Button
	order []int
	max   int
	// mem keeps buttons across restarts under ids never reused ("K|17");
	// nil: in memory only.
	mem MessageMemory
}

func newButtonStore(max int) *buttonStore {
	return &buttonStore{kept: map[int]bot.Button{}, max: max}
}

func (s *buttonStore) encode(b bot.Button) string {
	v := url.Values{}
	v.Set("_c", b.Command)
	if b.For != "" {
		if id, ok := strings.CutPrefix(b.For, platform+":"); ok {
			v.Set("_f", id)
		} else {
			v.Set("_F", b.For)
		}
	}
	for k, val := range b.Args {
		v.Set(k, val)
	}
	if data := prefixButton + v.Encode(); len(data) <= maxCallbackData {
		return data
	}
	if s.mem != nil {
		if id, ok := s.mem.KeepButton(platform, b); ok {
			return prefixStored + id
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	s.kept[s.seq] = b
	s.order = append(s.order, s.seq)
	if len(s.order) > s.max {
		delete(s.kept, s.order[0])
		s.order = s.order[1:]
	}
	return prefixKept + strconv.Itoa(s.seq)
}

// decode reads a bot button back; ok is false for unknown or forgotten
// data.
func (s *buttonStore) decode(data string) (bot.Button, bool) {
	if id, ok := strings.CutPrefix(data, prefixStored); ok {
		if s.mem == nil {
			return bot.Button{}, false
		}
		return s.mem.KeptButton(platform, id)
	}
	if rest, ok := strings.CutPrefix(data, prefixKept); ok {
		n, err := strconv.Atoi(rest)
		if err != nil {
			return bot.Button{}, false
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		b, ok := s.kept[n]
		return b, ok
	}
	rest, ok := strings.CutPrefix(data, prefixButton)
	if !ok {
		return bot.Button{}, false
	}
	v, err := url.ParseQuery(rest)
	if err != nil || v.Get("_c") == "" {
		return bot.Button{}, false
	}
	b := bot.Button{Command: v.Get("_c"), Args: map[string]string{}}
	if id := v.Get("_f"); id != "" {
		b.For = platform + ":" + id
	} else {
		b.For = v.Get("_F")
	}
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !strings.HasPrefix(k, "_") {
			b.Args[k] = v.Get(k)
		}
	}
	return b, true
}

// tapData writes a tap-to-move button; ok is false when it would not fit
// (the caller leaves that choice out rather than send a broken button).
func tapData(game string, ply int, path ...string) (string, bool) {
	parts := []string{"t", game}
	if ply >= 0 {
		parts = append(parts, strconv.Itoa(ply))
	}
	parts = append(parts, path...)
	for _, p := range parts[1:] {
		if p == "" || strings.Contains(p, "|") {
			return "", false
		}
	}
	d := strings.Join(parts, "|")
	return d, len(d) <= maxCallbackData
}

// tapRequest is a parsed tap-to-move button.
type tapRequest struct {
	game  string
	ply   int // -1: open at the current position
	close bool
	path  []string
}

func parseTap(data string) (tapRequest, bool) {
	rest, ok := strings.CutPrefix(data, prefixTap)
	if !ok {
		return tapRequest{}, false
	}
	parts := strings.Split(rest, "|")
	r := tapRequest{game: parts[0], ply: -1}
	if r.game == "" {
		return tapRequest{}, false
	}
	if len(parts) == 1 {
		return r, true
	}
	if parts[1] == "x" && len(parts) == 2 {
		r.close = true
		return r, true
	}
	n, err := strconv.Atoi(parts[1])
	if err != nil || n < 0 {
		return tapRequest{}, false
	}
	r.ply, r.path = n, parts[2:]
	return r, true
}
