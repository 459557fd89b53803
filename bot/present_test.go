package bot

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"topochess/engine"
	"topochess/render"
	"topochess/storage"
)

// recordingPainter draws for real and remembers the options of the last
// picture, so tests can see what a reply's picture marks.
type recordingPainter struct {
	mu   sync.Mutex
	r    render.Renderer
	last render.Options
}

func (p *recordingPainter) PNG(pos *engine.Position, opt render.Options) ([]byte, error) {
	p.mu.Lock()
	p.last = opt
	p.mu.Unlock()
	return p.r.PNG(pos, opt)
}

func (p *recordingPainter) options() render.Options {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.last
}

// gameFrom starts alice (White) against bob (Black) from a position.
func gameFrom(t *testing.T, h *harness, variant, start string) string {
	t.Helper()
	g := &storage.Game{Variant: variant, Channel: "test:chan", Start: start,
		White: storage.Player{ID: "test:alice", Name: "alice"}, Black: storage.Player{ID: "test:bob", Name: "bob"}}
	if err := h.store.CreateGame(g, "", t0); err != nil {
		t.Fatal(err)
	}
	return g.ID
}

func cellsOf(v *engine.Variant, names ...string) []int {
	var out []int
	for _, n := range names {
		out = append(out, v.Geo.Cell(n))
	}
	slices.Sort(out)
	return out
}

func sortedCells(xs []int) []int {
	ys := slices.Clone(xs)
	slices.Sort(ys)
	return ys
}

func TestCaptionNamesTheChecker(t *testing.T) {
	h := newHarness(t, Limits{})
	// Möbius: the rook runs along the top row to e1', whose column holds
	// the white king on e4' — at the other end of the picture.
	gameFrom(t, h, "moebius", "b Ke4',ra1',kh8 - - 0 1")
	r := h.ok("bob", "a1'-e1'")
	if !strings.Contains(r.Text, "Check from the rook on e1'!") {
		t.Errorf("caption %q does not name the checker", r.Text)
	}
}

func TestCaptionNamesADoubleCheck(t *testing.T) {
	// The knight leaves the e-file: a discovered check from the rook.
	h := newHarness(t, Limits{})
	gameFrom(t, h, "standard", "4k3/8/8/8/8/4N3/8/K3R3 w - - 0 1")
	if r := h.ok("alice", "Nd5"); !strings.Contains(r.Text, "Check from the rook on e1!") {
		t.Errorf("discovered check caption %q", r.Text)
	}
	// From d6 the knight gives check too.
	h = newHarness(t, Limits{})
	gameFrom(t, h, "standard", "4k3/8/8/8/4N3/8/8/K3R3 w - - 0 1")
	if r := h.ok("alice", "Nd6"); !strings.Contains(r.Text, "Double check, from the knight on d6 and the rook on e1!") && !strings.Contains(r.Text, "Double check, from the rook on e1 and the knight on d6!") {
		t.Errorf("double check caption %q", r.Text)
	}
	// No check, no words about it.
	h = newHarness(t, Limits{})
	gameFrom(t, h, "standard", "4k3/8/8/8/4N3/8/8/K3R3 w - - 0 1")
	if r := h.ok("alice", "Kb1"); strings.Contains(r.Text, "heck") {
		t.Errorf("no check, yet %q", r.Text)
	}
}

// The mating piece is named: on a Möbius strip it may stand far away.
func TestCaptionNamesTheMatingPiece(t *testing.T) {
	h := newHarness(t, Limits{})
	h.startGame("standard")
	for i, mv := range []string{"f3", "e5", "g4"} {
		h.ok([]string{"alice", "bob"}[i%2], mv)
	}
	if r := h.ok("bob", "Qh4#"); !strings.Contains(r.Text, "The queen on h4 gives mate. Checkmate.") {
		t.Errorf("mate caption %q", r.Text)
	}
}

