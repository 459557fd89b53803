package engine

import (
	"bytes"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// playout plays n plies of a deterministic pseudo-random game (a fixed
// linear congruential generator picks among the legal moves), stopping
// early when the game ends.
func playout(t testing.TB, v *Variant, start string, seed uint64, n int) *Game {
	t.Helper()
	g, err := NewGame(v, start)
	if err != nil {
		t.Fatal(err)
	}
	x := seed
	for i := 0; i < n && !g.Over(); i++ {
		legal := g.Position().LegalMoves()
		x = x*6364136223846793005 + 1442695040888963407
		if err := g.Play(legal[(x>>33)%uint64(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

func mustReplay(t *testing.T, v *Variant, start string, moves ...string) *Game {
	t.Helper()
	g, err := Replay(v, start, moves)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestPGNScholarsMate(t *testing.T) {
	v := MustVariant("standard")
	g := mustReplay(t, v, "", "e2-e4", "e7-e5", "f1-c4", "b8-c6", "d1-h5", "g8-f6", "h5-f7")
	got, err := g.PGN(PGNTags{Event: "Casual game", Site: "console", White: "Ann", Black: "Bob",
		Date: time.Date(2024, 3, 9, 23, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	// The tags of the Seven Tag Roster in their prescribed order; the
	// movetext is the game's well-known notation.
	want := `[Event "Casual game"]
[Site "console"]
[Date "2024.03.09"]
[Round "-"]
[White "Ann"]
[Black "Bob"]
[Result "1-0"]
[PlyCount "7"]
[Termination "normal"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# {White wins by checkmate} 1-0

`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestPGNTags(t *testing.T) {
	std := MustVariant("standard")
	cases := []struct {
		name    string
		game    func() *Game
		tags    PGNTags
		want    []string
		wantNot []string
	}{
		{
			name: "unknown values",
			game: func() *Game { return mustReplay(t, std, "") },
			want: []string{`[Event "?"]`, `[Site "?"]`, `[Date "????.??.??"]`, `[White "?"]`, `[Result "*"]`, `[Termination "unterminated"]`, "\n\n*\n"},
			// Ordinary chess from the start needs no Variant or FEN.
			wantNot: []string{"Variant", "FEN", "SetUp", "{"},
		},
		{
			name: "set-up start with black to move",
			game: func() *Game {
				return mustReplay(t, std, "4k3/8/8/8/8/8/4p3/4K3 b - - 3 41", "e8-d7", "e1-e2")
			},
			want: []string{`[SetUp "1"]`, `[FEN "4k3/8/8/8/8/8/4p3/4K3 b - - 3 41"]`, "41... Kd7 42. Kxe2 {Draw by only the two kings remain} 1/2-1/2"},
		},
		{
			name: "escaped names and extra tags",
			game: func() *Game { return mustReplay(t, std, "") },
			tags: PGNTags{White: `Al "the \ rook"`, Black: "two\nlines", Extra: []PGNTag{{"TimeControl", "300+3"}}},
			want: []string{`[White "Al \"the \\ rook\""]`, `[Black "two lines"]`, `[TimeControl "300+3"]`},
		},
		{
			name: "resignation",
			game: func() *Game { g := mustReplay(t, std, "", "f2-f3"); g.Resign(White); return g },
			want: []string{`[Result "0-1"]`, `[Termination "normal"]`, "1. f3 {Black wins by resignation} 0-1"},
		},
		{
			name: "loss on time",
			game: func() *Game { g := mustReplay(t, std, "", "e2-e4"); g.End(WhiteWins, ReasonTime); return g },
			want: []string{`[Termination "time forfeit"]`, "1. e4 {White wins by time} 1-0"},
		},
		{
			name: "aborted",
			game: func() *Game { g := mustReplay(t, std, ""); g.End(Draw, ReasonAborted); return g },
			want: []string{`[Termination "abandoned"]`},
		},
		{
			name:    "other variant from its start",
			game:    func() *Game { return mustReplay(t, MustVariant("toroidal"), "") },
			want:    []string{`[Variant "` + MustVariant("toroidal").Name + `"]`, `[TopochessVariant "toroidal"]`},
			wantNot: []string{"TopochessPosition", "FEN"},
		},
		{
			name: "other variant from a set-up position",
			game: func() *Game {
				v := MustVariant("moebius")
				p := v.StartPosition()
				return mustReplay(t, v, p.Play(p.LegalMoves()[0]).String())
			},
			want:    []string{`[TopochessVariant "moebius"]`, `[TopochessPosition "b `},
			wantNot: []string{"FEN"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.game().PGN(tc.tags)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in\n%s", w, got)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(got, w) {
					t.Errorf("unexpected %q in\n%s", w, got)
				}
			}
		})
	}
}

// Every variant's long games export: lines stay within 80 columns and the
// movetext has one SAN token per move.
func TestPGNEveryVariant(t *testing.T) {
	for _, id := range Variants() {
		t.Run(id, func(t *testing.T) {
			g := playout(t, MustVariant(id), "", 7, 120)
			got, err := g.PGN(PGNTags{})
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range strings.Split(got, "\n") {
				if len(l) > 80 {
					t.Errorf("line of %d chars: %s", len(l), l)
				}
			}
			_, body, _ := strings.Cut(got, "\n\n")
			body = regexp.MustCompile(`\{[^}]*\}`).ReplaceAllString(body, "")
			n := 0
			for _, tok := range strings.Fields(body) {
				if !strings.HasSuffix(tok, ".") && tok != pgnResult(g.Result) {
					n++
				}
			}
			if n != len(g.Moves) {
				t.Errorf("%d SAN tokens for %d moves", n, len(g.Moves))
			}
		})
	}
}

func TestPGNBadRecord(t *testing.T) {
	g := &Game{Variant: MustVariant("standard"), Moves: []string{"e2-e5"}}
	if _, err := g.PGN(PGNTags{}); err == nil {
		t.Error("an illegal stored move exported without error")
	}
}

// externalGames are standard games that exercise castling, en passant,
// promotion, checks and disambiguation: long pseudo-random playouts from
// the start and from a set-up position.
func externalGames(t *testing.T) []*Game {
	v := MustVariant("standard")
	var gs []*Game
	for seed := uint64(1); seed <= 12; seed++ {
		gs = append(gs, playout(t, v, "", seed, 300))
	}
	// Both sides may castle either way, a pawn is about to promote, and
	// black may take en passant after c2-c4.
	gs = append(gs, playout(t, v, "r3k2r/pP4pp/8/8/3p4/8/P1P3PP/R3K2R w KQkq - 0 20", 3, 200))
	g := mustReplay(t, v, "r3k2r/pP4pp/8/8/3p4/8/P1P3PP/R3K2R w KQkq - 0 20", "c2-c4", "d4-c3", "b7-a8=N", "e8-g8", "e1-c1")
	gs = append(gs, g)
	return gs
}

// The ordinary chess export reads back in python-chess, which replays the
// SAN by its own rules; the final positions must agree.
func TestPGNPythonChess(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	if err := exec.Command("python3", "-c", "import chess.pgn").Run(); err != nil {
		t.Skip("python-chess not installed (Debian: apt-get install python3-chess, where the release has it); skipping the cross-check")
	}
	const script = `
import sys, chess.pgn
while True:
    game = chess.pgn.read_game(sys.stdin)
    if game is None:
        break
    if game.errors:
        print("ERROR", game.errors)
        continue
    print(game.end().board().fen(en_passant="fen"))
`
	gs := externalGames(t)
	var in bytes.Buffer
	for _, g := range gs {
		s, err := g.PGN(PGNTags{White: "w", Black: "b"})
		if err != nil {
			t.Fatal(err)
		}
		in.WriteString(s)
	}
	cmd := exec.Command("python3", "-c", script)
	cmd.Stdin = &in
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python-chess: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(gs) {
		t.Fatalf("python-chess read %d games of %d:\n%s", len(lines), len(gs), out)
	}
	for i, g := range gs {
		if want := g.Position().FEN(); lines[i] != want {
			t.Errorf("game %d: python-chess ends at %s, we at %s", i, lines[i], want)
		}
	}
}

// pgn-extract (Debian package pgn-extract) validates every move and
// prints the final position as a FEN comment with -F.
func TestPGNExtract(t *testing.T) {
	bin, err := exec.LookPath("pgn-extract")
	if err != nil {
		if bin, err = exec.LookPath("/usr/games/pgn-extract"); err != nil {
			t.Skip("pgn-extract not installed (apt-get install pgn-extract); skipping the cross-check")
		}
	}
	gs := externalGames(t)
	var in bytes.Buffer
	for _, g := range gs {
		s, err := g.PGN(PGNTags{White: "w", Black: "b"})
		if err != nil {
			t.Fatal(err)
		}
		in.WriteString(s)
	}
	cmd := exec.Command(bin, "-F", "-s", "-w1000")
	cmd.Stdin = &in
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("pgn-extract: %v\n%s", err, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("pgn-extract complained:\n%s", stderr.String())
	}
	fens := regexp.MustCompile(`\{ "([^"]+)" \}`).FindAllStringSubmatch(stdout.String(), -1)
	if len(fens) != len(gs) {
		t.Fatalf("pgn-extract read %d games of %d:\n%s", len(fens), len(gs), stdout.String())
	}
	for i, g := range gs {
		if want := g.Position().FEN(); fens[i][1] != want {
			t.Errorf("game %d: pgn-extract ends at %s, we at %s", i, fens[i][1], want)
		}
	}
}
