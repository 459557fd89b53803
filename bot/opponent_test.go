package bot

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"topochess/engine"
	"topochess/engine/search"
	"topochess/render"
)

// budgetLevels are the playing levels with node budgets instead of
// clocks, so that games against the bot are fast and reproducible.
func budgetLevels(level int) (search.Config, error) {
	cfg, err := search.Level(level)
	cfg.Time = 0
	if cfg.Nodes == 0 || cfg.Nodes > 3000 {
		cfg.Nodes = 3000
	}
	return cfg, err
}

// endlessLevels search until cancelled: a bot that is always thinking.
func endlessLevels(level int) (search.Config, error) {
	return search.Config{Level: level}, nil
}

// botHarness is a harness whose service runs the bot opponent, with a
// sender that collects what the bot posts on its own.
type botHarness struct {
	*harness
	sentMu sync.Mutex
	sent   []Reply
	stop   context.CancelFunc
	wait   func()
}

func newBotHarness(t *testing.T, bc BotConfig) *botHarness {
	t.Helper()
	h := &harness{t: t, path: filepath.Join(t.TempDir(), "bot.db"), now: t0}
	h.cfg = Config{
		Limits:  Limits{CommandsPer10s: 10000},
		Painter: &render.Renderer{Long: 64},
		Now:     h.clock,
		Coin:    func() bool { return true },
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
		Bot:     bc,
	}
	h.open()
	bh := &botHarness{harness: h}
	bh.start()
	return bh
}

// start runs the bot's workers on the current service.
func (bh *botHarness) start() {
	bh.svc.Notify("test", func(r Reply) {
		bh.sentMu.Lock()
		bh.sent = append(bh.sent, r)
		bh.sentMu.Unlock()
	})
	ctx, cancel := context.WithCancel(context.Background())
	bh.stop, bh.wait = cancel, bh.svc.StartBot(ctx)
	bh.t.Cleanup(bh.shutdown)
}

// shutdown stops the workers and waits for them (as serve does).
func (bh *botHarness) shutdown() {
	bh.stop()
	done := make(chan struct{})
	go func() { bh.wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		bh.t.Fatal("bot workers did not stop")
	}
}

// restart shuts the bot down, closes and reopens the database with a
// new service and bot configuration, and starts the bot again.
func (bh *botHarness) restart(bc BotConfig) {
	bh.shutdown()
	bh.cfg.Bot = bc
	bh.harness.restart()
	bh.start()
}

