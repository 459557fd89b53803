package bot

import (
	"bytes"
	"context"
	"image/gif"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"topochess/bot/rating"
	"topochess/engine"
)

// timedGame starts a game between alice (White) and bob with extra
// challenge options ("time:1d", "rated:false").
func (h *harness) timedGame(opts string) string {
	h.t.Helper()
	h.ok("alice", "/challenge @bob white "+opts)
	r := h.ok("bob", "/accept")
	return strings.Fields(r.Text)[1]
}

func (h *harness) tick() []Reply {
	h.t.Helper()
	return h.svc.Tick(h.clock())
}

// A correspondence game survives a restart: the deadlines are in storage,
// a new service finds them, reminds at half and 90 % of the day and ends
// the game on time at the deadline.
func TestCorrespondenceAcrossRestart(t *testing.T) {
	h := newHarness(t, Limits{})
	id := h.timedGame("time:1d")
	r := h.ok("alice", "e4")
	if !strings.Contains(r.Text, "left for this move") {
		t.Errorf("caption %q shows no deadline", r.Text)
	}
	moved := h.clock() // Black's day starts here
	if rs := h.tick(); len(rs) != 0 {
		t.Fatalf("tick right after a move: %s", dump(rs))
	}
	h.restart()
	h.advance(11 * time.Hour)
	if rs := h.tick(); len(rs) != 0 {
		t.Fatalf("tick before half the deadline: %s", dump(rs))
	}
	h.advance(time.Hour)
	rs := h.tick()
	if len(rs) != 1 || !slices.Equal(rs[0].Mentions, []string{"test:bob"}) || !strings.Contains(rs[0].Text, "reminder") || rs[0].Channel != "test:chan" {
		t.Fatalf("half-time reminder: %s", dump(rs))
	}
	if rs := h.tick(); len(rs) != 0 {
		t.Fatalf("the reminder came twice: %s", dump(rs))
	}
	h.restart()
	h.advance(moved.Add(21*time.Hour+36*time.Minute).Sub(h.clock()) - time.Second) // just before 90 %
	if rs := h.tick(); len(rs) != 0 {
		t.Fatalf("tick before 90 %%: %s", dump(rs))
	}
	h.advance(2 * time.Second)
	if rs := h.tick(); len(rs) != 1 || !strings.Contains(rs[0].Text, "@bob") {
		t.Fatalf("90 %% reminder: %s", dump(rs))
	}
	h.restart()
	h.advance(moved.Add(24 * time.Hour).Sub(h.clock()))
	rs = h.tick()
	if len(rs) != 1 || !strings.Contains(rs[0].Text, "ran out of time") || rs[0].Image == nil {
		t.Fatalf("loss on time: %s", dump(rs))
	}
	g := h.game(id)
	if g.Result != "1-0" || g.Reason != string(engine.ReasonTime) || g.Active() {
		t.Fatalf("stored %q %q", g.Result, g.Reason)
	}
	if rs := h.tick(); len(rs) != 0 {
		t.Fatalf("a finished game still ticks: %s", dump(rs))
	}
	h.refused("bob", "/move e5 game:"+id, "is over")
}

// A move after the deadline is refused: the game is lost on time even if
// the scheduler has not run yet. Reminders missed while the bot was down
// come as one.
func TestLateMoveLosesOnTime(t *testing.T) {
	h := newHarness(t, Limits{})
	id := h.timedGame("time:2h")
	h.restart()
	h.advance(110 * time.Minute) // past 90 % with no tick in between
	if rs := h.tick(); len(rs) != 1 || !strings.Contains(rs[0].Text, "@alice") {
		t.Fatalf("catch-up reminder: %s", dump(rs))
	}
	h.advance(10 * time.Minute)
	rs := h.do("alice", "e4")
	if len(rs) != 1 || !strings.Contains(rs[0].Text, "ran out of time") {
		t.Fatalf("late move: %s", dump(rs))
	}
	if g := h.game(id); g.Result != "0-1" || len(g.Moves) != 0 {
		t.Fatalf("stored %q with moves %v", g.Result, g.Moves)
	}
}

