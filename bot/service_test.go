package bot

import (
	"slices"
	"strings"
	"testing"
	"time"

	"topochess/engine"
	"topochess/storage"
)

func TestFoolsMate(t *testing.T) {
	h := newHarness(t, Limits{})
	r := h.ok("alice", "/challenge @bob variant:standard color:white")
	// Accept is anyone's to press (the service says why it is not theirs);
	// Decline is only bob's.
	if len(r.Buttons) != 2 || r.Buttons[0].For != "" || r.Buttons[1].For != "test:bob" || r.Buttons[0].Command != "accept" || r.Key == "" {
		t.Fatalf("challenge buttons %+v key %q", r.Buttons, r.Key)
	}
	// Pressing Accept is the same as typing /accept.
	rs := h.press("bob", r.Buttons[0])
	if len(rs) != 1 || rs[0].Error {
		t.Fatalf("accept: %s", dump(rs))
	}
	start := rs[0]
	checkPNG(t, start)
	if !slices.Equal(start.Supersedes, []string{r.Key}) || !slices.Equal(start.Mentions, []string{"test:alice"}) {
		t.Fatalf("start reply supersedes %v mentions %v", start.Supersedes, start.Mentions)
	}
	id := strings.Fields(start.Text)[1]
	for i, step := range []struct{ user, move, san, next string }{
		{"alice", "f3", "1. f3", "test:bob"},
		{"bob", "/move e7e5", "1... e5", "test:alice"},
		{"alice", "g2-g4", "2. g4", "test:bob"},
		{"bob", "Qh4#", "2... Qh4#", ""},
	} {
		r := h.ok(step.user, step.move)
		checkPNG(t, r)
		if !strings.Contains(r.Text, step.san) {
			t.Errorf("move %d: caption %q lacks %q", i, r.Text, step.san)
		}
		if step.next != "" && !slices.Equal(r.Mentions, []string{step.next}) {
			t.Errorf("move %d: mentions %v, want %s", i, r.Mentions, step.next)
		}
		if step.next != "" && !strings.Contains(r.Text, "your move") {
			t.Errorf("move %d: caption %q does not say whose move", i, r.Text)
		}
		if r.Private || r.Image.Game != id {
			t.Errorf("move %d: private %v, image game %q", i, r.Private, r.Image.Game)
		}
	}
	g := h.game(id)
	if g.Result != "0-1" || g.Reason != string(engine.ReasonCheckmate) || g.Active() {
		t.Fatalf("stored result %q %q", g.Result, g.Reason)
	}
	want := []string{"f2-f3", "e7-e5", "g2-g4", "d8-h4"}
	if !slices.Equal(g.Moves, want) {
		t.Fatalf("stored moves %v, want %v", g.Moves, want)
	}
	h.refused("alice", "/move e4", "no game in progress")
	h.refused("alice", "/resign game:"+id, "is over")
}

func TestMovePictureMarks(t *testing.T) {
	h := newHarness(t, Limits{})
	id := h.startGame("standard")
	h.ok("alice", "e4")
	r := h.ok("bob", "f5")
	if !strings.Contains(r.Image.Alt, "Last move f7-f5") {
		t.Errorf("alt %q lacks the last move", r.Image.Alt)
	}
	r = h.ok("alice", "Qh5+")
	if !strings.Contains(r.Text, "Check from the queen on h5!") || !strings.Contains(r.Image.Alt, "in check") {
		t.Errorf("check not announced: %q / %q", r.Text, r.Image.Alt)
	}
	// A picture posted for everyone keeps White at the bottom all game,
	// although Black is to move.
	if r.Image.Orientation != "white" {
		t.Errorf("orientation %q, want white", r.Image.Orientation)
	}
	r = h.ok("bob", "/board")
	if r.Image == nil || !strings.Contains(r.Text, "in check") || !strings.Contains(r.Text, id) {
		t.Errorf("board: %q", r.Text)
	}
	h.ok("alice", "/settings orientation:black")
	if r = h.ok("alice", "/board"); r.Image.Orientation != "white" {
		t.Errorf("a shared board follows one player's setting: %q", r.Image.Orientation)
	}
	// A view for alice alone follows her setting.
	if r = h.ok("alice", "/moves e4"); !r.Private || r.Image.Orientation != "black" {
		t.Errorf("private view after setting: %q private=%v", r.Image.Orientation, r.Private)
	}
	r = h.ok("alice", "/settings")
	if !strings.Contains(r.Text, "orientation:black") || !strings.Contains(r.Text, "shown to you alone") {
		t.Errorf("settings: %q", r.Text)
	}
	h.refused("alice", "/settings orientation:sideways", "auto")
}

