package bot

import (
	"strings"
	"sync"
	"testing"
)

// followHarness collects what the service posts on its own.
type followHarness struct {
	*harness
	mu     sync.Mutex
	posted []Reply
}

func newFollowHarness(t *testing.T) *followHarness {
	fh := &followHarness{harness: newHarness(t, Limits{CommandsPer10s: 1000})}
	fh.svc.Notify("test", func(r Reply) {
		fh.mu.Lock()
		fh.posted = append(fh.posted, r)
		fh.mu.Unlock()
	})
	return fh
}

// in runs a command in another channel (and server) than the game's.
func (fh *followHarness) in(channel, server, user, line string) []Reply {
	cmd := fh.command(user, line)
	cmd.Channel, cmd.Server = channel, server
	return fh.svc.Handle(cmd)
}

func (fh *followHarness) takePosted() []Reply {
	fh.svc.WaitBot() // also waits for the follow queue
	fh.mu.Lock()
	defer fh.mu.Unlock()
	out := fh.posted
	fh.posted = nil
	return out
}

func TestWatchPostsMovesElsewhere(t *testing.T) {
	fh := newFollowHarness(t)
	id := fh.startGame("moebius")
	rs := fh.in("test:other", "test", "carol", "/watch "+id)
	if len(rs) != 1 || rs[0].Error || !strings.Contains(rs[0].Text, "This channel now follows #1") {
		t.Fatalf("watch: %s", dump(rs))
	}
	checkPNG(t, rs[0])
	if rs := fh.in("test:third", "elsewhere", "carol", "/watch "+id); len(rs) != 1 || !rs[0].Error || !strings.Contains(rs[0].Text, "same server") {
		t.Fatalf("watch from another server: %s", dump(rs))
	}
	fh.refused("carol", "/watch "+id, "is played in this channel")

	fh.ok("alice", "e2e4")
	got := fh.takePosted()
	if len(got) != 1 || got[0].Channel != "test:other" || got[0].Text != "Following #1 (alice vs bob): 1. e4. bob (Black) to move." {
		t.Fatalf("after 1. e4 posted %s", dump(got))
	}
	checkPNG(t, got[0])
	// A draw offer is not a move: nothing is posted.
	fh.ok("bob", "/draw")
	if got := fh.takePosted(); len(got) != 0 {
		t.Fatalf("a draw offer was posted: %s", dump(got))
	}
	fh.ok("bob", "e7e5")
	if got := fh.takePosted(); len(got) != 1 || !strings.Contains(got[0].Text, "1... e5. alice (White) to move.") {
		t.Fatalf("after 1... e5 posted %s", dump(got))
	}
	fh.ok("alice", "/resign")
	got = fh.takePosted()
	if len(got) != 1 || !strings.Contains(got[0].Text, "alice resigned") || !strings.Contains(got[0].Text, "No longer followed here.") {
		t.Fatalf("at the end posted %s", dump(got))
	}
	if f, _ := fh.store.Follows(id); len(f) != 0 {
		t.Fatalf("follows left after the end: %+v", f)
	}
	if rs := fh.in("test:other", "test", "carol", "/watch "+id); len(rs) != 1 || !strings.Contains(rs[0].Text, "over already") {
		t.Fatalf("watching a finished game: %s", dump(rs))
	}
}

func TestWatchOff(t *testing.T) {
	fh := newFollowHarness(t)
	id := fh.startGame("standard")
	fh.in("test:other", "test", "carol", "/watch "+id)
	if rs := fh.in("test:other", "test", "carol", "/watch "+id+" off"); len(rs) != 1 || rs[0].Error {
		t.Fatalf("watch off: %s", dump(rs))
	}
	fh.ok("alice", "e2e4")
	if got := fh.takePosted(); len(got) != 0 {
		t.Fatalf("posted after /watch off: %s", dump(got))
	}
	if rs := fh.in("test:other", "test", "carol", "/watch "+id+" off"); len(rs) != 1 || !rs[0].Error {
		t.Fatalf("second watch off: %s", dump(rs))
	}
}

func TestGamesAll(t *testing.T) {
	fh := newFollowHarness(t)
	if r := fh.ok("carol", "/games all"); !r.Private || !strings.Contains(r.Text, "No game is being played here") {
		t.Fatalf("/games all with no game: %q", r.Text)
	}
	a := fh.startGame("standard")
	fh.ok("carol", "/challenge @dave cube white")
	fh.ok("dave", "/accept")
	r := fh.ok("erin", "/games all")
	if !strings.Contains(r.Text, "Games being played here (2):") || !strings.Contains(r.Text, "#2: Cube chess") || len(r.Buttons) != 2 {
		t.Fatalf("/games all: %s", dump([]Reply{r}))
	}
	rs := fh.press("erin", r.Buttons[0])
	if len(rs) != 1 || !strings.HasPrefix(rs[0].Text, a+" · Standard chess") {
		t.Fatalf("Show %s: %s", a, dump(rs))
	}
	checkPNG(t, rs[0])
}

// TestAfterOptions: the options platforms with slash commands send
// (Discord) do what the typed words do.
func TestAfterOptions(t *testing.T) {
	fh := newFollowHarness(t)
	id := fh.startGame("standard")
	opt := func(user, name, channel string, args map[string]string) []Reply {
		cmd := fh.command(user, "")
		cmd.Name, cmd.Text, cmd.Args, cmd.Channel = name, "", args, channel
		return fh.svc.Handle(cmd)
	}
	if rs := opt("erin", "games", "test:chan", map[string]string{"which": "all"}); len(rs) != 1 || !strings.Contains(rs[0].Text, "Games being played here (1)") {
		t.Fatalf("games which:all: %s", dump(rs))
	}
	opt("carol", "watch", "test:other", map[string]string{"game": id})
	if rs := opt("carol", "watch", "test:other", map[string]string{"game": id, "follow": "off"}); len(rs) != 1 || !strings.Contains(rs[0].Text, "no longer follows") {
		t.Fatalf("watch follow:off: %s", dump(rs))
	}
	pz := givenPuzzle(t, fh.harness, "dave", "klein")
	if rs := opt("dave", "puzzle", "test:chan", map[string]string{"move": pz.Line[0]}); len(rs) != 1 || rs[0].Error {
		t.Fatalf("puzzle move: %s", dump(rs))
	}
}

// TestWatchGameAgainstTheComputer: the computer's moves reach the
// following channel too.
func TestWatchGameAgainstTheComputer(t *testing.T) {
	bh := newBotHarness(t, BotConfig{Level: budgetLevels, Seed: 1})
	id := bh.startBotGame("alice", "level:2 white")
	cmd := bh.command("carol", "/watch "+id)
	cmd.Channel = "test:other"
	if rs := bh.svc.Handle(cmd); len(rs) != 1 || rs[0].Error {
		t.Fatalf("watch: %s", dump(rs))
	}
	bh.ok("alice", "e2e4")
	var here, there int
	for _, r := range bh.settle() {
		switch {
		case r.Channel == "test:chan" && strings.HasPrefix(r.Text, id+" · 1... "):
			here++
		case r.Channel == "test:other" && strings.HasPrefix(r.Text, "Following "+id):
			there++
		}
	}
	// The other channel sees alice's move and the computer's answer.
	if here != 1 || there != 2 {
		t.Fatalf("posts: %d in the game's channel, %d in the following one", here, there)
	}
}
