package bot

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"topochess/engine"
	"topochess/storage"
)

// The outbox keeps the replies that matter to a game — the picture and
// prompt after a move, the start and the end of a game, clock messages,
// the computer's moves — until the platform has them (docs/delivery.md).
// A state reply's record is a render instruction written in the same
// transaction as the game's change; clock messages are written whole
// before they are posted. Records are only written for platforms whose
// adapter asked for its undelivered replies (Undelivered): others would
// never report a delivery.

// outboxPlatforms are the platforms whose adapters deliver through the
// outbox.
type outboxPlatforms struct {
	mu sync.Mutex
	on map[string]bool
	// running are the platforms whose adapter is up to post what another
	// process left (from Undelivered until Keep).
	running map[string]bool
}

func (p *outboxPlatforms) use(platform string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.on == nil {
		p.on, p.running = map[string]bool{}, map[string]bool{}
	}
	p.on[platform], p.running[platform] = true, true
}

// stopped: the platform's adapter handed its queue over.
func (p *outboxPlatforms) stopped(platform string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.running, platform)
}

// live lists the platforms whose adapters are up.
func (p *outboxPlatforms) live() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for platform := range p.running {
		out = append(out, platform)
	}
	slices.Sort(out)
	return out
}

func (p *outboxPlatforms) uses(channel string) bool {
	platform, _, _ := strings.Cut(channel, ":")
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.on[platform]
}

// stateOut is the outbox record of the state reply that will report a
// change of rec (nil when its platform keeps none). Written by SaveGame
// with the change; for a game being created, "{game}" in the caption
// stands for the id it gets.
func (s *Service) stateOut(rec *storage.Game, caption string) *storage.Outgoing {
	if !s.boxes.uses(rec.Channel) {
		return nil
	}
	return &storage.Outgoing{Channel: rec.Channel, Game: rec.ID, Ply: len(rec.Moves), Caption: caption}
}

// saveAndShow saves a change of a game with its new state in the outbox,
// releases the game's lock and returns the state's reply to post. The
// picture is drawn after the lock is released: the next action on the
// game need not wait for it. On failure the lock is released too and the
// replies say why.
func (s *Service) saveAndShow(c *call, rec *storage.Game, g *engine.Game, caption string, unlock func()) (Reply, []Reply) {
	box := s.stateOut(rec, caption)
	if err := s.save(c, rec, g, box); err != nil {
		unlock()
		return Reply{}, s.internal(c, err)
	}
	pos := g.Position().Clone()
	unlock()
	r := s.stateReply(c, rec, pos, caption)
	r.Outbox = outboxID(box)
	return r, nil
}

// outboxID is the id a record got when written ("" for none).
func outboxID(o *storage.Outgoing) string {
	if o == nil {
		return ""
	}
	return o.ID
}

// Undelivered returns the replies of a platform left from an earlier run,
// oldest first, drawn again where they were kept as render instructions.
// From the call on, the platform's replies are kept in the outbox. The
// records are claimed (storage.ClaimOutgoing): those another live process
// wrote and is posting are its own, so a second process starting posts
// nothing twice; those of a process that died come later, through
// RunClock, once its lease runs out.
func (s *Service) Undelivered(platform string) []Reply {
	s.boxes.use(platform)
	recs, err := s.store.ClaimOutgoing(platform+":", s.now())
	if err != nil {
		s.log.Error("outbox: read", "platform", platform, "err", err)
		return nil
	}
	return s.outgoingReplies(recs)
}

// outgoingReplies makes the replies claimed records stand for; a record
// whose game is gone is dropped.
func (s *Service) outgoingReplies(recs []*storage.Outgoing) []Reply {
	var out []Reply
	for _, o := range recs {
		r, ok := s.outgoingReply(o)
		if !ok {
			// Its game is gone or cannot be read: nothing left to say.
			if err := s.store.DeliveredOutgoing(o.ID, ""); err != nil {
				s.log.Error("outbox: drop", "id", o.ID, "err", err)
			}
			continue
		}
		out = append(out, r)
	}
	return out
}