func TestMovesCommand(t *testing.T) {
	h := newHarness(t, Limits{})
	h.startGame("standard")
	h.ok("alice", "e4")
	h.ok("bob", "d5")
	r := h.ok("alice", "/moves e4")
	checkPNG(t, r)
	if !strings.Contains(r.Text, "e5") || !strings.Contains(r.Text, "xd5") {
		t.Errorf("moves e4: %q", r.Text)
	}
	r = h.ok("bob", "/moves g1")
	if !strings.Contains(r.Text, "f3") || !strings.Contains(r.Text, "h3") || !strings.Contains(r.Text, "e2") {
		t.Errorf("moves g1: %q", r.Text)
	}
	h.refused("alice", "/moves z9", `no cell "z9"`)
	h.refused("alice", "/moves e5", "no piece on e5")
	// The opponent's pieces are answered too, saying whose they are.
	r = h.ok("alice", "/moves d5")
	for _, want := range []string{"black pawn on d5 is bob's (Black)", "not Black's turn", "alice (White) is to move", "could go to d4, xe4"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("moves d5 lacks %q: %q", want, r.Text)
		}
	}
	if !r.Private || r.Image == nil {
		t.Errorf("moves d5: private=%v image=%v", r.Private, r.Image != nil)
	}
	r = h.ok("bob", "/moves d5")
	if !strings.Contains(r.Text, "is yours, and it is not your turn") || !strings.Contains(r.Text, "On your turn it could go to d4, xe4") {
		t.Errorf("moves d5 by its owner: %q", r.Text)
	}
	h.refused("alice", "/moves", "Which piece")
}

func TestErrorsChangeNothing(t *testing.T) {
	h := newHarness(t, Limits{InputLength: 100})
	id := h.startGame("standard")
	h.ok("alice", "e4")
	before := h.game(id)
	for _, tc := range []struct{ user, line, want string }{
		{"alice", "d4", "not your turn"},
		{"carol", "/move e5", "no game in progress"},
		{"carol", "/move e5 game:" + id, "not your game"},
		{"carol", "/resign game:" + id, "not your game"},
		{"bob", "/move e4", "can go to"},                 // the pawn on e7 can go to e6, e5
		{"bob", "/move Nf4", "knight"},                   // no knight reaches f4
		{"bob", "/move z9z8", "not a move I understand"}, // no such cells
		{"bob", "/move", "Which move"},
		{"bob", "/move e5 game:g99", "no game"},
		{"bob", "/board game:g99", "no game"},
		{"alice", "/challenge @alice", "yourself"},
		{"alice", "/challenge @bob variant:hexagonal", "standard"},
		{"alice", "/challenge @bob purple", "I don't know the variant"},
		{"alice", "/challenge @bob standard purple", "did not understand"},
		{"alice", "/challenge @bob color:purple", "white, black or random"},
		{"alice", "/rules nonsense", "I don't know the variant"},
		{"alice", "/frobnicate", "/help"},
		{"alice", "/move " + strings.Repeat("e", 200), "too long"},
		{"alice", "/move " + strings.Repeat("ж", 200), "404 bytes of text"}, // not 200 "characters"
		{"bob", "/accept", "no challenge"},
		{"bob", "/decline", "no challenge"},
		{"bob", "/cancel", "no open challenge"},
		{"bob", "/draw maybe", "/draw accept"},
	} {
		h.refused(tc.user, tc.line, tc.want)
	}
	after := h.game(id)
	if after.Rev != before.Rev || !slices.Equal(after.Moves, before.Moves) {
		t.Fatalf("a refused command changed the game: rev %d→%d", before.Rev, after.Rev)
	}
}

func TestIllegalMoveListsDestinations(t *testing.T) {
	h := newHarness(t, Limits{})
	h.startGame("standard")
	r := h.refused("alice", "e2e5", "the pawn on e2 can go to e3, e4")
	if r.Image != nil || len(r.Buttons) != 0 {
		t.Errorf("plain illegal move has extras: %s", dump([]Reply{r}))
	}
}