// Fischer 1+2: thinking time is charged, the increment added, and the
// flag falls when a side's time is used up.
func TestLiveClock(t *testing.T) {
	h := newHarness(t, Limits{})
	id := h.timedGame("1+2")
	h.advance(9 * time.Second)
	h.ok("alice", "e4") // 10 s used (the command adds one), +2: 52 s left
	h.advance(19 * time.Second)
	r := h.ok("bob", "e5") // 20 s used, +2: 42 s left
	if !strings.Contains(r.Text, "White 0:52 · Black 0:42") {
		t.Errorf("caption %q, want White 0:52 · Black 0:42", r.Text)
	}
	g := h.game(id)
	if g.Clock == nil || g.Clock.Left != [2]time.Duration{52 * time.Second, 42 * time.Second} {
		t.Fatalf("stored clock %+v", g.Clock)
	}
	h.advance(51 * time.Second)
	if rs := h.tick(); len(rs) != 0 {
		t.Fatalf("flag before the time is up: %s", dump(rs))
	}
	h.advance(time.Second)
	rs := h.tick()
	if len(rs) != 1 || !strings.Contains(rs[0].Text, "@alice (White) ran out of time") {
		t.Fatalf("flag: %s", dump(rs))
	}
	if g := h.game(id); g.Result != "0-1" {
		t.Fatalf("stored %q", g.Result)
	}
}

// Losing on time against a lone king is a draw: it cannot mate.
func TestFlagAgainstLoneKing(t *testing.T) {
	h := newHarness(t, Limits{})
	id := h.timedGame("time:1h")
	rec := h.game(id)
	rec.Start = "4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1"
	if err := h.store.SaveGame(rec, "", h.clock()); err != nil {
		t.Fatal(err)
	}
	h.advance(time.Hour)
	rs := h.tick()
	if len(rs) != 1 {
		t.Fatalf("flag: %s", dump(rs))
	}
	if g := h.game(id); g.Result != "1/2-1/2" || g.Reason != string(engine.ReasonTime) {
		t.Fatalf("stored %q %q", g.Result, g.Reason)
	}
}

func TestChallengeTimeAndRatedOptions(t *testing.T) {
	h := newHarness(t, Limits{})
	h.refused("alice", "/challenge @bob time:5s", "not a time control")
	h.refused("alice", "/challenge @bob time:1m", "between 10 min")
	h.refused("alice", "/challenge @bob rated:maybe", "rated:")
	r := h.ok("alice", "/challenge @bob moebius 3d rated:false")
	if !strings.Contains(r.Text, "3 days per move") || !strings.Contains(r.Text, "unrated") || !strings.Contains(r.Text, "Möbius") {
		t.Errorf("challenge text %q", r.Text)
	}
	h.ok("bob", "/accept")
	g := h.game("#1")
	if g.Rated || g.Clock == nil || g.Clock.Control != "3d" || g.Variant != "moebius" {
		t.Fatalf("stored game %+v clock %+v", g, g.Clock)
	}
}

// /takeback asks the opponent with buttons; accepting takes back the
// asker's last move (and the reply to it, if any); refusing keeps the game.
func TestTakeback(t *testing.T) {
	h := newHarness(t, Limits{})
	id := h.timedGame("time:1d")
	h.refused("alice", "/takeback", "nothing to take back")
	h.ok("alice", "e4")
	h.ok("bob", "e5")
	h.ok("alice", "Nf3")
	r := h.ok("bob", "/takeback")
	if len(r.Buttons) != 2 || r.Buttons[0].For != "test:alice" || r.Key != "takeback:"+id {
		t.Fatalf("takeback request: %s %+v", dump([]Reply{r}), r.Buttons)
	}
	h.refused("bob", "/takeback accept", "your own")
	h.refused("bob", "/takeback", "already asked")
	h.advance(5 * time.Hour)
	rs := h.press("alice", r.Buttons[0])
	if len(rs) != 1 || rs[0].Error || !strings.Contains(rs[0].Text, "last 2 moves are taken back") || !slices.Contains(rs[0].Supersedes, r.Key) {
		t.Fatalf("accept: %s", dump(rs))
	}
	g := h.game(id)
	if !slices.Equal(g.Moves, []string{"e2-e4"}) || g.TakebackOffer != "" {
		t.Fatalf("after takeback: moves %v offer %q", g.Moves, g.TakebackOffer)
	}
	// Bob's deadline starts afresh at the takeback.
	if want := h.clock().Add(12 * time.Hour); !g.Clock.Due.Equal(want) {
		t.Errorf("next due %v, want %v", g.Clock.Due, want)
	}
	// Bob asks again right after his move: only that move goes.
	h.ok("bob", "d5")
	h.ok("bob", "/takeback")
	rs = h.do("alice", "/takeback no")
	if len(rs) != 1 || rs[0].Error || !strings.Contains(rs[0].Text, "refuses") {
		t.Fatalf("decline: %s", dump(rs))
	}
	h.ok("bob", "/takeback")
	h.ok("alice", "/takeback yes")
	if g := h.game(id); !slices.Equal(g.Moves, []string{"e2-e4"}) {
		t.Fatalf("after the second takeback: %v", g.Moves)
	}
	// A move withdraws a standing request.
	h.ok("bob", "e5")
	h.ok("bob", "/takeback")
	r = h.ok("alice", "Nf3")
	if !slices.Contains(r.Supersedes, "takeback:"+id) || h.game(id).TakebackOffer != "" {
		t.Fatalf("a move left the request standing: %v", r.Supersedes)
	}
	h.refused("alice", "/takeback accept", "Nobody asked")
	h.refused("carol", "/takeback game:"+id, "not your game")
}

