package discord

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"time"

	dg "github.com/bwmarrin/discordgo"

	"topochess/bot"
)

// maxTimestampSkew bounds how old a signed request may be, so a captured
// request cannot be replayed later.
const maxTimestampSkew = 5 * time.Minute

// ServeHTTP is the interactions endpoint: Discord POSTs each interaction,
// signed with the application's key, and takes the response body as the
// interaction's answer.
func (a *Adapter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST interactions here", http.StatusMethodNotAllowed)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
	if a.pub == nil || !dg.VerifyInteraction(r, a.pub) || !freshTimestamp(r.Header.Get("X-Signature-Timestamp")) {
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	var i dg.Interaction
	if err := json.NewDecoder(r.Body).Decode(&i); err != nil {
		http.Error(w, "bad interaction", http.StatusBadRequest)
		return
	}
	if i.Type == dg.InteractionPing {
		writeJSON(w, map[string]int{"type": int(dg.InteractionResponsePong)})
		return
	}
	hr := &httpResponder{w: w}
	a.inflight.Add(1)
	// A panic on the way (net/http recovers it) must not leave the count
	// raised, or stopping would wait for it for ever.
	launched := false
	defer func() {
		if !launched {
			a.inflight.Done()
		}
	}()
	rest := a.onInteraction(&i, responder{uploads: false, respond: hr.respond})
	if !hr.written() {
		// Nothing could be answered (the window passed): say so rather
		// than leave Discord waiting.
		http.Error(w, "no answer in time", http.StatusServiceUnavailable)
	}
	launched = true
	go func() {
		defer a.inflight.Done()
		if rest != nil {
			rest()
		}
	}()
}

func freshTimestamp(s string) bool {
	sec, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return false
	}
	d := time.Since(time.Unix(sec, 0))
	return d < maxTimestampSkew && d > -maxTimestampSkew
}

func writeJSON(w http.ResponseWriter, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	_, _ = w.Write(b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// httpResponder writes the interaction's answer as the HTTP response,
// once.
type httpResponder struct {
	mu   sync.Mutex
	w    http.ResponseWriter
	done bool
}

var errAnswered = errors.New("discord: interaction already answered")

func (h *httpResponder) respond(_ context.Context, r *interactionResponse, file *bot.Image) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.done {
		return errAnswered
	}
	if file != nil {
		return errors.New("discord: an HTTP interaction answer cannot carry a file")
	}
	h.done = true
	writeJSON(h.w, r)
	return nil
}

func (h *httpResponder) written() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.done
}
