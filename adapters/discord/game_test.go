package discord

import (
	"bytes"
	"image/png"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"topochess/bot"
	"topochess/render"
	"topochess/storage"
)

// newService is the real bot on a bbolt file in the test's directory.
func newService(t *testing.T) *bot.Service {
	svc, _ := newServiceAt(t, filepath.Join(t.TempDir(), "bot.db"))
	return svc
}

// newServiceAt is the real bot on the database file at path, and the store.
func newServiceAt(t *testing.T, path string) (*bot.Service, *storage.Store) {
	t.Helper()
	st, err := storage.Open(path, storage.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return bot.New(st, bot.Config{
		Painter: &render.Renderer{Long: 128},
		Coin:    func() bool { return true },
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
	}), st
}

// picture checks that an answer carries a decodable PNG with alt text.
func picture(t *testing.T, r *request, msg map[string]any) {
	t.Helper()
	if len(r.Files) != 1 || r.Files[0].Field != "files[0]" {
		t.Fatalf("no picture: %s %s", r.ContentType, r.Raw)
	}
	if _, err := png.Decode(bytes.NewReader(r.Files[0].Data)); err != nil {
		t.Fatalf("picture does not decode: %v", err)
	}
	if alt := jstr(msg, "attachments", 0, "description"); len(alt) < 20 || len(alt) > 1024 {
		t.Errorf("alt text %q", alt)
	}
}

// TestFoolsMate plays a whole game between two people through Discord:
// a challenge with buttons, acceptance, a declined draw offer, moves with
// board pictures, autocomplete of the mating move, and the end.
func TestFoolsMate(t *testing.T) {
	t.Parallel()
	e := start(t, newService(t), nil)

	// The bot may be slow here (-race, tests in parallel), so answers are
	// taken however they come: at once or after a deferral.
	id := e.slash(alice, "challenge", opt{name: "opponent", typ: 6, value: bob.id}, str("variant", "standard"), str("color", "white"))
	ch, chReq := e.answer(id)
	if !strings.Contains(jstr(ch, "content"), "<@222>") || jstr(ch, "allowed_mentions", "users", 0) != "222" {
		t.Fatalf("challenge: %s", pretty(ch))
	}
	btns := buttons(ch)
	if len(btns) != 2 || jstr(ch, "components", 0, "components", 0, "label") != "Accept" {
		t.Fatalf("challenge buttons: %s", pretty(ch))
	}
	if len(chReq.Files) == 1 {
		picture(t, chReq, ch)
	}

	// Alice cannot accept her own challenge to Bob.
	if n := e.callback(e.press(alice, btns[0])); jnumReq(n, "data", "flags") != 64 {
		t.Errorf("alice pressed Accept: %s", pretty(n.JSON))
	}
	acc, accReq := e.answer(e.press(bob, btns[0]))
	if jnum(acc, "flags") != 0 || !strings.HasPrefix(jstr(acc, "content"), "Game ") {
		t.Fatalf("accept: %s", pretty(acc))
	}
	picture(t, accReq, acc)
	game := strings.Fields(jstr(acc, "content"))[1] // "Game g1 begins…"
	// The challenge's buttons go once it is accepted.
	e.f.waitFor("the challenge's buttons cleared", func(r *request) bool {
		c, ok := jsonPath(r.JSON, "components").([]any)
		return r.Method == "PATCH" && strings.HasPrefix(r.Path, "/webhooks/"+testApp+"/itok-"+id+"/messages/") && ok && len(c) == 0
	})
	// And its text says who accepted it and names the game.
	e.f.waitFor("the challenge's text edited", func(r *request) bool {
		text, _ := jsonPath(r.JSON, "content").(string)
		return r.Method == "PATCH" && strings.HasPrefix(r.Path, "/webhooks/"+testApp+"/itok-"+id+"/messages/") &&
			strings.Contains(text, "Accepted by Bob: game "+game+".")
	})

	move := func(who member, mv string) map[string]any {
		t.Helper()
		m, r := e.answer(e.slash(who, "move", str("move", mv)))
		if jnum(m, "flags") != 0 {
			t.Fatalf("%s %s: %s", who.name, mv, pretty(m))
		}
		picture(t, r, m)
		return m
	}
	move(alice, "f3")
	// Out of turn: a private refusal, no picture.
	if m, r := e.answer(e.slash(alice, "move", str("move", "g4"))); jnum(m, "flags") != 64 || len(r.Files) != 0 ||
		!strings.Contains(jstr(m, "content"), "not your turn") {
		t.Errorf("out of turn: %s", pretty(m))
	}
	move(bob, "e7e5")

	// Alice offers a draw; Bob declines with the button meant for him.
	draw := e.slash(alice, "draw")
	offer, _ := e.answer(draw)
	var decline string
	for i, c := range buttons(offer) {
		if jstr(offer, "components", 0, "components", i, "label") == "Decline draw" {
			decline = c
		}
	}
	if decline == "" {
		t.Fatalf("draw offer: %s", pretty(offer))
	}
	if n := e.callback(e.press(alice, decline)); !strings.Contains(jstr(n.JSON, "data", "content"), "not yours") {
		t.Errorf("alice declined her own offer: %s", pretty(n.JSON))
	}
	if m, _ := e.answer(e.press(bob, decline)); !strings.Contains(jstr(m, "content"), "declines") {
		t.Errorf("decline: %s", pretty(m))
	}
	e.f.waitFor("the draw offer's buttons cleared", func(r *request) bool {
		c, ok := jsonPath(r.JSON, "components").([]any)
		return r.Method == "PATCH" && strings.HasPrefix(r.Path, "/webhooks/"+testApp+"/itok-"+draw+"/messages/") && ok && len(c) == 0
	})

	move(alice, "g2-g4")

	// Bob types "Qh": of the queen's moves only d8-h4 reaches the h-file
	// (d8-h4 is open after e7-e5), and it mates: Qh4#.
	ac := e.callback(e.typing(bob, "move", opt{name: "move", typ: 3, value: "Qh", focused: true}))
	cs, _ := jsonPath(ac.JSON, "data", "choices").([]any)
	if jnumReq(ac, "type") != 8 || len(cs) != 1 || jstr(cs[0], "name") != "Qh4# (d8-h4)" {
		t.Fatalf("autocomplete: %s", pretty(ac.JSON))
	}
	mate := move(bob, jstr(cs[0], "value"))
	if text := jstr(mate, "content"); !strings.Contains(text, "Checkmate") || !strings.Contains(text, "Black (Bob) wins") {
		t.Errorf("mate: %q", text)
	}

	// The game is over: another move is refused privately.
	if m, _ := e.answer(e.slash(alice, "move", str("move", "a3"), str("game", game))); jnum(m, "flags") != 64 || !strings.Contains(jstr(m, "content"), "over") {
		t.Errorf("move after mate: %s", pretty(m))
	}
}

// TestTimedUnratedChallenge: /challenge time:5+3 rated:false gives an
// unrated game with a live clock.
func TestTimedUnratedChallenge(t *testing.T) {
	t.Parallel()
	svc, st := newServiceAt(t, filepath.Join(t.TempDir(), "bot.db"))
	e := start(t, svc, nil)

	// Discord offers, and sends, only the options registered.
	opts := []opt{{name: "opponent", typ: 6, value: bob.id}, str("time", "5+3"), {name: "rated", typ: 5, value: false}}
	for _, o := range opts {
		if typ := registeredOption(e, "challenge", o.name); typ != o.typ {
			t.Errorf("/challenge %s: registered with type %d, want %d", o.name, typ, o.typ)
		}
	}
	id := e.slash(alice, "challenge", opts...)
	ch, _ := e.answer(id)
	if text := jstr(ch, "content"); !strings.Contains(text, "5 min each + 3 s per move") || !strings.Contains(text, "unrated") {
		t.Fatalf("challenge: %s", pretty(ch))
	}
	acc, _ := e.answer(e.press(bob, buttons(ch)[0]))
	if !strings.HasPrefix(jstr(acc, "content"), "Game ") {
		t.Fatalf("accept: %s", pretty(acc))
	}
	game := strings.Fields(jstr(acc, "content"))[1]
	g, err := st.Game(game)
	if err != nil {
		t.Fatal(err)
	}
	if g.Rated || g.Clock == nil || g.Clock.Control != "5+3" || g.Clock.Left[0] != 5*time.Minute {
		t.Errorf("game %s: rated %v, clock %+v; want unrated with a 5+3 clock", game, g.Rated, g.Clock)
	}
}

// registeredOption is the type of a command's option as the adapter
// registered it with Discord (0: not registered).
func registeredOption(e *env, command, option string) int {
	put := e.f.waitFor("command registration", func(r *request) bool { return r.Method == "PUT" })
	var cmds []struct {
		Name    string `json:"name"`
		Options []struct {
			Name string `json:"name"`
			Type int    `json:"type"`
		} `json:"options"`
	}
	if err := jsonUnmarshal(put.Raw, &cmds); err != nil {
		e.t.Fatal(err)
	}
	for _, c := range cmds {
		for _, o := range c.Options {
			if c.Name == command && o.Name == option {
				return o.Type
			}
		}
	}
	return 0
}