func TestCaptionTellsAPhasing(t *testing.T) {
	h := newHarness(t, Limits{})
	v := engine.MustVariant("moebius")
	gameFrom(t, h, "moebius", "w Ke1,Ra1,ke8 - - 0 1")
	twin := v.Geo.Name(int(v.Geo.Twin[v.Geo.Cell("a1")]))
	r := h.ok("alice", "a1-"+twin)
	if want := "The rook phased from a1 to its twin " + twin + "."; !strings.Contains(r.Text, want) {
		t.Errorf("caption %q lacks %q", r.Text, want)
	}
	// An ordinary move says nothing more.
	g, err := replay(h.game("#1"))
	if err != nil {
		t.Fatal(err)
	}
	var reply string
	for _, m := range g.Position().LegalMoves() {
		if m.Flags&engine.FlagPhase == 0 {
			reply = g.Position().Canonical(m)
			break
		}
	}
	if r := h.ok("bob", reply); strings.Contains(r.Text, "phased") {
		t.Errorf("ordinary move caption %q", r.Text)
	}
}

// An observed Heisenberg move: the picture marks the piece, the observed
// cell, the observer and the offered cells; the buttons say what each
// choice is; the caption of the chosen move says where the piece came from.
func TestHeisenbergChoicesExplained(t *testing.T) {
	h := newHarness(t, Limits{})
	rp := &recordingPainter{r: render.Renderer{Long: 96}}
	h.cfg.Painter = rp
	h.restart()
	v := engine.MustVariant("heisenberg")
	id := h.startGame("heisenberg")
	for i, mv := range []string{"b1-a3", "h7-h6", "h2-h4", "d7-d5"} {
		h.ok([]string{"alice", "bob"}[i%2], "/move "+mv)
	}
	// The rook's h1-h3 is seen on h3 by the bishop on c8: it may go on as
	// a bishop (g4, f5, e6, d7, xc8) or reappear next to h3 (g3, g4).
	r := h.refused("alice", "h1-h3", "seen on h3 by the bishop on c8")
	opt := rp.options()
	if !slices.Equal(opt.Selected, cellsOf(v, "h1")) || !slices.Equal(opt.Observed, cellsOf(v, "h3")) || !slices.Equal(opt.Observers, cellsOf(v, "c8")) {
		t.Errorf("marks: selected %v observed %v observers %v", opt.Selected, opt.Observed, opt.Observers)
	}
	if got, want := sortedCells(opt.Dots), cellsOf(v, "g4", "f5", "e6", "d7", "g3"); !slices.Equal(got, want) {
		t.Errorf("dots %v, want %v", got, want)
	}
	if got, want := sortedCells(opt.Rings), cellsOf(v, "c8"); !slices.Equal(got, want) {
		t.Errorf("rings %v, want %v", got, want)
	}
	labels := map[string]string{}
	for _, b := range r.Buttons {
		labels[b.Args["move"]] = b.Label
	}
	for mv, want := range map[string]string{"h1-g4": "as a bishop: g4", "h1-c8": "as a bishop: xc8", "h1-g3": "reappear: g3"} {
		if labels[mv] != want {
			t.Errorf("button for %s says %q, want %q", mv, labels[mv], want)
		}
	}
	var reappear Button
	for _, b := range r.Buttons {
		if b.Args["move"] == "h1-g3" {
			reappear = b
		}
	}
	rs := h.press("alice", reappear)
	if len(rs) != 1 || rs[0].Error {
		t.Fatalf("pressing %q: %s", reappear.Label, dump(rs))
	}
	if want := "The rook on h1 was seen on h3 by the bishop on c8 and jumped from h1 to g3"; !strings.Contains(rs[0].Text, want) {
		t.Errorf("caption %q lacks %q", rs[0].Text, want)
	}
	if g := h.game(id); g.Moves[len(g.Moves)-1] != "h1-g3" {
		t.Errorf("moves %v", g.Moves)
	}
}