func TestAcceptRules(t *testing.T) {
	h := newHarness(t, Limits{})
	r := h.ok("alice", "/challenge @bob")
	h.refused("carol", "/accept c1", "is for bob")
	h.refused("alice", "/accept c1", "your own challenge")
	h.refused("carol", "/decline c1", "is for bob")
	// A button meant for bob, pressed by carol, is refused by the service too.
	if rs := h.press("carol", r.Buttons[0]); len(rs) != 1 || !rs[0].Error {
		t.Fatalf("carol pressed bob's button: %s", dump(rs))
	}
	d := h.ok("bob", "/decline")
	if !slices.Equal(d.Supersedes, []string{"challenge:c1"}) {
		t.Errorf("decline supersedes %v", d.Supersedes)
	}
	h.refused("bob", "/accept c1", "no open challenge")

	// Open challenges: anyone but the challenger.
	h.ok("alice", "/challenge variant:standard black")
	h.refused("alice", "/accept", "no challenge for you") // own challenges are not candidates
	h.refused("alice", "/accept c2", "your own challenge")
	h.refused("dave", "/decline c2", "open to anyone")
	r = h.ok("carol", "/accept")
	if !strings.Contains(r.Text, "carol (White) vs alice (Black)") {
		t.Errorf("colours: %q", r.Text)
	}
	h.refused("dave", "/accept c2", "no open challenge")

	// Withdrawing.
	h.ok("alice", "/challenge @dave")
	h.refused("dave", "/cancel c3", "only they can cancel")
	h.ok("alice", "/cancel")
	h.refused("dave", "/accept c3", "no open challenge")
}

func TestChallengeExpiry(t *testing.T) {
	h := newHarness(t, Limits{ChallengeTTL: time.Hour})
	r := h.ok("alice", "/challenge @bob")
	if !strings.Contains(r.Text, "1 h") {
		t.Errorf("challenge text %q does not say how long it is open", r.Text)
	}
	h.advance(2 * time.Hour)
	h.refused("bob", "/accept c1", "expired")
	h.refused("bob", "/accept", "no challenge")
}

func TestLimits(t *testing.T) {
	h := newHarness(t, Limits{OpenChallenges: 2, ActiveGames: 1, CommandsPer10s: 3})
	h.ok("alice", "/challenge @bob")
	h.ok("alice", "/challenge @carol")
	h.refused("alice", "/challenge @dave", "open challenges")
	h.advance(time.Minute)
	h.ok("bob", "/accept")
	h.refused("carol", "/accept", "alice is playing 1 games")
	h.advance(time.Minute)
	h.refused("bob", "/challenge @dave", "playing 1 games")
	// Flood: three commands in 10 s pass, the fourth is refused.
	h.advance(time.Minute)
	h.ok("dave", "/help")
	h.ok("dave", "/help")
	h.ok("dave", "/help")
	h.refused("dave", "/help", "Slow down")
	h.advance(11 * time.Second)
	h.ok("dave", "/help")
}

func TestSeveralGamesAskWhich(t *testing.T) {
	h := newHarness(t, Limits{})
	g1 := h.startGame("standard")
	h.ok("alice", "/challenge @carol white")
	g2 := strings.Fields(h.ok("carol", "/accept").Text)[1]
	h.ok("bob", "/help") // bob has one game: commands apply to it
	rs := h.do("alice", "e4")
	if len(rs) != 1 || len(rs[0].Buttons) != 2 || !rs[0].Private {
		t.Fatalf("ambiguous move: %s", dump(rs))
	}
	b := rs[0].Buttons[1]
	if b.Args["game"] != g2 || b.Args["move"] != "e4" || b.For != "test:alice" {
		t.Fatalf("button %+v", b)
	}
	if rs := h.press("alice", b); len(rs) != 1 || rs[0].Error {
		t.Fatalf("pressing the game button: %s", dump(rs))
	}
	if m := h.game(g2).Moves; len(m) != 1 || len(h.game(g1).Moves) != 0 {
		t.Fatalf("move went to the wrong game")
	}
	h.ok("alice", "/move d4 game:"+g1)
	h.ok("bob", "e5") // bob's only game
	// IDs may be typed without the g.
	h.ok("alice", "/board game:"+strings.TrimPrefix(g1, "g"))
	r := h.ok("alice", "/games")
	if !strings.Contains(r.Text, g1) || !strings.Contains(r.Text, g2) {
		t.Errorf("games: %q", r.Text)
	}
	// A spectator in a channel with two games is asked too.
	if rs := h.do("zed", "/board"); len(rs[0].Buttons) != 2 {
		t.Errorf("spectator board: %s", dump(rs))
	}
}

