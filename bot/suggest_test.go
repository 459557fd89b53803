package bot

import (
	"slices"
	"strings"
	"testing"
)

func values(cs []Choice) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Value)
	}
	return out
}

func (h *harness) suggest(user, command, option, typed string, args map[string]string) []Choice {
	cmd := h.command(user, "/"+command)
	cmd.Args = args
	return h.svc.Suggest(cmd, option, typed)
}

func TestSuggestMoves(t *testing.T) {
	h := newHarness(t, Limits{})
	g := h.startGame("standard")
	// White's 20 first moves (16 pawn moves, 4 knight moves) fit in 25.
	if all := h.suggest("alice", "move", "move", "", nil); len(all) != 20 {
		t.Errorf("%d suggestions at the start: %v", len(all), values(all))
	}
	cases := []struct {
		typed string
		want  []string
		name  string
	}{
		{"N", []string{"b1-a3", "b1-c3", "g1-f3", "g1-h3"}, "Nf3 (g1-f3)"},
		{"nf", []string{"g1-f3"}, "Nf3 (g1-f3)"},
		{"e2e", []string{"e2-e3", "e2-e4"}, "e4 (e2-e4)"},
		{"e4", []string{"e2-e4"}, "e4 (e2-e4)"},
		{"g1", []string{"g1-f3", "g1-h3"}, "Nh3 (g1-h3)"},
		{"Qd8", nil, ""},
	}
	for _, tc := range cases {
		got := h.suggest("alice", "move", "move", tc.typed, nil)
		if !slices.Equal(sorted(values(got)), tc.want) {
			t.Errorf("%q: %v, want %v", tc.typed, values(got), tc.want)
		}
		if tc.name != "" && !slices.ContainsFunc(got, func(c Choice) bool { return c.Name == tc.name }) {
			t.Errorf("%q: no choice named %q in %+v", tc.typed, tc.name, got)
		}
	}
	// Black is not to move: nothing to suggest to Bob yet; after 1.e4 he
	// has his own 20 moves. A suggested value is accepted by /move.
	if got := h.suggest("bob", "move", "move", "", nil); got != nil {
		t.Errorf("suggested to the player not on move: %v", values(got))
	}
	h.ok("alice", "/move e2-e4")
	if got := h.suggest("bob", "move", "move", "", map[string]string{"game": g}); len(got) != 20 {
		t.Errorf("%d suggestions for Black", len(got))
	}
	if got := h.suggest("alice", "move", "move", "", nil); got != nil {
		t.Errorf("suggested to White after her move: %v", values(got))
	}
	// Spectators and strangers get nothing.
	if got := h.suggest("carol", "move", "move", "e", nil); got != nil {
		t.Errorf("suggested to a stranger: %v", values(got))
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func TestSuggestCellsGamesVariants(t *testing.T) {
	h := newHarness(t, Limits{})
	g := h.startGame("standard")
	// At the start eight pawns and two knights can move.
	cells := h.suggest("alice", "moves", "cell", "", nil)
	if len(cells) != 10 || cells[0].Value != "a2" || !strings.Contains(cells[0].Name, "a3, a4") {
		t.Errorf("cells: %+v", cells)
	}
	if got := values(h.suggest("alice", "moves", "cell", "g", nil)); !slices.Equal(got, []string{"g1", "g2"}) {
		t.Errorf("cells g: %v", got)
	}
	games := h.suggest("alice", "board", "game", "", nil)
	if len(games) != 1 || games[0].Value != g || !strings.Contains(games[0].Name, "bob") {
		t.Errorf("games: %+v", games)
	}
	if got := h.suggest("alice", "board", "game", "zz", nil); len(got) != 0 {
		t.Errorf("games matching zz: %+v", got)
	}
	vs := values(h.suggest("alice", "challenge", "variant", "mob", nil))
	if !slices.Equal(vs, []string{"moebius", "moebius-nierse"}) {
		t.Errorf("variants mob: %v", vs)
	}
	if all := h.suggest("alice", "rules", "variant", "", nil); len(all) < 8 {
		t.Errorf("all variants: %+v", all)
	}
	if got := h.suggest("alice", "move", "nonsense", "x", nil); got != nil {
		t.Errorf("unknown option: %+v", got)
	}
}

func TestSuggestWithSeveralGames(t *testing.T) {
	h := newHarness(t, Limits{})
	g1 := h.startGame("standard")
	g2 := h.startGame("standard")
	// Alice is to move in both: without a game the move is ambiguous.
	if got := h.suggest("alice", "move", "move", "e", nil); got != nil {
		t.Errorf("ambiguous game, yet %v", values(got))
	}
	if got := h.suggest("alice", "move", "move", "e4", map[string]string{"game": g2}); !slices.Equal(values(got), []string{"e2-e4"}) {
		t.Errorf("game %s: %v", g2, values(got))
	}
	// Once she has moved in g1, g2 is the only one where it is her turn.
	h.ok("alice", "/move e2-e4 game:"+g1)
	if got := h.suggest("alice", "move", "move", "d4", nil); !slices.Equal(values(got), []string{"d2-d4"}) {
		t.Errorf("after moving in %s: %v", g1, values(got))
	}
	if got := h.suggest("alice", "board", "game", "", nil); len(got) != 2 {
		t.Errorf("games: %+v", got)
	}
}
