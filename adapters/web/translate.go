package web

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"topochess/bot"
)

const maxNameLen = 24

// checkName validates a display name or a room name: a short word of
// letters, digits, '_', '-' and '.', so it can be typed as @name and is
// never markup.
// nameError is a refusal of a name, worded as a sentence for the page.
type nameError string

func (e nameError) Error() string { return string(e) }

func checkName(s, what string) (string, error) {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "@"))
	switch n := utf8.RuneCountInString(s); {
	case n == 0:
		return "", nameError(fmt.Sprintf("Pick a %s.", what))
	case n > maxNameLen:
		return "", nameError(fmt.Sprintf("A %s has at most %d characters.", what, maxNameLen))
	case !utf8.ValidString(s):
		return "", nameError(fmt.Sprintf("That %s is not valid text.", what))
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' && r != '.' {
			return "", nameError(fmt.Sprintf("A %s may use letters, digits, _ - and . only (no spaces or symbols like %q).", what, r))
		}
	}
	return s, nil
}

// webUser is the user a name speaks as. IDs are the canonical form, so
// "Alice", "alice" and "ＡＬＩＣＥ" are one player.
func webUser(name string) bot.User {
	return bot.User{ID: "web:" + canonical(name), Name: name, Mention: "@" + name}
}

// mentions finds the users a typed command names: "@bob", or
// "opponent:bob" written without the at sign.
func mentions(text string) []bot.User {
	var out []bot.User
	seen := map[string]bool{}
	for _, w := range strings.Fields(text) {
		name, ok := strings.CutPrefix(w, "@")
		if !ok {
			k, v, found := strings.Cut(w, ":")
			switch strings.ToLower(k) {
			case "opponent", "vs":
				name, ok = strings.TrimPrefix(v, "@"), found
			}
		}
		if !ok {
			continue
		}
		name = strings.TrimRight(name, ",;!?")
		if n, err := checkName(name, "name"); err == nil {
			u := webUser(n)
			if !seen[u.ID] {
				seen[u.ID] = true
				out = append(out, u)
			}
		}
	}
	return out
}

// command starts a Command from a tab's session. The page's event id lets
// the bot recognise a request the browser sent twice.
func (s *Server) command(se session, eventID string) bot.Command {
	c := bot.Command{Platform: "web", Channel: "web:" + se.room, Server: "web", User: se.user}
	if eventID != "" && len(eventID) <= 64 && strings.IndexFunc(eventID, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '_')
	}) < 0 {
		c.EventID = se.user.ID + ":" + eventID
	}
	return c
}

// handle asks the bot, turning a panic (which the bot promises never to
// have) into an apology instead of a dropped connection.
func (s *Server) handle(cmd bot.Command) (replies []bot.Reply) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("handler panicked", "command", cmd.Name, "user", cmd.User.ID, "panic", p)
			replies = []bot.Reply{{Text: "Something went wrong on my side with that command.", Private: true, Error: true}}
		}
	}()
	return s.h.Handle(cmd)
}

// run sends a command to the bot and shows what was typed (said) and the
// replies. What was typed is shown to the room unless every reply is
// private, like a Discord slash command answered ephemerally. It reports
// whether the bot refused.
func (s *Server) run(se session, cmd bot.Command, said string) (refused bool) {
	replies := s.handle(cmd)
	private := len(replies) > 0
	for _, r := range replies {
		private = private && r.Private
		refused = refused || r.Error
	}
	echo := &event{Kind: "said", From: se.user.Name, Text: said, Private: private, Time: s.millis()}
	if private {
		echo.to = se.user.ID
	}
	s.publish(se.room, echo)
	for _, r := range replies {
		s.deliver(se, r)
	}
	return refused
}

// deliver turns one reply into an event in its room.
func (s *Server) deliver(se session, r bot.Reply) {
	room := se.room
	if r.Channel != "" {
		rest, ok := strings.CutPrefix(r.Channel, "web:")
		if !ok || rest == "" {
			s.log.Warn("reply for another platform dropped", "channel", r.Channel)
			return
		}
		room = rest
	}
	if len(r.Supersedes) > 0 {
		// The stale note goes to everyone in each room that showed those
		// buttons, even when the reply itself is private.
		for _, where := range s.btns.retire(r.Supersedes) {
			s.publish(where, &event{Kind: "stale", Stale: r.Supersedes, Time: s.millis()})
		}
	}
	for _, ed := range r.Edits {
		// The page changes the text of the newest message with that key.
		s.publish(room, &event{Kind: "edit", Key: ed.Key, Text: ed.Text, Time: s.millis()})
	}
	if r.EditOnly() {
		return
	}
	e := &event{Kind: "reply", Text: r.Text, Private: r.Private, Error: r.Error, Key: r.Key, Mentions: r.Mentions, Time: s.millis()}
	if r.Private {
		e.to = se.user.ID
	}
	if r.Image != nil && len(r.Image.PNG) > 0 {
		id, si := s.images.add(r.Image)
		s.shareImage(id, si)
		e.Image = &imageRef{
			URL: imageURL(id, si.contentType), ID: id, W: si.w, H: si.h, Alt: r.Image.Alt,
			Board: r.Image.Game != "" && r.Image.Variant != "",
		}
	}
	var defs []logButton
	for _, b := range r.Buttons {
		id := newID()
		defs = append(defs, logButton{ID: id, Label: b.Label, Command: b.Command, Args: b.Args, For: b.For, Key: r.Key})
		e.Buttons = append(e.Buttons, buttonRef{ID: id, Label: b.Label, Style: b.Style, For: b.For})
	}
	s.publish(room, e, defs...)
}

// Send delivers a reply the bot produced on its own (clock reminders, loss
// on time) to the room its Channel names.
func (s *Server) Send(r bot.Reply) {
	if r.Channel == "" {
		s.log.Warn("unaddressed reply dropped")
		return
	}
	s.deliver(session{}, r)
}

// imageURL is where the page fetches a stored picture.
func imageURL(id, contentType string) string {
	if contentType == "image/gif" {
		return "/img/" + id + ".gif"
	}
	return "/img/" + id + ".png"
}