func TestDrawAndResign(t *testing.T) {
	h := newHarness(t, Limits{})
	id := h.startGame("standard")
	h.ok("alice", "e4")
	offer := h.ok("alice", "/draw")
	if len(offer.Buttons) != 2 || offer.Buttons[0].For != "test:bob" || offer.Key != "draw:"+id {
		t.Fatalf("offer %s", dump([]Reply{offer}))
	}
	h.refused("alice", "/draw", "already offered")
	h.refused("alice", "/draw accept", "your own draw offer")
	d := h.press("bob", offer.Buttons[1]) // decline
	if len(d) != 1 || d[0].Error || !strings.Contains(d[0].Text, "declines") {
		t.Fatalf("decline: %s", dump(d))
	}
	h.refused("bob", "/draw accept", "no draw offer")
	// A move withdraws a standing offer.
	h.ok("alice", "/draw")
	r := h.ok("bob", "e5")
	if !slices.Equal(r.Supersedes, []string{"draw:" + id}) {
		t.Errorf("move after offer supersedes %v", r.Supersedes)
	}
	if h.game(id).DrawOffer != "" {
		t.Error("offer survived a move")
	}
	h.ok("alice", "d4")
	h.ok("bob", "/draw")
	r = h.ok("alice", "/accept") // /accept answers a draw offer when no challenge waits
	checkPNG(t, r)
	if g := h.game(id); g.Result != "1/2-1/2" || g.Reason != string(engine.ReasonAgreement) {
		t.Fatalf("agreed draw stored as %q %q", g.Result, g.Reason)
	}

	id2 := h.startGame("standard")
	r = h.ok("bob", "/resign")
	checkPNG(t, r)
	if !strings.Contains(r.Text, "bob resigned") || !strings.Contains(r.Text, "White (alice) wins") {
		t.Errorf("resign text %q", r.Text)
	}
	if g := h.game(id2); g.Result != "1-0" || g.Reason != string(engine.ReasonResignation) {
		t.Fatalf("resignation stored as %q %q", g.Result, g.Reason)
	}
}

func TestPromotionChoices(t *testing.T) {
	h := newHarness(t, Limits{})
	g := &storage.Game{Variant: "standard", Channel: "test:chan", Start: "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
		White: storage.Player{ID: "test:alice", Name: "alice"}, Black: storage.Player{ID: "test:bob", Name: "bob"}}
	if err := h.store.CreateGame(g, "", t0); err != nil {
		t.Fatal(err)
	}
	r := h.refused("alice", "a8", "promotion")
	if len(r.Buttons) != 4 {
		t.Fatalf("promotion buttons: %+v", r.Buttons)
	}
	var knight Button
	for _, b := range r.Buttons {
		if b.Args["move"] == "a7-a8=N" {
			knight = b
		}
	}
	if knight.Label == "" || knight.For != "test:alice" {
		t.Fatalf("no knight promotion button in %+v", r.Buttons)
	}
	if rs := h.press("alice", knight); len(rs) != 1 || rs[0].Error || !strings.Contains(rs[0].Text, "a8=N") {
		t.Fatalf("promoting: %s", dump(rs))
	}
}

func TestExplainHook(t *testing.T) {
	// The hook is only asked in variants with observation; with none on
	// main yet, a standard game proves it stays silent elsewhere.
	h := newHarness(t, Limits{})
	called := false
	h.cfg.Explain = func(*engine.Position, string, *engine.MoveError) (Explanation, bool) {
		called = true
		return Explanation{}, false
	}
	h.restart()
	h.startGame("standard")
	h.refused("alice", "e2e5", "can go to")
	if called {
		t.Error("explain hook asked about a variant without observation")
	}
}

func TestInfoCommands(t *testing.T) {
	h := newHarness(t, Limits{})
	r := h.ok("alice", "/help")
	for _, c := range []string{"/challenge", "/move", "/board", "/moves", "/resign", "/draw", "/games", "/variants", "/rules", "/settings"} {
		if !strings.Contains(r.Text, c) {
			t.Errorf("help lacks %s", c)
		}
	}
	r = h.ok("alice", "/variants")
	for _, id := range engine.Variants() {
		if !strings.Contains(r.Text, id) {
			t.Errorf("variants lacks %s", id)
		}
	}
	for _, id := range engine.Variants() {
		r = h.ok("alice", "/rules "+id)
		checkPNG(t, r)
		if !strings.Contains(r.Text, engine.MustVariant(id).Name) {
			t.Errorf("rules %s: %q", id, r.Text)
		}
	}
	if r = h.ok("alice", "/rules"); len(r.Buttons) != len(engine.Variants()) {
		t.Errorf("rules without a variant: %s", dump([]Reply{r}))
	}
	h.ok("alice", "/RULES Standard")
	h.ok("alice", "/help@topochessbot")
}

