package web

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"topochess/bot"
)

// maxLine is the longest line a page may send; the bot has its own,
// usually shorter, limit with a friendlier answer.
const maxLine = 2000

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// jsonError answers a request the adapter itself refuses; the page shows
// the message to its user only.
func jsonError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

// readJSON decodes a small JSON body; it refuses other content types so a
// form on another site cannot post here.
func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		jsonError(w, http.StatusUnsupportedMediaType, "send JSON")
		return false
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		jsonError(w, http.StatusBadRequest, "that request was not understood")
		return false
	}
	return true
}

// sessionOf finds the tab's session from the X-Session header (or the s
// query parameter, for EventSource, which cannot set headers).
func (s *Server) sessionOf(w http.ResponseWriter, r *http.Request) (session, bool) {
	se, _, ok := s.sessionToken(w, r)
	return se, ok
}

func (s *Server) sessionToken(w http.ResponseWriter, r *http.Request) (se session, tok string, ok bool) {
	tok = r.Header.Get("X-Session")
	if tok == "" {
		tok = r.URL.Query().Get("s")
	}
	se, ok = s.sess.get(tok, s.opt.Now())
	if !ok && tok != "" && s.lookAgain() {
		se, ok = s.sess.get(tok, s.opt.Now())
	}
	if !ok {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"error": "please join again", "rejoin": true})
	}
	return se, tok, ok
}

type joinRequest struct {
	Name string `json:"name"`
	Room string `json:"room"`
	// Secret is the one this browser got when it took the name.
	Secret string `json:"secret"`
}

type joinResponse struct {
	Token string `json:"token"`
	User  string `json:"user"` // the user ID, to know one's own buttons
	Name  string `json:"name"`
	Room  string `json:"room"`
	// Secret is set when this join took the name: the browser keeps it
	// to join as the name again.
	Secret string `json:"secret,omitempty"`
}

func (s *Server) apiJoin(w http.ResponseWriter, r *http.Request) {
	var req joinRequest
	if !readJSON(w, r, &req) {
		return
	}
	// Each join may claim a name for good, so one address cannot take
	// names by the thousand.
	if ok, wait := s.joins.allow(s.clientAddr(r), s.opt.Now()); !ok {
		jsonError(w, http.StatusTooManyRequests, fmt.Sprintf("Too many joins from here; try again in %d seconds.", int(wait/time.Second)+1))
		return
	}
	name, err := checkName(norm.NFKC.String(req.Name), "name")
	if err != nil {
		jsonError(w, http.StatusBadRequest, err.Error())
		return
	}
	room := strings.TrimSpace(req.Room)
	if room == "" {
		room = "lobby"
	}
	if room, err = checkName(room, "room"); err != nil {
		jsonError(w, http.StatusBadRequest, err.Error())
		return
	}
	room = strings.ToLower(room)
	secret, err := s.names.join(name, req.Secret)
	if err != nil {
		var ce *claimError
		errors.As(err, &ce)
		jsonError(w, ce.status, ce.msg)
		return
	}
	u := webUser(name)
	se := &session{user: u, room: room, last: s.opt.Now()}
	tok := s.sess.add(se)
	s.shareSession(tok, se)
	writeJSON(w, http.StatusOK, joinResponse{Token: tok, User: u.ID, Name: u.Name, Room: room, Secret: secret})
}

type sendRequest struct {
	Text  string `json:"text"`
	Event string `json:"event"`
}

