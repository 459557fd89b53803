package telegram

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"topochess/engine"
)

// tgBudget makes the fake enforce Telegram's sending limits the way
// Telegram does, with a 429 and retry_after: at most `group` messages
// (edits included) to one group per window, and no two calls to one chat
// closer than perChat. Times are those of the requests' arrival.
type tgBudget struct {
	perChat time.Duration
	group   int
	window  time.Duration
	unit    time.Duration // one second of retry_after

	mu       sync.Mutex
	calls    map[string][]time.Time
	refusals int
}

// limited are the calls Telegram counts against a chat's budget.
var limited = map[string]bool{"sendMessage": true, "sendPhoto": true, "sendAnimation": true, "sendDocument": true, "editMessageReplyMarkup": true}

// admit books a call, or says how long it must wait.
func (b *tgBudget) admit(chat string, at time.Time) (time.Duration, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ts := b.calls[chat]
	for len(ts) > 0 && !ts[0].Add(b.window).After(at) {
		ts = ts[1:]
	}
	wait := time.Duration(0)
	if n := len(ts); n > 0 && at.Sub(ts[n-1]) < b.perChat {
		wait = b.perChat - at.Sub(ts[n-1])
	}
	if strings.HasPrefix(chat, "-") && len(ts) >= b.group {
		wait = max(wait, ts[len(ts)-b.group].Add(b.window).Sub(at))
	}
	if wait > 0 {
		b.refusals++
		b.calls[chat] = ts
		return wait, false
	}
	b.calls[chat] = append(ts, at)
	return 0, true
}

// enforce turns the limits on. Telegram's model — 1 message a second per
// chat, 20 a minute per group — is kept at the scale of one "second" =
// perChat; the adapter is given the same limits.
func (f *fakeAPI) enforce(perChat time.Duration) *tgBudget {
	b := &tgBudget{perChat: perChat, group: 20, window: 60 * perChat, unit: 20 * time.Millisecond, calls: map[string][]time.Time{}}
	f.mu.Lock()
	f.budget = b
	f.mu.Unlock()
	return b
}

// tgLimits are the adapter's limits matching tgBudget. Requests reach the
// fake a little after the adapter books them, so the adapter keeps a
// little margin.
func tgLimits(perChat time.Duration) Limits {
	return Limits{PerChat: perChat + perChat/5, GroupMessages: 20, GroupWindow: 60*perChat + 3*perChat, Global: 30, GlobalWindow: perChat}
}

// legalLine is a line of n moves (SAN) of standard chess that does not
// end the game, chosen at random from a fixed seed.
func legalLine(t *testing.T, n int) []string {
	t.Helper()
	g, err := engine.NewGame(engine.MustVariant("standard"), "")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	var out []string
	for len(out) < n {
		ms := g.Position().LegalMoves()
		rng.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
		played := false
		for _, m := range ms {
			san := g.Position().SAN(m)
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
			if !g.Over() {
				out = append(out, strings.TrimRight(san, "+#"))
				played = true
				break
			}
			g.Undo(1)
		}
		if !played {
			t.Fatal("no move keeps the game going")
		}
	}
	return out
}

// moveCaption is how the picture after ply i (from 0) names its move.
func moveCaption(i int, san string) string {
	if i%2 == 0 {
		return strconv.Itoa(i/2+1) + ". " + san
	}
	return strconv.Itoa(i/2+1) + "... " + san
}

// TestGroupGameAtTypingPace plays a group game as fast as the players can
// read the prompt, through a fake that enforces Telegram's limits, and
// measures the moves per minute. Keyboard edits count against the group's
// 20 messages a minute; if every move spends one on the old picture's
// button, a game manages only 10 moves a minute.
func TestGroupGameAtTypingPace(t *testing.T) {
	// Telegram's second, here: long enough that drawing and storing a
	// move (under -race, on a busy machine) stays well within the 3 s a
	// move may take at 20 a minute.
	const u = 100 * time.Millisecond
	f := newFakeAPI(t)
	budget := f.enforce(u)
	start(t, f, newService(t), func(c *Config) { c.Limits = tgLimits(u) })
	g := game{t, f}
	startGroupGame(t, g)

	const plies = 44
	line := legalLine(t, plies)
	at := make([]time.Time, plies)
	for i, san := range line {
		who := alice
		if i%2 == 1 {
			who = bob
		}
		m := g.mark()
		f.say(who, group, san)
		p, _ := g.photo(m, moveCaption(i, san))
		at[i] = p.At
	}
	// Past the first minute's burst, the pace is what the budget allows.
	first, last := plies-21, plies-1
	perMinute := float64(last-first) / (float64(at[last].Sub(at[first])) / float64(60*u))
	t.Logf("%.1f moves per minute in the group (Telegram allows 20 messages a minute); %d calls refused by the fake", perMinute, budget.refusals)
	if perMinute < 17 {
		t.Errorf("%.1f moves per minute; the group's budget allows about 20", perMinute)
	}
	// The old pictures' buttons start to go once the players pause.
	mark := g.mark()
	f.waitFor("a Move button of an old picture removed", func(reqs []apiRequest) bool {
		for _, r := range reqs[mark:] {
			if r.Method == "editMessageReplyMarkup" && r.Params["reply_markup"] == `{"inline_keyboard":[]}` {
				return true
			}
		}
		return false
	})
}

// TestEightMovesInASecond: eight moves typed within a second in a group
// all arrive, in order, each with its picture, and the pictures go before
// the keyboard edits that tidy the older ones.
func TestEightMovesInASecond(t *testing.T) {
	const u = 80 * time.Millisecond
	f := newFakeAPI(t)
	budget := f.enforce(u)
	start(t, f, newService(t), func(c *Config) { c.Limits = tgLimits(u) })
	g := game{t, f}
	startGroupGame(t, g)

	line := []string{"e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "d3", "d6"}
	m := g.mark()
	for i, san := range line {
		who := alice
		if i%2 == 1 {
			who = bob
		}
		f.say(who, group, san) // a "second" here is u: all within one
	}
	f.waitFor("eight pictures", func([]apiRequest) bool { return len(f.captions(group)) >= len(line)+1 })
	var photos []apiRequest // the attempts that went through (a 429 leaves none)
	for _, p := range f.requests()[m:] {
		if p.Method == "sendPhoto" && p.Status == 200 {
			photos = append(photos, p)
		}
	}
	lastPhoto := photos[len(photos)-1].At
	for i, p := range photos {
		if want := moveCaption(i, line[i]); !strings.Contains(p.Params["caption"], want) {
			t.Errorf("picture %d says %q, want %q", i, p.Params["caption"], want)
		}
		if !strings.HasPrefix(string(p.File), string(pngMagic)) {
			t.Errorf("picture %d is not a PNG", i)
		}
	}
	time.Sleep(20 * u)
	caps := f.captions(group)
	if len(caps) != len(line)+1 || len(photos) != len(line) {
		t.Errorf("%d pictures in the chat (%d sent), want %d:\n%s", len(caps), len(photos), len(line)+1, strings.Join(caps, "\n"))
	}
	edits := 0
	for _, r := range f.requests()[m:] {
		if r.Method == "editMessageReplyMarkup" && r.At.Before(lastPhoto) {
			edits++
		}
	}
	if edits > 0 {
		t.Errorf("%d keyboard edits went before the last move's picture", edits)
	}
	t.Logf("last picture %v after the first move; %d calls refused by the fake", lastPhoto.Sub(photos[0].At), budget.refusals)
}
