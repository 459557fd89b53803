package bot

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"topochess/engine"
)

// qaSession drives one game the way a chat room would: the right player
// types legal moves in any notation, the wrong player and a stranger
// meddle, and anyone may type garbage. After every command the stored
// game must hold exactly the moves the bot acknowledged, and no reply may
// be the internal-error apology (which is what a recovered panic or a
// storage failure turns into).
type qaSession struct {
	t     *testing.T
	h     *harness
	r     *rand.Rand
	id    string
	g     *engine.Game
	moves []string
}

func (s *qaSession) send(user, line string) []Reply {
	s.t.Helper()
	rs := s.sendOnly(user, line)
	if got := s.h.game(s.id).Moves; !slices.Equal(got, s.moves) {
		s.t.Fatalf("%s: %q: stored moves %v, acknowledged %v", user, line, got, s.moves)
	}
	return rs
}

func (s *qaSession) sendOnly(user, line string) []Reply {
	s.t.Helper()
	rs := s.h.do(user, line)
	for _, r := range rs {
		if strings.Contains(r.Text, "went wrong") {
			s.t.Fatalf("%s: %q: internal error: %s", user, line, dump(rs))
		}
	}
	return rs
}

// refused sends a line that must change nothing and be refused privately.
func (s *qaSession) refused(user, line string) {
	s.t.Helper()
	rs := s.send(user, line)
	if len(rs) != 1 || !rs[0].Private {
		s.t.Fatalf("%s: %q: want one private reply, got %s", user, line, dump(rs))
	}
}

// typed writes a legal move the way some player would.
func (s *qaSession) typed(pos *engine.Position, m engine.Move) string {
	canon := pos.Canonical(m)
	switch s.r.IntN(5) {
	case 0:
		return canon
	case 1:
		return strings.Replace(canon, "-", " ", 1) // "e2 e4"
	case 2:
		return "/move " + canon + " game:" + s.id
	case 3:
		return "/m " + pos.SAN(m)
	}
	return pos.SAN(m)
}

func (s *qaSession) player(c engine.Color) string {
	if c == engine.White {
		return "alice"
	}
	return "bob"
}

var qaGarbage = []string{
	"/", "//", "/move", "/move ", "/move \x00\x01\x1b[31m", "/move e2\u200be4", "/move ｅ２ｅ４", "/move 🐴f3",
	"/moves", "/moves zz", "/moves 🐴", "/board g", "/board game:g0", "/draw maybe", "/takeback please",
	"/accept c", "/decline", "/cancel", "/settings orientation:", "/rules ??", "/challenge @", "/pgn ",
	"O-O-O-O", "e19e20", "Kxz9", "=Q", "x", "-", "'", "''''", "e2-e4=K", "a1-a1", "\u202e4e2e",
	strings.Repeat("e", 299), strings.Repeat("/move ", 60), strings.Repeat("é", 150),
}

func (s *qaSession) step() bool {
	pos := s.g.Position()
	legal := pos.LegalMoves()
	if len(legal) == 0 || s.g.Over() {
		return false
	}
	m := legal[s.r.IntN(len(legal))]
	mover := s.player(pos.Side)
	switch k := s.r.IntN(20); {
	case k < 11: // the right player plays
		line := s.typed(pos, m)
		rs := s.sendOnly(mover, line)
		if len(rs) != 1 || rs[0].Error {
			s.t.Fatalf("%s: %q (%s) refused: %s\n%s", mover, line, pos.Canonical(m), dump(rs), pos.String())
		}
		if err := s.g.Play(m); err != nil {
			s.t.Fatal(err)
		}
		s.moves = append(s.moves, pos.Canonical(m))
		if got := s.h.game(s.id).Moves; !slices.Equal(got, s.moves) {
			s.t.Fatalf("after %q: stored %v, want %v", line, got, s.moves)
		}
	case k < 13: // the other player tries the same move out of turn
		s.refused(s.player(pos.Side.Other()), "/move "+pos.Canonical(m)+" game:"+s.id)
	case k < 15: // a stranger touches the game
		cmds := []string{"/move %s game:%s", "/resign game:%[2]s", "/draw game:%[2]s", "/takeback game:%[2]s", "/draw accept game:%[2]s"}
		s.refused("carol", fmt.Sprintf(cmds[s.r.IntN(len(cmds))], pos.Canonical(m), s.id))
	case k < 18: // garbage from a player
		s.send(mover, qaGarbage[s.r.IntN(len(qaGarbage))])
	case k < 19: // looking around
		s.send(mover, "/moves "+pos.Geo().Name(s.r.IntN(pos.Geo().N)))
		s.send("carol", "/board "+s.id)
	default: // a draw offer, declined
		s.send(mover, "/draw")
		s.send(s.player(pos.Side.Other()), "/draw decline")
	}
	return true
}