// settle waits until the bot has answered and returns what it posted
// since the last call.
func (bh *botHarness) settle() []Reply {
	bh.t.Helper()
	done := make(chan struct{})
	go func() { bh.svc.WaitBot(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		bh.t.Fatal("the bot did not answer within a minute")
	}
	bh.sentMu.Lock()
	defer bh.sentMu.Unlock()
	out := bh.sent
	bh.sent = nil
	return out
}

// waitRunning waits until n searches are running.
func (bh *botHarness) waitRunning(n int) {
	bh.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		bh.svc.ai.mu.Lock()
		running := bh.svc.ai.running
		bh.svc.ai.mu.Unlock()
		if running == n {
			return
		}
		if time.Now().After(deadline) {
			bh.t.Fatalf("%d searches running, want %d", running, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// position replays a stored game.
func (bh *botHarness) position(id string) *engine.Position {
	bh.t.Helper()
	g, err := replay(bh.game(id))
	if err != nil {
		bh.t.Fatal(err)
	}
	return g.Position()
}

// startBotGame challenges the bot and returns the game id.
func (bh *botHarness) startBotGame(user, args string) string {
	bh.t.Helper()
	r := bh.ok(user, "/challenge bot "+args)
	checkPNG(bh.t, r)
	f := strings.Fields(r.Text)
	if len(f) < 2 || f[0] != "Game" {
		bh.t.Fatalf("unexpected start reply %q", r.Text)
	}
	return f[1]
}

// checkBotReply checks one asynchronous answer of the bot in game id.
func checkBotReply(t *testing.T, rs []Reply, id, human string) Reply {
	t.Helper()
	if len(rs) != 1 {
		t.Fatalf("bot posted %d replies, want 1:%s", len(rs), dump(rs))
	}
	r := rs[0]
	if r.Channel != "test:chan" || r.Private || r.Error || !strings.HasPrefix(r.Text, id+" · ") {
		t.Fatalf("bot reply %+v", r)
	}
	if !slices.Contains(r.Mentions, "test:"+human) || !strings.Contains(r.Text, "@"+human) {
		t.Fatalf("bot reply does not mention %s: %q %v", human, r.Text, r.Mentions)
	}
	checkPNG(t, r)
	if r.Image.Game != id {
		t.Fatalf("picture of game %q, want %q", r.Image.Game, id)
	}
	return r
}

// playAgainstBot plays random legal moves for alice (White) against the
// bot until the game ends or maxPlies, checking every answer of the bot
// against the legal moves of the position it answered. It returns the
// number of bot moves.
func playAgainstBot(t *testing.T, bh *botHarness, id string, seed uint64, maxPlies int) int {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	botMoves := 0
	for len(bh.game(id).Moves) < maxPlies && bh.game(id).Active() {
		pos := bh.position(id)
		legal := pos.CanonicalMoves()
		mv := legal[rng.IntN(len(legal))]
		plies := len(bh.game(id).Moves)
		r := bh.ok("alice", "/move "+mv)
		checkPNG(t, r)
		got := bh.settle()
		rec := bh.game(id)
		if len(rec.Moves) == plies+1 { // alice's move ended the game
			if rec.Active() || len(got) != 0 || strings.Contains(r.Text, "thinking") {
				t.Fatalf("after alice's %s (result %q): %q, and the bot posted:%s", mv, rec.Result, r.Text, dump(got))
			}
			break
		}
		if !strings.Contains(r.Text, "is thinking…") || len(r.Mentions) != 0 {
			t.Fatalf("reply to alice's move %s: %q mentions %v", mv, r.Text, r.Mentions)
		}
		checkBotReply(t, got, id, "alice")
		// The bot's move is checked against the legal moves of the
		// position it answered, computed here independently of the
		// search.
		before, err := engine.Replay(pos.V, rec.Start, rec.Moves[:len(rec.Moves)-1])
		if err != nil {
			t.Fatal(err)
		}
		legalBot := before.Position().CanonicalMoves()
		last := rec.Moves[len(rec.Moves)-1]
		if !slices.Contains(legalBot, last) {
			t.Fatalf("bot played %s, not among the legal moves %v", last, legalBot)
		}
		botMoves++
	}
	return botMoves
}

func TestBotWholeGames(t *testing.T) {
	cases := []struct {
		variant string
		level   int
		plies   int
	}{
		{"standard", 1, 400},
		{"standard", 5, 400},
	}
	// Every variant at a low level, a few moves each (Heisenberg's
	// observed moves included).
	for i, v := range engine.Variants() {
		cases = append(cases, struct {
			variant string
			level   int
			plies   int
		}{v, 1 + i%3, 16})
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s-level%d", tc.variant, tc.level), func(t *testing.T) {
			bh := newBotHarness(t, BotConfig{Level: budgetLevels, Seed: 1})
			id := bh.startBotGame("alice", fmt.Sprintf("%s level:%d white", tc.variant, tc.level))
			rec := bh.game(id)
			if rec.Rated || rec.BotLevel != tc.level || rec.White.ID != "test:alice" || rec.Black.ID != BotID || rec.Black.Name != fmt.Sprintf("topochess (level %d)", tc.level) {
				t.Fatalf("game record %+v", rec)
			}
			n := playAgainstBot(t, bh, id, uint64(tc.level), tc.plies)
			if n == 0 {
				t.Fatal("the bot never moved")
			}
			rec = bh.game(id)
			if rec.Active() {
				bh.ok("alice", "/resign")
				rec = bh.game(id)
			}
			if rec.Active() || rec.Rating != nil {
				t.Fatalf("finished game: result %q, rating %+v", rec.Result, rec.Rating)
			}
			// Games against the bot leave ratings alone.
			for _, u := range []string{"test:alice", BotID} {
				if rs, err := bh.store.UserRatings(u); err != nil || len(rs) != 0 {
					t.Fatalf("ratings of %s after a game against the bot: %+v, %v", u, rs, err)
				}
			}
			t.Logf("%s: %d moves, %s %s", id, len(rec.Moves), rec.Result, rec.Reason)
		})
	}
}

func TestBotChallenge(t *testing.T) {
	bh := newBotHarness(t, BotConfig{Level: budgetLevels, Seed: 1, MaxLevel: 4})
	for _, tc := range []struct {
		line    string
		variant string
		level   int
		white   bool // alice plays White
	}{
		{"/challenge bot", "standard", 3, true},
		{"/challenge @bot moebius level:2 black", "moebius", 2, false},
		{"/challenge level:4 heisenberg", "heisenberg", 4, true},
		{"/challenge computer toroidal 1 white", "toroidal", 1, true},
		{"/challenge vs:bot chess66 color:black lvl:3 rated:false", "chess66", 3, false},
	} {
		r := bh.ok("alice", tc.line)
		id := strings.Fields(r.Text)[1]
		rec := bh.game(id)
		bot := rec.Black
		if !tc.white {
			bot = rec.White
		}
		if rec.Variant != tc.variant || rec.BotLevel != tc.level || bot.ID != BotID || rec.Rated || rec.Clock != nil {
			t.Errorf("%s: game %+v", tc.line, rec)
		}
		if tc.white != strings.Contains(r.Text, "your move") || tc.white == strings.Contains(r.Text, "thinking…") {
			t.Errorf("%s: start reply %q", tc.line, r.Text)
		}
		if !tc.white {
			checkBotReply(t, bh.settle(), id, "alice")
		}
		bh.ok("alice", "/resign game:"+id)
	}
	for _, tc := range []struct{ line, want string }{
		{"/challenge bot level:9", "from 1 (easiest) to 5"},
		{"/challenge bot level:x", "not \"x\""},
		{"/challenge bot level:5", "up to level 4"},
		{"/challenge bot time:5+3", "no clock"},
		{"/challenge bot 1d", "no clock"},
		{"/challenge bot rated:true", "never rated"},
		{"/challenge bot nowhere", "I don't know the variant"},
		{"/challenge bot standard extra", "did not understand"},
		{"/challenge @bob level:3", "level: is for games against the computer"},
	} {
		bh.refused("alice", tc.line, tc.want)
	}
}

func TestBotResignCancelsSearch(t *testing.T) {
	bh := newBotHarness(t, BotConfig{Level: endlessLevels, Seed: 1})
	id := bh.startBotGame("alice", "white level:5")
	bh.ok("alice", "/move e2e4")
	bh.waitRunning(1)
	start := time.Now()
	r := bh.ok("alice", "/resign")
	if !strings.Contains(r.Text, "resigned") {
		t.Fatalf("resign reply %q", r.Text)
	}
	if got := bh.settle(); len(got) != 0 {
		t.Fatalf("the bot answered after the resignation:%s", dump(got))
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the search went on for %v after the resignation", d)
	}
	if rec := bh.game(id); len(rec.Moves) != 1 || rec.Result != "0-1" {
		t.Fatalf("after resigning: moves %v, result %q", rec.Moves, rec.Result)
	}
}

func TestBotShutdownAndRestartResume(t *testing.T) {
	bh := newBotHarness(t, BotConfig{Level: endlessLevels, Seed: 1})
	id := bh.startBotGame("alice", "white level:3")
	bh.ok("alice", "/move d2d4")
	bh.waitRunning(1)
	// Shutdown cancels the running search and waits for the workers; the
	// game stays as it was, the bot to move.
	bh.shutdown()
	if rec := bh.game(id); len(rec.Moves) != 1 || !rec.Active() {
		t.Fatalf("after shutdown: %+v", rec)
	}
	bh.sentMu.Lock()
	if len(bh.sent) != 0 {
		t.Fatalf("a cancelled search was delivered:%s", dump(bh.sent))
	}
	bh.sentMu.Unlock()
	// A new service on the reopened database picks the game up by itself.
	bh.restart(BotConfig{Level: budgetLevels, Seed: 1})
	checkBotReply(t, bh.settle(), id, "alice")
	if rec := bh.game(id); len(rec.Moves) != 2 {
		t.Fatalf("after restart: moves %v", rec.Moves)
	}
	bh.ok("alice", "/move "+bh.position(id).CanonicalMoves()[0])
	checkBotReply(t, bh.settle(), id, "alice")
}

func TestBotRepliesWaitForTheirSender(t *testing.T) {
	// A resumed game can be answered before the adapters are up: the
	// reply is held until the platform registers its sender.
	h := &harness{t: t, path: filepath.Join(t.TempDir(), "bot.db"), now: t0}
	h.cfg = Config{Painter: &render.Renderer{Long: 64}, Now: h.clock, Coin: func() bool { return false },
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Bot: BotConfig{Level: budgetLevels, Seed: 1}}
	h.open()
	id := strings.Fields(h.ok("alice", "/challenge bot").Text)[1] // the coin gives the bot White
	ctx, cancel := context.WithCancel(context.Background())
	wait := h.svc.StartBot(ctx)
	defer func() { cancel(); wait() }()
	h.svc.WaitBot()
	if len(h.game(id).Moves) != 1 {
		t.Fatalf("the bot did not open the game: %v", h.game(id).Moves)
	}
	var got []Reply
	h.svc.Notify("test", func(r Reply) { got = append(got, r) })
	checkBotReply(t, got, id, "alice")
}

func TestBotTakebackIsImmediate(t *testing.T) {
	t.Run("after the answer", func(t *testing.T) {
		bh := newBotHarness(t, BotConfig{Level: budgetLevels, Seed: 1})
		id := bh.startBotGame("alice", "white level:2")
		bh.ok("alice", "/move e2e4")
		checkBotReply(t, bh.settle(), id, "alice")
		bh.ok("alice", "/move "+bh.position(id).CanonicalMoves()[0])
		checkBotReply(t, bh.settle(), id, "alice")
		r := bh.ok("alice", "/takeback")
		if !strings.Contains(r.Text, "your last move and the computer's answer are taken back") || !strings.Contains(r.Text, "@alice, your move") {
			t.Fatalf("takeback reply %q", r.Text)
		}
		checkPNG(t, r)
		if rec := bh.game(id); len(rec.Moves) != 2 || rec.TakebackOffer != "" {
			t.Fatalf("after takeback: moves %v, offer %q", rec.Moves, rec.TakebackOffer)
		}
		if got := bh.settle(); len(got) != 0 {
			t.Fatalf("the bot moved after the takeback:%s", dump(got))
		}
	})
	t.Run("while thinking", func(t *testing.T) {
		bh := newBotHarness(t, BotConfig{Level: endlessLevels, Seed: 1})
		id := bh.startBotGame("alice", "white")
		bh.ok("alice", "/move e2e4")
		bh.waitRunning(1)
		r := bh.ok("alice", "/takeback")
		if !strings.Contains(r.Text, "had not answered yet") {
			t.Fatalf("takeback reply %q", r.Text)
		}
		if got := bh.settle(); len(got) != 0 {
			t.Fatalf("the bot moved after the takeback:%s", dump(got))
		}
		if rec := bh.game(id); len(rec.Moves) != 0 || !rec.Active() {
			t.Fatalf("after takeback: %+v", rec)
		}
	})
	t.Run("nothing to take back", func(t *testing.T) {
		bh := newBotHarness(t, BotConfig{Level: budgetLevels, Seed: 1})
		id := bh.startBotGame("alice", "black level:1")
		checkBotReply(t, bh.settle(), id, "alice")
		bh.refused("alice", "/takeback", "nothing to take back")
		bh.refused("alice", "/takeback accept", "never asks for takebacks")
	})
}

func TestBotDeclinesDraws(t *testing.T) {
	bh := newBotHarness(t, BotConfig{Level: budgetLevels, Seed: 1})
	id := bh.startBotGame("alice", "white level:1")
	r := bh.ok("alice", "/draw")
	if !strings.Contains(r.Text, "declines the draw") || r.Error {
		t.Fatalf("draw reply %q", r.Text)
	}
	if rec := bh.game(id); rec.DrawOffer != "" || !rec.Active() {
		t.Fatalf("after the draw offer: %+v", rec)
	}
	bh.refused("alice", "/draw accept", "never offers draws")
}

func TestBotAnswersConcurrentGames(t *testing.T) {
	bh := newBotHarness(t, BotConfig{Level: budgetLevels, Seed: 1, Workers: 2})
	players := []string{"alice", "carol", "dave", "erin"}
	ids := map[string]string{}
	for _, p := range players {
		ids[p] = bh.startBotGame(p, "white level:4")
	}
	for round := 0; round < 3; round++ {
		var wg sync.WaitGroup
		for _, p := range players {
			wg.Add(1)
			go func() {
				defer wg.Done()
				legal := bh.position(ids[p]).CanonicalMoves()
				rs := bh.do(p, fmt.Sprintf("/move game:%s %s", ids[p], legal[round%len(legal)]))
				if len(rs) != 1 || rs[0].Error {
					t.Errorf("%s: %s", p, dump(rs))
				}
			}()
		}
		wg.Wait()
		got := bh.settle()
		if len(got) != len(players) {
			t.Fatalf("round %d: %d answers for %d games:%s", round, len(got), len(players), dump(got))
		}
		for _, p := range players {
			if n := len(bh.game(ids[p]).Moves); n != 2*(round+1) {
				t.Fatalf("round %d: game of %s has %d moves", round, p, n)
			}
		}
	}
}