// The caption of a pawn that reappeared must not read as a plain step.
func TestHeisenbergReappearanceCaption(t *testing.T) {
	h := newHarness(t, Limits{})
	h.startGame("heisenberg")
	h.ok("alice", "e2e4")
	h.ok("bob", "e7-e5")
	r := h.refused("alice", "d4", "seen on d4 by the pawn on e5")
	var b Button
	for _, x := range r.Buttons {
		if x.Args["move"] == "d2-c3" {
			b = x
		}
	}
	if b.Label != "reappear: c3" {
		t.Fatalf("button %+v", b)
	}
	rs := h.press("alice", b)
	if len(rs) != 1 || !strings.Contains(rs[0].Text, "jumped from d2 to c3") {
		t.Errorf("caption: %s", dump(rs))
	}
}

// Shared pictures keep one orientation for the whole game; views for one
// player follow their setting, or their side with "auto".
func TestSharedPicturesKeepOneOrientation(t *testing.T) {
	h := newHarness(t, Limits{})
	h.startGame("standard")
	h.ok("bob", "/settings orientation:auto")
	for i, mv := range []string{"e4", "e5", "Nf3", "Nc6"} {
		r := h.ok([]string{"alice", "bob"}[i%2], mv)
		if r.Image.Orientation != "white" {
			t.Errorf("after %s the shared picture has %s at the bottom", mv, r.Image.Orientation)
		}
	}
	if r := h.ok("bob", "/moves c6"); r.Image.Orientation != "black" {
		t.Errorf("bob's own view (auto) has %s at the bottom", r.Image.Orientation)
	}
	if r := h.ok("carol", "/moves c6"); r.Image.Orientation != "white" {
		t.Errorf("an onlooker's view has %s at the bottom", r.Image.Orientation)
	}
	if r := h.ok("alice", "/help"); !strings.Contains(r.Text, "boards posted for everyone keep White at the bottom") {
		t.Errorf("help does not state the orientation rule: %q", r.Text)
	}
}

// /moves on the Klein bottle says why a pawn cannot step to the cell a
// newcomer expects: across the mirror the cell ahead of d12 is e11.
func TestMovesExplainsTheKleinMirror(t *testing.T) {
	h := newHarness(t, Limits{})
	gameFrom(t, h, "klein", "w Ke1,P-d12,ke8,pe11 - - 0 1")
	r := h.ok("alice", "/moves d12")
	for _, want := range []string{"has no legal moves", "the cell ahead of d12 is e11, not d11, where an enemy pawn stands", "files swap"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("/moves d12 lacks %q: %q", want, r.Text)
		}
	}
	// A rook's line crossing the mirror is named too, for either side.
	h2 := newHarness(t, Limits{})
	gameFrom(t, h2, "klein", "w Ke1,Rb10,kh5 - - 0 1")
	r = h2.ok("bob", "/moves b10")
	if !strings.Contains(r.Text, "b11→g12 (not b12)") || !strings.Contains(r.Text, "alice's (White), who is to move") {
		t.Errorf("/moves b10: %q", r.Text)
	}
	// Far from the mirror nothing is added.
	if r := h2.ok("bob", "/moves e1"); strings.Contains(r.Text, "mirror") {
		t.Errorf("/moves e1: %q", r.Text)
	}
}

// Chess 66 captions and PGN write the switch cells s4 and s5.
func TestChess66SwitchMovesWritten(t *testing.T) {
	h := newHarness(t, Limits{})
	id := h.startGame("chess66")
	if r := h.ok("alice", "a2-4"); !strings.Contains(r.Text, "1. s4 ·") {
		t.Errorf("caption %q", r.Text)
	}
	if r := h.ok("bob", "s5"); !strings.Contains(r.Text, "1... s5 ·") {
		t.Errorf("caption %q", r.Text)
	}
	if g := h.game(id); !slices.Equal(g.Moves, []string{"a2-4", "h7-5"}) {
		t.Errorf("stored moves %v", g.Moves)
	}
	r := h.ok("alice", "/pgn")
	if !strings.Contains(r.Text, "1. s4 s5") {
		t.Errorf("pgn %q", r.Text)
	}
}
