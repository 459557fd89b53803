package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"topochess/engine"
)

// The simulated players of BenchmarkScale: each is a browser tab of the
// web chat, with its own address on the loopback network (the web chat
// limits joins and streams per address, and a crowd of players comes
// from many addresses), its own event stream, and the pictures of its
// replies loaded as the page loads them.

// webEvent is the part of a web chat event the players read.
type webEvent struct {
	Kind  string `json:"kind"`
	From  string `json:"from"`
	Text  string `json:"text"`
	Error bool   `json:"error"`
	Image *struct {
		URL string `json:"url"`
	} `json:"image"`
}

type player struct {
	name, room, base string
	client           *http.Client
	token            string
	events           chan webEvent
	seq              int
}

// newPlayer joins the web chat at base as name in room, from the
// loopback address addr, and opens its event stream.
func newPlayer(ctx context.Context, base, name, room string, addr netip.Addr) (*player, error) {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: addr.AsSlice()}, Timeout: 10 * time.Second}
	p := &player{
		name: name, room: room, base: base,
		client: &http.Client{Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 4, DisableCompression: true}},
		events: make(chan webEvent, 4096),
	}
	var out struct{ Token string }
	if err := p.postJSON(ctx, "/api/join", map[string]string{"name": name, "room": room}, &out); err != nil {
		return nil, err
	}
	p.token = out.Token
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/events", nil)
	req.Header.Set("X-Session", p.token)
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != 200 {
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return nil, fmt.Errorf("%s: event stream: %d %s", name, resp.StatusCode, raw)
	}
	go p.read(resp.Body)
	return p, nil
}

// read passes the stream's events on until the stream ends.
func (p *player) read(body io.ReadCloser) {
	defer body.Close()
	defer close(p.events)
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var e webEvent
		if json.Unmarshal([]byte(data), &e) == nil {
			p.events <- e
		}
	}
}

func (p *player) postJSON(ctx context.Context, path string, body, out any) error {
	data, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(ctx, "POST", p.base+path, bytes.NewReader(data))
	req.Header.Set("Content-Type", "application/json")
	if p.token != "" {
		req.Header.Set("X-Session", p.token)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		return fmt.Errorf("%s: POST %s: %d %s", p.name, path, resp.StatusCode, raw)
	}
	return json.Unmarshal(raw, out)
}

// say sends a line as the page does (with an event id) and waits for
// the bot's reply in the stream and for its picture, as the page shows
// it. It returns the reply and the time the POST alone took.
func (p *player) say(ctx context.Context, line string) (webEvent, time.Duration, error) {
	p.seq++
	start := time.Now()
	var ok map[string]any
	if err := p.postJSON(ctx, "/api/send", map[string]string{"text": line, "event": fmt.Sprintf("%s-%s-%d", p.room, p.name, p.seq)}, &ok); err != nil {
		return webEvent{}, 0, err
	}
	posted := time.Since(start)
	// The reply is published before the POST is answered, after the
	// echo of the line; earlier events (the opponent's) are passed over.
	timeout := time.After(60 * time.Second)
	echoed := false
	for {
		select {
		case e, open := <-p.events:
			if !open {
				return webEvent{}, 0, fmt.Errorf("%s: event stream closed", p.name)
			}
			if e.Kind == "said" && e.From == p.name && e.Text == line {
				echoed = true
				continue
			}
			if !echoed || e.Kind != "reply" {
				continue
			}
			if e.Image != nil {
				if err := p.fetch(ctx, e.Image.URL); err != nil {
					return e, 0, err
				}
			}
			return e, posted, nil
		case <-timeout:
			return webEvent{}, 0, fmt.Errorf("%s: no reply to %q within 60 s", p.name, line)
		case <-ctx.Done():
			return webEvent{}, 0, ctx.Err()
		}
	}
}

func (p *player) fetch(ctx context.Context, url string) error {
	req, _ := http.NewRequestWithContext(ctx, "GET", p.base+url, nil)
	resp, err := p.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	n, _ := io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != 200 || n == 0 || resp.Header.Get("Content-Type") != "image/png" {
		return fmt.Errorf("%s: GET %s: %d, %d bytes of %s", p.name, url, resp.StatusCode, n, resp.Header.Get("Content-Type"))
	}
	return nil
}

// pair is two players in their own room playing one game after another:
// a challenge, an accept, random legal moves typed in SAN (every move
// answered with the board's picture), and a resignation once a game is
// maxPlies long unless it ended before. The variant changes every game.
type pair struct {
	white, black *player
	rng          *rand.Rand
	game         *engine.Game // nil: no game; the next command challenges
	accepted     bool
	finished     int
}

const maxPlies = 40

// sample is one command: from the POST to the reply (and its picture)
// in the player's hands, and the POST alone.
type sample struct{ full, post time.Duration }

// step sends the next command of the pair's current game. On an error
// nothing advances: the next step sends the same command again.
func (g *pair) step(ctx context.Context) (sample, error) {
	var (
		who  *player
		line string
		pos  *engine.Position
		m    engine.Move
	)
	switch {
	case g.game == nil:
		ids := engine.Variants()
		v := ids[g.rng.IntN(len(ids))]
		s, err := g.expect(ctx, g.white, fmt.Sprintf("/challenge @%s %s white", g.black.name, v), false)
		if err != nil {
			return s, err
		}
		g.game, _ = engine.NewGame(engine.MustVariant(v), "")
		g.accepted = false
		return s, nil
	case !g.accepted:
		s, err := g.expect(ctx, g.black, "/accept", true)
		g.accepted = err == nil
		return s, err
	}
	pos = g.game.Position()
	who = g.white
	if pos.Side == engine.Black {
		who = g.black
	}
	if len(g.game.Moves) >= maxPlies {
		s, err := g.expect(ctx, who, "/resign", false)
		if err == nil {
			g.game, g.finished = nil, g.finished+1
		}
		return s, err
	}
	ms := pos.LegalMoves()
	m = ms[g.rng.IntN(len(ms))]
	// SAN as players type it, unless the engine's SAN does not read back
	// as this move (some pawn moves on the cube and in Heisenberg): then
	// the canonical form.
	line = pos.SAN(m)
	if back, err := pos.ParseMove(line); err != nil || !back.Same(m) {
		line = pos.Canonical(m)
	}
	s, err := g.expect(ctx, who, "/move "+line, true)
	if err != nil {
		return s, err
	}
	if err := g.game.Play(m); err != nil {
		return s, err
	}
	if g.game.Over() {
		g.game, g.finished = nil, g.finished+1
	}
	return s, nil
}

// expect sends a line and checks the reply: never a refusal, and with a
// picture when one is due.
func (g *pair) expect(ctx context.Context, who *player, line string, picture bool) (sample, error) {
	start := time.Now()
	e, post, err := who.say(ctx, line)
	s := sample{full: time.Since(start), post: post}
	switch {
	case err != nil:
		return s, err
	case e.Error:
		return s, &refusal{fmt.Sprintf("%s in %s: %q refused: %s", who.name, who.room, line, e.Text), strings.Contains(e.Text, "went wrong on my side")}
	case picture && e.Image == nil:
		return s, fmt.Errorf("%s in %s: %q answered without a picture: %s", who.name, who.room, line, e.Text)
	}
	return s, nil
}

// refusal is an error reply. failed: the bot's side failed (a storage
// timeout, say) and said nothing was changed, so the command may be sent
// again; any other refusal means the players and the bot disagree about
// a game, and the run stops.
type refusal struct {
	msg    string
	failed bool
}

func (r *refusal) Error() string { return r.msg }
