package bot

import (
	"strings"
	"testing"
)

// TestChallengeFromPosition: position: starts the game there, unrated,
// in a position string or (standard, Heisenberg) a FEN.
func TestChallengeFromPosition(t *testing.T) {
	h := newHarness(t, Limits{})
	r := h.ok("alice", `/challenge @bob white position:"w Ke1,Qd1,Pe2,ke8,pe7 - -"`)
	if !strings.Contains(r.Text, "from a set position, unrated") {
		t.Fatalf("challenge %q", r.Text)
	}
	r = h.ok("bob", "/accept")
	checkPNG(t, r)
	if !strings.Contains(r.Text, "from a set position, unrated") || !strings.Contains(r.Image.Alt, "queen d1") || strings.Contains(r.Image.Alt, "knight") {
		t.Fatalf("start %q alt %q", r.Text, r.Image.Alt)
	}
	g := h.game("#1")
	if g.Rated || g.Start == "" {
		t.Fatalf("game rated %v start %q", g.Rated, g.Start)
	}
	h.ok("alice", "Qd7+")
	if r := h.ok("bob", "Kxd7"); !strings.Contains(r.Text, "Kxd7") {
		t.Fatalf("bob's capture: %q", r.Text)
	}

	// A FEN, Black to move, on the Heisenberg board.
	r = h.ok("carol", `/challenge @dave heisenberg position:"4k3/8/8/8/8/8/4P3/4K3 b - - 0 7"`)
	r = h.ok("dave", "/accept")
	if !strings.Contains(r.Text, "your move (Black)") {
		t.Fatalf("FEN start: %q", r.Text)
	}
	if r := h.ok("carol", "/board"); !strings.Contains(r.Text, "to move") {
		t.Fatalf("board %q", r.Text)
	}
}

func TestChallengeFromPositionRefusals(t *testing.T) {
	h := newHarness(t, Limits{})
	for _, tc := range []struct{ line, want string }{
		{`/challenge @bob position:"w Ke1,ke8 -"`, "I cannot read that position for Standard chess"},
		{`/challenge @bob position:"w Ke1,Qd1 - -"`, "Each side needs exactly one king; Black has 0"},
		{`/challenge @bob position:"w Ke1,Pe8,ke6 - -"`, "already have promoted"},
		{`/challenge @bob position:"w Ke1,ke8 - -"`, "only the two kings"},
		{`/challenge @bob position:"b Ke6,Qe7,ke8 - -"`, "Black is already checkmated"},
		{`/challenge @bob position:"w Ke1,Qd1,ke8 - -" rated:true`, "never rated"},
		{`/challenge @bob toroidal position:"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"`, "I cannot read that position for Toroidal"},
		{`/challenge bot position:"w Ke1,ke8,kd8 - -"`, "two black kings"},
	} {
		h.refused("alice", tc.line, tc.want)
	}
	if r := h.ok("alice", "/games"); strings.Contains(r.Text, "challenge c") {
		t.Fatalf("a refused challenge was stored: %q", r.Text)
	}
}

// TestBotFromPosition: the computer plays from a set position too.
func TestBotFromPosition(t *testing.T) {
	bh := newBotHarness(t, BotConfig{Level: budgetLevels, Seed: 1})
	r := bh.ok("alice", `/challenge bot black position:"w Ke1,Ra1,ke8 - -"`)
	if !strings.Contains(r.Text, "from a set position against the computer") {
		t.Fatalf("start %q", r.Text)
	}
	bh.settle()
	if g := bh.game("#1"); len(g.Moves) != 1 || g.Start == "" {
		t.Fatalf("game %+v", g)
	}
}

// TestPlayOnFromAReview: a mistake of a review offers to play on from
// its position against the computer, as the side that erred.
func TestPlayOnFromAReview(t *testing.T) {
	fh := newFollowHarness(t)
	fh.svc.after.reviewCfg = testReview
	foolsMate(t, fh.harness)
	fh.ok("alice", "/review")
	var play *Button
	for _, r := range fh.takePosted() {
		if strings.Contains(r.Text, "2. g4??") && len(r.Buttons) == 1 {
			play = &r.Buttons[0]
		}
	}
	if play == nil {
		t.Fatal("no Play on button under the blunder")
	}
	rs := fh.press("alice", *play)
	if len(rs) != 1 || rs[0].Error || !strings.Contains(rs[0].Text, "from a set position against the computer") || !strings.Contains(rs[0].Text, "alice (White)") {
		t.Fatalf("play on: %s", dump(rs))
	}
	if g := fh.game("#2"); g.Start == "" || g.BotLevel == 0 {
		t.Fatalf("game %+v", g)
	}
}

func TestQuotedFields(t *testing.T) {
	for in, want := range map[string]string{
		`@bob position:"w Ke1,ke8 - -" white`: `@bob|position:"w Ke1,ke8 - -"|white`,
		`position:“b Ke1 - -”`:                `position:“b Ke1 - -”`,
		`a "open quote runs on`:               `a|"open quote runs on`,
		`  e2e4   `:                           `e2e4`,
	} {
		if got := strings.Join(quotedFields(in), "|"); got != want {
			t.Errorf("quotedFields(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzParseStart: any position: text is refused in words or gives a
// position that reads back with a move to play; it never panics.
func FuzzParseStart(f *testing.F) {
	for _, s := range []string{`"w Ke1,Qd1,ke8 - -"`, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 9", "b Ke6,Qe7,ke8 - -", "", `"`, "w Ke1,Pe8,ke6 - -"} {
		f.Add("standard", s)
		f.Add("cube", s)
	}
	f.Fuzz(func(t *testing.T, variant, s string) {
		v, ok := findVariant(variant)
		if !ok {
			return
		}
		start, refusal := parseStart(v, s)
		if start == "" {
			if strings.TrimSpace(strings.Trim(strings.TrimSpace(s), `"“”`)) != "" && refusal == "" {
				t.Fatalf("%q: neither a position nor a refusal", s)
			}
			return
		}
		pos, err := v.ParsePosition(start)
		if err != nil || len(pos.LegalMoves()) == 0 {
			t.Fatalf("%q gave %q: %v", s, start, err)
		}
	})
}
