package bot

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"topochess/engine"
)

func (h *harness) tap(user, game string, ply int, path ...string) (TapMenu, *Reply) {
	h.t.Helper()
	return h.svc.Tap(h.command(user, ""), game, ply, path)
}

func labels(m TapMenu) []string {
	var out []string
	for _, c := range m.Choices {
		out = append(out, c.Label)
	}
	return out
}

func TestTapStandard(t *testing.T) {
	h := newHarness(t, Limits{CommandsPer10s: 1000})
	g := h.startGame("standard")

	m, ref := h.tap("alice", g, -1)
	if ref != nil {
		t.Fatalf("pieces: refused %q", ref.Text)
	}
	// At the start White can move the two knights and the eight pawns.
	want := []string{"Nb1", "Ng1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2"}
	if got := labels(m); !slices.Equal(got, want) || m.Ply != 0 || m.Move != "" {
		t.Errorf("pieces = %v (ply %d), want %v", got, m.Ply, want)
	}
	m, _ = h.tap("alice", g, 0, "g1")
	if got := labels(m); !slices.Equal(got, []string{"Nf3", "Nh3"}) {
		t.Errorf("knight g1 destinations = %v", got)
	}
	m, _ = h.tap("alice", g, 0, "g1", "f3")
	if m.Move != "g1-f3" || len(m.Choices) != 0 {
		t.Errorf("g1, f3 = %+v, want the move g1-f3", m)
	}

	for _, c := range []struct {
		user string
		ply  int
		path []string
		want string
	}{
		{"bob", -1, nil, "not your turn"},
		{"carol", -1, nil, "not your game"},
		{"alice", 3, nil, "out of date"},
		{"alice", 0, []string{"e7"}, "none of your pieces on e7"},
		{"alice", 0, []string{"zz9"}, "no cell"},
		{"alice", 0, []string{"e2", "e5"}, "not possible"},
		{"alice", 0, []string{"e2", "e4", "Q"}, "not possible"},
	} {
		if _, ref := h.tap(c.user, g, c.ply, c.path...); ref == nil || !ref.Error || !strings.Contains(ref.Text, c.want) {
			t.Errorf("%s %d %v: refusal %+v, want %q", c.user, c.ply, c.path, ref, c.want)
		}
	}

	// 1.a4 b5 2.axb5 a6 3.bxa6 Bb7 4.axb7 Nc6: the pawn on b7 promotes on
	// b8 (empty) or by taking the rook on a8.
	for i, mv := range []string{"a4", "b5", "axb5", "a6", "bxa6", "Bb7", "axb7", "Nc6"} {
		h.ok([]string{"alice", "bob"}[i%2], "/move "+mv)
	}
	m, _ = h.tap("alice", g, 8, "b7")
	if got := uniqSorted(labels(m)); !slices.Equal(got, []string{"b8=?", "xa8=?"}) {
		t.Errorf("b7 destinations = %v", got)
	}
	m, _ = h.tap("alice", g, 8, "b7", "b8")
	if got := uniqSorted(labels(m)); !slices.Equal(got, []string{"=B", "=N", "=Q", "=R"}) || m.Move != "" {
		t.Errorf("b7-b8 choices = %v", got)
	}
	m, _ = h.tap("alice", g, 8, "b7", "a8", "Q")
	if m.Move != "b7-a8=Q" {
		t.Errorf("b7, a8, Q = %+v", m)
	}
	rs := h.press("alice", Button{Command: "move", Args: map[string]string{"game": g, "move": m.Move}})
	if len(rs) != 1 || rs[0].Error || !strings.Contains(rs[0].Text, "bxa8=Q") {
		t.Errorf("playing the tapped move: %s", dump(rs))
	}
}

func TestTapHeisenbergObserved(t *testing.T) {
	h := newHarness(t, Limits{CommandsPer10s: 1000})
	g := h.startGame("heisenberg")
	// 1.e4 e5 2.Nf3 Nc6: several of White's ordinary moves are now
	// watched; the engine's Explain says which, and Tap must offer exactly
	// its replacements.
	for i, mv := range []string{"e2-e4", "e7-e5", "g1-f3", "b8-c6"} {
		h.ok([]string{"alice", "bob"}[i%2], "/move "+mv)
	}
	rec := h.game(g)
	eg, err := replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	pos := eg.Position()
	checked := 0
	for from := range pos.Board {
		pc := pos.Board[from]
		if pc == 0 || pc.Color() != engine.White {
			continue
		}
		fromName := pos.Geo().Name(from)
		dests, ref := h.tap("alice", g, 4, fromName)
		for to := range pos.Board {
			ob, err := pos.Explain(from, to)
			if err != nil || !ob.Observed || len(ob.Speed)+len(ob.Position) == 0 {
				continue
			}
			toName := pos.Geo().Name(to)
			if ref != nil || !slices.ContainsFunc(dests.Choices, func(c TapChoice) bool { return c.Step == toName }) {
				t.Errorf("%s: the observed %s-%s is not offered (%v, %v)", fromName, fromName, toName, labels(dests), ref)
				continue
			}
			m, ref := h.tap("alice", g, 4, fromName, toName)
			if ref != nil || m.Move != "" {
				t.Fatalf("%s-%s: %+v %+v", fromName, toName, m, ref)
			}
			var want, got []string
			for _, mv := range append(append([]engine.Move(nil), ob.Speed...), ob.Position...) {
				want = append(want, pos.Canonical(mv))
			}
			for _, c := range m.Choices {
				done, ref := h.tap("alice", g, 4, fromName, toName, c.Step)
				if ref != nil {
					t.Fatalf("%s-%s %s: %s", fromName, toName, c.Step, ref.Text)
				}
				got = append(got, done.Move)
			}
			want, got = uniqSorted(want), uniqSorted(got)
			if !slices.Equal(got, want) {
				t.Errorf("%s-%s observed: tap offers %v, Explain %v", fromName, toName, got, want)
			}
			if !strings.Contains(m.Prompt, "seen on") {
				t.Errorf("%s-%s: prompt %q does not explain the observation", fromName, toName, m.Prompt)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no observed move in the test position; choose another opening")
	}
	t.Logf("%d observed moves checked", checked)
}

func uniqSorted(s []string) []string {
	sort.Strings(s)
	return slices.Compact(s)
}

func TestPlainMove(t *testing.T) {
	h := newHarness(t, Limits{CommandsPer10s: 1000})
	g := h.startGame("standard")
	for _, c := range []struct {
		user, text string
		ok         bool
	}{
		{"alice", "e4", true},
		{"alice", "Nf3", true},
		{"alice", "e2-e4", true},
		{"alice", "e5", true}, // shaped like a move: the refusal explains it
		{"alice", "O-O", true},
		{"alice", "hello", false},
		{"alice", "gg well played", false},
		{"alice", "see you at 5", false},
		{"alice", "ok", false},
		{"bob", "e5", false},   // not bob's turn
		{"carol", "e4", false}, // no game
	} {
		cmd := h.command(c.user, "")
		cmd.Name, cmd.Text = "", c.text
		mv, ok := h.svc.PlainMove(cmd)
		if ok != c.ok {
			t.Errorf("%s %q: ok %v, want %v", c.user, c.text, ok, c.ok)
			continue
		}
		if ok && (mv.Name != "move" || mv.Args["game"] != g || mv.Args["move"] != c.text) {
			t.Errorf("%s %q: command %+v", c.user, c.text, mv)
		}
	}
	if !h.svc.GameActive(g) || h.svc.GameActive("g999") {
		t.Error("GameActive")
	}
}
