// Package crosstest runs the bot's whole command table through each
// platform's end-to-end harness and compares what the users saw with
// what the bot answers when called directly. Every platform is compared
// with the same direct answers, so they agree with each other: an option
// missing on one platform, or an answer a platform mangles, shows up as
// a difference on that platform.
//
// Only the adapters' tests import it.
package crosstest

import (
	"bytes"
	"image"
	"image/png"
	"io"
	"log/slog"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"topochess/bot"
	"topochess/engine"
	"topochess/render"
	"topochess/storage"
)

// Step is one command typed or picked by a user.
type Step struct {
	User    string // "alice" or "bob"
	Command string
	// Values are option values by option name; a user option's value is
	// the user's name.
	Values map[string]string
}

// Typed is the step as typed on a platform without option pickers.
func (s Step) Typed() string {
	spec, _ := bot.CommandByName(s.Command)
	return spec.Typed(s.Values)
}

func (s Step) String() string { return s.User + ": " + s.Typed() }

func step(user, command string, kv ...string) Step {
	s := Step{User: user, Command: command, Values: map[string]string{}}
	for i := 0; i+1 < len(kv); i += 2 {
		s.Values[kv[i]] = kv[i+1]
	}
	return s
}

// Script is a session between alice and bob that uses every command and
// every option of the table at least once (TestScriptCoversTable checks
// it), in an order where each answer means something: challenges made,
// declined, withdrawn and accepted, a game with moves, a takeback asked
// and declined, a draw offered and declined, a resignation, a rematch
// asked and declined, a review, an ambiguous move, a game against the
// computer, a puzzle given up.
func Script() []Step {
	return []Step{
		step("bob", "help"), // on Telegram, bob has now written where the bot is
		step("alice", "variants"),
		step("alice", "rules", "variant", "moebius"),
		step("alice", "rules"), // which one? buttons for each
		step("alice", "settings", "orientation", "black"),
		step("alice", "settings", "orientation", "auto"),
		step("alice", "challenge", "opponent", "bob", "variant", "moebius", "color", "black", "time", "5+3", "rated", "false"),
		step("bob", "decline", "challenge", "c1"),
		step("alice", "challenge", "variant", "standard", "color", "random", "position", "w Ke1,Qd1,ke8 - -"),
		step("alice", "cancel", "challenge", "c2"),
		step("alice", "challenge", "opponent", "bob", "color", "white"),
		step("bob", "accept", "challenge", "c3"),
		step("alice", "moves", "cell", "g1", "game", "#1"),
		step("alice", "move", "move", "e2e4", "game", "#1"),
		step("bob", "board", "game", "#1"),
		step("bob", "move", "move", "e7e5"),
		step("alice", "move", "move", "Nf3"),
		step("alice", "takeback", "answer", "ask", "game", "#1"),
		step("bob", "takeback", "answer", "decline", "game", "#1"),
		step("bob", "draw", "answer", "offer", "game", "#1"),
		step("alice", "draw", "answer", "decline", "game", "#1"),
		step("bob", "move", "move", "Qh4"), // a blunder for the review to find
		step("alice", "games"),
		step("bob", "games", "which", "all"), // a button for each game's picture
		step("alice", "watch", "game", "#1"), // played here: nothing to follow
		step("alice", "pgn", "game", "#1"),
		step("bob", "replay", "game", "#1"),
		step("bob", "resign", "game", "#1"),
		step("alice", "rematch", "game", "#1"),
		step("bob", "decline", "challenge", "c4"),
		step("bob", "review", "game", "#1"), // with what the review posts
		step("bob", "watch", "game", "#1", "follow", "off"),
		step("alice", "history", "player", "bob"),
		step("alice", "leaderboard", "variant", "standard"),
		step("bob", "stats", "player", "alice"),
		step("alice", "challenge", "opponent", "bob", "variant", "moebius"),
		step("bob", "accept"),
		step("alice", "move", "move", "Rd8'"), // either rook: buttons for both
		step("bob", "draw", "answer", "offer"),
		step("alice", "accept"), // a draw offer accepted with /accept
		step("alice", "challenge", "level", "2", "color", "white", "variant", "chess66"),
		step("alice", "board"),
		step("bob", "puzzle", "variant", "standard"),
		step("bob", "puzzle", "move", "giveup"),
		step("alice", "help"),
	}
}