// Rated games move both players' ratings by Glicko-2 with each game a
// rating period of its own; unrated games and the other variants don't.
func TestRatings(t *testing.T) {
	h := newHarness(t, Limits{})
	h.timedGame("")
	h.ok("alice", "f3")
	h.ok("bob", "e5")
	h.ok("alice", "g4")
	r := h.ok("bob", "Qh4#")
	if !strings.Contains(r.Text, "Ratings: alice 1500 → 1338 (-162), bob 1500 → 1662 (+162)") {
		t.Errorf("final caption %q", r.Text)
	}
	wantA, wantB := rating.Game(rating.New(), rating.New(), 0)
	a, err := h.store.Rating("standard", "test:alice")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := h.store.Rating("standard", "test:bob")
	if math.Abs(a.R-wantA.R) > 1e-9 || math.Abs(b.RD-wantB.RD) > 1e-9 || a.Losses != 1 || b.Wins != 1 || a.Name != "alice" {
		t.Fatalf("stored %+v %+v, want %+v %+v", a, b, wantA, wantB)
	}
	// A second rated game uses the ratings after the first.
	h.timedGame("")
	h.ok("alice", "e4")
	h.ok("bob", "e5")
	h.ok("bob", "/resign")
	wantA2, _ := rating.Game(wantA, wantB, 1)
	a, _ = h.store.Rating("standard", "test:alice")
	if math.Abs(a.R-wantA2.R) > 1e-9 || a.Games() != 2 {
		t.Fatalf("after game 2: %+v, want R %.3f", a, wantA2.R)
	}
	// Unrated: no change.
	h.timedGame("rated:false")
	h.ok("alice", "e4")
	h.ok("bob", "e5")
	h.ok("alice", "/resign")
	if a2, _ := h.store.Rating("standard", "test:alice"); a2 != a {
		t.Fatalf("an unrated game changed the rating: %+v → %+v", a, a2)
	}
	h.timedGame("variant:toroidal")
	h.ok("alice", "e4")
	h.ok("bob", "e7-e6")
	h.ok("alice", "/draw")
	h.ok("bob", "/draw accept")

	lb := h.ok("carol", "/leaderboard")
	if !strings.Contains(lb.Text, "1. alice") || !strings.Contains(lb.Text, "2. bob") || !strings.Contains(lb.Text, "1 won, 0 drawn, 1 lost") {
		t.Errorf("leaderboard %q", lb.Text)
	}
	if r := h.ok("carol", "/leaderboard toroidal"); !strings.Contains(r.Text, "0 won, 1 drawn, 0 lost") {
		t.Errorf("toroidal leaderboard %q", r.Text)
	}
	h.refused("carol", "/leaderboard nosuch", "don't know the variant")
	if r := h.ok("carol", "/leaderboard cube"); !strings.Contains(r.Text, "Nobody") {
		t.Errorf("empty leaderboard %q", r.Text)
	}
	st := h.ok("carol", "/stats @bob")
	if !strings.Contains(st.Text, "Ratings of bob") || !strings.Contains(st.Text, "Standard chess") || !strings.Contains(st.Text, "Toroidal") {
		t.Errorf("stats %q", st.Text)
	}
	if r := h.ok("carol", "/stats"); !strings.Contains(r.Text, "no rating") {
		t.Errorf("own stats without games %q", r.Text)
	}
}