func TestQARandomSessionsEveryVariant(t *testing.T) {
	steps := 60
	if testing.Short() {
		steps = 20
	}
	for i, variant := range engine.Variants() {
		t.Run(variant, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, Limits{CommandsPer10s: 1 << 20, InputLength: 300})
			id := h.startGame(variant)
			v := engine.MustVariant(variant)
			g, err := engine.NewGame(v, "")
			if err != nil {
				t.Fatal(err)
			}
			s := &qaSession{t: t, h: h, r: rand.New(rand.NewPCG(uint64(i), qaSeed)), id: id, g: g, moves: []string{}}
			for n := 0; n < steps && s.step(); n++ {
			}
			// A restart loses nothing.
			h.restart()
			if got := h.game(id).Moves; !slices.Equal(got, s.moves) {
				t.Fatalf("after restart: %v, want %v", got, s.moves)
			}
		})
	}
}

// qaSeed fixes the sessions; other seeds were tried with 600 steps.
const qaSeed = 2026

// "/stats bob" without the @ used to answer with the asker's own ratings
// (and "/history bob" with everyone's games) as if the name were not
// there; a name that is not a mention is now a question back.
func TestStatsAndHistoryNameWithoutMention(t *testing.T) {
	h := newHarness(t, Limits{CommandsPer10s: 1000})
	id := h.startGame("standard")
	h.ok("alice", "e4")
	h.ok("bob", "e5")
	h.ok("bob", "/resign game:"+id)
	for _, line := range []string{"/stats bob", "/history bob"} {
		h.refused("alice", line, "@bob")
	}
	if r := h.ok("alice", "/stats @bob"); !strings.Contains(r.Text, "Ratings of bob") {
		t.Errorf("/stats @bob: %q", r.Text)
	}
	if r := h.ok("alice", "/stats"); !strings.Contains(r.Text, "Ratings of alice") {
		t.Errorf("/stats: %q", r.Text)
	}
	if r := h.ok("alice", "/history"); !strings.Contains(r.Text, id) {
		t.Errorf("/history: %q", r.Text)
	}
}

// A challenge TTL under a minute (challenge_ttl: 30s in the config) was
// announced as "open for 0 min".
func TestFormatTTL(t *testing.T) {
	for d, want := range map[time.Duration]string{
		24 * time.Hour: "24 h", 90 * time.Minute: "90 min", 5 * time.Minute: "5 min",
		30 * time.Second: "30 s", 90 * time.Second: "90 s",
	} {
		if got := formatTTL(d); got != want {
			t.Errorf("formatTTL(%v) = %q, want %q", d, got, want)
		}
	}
}

// A game resigned before both players have moved is not rated (it says
// nothing about strength; rating it moved both players by 162 points).
func TestResignBeforeMovingIsUnrated(t *testing.T) {
	h := newHarness(t, Limits{CommandsPer10s: 1000})
	id := h.startGame("standard")
	h.ok("alice", "e4")
	r := h.ok("bob", "/resign game:"+id)
	if strings.Contains(r.Text, "Ratings:") || h.game(id).Rating != nil {
		t.Errorf("a one-move resignation was rated: %q", r.Text)
	}
	if r := h.ok("alice", "/stats"); !strings.Contains(r.Text, "no rating yet") {
		t.Errorf("/stats after an unrated game: %q", r.Text)
	}
}

func TestVariantNicknames(t *testing.T) {
	for typed, id := range map[string]string{"torus": "toroidal", "Cylinder": "cylindrical", "Möbius": "moebius", "mobius": "moebius", "Klein bottle": "klein", "66": "chess66", "moebius-nierse": "moebius-nierse", "Cube5": "cube5"} {
		v, ok := findVariant(typed)
		if !ok || v.ID != id {
			t.Errorf("%q: got %v, want %s", typed, v, id)
		}
	}
	if _, ok := findVariant("bob"); ok {
		t.Error("bob is not a variant")
	}
}

func TestChallengeByBareNameHints(t *testing.T) {
	h := newHarness(t, Limits{CommandsPer10s: 1000})
	h.refused("alice", "/challenge bob", "mention them: /challenge @bob")
}