func (s *Server) apiSend(w http.ResponseWriter, r *http.Request) {
	se, ok := s.sessionOf(w, r)
	if !ok {
		return
	}
	var req sendRequest
	if !readJSON(w, r, &req) {
		return
	}
	line := strings.TrimSpace(req.Text)
	switch {
	case line == "":
		jsonError(w, http.StatusBadRequest, "Type a command, for example /help.")
		return
	case !utf8.ValidString(line):
		jsonError(w, http.StatusBadRequest, "That text is not valid UTF-8.")
		return
	case utf8.RuneCountInString(line) > maxLine:
		jsonError(w, http.StatusBadRequest, fmt.Sprintf("That is too long (%d characters at most).", maxLine))
		return
	}
	name, text, slash := bot.ParseLine(line)
	if !slash {
		// A move typed bare by the player to move plays, as in the
		// console; other plain text is chat between people, as on the
		// other platforms, where the bot only answers commands.
		if cmd, ok := s.plainMove(se, req.Event, line); ok {
			s.run(se, cmd, line)
			writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
			return
		}
		// The bot's rate limit does not see chat, so the chat has its own.
		if ok, wait := s.chat.allow(se.user.ID, s.opt.Now()); !ok {
			jsonError(w, http.StatusTooManyRequests, fmt.Sprintf("You are typing faster than the chat allows; wait %d s.", int(wait/time.Second)+1))
			return
		}
		s.publish(se.room, &event{Kind: "chat", From: se.user.Name, Text: line, Time: s.millis()})
		writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
		return
	}
	if name == "" {
		jsonError(w, http.StatusBadRequest, "Type a command after the slash, for example /help.")
		return
	}
	cmd := s.command(se, req.Event)
	cmd.Name, cmd.Text = name, text
	cmd.Mentions = mentions(text)
	s.run(se, cmd, line)
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

type pressRequest struct {
	Button string `json:"button"`
	Event  string `json:"event"`
}

func (s *Server) apiPress(w http.ResponseWriter, r *http.Request) {
	se, ok := s.sessionOf(w, r)
	if !ok {
		return
	}
	var req pressRequest
	if !readJSON(w, r, &req) {
		return
	}
	b, found := s.btns.get(req.Button)
	if !found && req.Button != "" && s.lookAgain() {
		b, found = s.btns.get(req.Button)
	}
	switch {
	case !found || b.room != se.room:
		jsonError(w, http.StatusGone, "That button is gone; type the command instead.")
		return
	case b.forUser != "" && b.forUser != se.user.ID:
		jsonError(w, http.StatusForbidden, fmt.Sprintf("That button is for %s.", strings.TrimPrefix(b.forUser, "web:")))
		return
	case b.stale:
		jsonError(w, http.StatusGone, "That button is no longer current.")
		return
	}
	cmd := s.command(se, req.Event)
	cmd.Name, cmd.Args = b.command, b.args
	s.run(se, cmd, "["+b.label+"]")
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

type clickRequest struct {
	Image string `json:"image"`
	// Cell is the cell the page found under the click in the picture's
	// map (GET /api/map/{image}); without it, X and Y (picture pixels)
	// are looked up in the same map.
	Cell string  `json:"cell"`
	X    float64 `json:"x"`
	Y    float64 `json:"y"`
	// Clear drops the selection on that picture's game.
	Clear bool   `json:"clear"`
	Event string `json:"event"`
}

type clickResponse struct {
	// Selected is the cell now chosen ("" = none), for the page's hint.
	Selected string `json:"selected"`
	Note     string `json:"note,omitempty"`
}

// apiClick turns clicks on a board picture into commands: the first click
// on a game asks /moves for that cell (a picture with its destinations),
// the second sends /move from-to. Clicking the chosen cell again, or off
// the board, drops the choice.
func (s *Server) apiClick(w http.ResponseWriter, r *http.Request) {
	se, ok := s.sessionOf(w, r)
	if !ok {
		return
	}
	var req clickRequest
	if !readJSON(w, r, &req) {
		return
	}
	img, found := s.image(req.Image)
	if !found {
		jsonError(w, http.StatusGone, "That picture is too old; type /board for a fresh one.")
		return
	}
	cells, v, ok := s.pictureMap(img)
	if !ok {
		jsonError(w, http.StatusBadRequest, "That picture is not a game board.")
		return
	}
	now := s.opt.Now()
	prev, had := s.sel.take(se.user.ID, img.game, now)
	if req.Clear {
		writeJSON(w, http.StatusOK, clickResponse{})
		return
	}
	to := cellIn(cells, req.X, req.Y)
	if req.Cell != "" {
		to = cellNamed(v, req.Cell)
	}
	if to == "" {
		writeJSON(w, http.StatusOK, clickResponse{Note: "That is not a cell; nothing is selected."})
		return
	}
	cmd := s.command(se, req.Event)
	switch {
	case had && prev == to:
		writeJSON(w, http.StatusOK, clickResponse{Note: "Selection cleared."})
		return
	case had:
		cmd.Name, cmd.Args = "move", map[string]string{"move": prev + "-" + to, "game": img.game}
		s.run(se, cmd, fmt.Sprintf("/move %s-%s game:%s", prev, to, img.game))
		writeJSON(w, http.StatusOK, clickResponse{})
	default:
		cmd.Name, cmd.Args = "moves", map[string]string{"cell": to, "game": img.game}
		if refused := s.run(se, cmd, fmt.Sprintf("/moves %s game:%s", to, img.game)); refused {
			writeJSON(w, http.StatusOK, clickResponse{})
			return
		}
		if !s.movableFrom(se, img.game, to) {
			writeJSON(w, http.StatusOK, clickResponse{Note: "Those are the moves of the piece on " + to + "; it is not yours to move now."})
			return
		}
		s.sel.set(se.user.ID, img.game, to, now)
		writeJSON(w, http.StatusOK, clickResponse{Selected: to})
	}
}

func (s *Server) apiEvents(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	// The stream lives as long as the page: no read deadline (the server's
	// would cancel it), a write deadline per event instead.
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	se, tok, ok := s.sessionToken(w, r)
	if !ok {
		return
	}
	since, _ := strconv.ParseUint(r.Header.Get("Last-Event-ID"), 10, 64)
	if since == 0 {
		since, _ = strconv.ParseUint(r.URL.Query().Get("since"), 10, 64)
	}
	// The hub counts streams per tab under the token's digest, like the
	// session table, so it holds no usable token either.
	digest := sha256.Sum256([]byte(tok))
	sub, backlog, refused := s.hub.subscribe(se.room, string(digest[:]), se.user.ID, s.clientAddr(r), since)
	if refused != "" {
		jsonError(w, http.StatusServiceUnavailable, string(refused))
		return
	}
	defer s.hub.unsubscribe(se.room, sub)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if _, err := fmt.Fprint(w, "retry: 1500\n\n"); err != nil {
		return
	}
	for _, e := range backlog {
		if writeEvent(w, e) != nil {
			return
		}
	}
	if rc.Flush() != nil {
		return
	}
	ping := time.NewTicker(20 * time.Second)
	defer ping.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case e, open := <-sub.ch:
			if !open {
				return
			}
			if writeEvent(w, e) != nil {
				return
			}
		case <-ping.C:
			if _, err := fmt.Fprint(w, ": ping\n\n"); err != nil {
				return
			}
		}
		_ = rc.SetWriteDeadline(time.Now().Add(writeTimeout))
		if rc.Flush() != nil {
			return
		}
	}
}

func writeEvent(w http.ResponseWriter, e *event) error {
	data, err := json.Marshal(e)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "id: %d\ndata: %s\n\n", e.Seq, data)
	return err
}

func (s *Server) serveImage(w http.ResponseWriter, r *http.Request) {
	id := strings.TrimSuffix(strings.TrimSuffix(r.PathValue("id"), ".png"), ".gif")
	img, ok := s.image(id)
	if !ok {
		http.Error(w, "picture gone", http.StatusNotFound)
		return
	}
	h := w.Header()
	h.Set("Content-Type", img.contentType)
	h.Set("Content-Length", strconv.Itoa(len(img.png)))
	h.Set("Cache-Control", "private, max-age=86400, immutable")
	_, _ = w.Write(img.png)
}

func (s *Server) millis() int64 { return s.opt.Now().UnixMilli() }