func TestHistoryPGNAndReplay(t *testing.T) {
	h := newHarness(t, Limits{})
	if r := h.ok("alice", "/history"); !strings.Contains(r.Text, "No game") {
		t.Errorf("empty history %q", r.Text)
	}
	g1 := h.timedGame("")
	for _, m := range []string{"f3", "e5", "g4", "Qh4#"} {
		h.ok(map[bool]string{true: "alice", false: "bob"}[m == "f3" || m == "g4"], m)
	}
	g2 := h.timedGame("time:5+3")
	h.ok("alice", "e4")
	h.ok("bob", "/resign")
	h.ok("carol", "/challenge @dave")
	h.ok("dave", "/accept")
	h.ok("carol", "/resign")

	r := h.ok("erin", "/history")
	lines := strings.Split(r.Text, "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[1], "• #3") || !strings.HasPrefix(lines[3], "• "+g1) || !strings.Contains(lines[3], "0-1 Checkmate") {
		t.Fatalf("history:\n%s", r.Text)
	}
	r = h.ok("erin", "/history @alice")
	if strings.Contains(r.Text, "#3") || !strings.Contains(r.Text, g2) || !strings.Contains(r.Text, g1) {
		t.Fatalf("alice's history:\n%s", r.Text)
	}

	// alice has no game in progress: /pgn is her last finished one.
	rs := h.do("alice", "/pgn")
	if len(rs) != 1 || !strings.Contains(rs[0].Text, `[TopochessGame "`+g2+`"]`) || !strings.Contains(rs[0].Text, `[TimeControl "300+3"]`) ||
		!strings.Contains(rs[0].Text, "1. e4 {White wins by resignation} 1-0") {
		t.Fatalf("pgn: %s", dump(rs))
	}
	rs = h.do("erin", "/pgn "+g1)
	if len(rs) != 1 || !strings.Contains(rs[0].Text, "1. f3 e5 2. g4 Qh4# {Black wins by checkmate} 0-1") || !strings.Contains(rs[0].Text, `[Event "Rated Standard chess game"]`) ||
		!strings.Contains(rs[0].Text, `[White "alice"]`) || !strings.Contains(rs[0].Text, `[WhiteElo "1500"]`) {
		t.Fatalf("pgn of %s: %s", g1, dump(rs))
	}
	h.refused("erin", "/pgn g99", "no game")

	rs = h.do("erin", "/replay "+g1)
	if len(rs) != 1 || rs[0].Image == nil || !strings.HasSuffix(rs[0].Image.Name, ".gif") {
		t.Fatalf("replay: %s", dump(rs))
	}
	a, err := gif.DecodeAll(bytes.NewReader(rs[0].Image.PNG))
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Image) != 5 {
		t.Fatalf("%d frames for 4 moves", len(a.Image))
	}
}

// Long PGN is split into messages under the chat limit, at line ends.
func TestLongPGNSplits(t *testing.T) {
	h := newHarness(t, Limits{})
	id := h.timedGame("rated:false")
	rec := h.game(id)
	g, _ := engine.NewGame(engine.MustVariant("standard"), "")
	x := uint64(5)
	for len(g.Moves) < 300 && !g.Over() {
		l := g.Position().LegalMoves()
		x = x*6364136223846793005 + 1442695040888963407
		g.Play(l[(x>>33)%uint64(len(l))])
	}
	rec.Moves = g.Moves
	if err := h.store.SaveGame(rec, "", h.clock()); err != nil {
		t.Fatal(err)
	}
	rs := h.do("alice", "/pgn")
	if len(rs) < 2 {
		t.Fatalf("%d messages", len(rs))
	}
	var all strings.Builder
	for _, r := range rs {
		if len(r.Text) > 2000 || !strings.Contains(r.Text, "```") {
			t.Fatalf("message of %d chars: %q", len(r.Text), r.Text[:50])
		}
		body := r.Text[strings.Index(r.Text, "```\n")+4 : strings.LastIndex(r.Text, "```")]
		all.WriteString(body)
	}
	want, _ := pgnOf(h.game(id))
	if all.String() != want {
		t.Fatalf("pasted together:\n%s\nwant\n%s", all.String(), want)
	}
}

// RunClock posts what Tick finds through the platform's sender.
func TestRunClockDelivers(t *testing.T) {
	h := newHarness(t, Limits{})
	h.timedGame("time:1h")
	h.advance(31 * time.Minute)
	var mu sync.Mutex
	var got []Reply
	done := make(chan struct{})
	h.svc.Notify("test", func(r Reply) {
		mu.Lock()
		got = append(got, r)
		mu.Unlock()
		select {
		case <-done:
		default:
			close(done)
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	go h.svc.RunClock(ctx, time.Hour)
	<-done
	cancel()
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || !strings.Contains(got[0].Text, "reminder") {
		t.Fatalf("delivered: %s", dump(got))
	}
}