// Start is the fixed time of every session: answers mention clocks.
var Start = time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)

// onePixel is the picture every board becomes: the comparison is about
// texts, and a tiny picture keeps the platforms' uploads fast.
type onePixel struct{ png []byte }

func (p onePixel) PNG(*engine.Position, render.Options) ([]byte, error) { return p.png, nil }

func newPainter() onePixel {
	var b bytes.Buffer
	_ = png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1)))
	return onePixel{png: b.Bytes()}
}

// NewService is the real bot on a fresh bbolt file, set up the same way
// for every platform: a fixed clock, White for the challenger on
// "random", no flood limit, and no bot workers (the computer's moves
// would arrive at their own pace).
func NewService(t testing.TB) *bot.Service {
	t.Helper()
	st, err := storage.Open(filepath.Join(t.TempDir(), "cross.db"), storage.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return bot.New(st, bot.Config{
		Limits: bot.Limits{CommandsPer10s: 100000},
		// A small budget keeps the script's review quick; it is as
		// reproducible as any.
		Review:  bot.ReviewConfig{Depth: 2, Nodes: 2000},
		Painter: newPainter(),
		Now:     func() time.Time { return Start },
		Coin:    func() bool { return true },
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
}

// Seen is what the users of a platform were shown in answer to a step:
// the texts of the messages, and the labels of their buttons.
type Seen struct {
	Texts   []string
	Buttons []string
}

// Reference runs the script on the bot directly, with the options as a
// picker would give them, and returns what each step answers, with what
// the bot posts on its own because of it (a review's results). platform
// and users are as the platform under test presents them (its name
// appears in PGN headers, its display names and mentions in most
// answers).
func Reference(t testing.TB, platform string, users map[string]bot.User) []Seen {
	svc := NewService(t)
	// What the bot posts on its own comes after the command's answers,
	// as the platforms' tests hand it over (Counting.Posted).
	var mu sync.Mutex
	var posted []bot.Reply
	svc.Notify(platform, func(r bot.Reply) {
		mu.Lock()
		posted = append(posted, r)
		mu.Unlock()
	})
	users = maps.Clone(users)
	for name, u := range users {
		u.ID = "reference:" + name // ids never show
		users[name] = u
	}
	var out []Seen
	for _, s := range Script() {
		spec, _ := bot.CommandByName(s.Command)
		cmd := bot.Command{Platform: platform, Channel: platform + ":reference", User: users[s.User], Name: s.Command, Args: map[string]string{}}
		for _, o := range spec.Options {
			v, ok := s.Values[o.Name]
			switch {
			case !ok:
			case o.Type == bot.OptionUser:
				cmd.Mentions = append(cmd.Mentions, users[v])
			default:
				cmd.Args[o.Name] = v
			}
		}
		var seen Seen
		for _, r := range svc.Handle(cmd) {
			seen.add(r)
		}
		svc.WaitBot()
		mu.Lock()
		for _, r := range posted {
			seen.add(r)
		}
		posted = nil
		mu.Unlock()
		out = append(out, seen)
	}
	return out
}

func (s *Seen) add(r bot.Reply) {
	if r.EditOnly() {
		return // no message: platforms show the edited one changed
	}
	s.Texts = append(s.Texts, r.Text)
	for _, b := range r.Buttons {
		s.Buttons = append(s.Buttons, b.Label)
	}
}

// Normalize makes the answers of one step comparable across platforms:
// the texts in order, joined, with runs of white space as one space
// (platforms split long texts and cut captions in their own ways).
func Normalize(texts []string) string {
	return strings.Join(strings.Fields(strings.Join(texts, "\n")), " ")
}

// Check runs the script on one platform. do performs a step as a user of
// the platform would and returns what the users were shown in answer;
// users are alice and bob as the platform names and mentions them. The
// texts must be the bot's, and every button the bot gave must be there
// (a platform may add its own, like Telegram's tap-to-move).
func Check(t *testing.T, platform string, users map[string]bot.User, do func(Step) Seen) {
	t.Helper()
	want := Reference(t, platform, users)
	for i, s := range Script() {
		seen := do(s)
		if got, want := Normalize(seen.Texts), Normalize(want[i].Texts); got != want {
			t.Errorf("%s, step %d (%s):\n got: %q\nwant: %q", platform, i, s, got, want)
		}
		for _, label := range want[i].Buttons {
			if !slices.Contains(seen.Buttons, label) {
				t.Errorf("%s, step %d (%s): no button %q among %q", platform, i, s, label, seen.Buttons)
			}
		}
	}
}

// Covered reports the options of the table the script never uses, as
// "command option" (and "command" for unused commands).
func Covered() (missing []string) {
	used := map[string]bool{}
	for _, s := range Script() {
		used[s.Command] = true
		for k := range s.Values {
			used[s.Command+" "+k] = true
		}
	}
	for _, c := range bot.Commands {
		if !used[c.Name] {
			missing = append(missing, c.Name)
		}
		for _, o := range c.Options {
			if !used[c.Name+" "+o.Name] {
				missing = append(missing, c.Name+" "+o.Name)
			}
		}
	}
	return missing
}

// Counting is the bot with a count of the replies of each command it
// handled, so that a platform's test knows how many messages to wait
// for. Embedding keeps every other method of the service (tap-to-move,
// suggestions) visible to the adapter. Replies that only edit earlier
// messages are not counted: they make no message.
//
// What the bot posts on its own because of a command (a review's
// results) is held until the test has seen the command's answers, and
// then handed to the adapter by Posted: the answer comes first, as it
// does when the bot takes longer than a moment.
type Counting struct {
	*bot.Service
	mu      sync.Mutex
	changed chan struct{}
	counts  []int
	send    func(bot.Reply)
	held    []bot.Reply
}

// Notify holds the replies the bot posts on its own until Posted.
func (c *Counting) Notify(platform string, send func(bot.Reply)) {
	c.mu.Lock()
	c.send = send
	c.mu.Unlock()
	c.Service.Notify(platform, func(r bot.Reply) {
		c.mu.Lock()
		c.held = append(c.held, r)
		c.mu.Unlock()
	})
}

// Posted hands what the bot posted because of the last command to the
// adapter and returns how many messages that makes.
func (c *Counting) Posted() int {
	c.mu.Lock()
	held, send := c.held, c.send
	c.held = nil
	c.mu.Unlock()
	n := 0
	for _, r := range held {
		if !r.EditOnly() {
			n++
		}
		send(r)
	}
	return n
}

// NewCounting wraps a service made by NewService.
func NewCounting(t testing.TB) *Counting {
	return &Counting{Service: NewService(t), changed: make(chan struct{})}
}

func (c *Counting) Handle(cmd bot.Command) []bot.Reply {
	out := c.Service.Handle(cmd)
	n := 0
	for _, r := range out {
		if !r.EditOnly() {
			n++
		}
	}
	// The bot's work off the request path is done before the command
	// counts as handled, so Posted has all of it.
	c.Service.WaitBot()
	c.mu.Lock()
	c.counts = append(c.counts, n)
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
	return out
}

// Handled waits until the n-th command (from 1) was handled and returns
// how many replies it had; ok is false after 20 s without it.
func (c *Counting) Handled(n int) (replies int, ok bool) {
	deadline := time.After(20 * time.Second)
	for {
		c.mu.Lock()
		if len(c.counts) >= n {
			r := c.counts[n-1]
			c.mu.Unlock()
			return r, true
		}
		ch := c.changed
		c.mu.Unlock()
		select {
		case <-ch:
		case <-deadline:
			return 0, false
		}
	}
}