func TestRestartContinues(t *testing.T) {
	h := newHarness(t, Limits{})
	id := h.startGame("standard")
	h.ok("alice", "e4")
	h.ok("bob", "/draw")
	h.ok("carol", "/challenge @alice")
	h.ok("alice", "/settings black")
	h.restart()
	r := h.ok("alice", "/board game:"+id)
	if !strings.Contains(r.Text, "offers a draw") {
		t.Errorf("after restart: %q", r.Text)
	}
	if r := h.ok("alice", "/moves e4 game:"+id); r.Image.Orientation != "black" {
		t.Errorf("setting after restart: orientation %s", r.Image.Orientation)
	}
	h.ok("alice", "/draw decline")
	h.ok("bob", "e5")
	h.ok("alice", "Nf3")
	if g := h.game(id); !slices.Equal(g.Moves, []string{"e2-e4", "e7-e5", "g1-f3"}) {
		t.Errorf("moves after restart: %v", g.Moves)
	}
	if r := h.ok("alice", "/accept c2"); !strings.Contains(r.Text, "begins") {
		t.Errorf("challenge after restart: %q", r.Text)
	}
}

func TestHeisenbergObservedMove(t *testing.T) {
	h := newHarness(t, Limits{})
	id := h.startGame("heisenberg")
	h.ok("alice", "e2e4")
	h.ok("bob", "e7-e5") // plain "e5" is ambiguous here: pawns may reappear
	// d2-d4 passes d3 and lands on d4, which the pawn on e5 watches
	// (RULES §5: a double step's path is the middle cell, then the
	// destination; S is the first watched cell, N = 1 watcher).
	r := h.refused("alice", "d4", "seen on d4 by the pawn on e5")
	checkPNG(t, r)
	if !strings.Contains(r.Image.Name, "observed") {
		t.Errorf("picture %q is not the observation picture", r.Image.Name)
	}
	var moves []string
	for _, b := range r.Buttons {
		moves = append(moves, b.Args["move"])
		if b.For != "test:alice" || b.Args["game"] != id {
			t.Errorf("button %+v", b)
		}
	}
	// Change of position at distance N = 1 from S = d4, minus d2's own
	// FIDE destinations (d3, d4) and e4 (its own pawn): c3 c4 c5 d5 e3
	// and the capture on e5.
	want := []string{"d2-c3", "d2-c4", "d2-c5", "d2-d5", "d2-e3", "d2-e5"}
	slices.Sort(moves)
	if !slices.Equal(moves, want) {
		t.Fatalf("choices %v, want %v", moves, want)
	}
	for _, b := range r.Buttons {
		if b.Args["move"] == "d2-e5" {
			rs := h.press("alice", b)
			if len(rs) != 1 || rs[0].Error {
				t.Fatalf("pressing %s: %s", b.Label, dump(rs))
			}
		}
	}
	if g := h.game(id); !slices.Equal(g.Moves, []string{"e2-e4", "e7-e5", "d2-e5"}) {
		t.Fatalf("moves %v", g.Moves)
	}
}

func TestMovePicksTheGameWhereItIsYourTurn(t *testing.T) {
	h := newHarness(t, Limits{})
	g1 := h.startGame("standard") // alice (White) vs bob
	h.ok("alice", "/challenge @carol white")
	g2 := strings.Fields(h.ok("carol", "/accept").Text)[1]
	h.ok("alice", "/move e4 game:"+g2) // now carol is to move in g2
	r := h.ok("alice", "d4")           // only g1 waits for alice
	if len(r.Buttons) != 0 || len(h.game(g1).Moves) != 1 || len(h.game(g2).Moves) != 1 {
		t.Fatalf("move went astray: %s; g1 %v, g2 %v", dump([]Reply{r}), h.game(g1).Moves, h.game(g2).Moves)
	}
	// Other commands still ask which game.
	if rs := h.do("alice", "/board"); len(rs[0].Buttons) != 2 {
		t.Errorf("board with two games: %s", dump(rs))
	}
}