// outgoingReply makes the reply a record stands for.
func (s *Service) outgoingReply(o *storage.Outgoing) (Reply, bool) {
	if o.Reply != nil {
		var r Reply
		if err := json.Unmarshal(o.Reply, &r); err != nil {
			s.log.Error("outbox: corrupt reply", "id", o.ID, "err", err)
			return Reply{}, false
		}
		r.Channel, r.Outbox = o.Channel, o.ID
		return r, true
	}
	rec, err := s.store.Game(o.Game)
	if err != nil || o.Ply > len(rec.Moves) {
		s.log.Warn("outbox: game not found", "id", o.ID, "game", o.Game, "err", err)
		return Reply{}, false
	}
	// The game as it was after Ply moves: a later move has its own record.
	at := *rec
	if o.Ply < len(rec.Moves) {
		at.Moves, at.Result, at.Reason = rec.Moves[:o.Ply], "", ""
	}
	g, err := replay(&at)
	if err != nil {
		s.log.Error("outbox: replay", "game", o.Game, "err", err)
		return Reply{}, false
	}
	c := &call{Command: Command{Platform: rec.Platform, Channel: o.Channel, Time: s.now()}}
	r := s.stateReply(c, &at, g.Position().Clone(), strings.ReplaceAll(o.Caption, "{game}", rec.ID))
	r.Channel, r.Outbox = o.Channel, o.ID
	return r, true
}

// Delivered is the adapter's report that a reply with an outbox id went
// out (refused nil) or was refused for good by the platform.
func (s *Service) Delivered(r Reply, refused error) {
	reason := ""
	if refused != nil {
		reason = refused.Error()
		if len(reason) > 200 {
			// Cut on a character boundary: /games shows the reason.
			reason = strings.ToValidUTF8(reason[:200], "")
		}
	}
	if err := s.store.DeliveredOutgoing(r.Outbox, reason); err != nil {
		s.log.Error("outbox: delivered", "id", r.Outbox, "err", err)
	}
}

// Keep stores the replies still queued when an adapter stops, whole and
// in the queue's order, in place of the records they came from.
func (s *Service) Keep(platform string, queued []Reply) {
	s.boxes.stopped(platform)
	var done []string
	out := make([]*storage.Outgoing, 0, len(queued))
	for _, r := range queued {
		if r.Outbox != "" {
			done = append(done, r.Outbox)
		}
		r.Outbox = ""
		data, err := json.Marshal(r)
		if err != nil {
			s.log.Error("outbox: encode", "channel", r.Channel, "err", err)
			continue
		}
		out = append(out, &storage.Outgoing{Channel: r.Channel, Reply: data})
	}
	if err := s.store.ReplaceOutgoing(done, s.now(), out...); err != nil {
		s.log.Error("outbox: keep", "platform", platform, "count", len(out), "err", err)
	}
}

// keepPosted writes a reply nobody asked for (a clock message) to the
// outbox before it is posted; a reply with a record already keeps it.
// A reply that only edits earlier messages (a review's progress line) is
// not kept: the old text left after a crash is harmless.
func (s *Service) keepPosted(r *Reply) {
	if r.Outbox != "" || r.EditOnly() || !s.boxes.uses(r.Channel) {
		return
	}
	data, err := json.Marshal(r)
	if err != nil {
		return
	}
	o := &storage.Outgoing{Channel: r.Channel, Reply: data}
	if err := s.store.PutOutgoing(s.now(), o); err != nil {
		s.log.Error("outbox: keep posted reply", "channel", r.Channel, "err", err)
		return
	}
	r.Outbox = o.ID
}

// refusedNote tells /games about the replies the platform refused in the
// channel in the last day (the bot blocked, the chat gone): the game may
// be waiting for a prompt nobody saw.
func (s *Service) refusedNote(c *call) string {
	ref, err := s.store.RefusedOutgoing(c.Channel)
	if err != nil {
		s.log.Error("outbox: refused deliveries", "channel", c.Channel, "err", err)
		return ""
	}
	n, last := 0, ""
	for _, o := range ref {
		if c.Time.Sub(o.Created) < 24*time.Hour {
			n, last = n+1, o.Refused
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("\n⚠ %d of my messages here were refused by the platform in the last day (last: %s). /board shows a game's position.", n, last)
}
