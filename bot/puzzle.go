package bot

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"topochess/bot/rating"
	"topochess/engine"
	"topochess/engine/puzzle"
	"topochess/render"
	"topochess/storage"
)

// Puzzles: /puzzle [variant] gives a position from the shipped stock
// with a forced mate or a forced win of material; the player answers with moves (/puzzle <move>, or a
// plain move when they play no game here), the bot answers with the
// opponent's reply until the mate is given or a wrong move ends it. Each
// player has a puzzle rating (Glicko-2, as for games) and a streak per
// variant.

// puzzleRD is how sure a puzzle's own rating is taken to be.
const puzzleRD = 80

func (s *Service) cmdPuzzle(c *call) []Reply {
	if mv := c.arg("move"); mv != "" && c.arg("variant") == "" {
		if strings.EqualFold(mv, "giveup") {
			return s.puzzleGiveUp(c)
		}
		out, _ := s.puzzleMove(c, mv, true)
		return out
	}
	word := c.arg("variant")
	if word == "" {
		word = strings.Join(c.pos, " ")
	}
	if word == "" {
		if st, ok, err := s.store.OpenPuzzle(c.User.ID, c.Channel); err != nil {
			return s.internal(c, err)
		} else if ok {
			return s.showPuzzle(c, st, "Your puzzle here, still open.")
		}
		word = "standard"
	}
	switch strings.ToLower(word) {
	case "giveup", "give up", "resign", "stop", "solution":
		return s.puzzleGiveUp(c)
	}
	if v, ok := findVariant(word); ok {
		if st, ok, err := s.store.OpenPuzzle(c.User.ID, c.Channel); err != nil {
			return s.internal(c, err)
		} else if ok {
			return s.fail(c, "You are solving puzzle %s here; answer it with /puzzle <move>, or /puzzle giveup first.", st.Puzzle)
		}
		return s.newPuzzle(c, v)
	}
	// Not a board: a move, if there is a puzzle to answer (also typed in
	// Discord's variant field).
	if _, open, err := s.store.OpenPuzzle(c.User.ID, c.Channel); err != nil {
		return s.internal(c, err)
	} else if !open && c.arg("variant") != "" {
		return s.fail(c, "%s /puzzle [variant] gives a puzzle; /puzzle <move> answers it.", unknownVariant(word))
	} else if !open {
		return s.fail(c, "You have no open puzzle here to answer, and %q is no board I know. /puzzle [variant] gives a puzzle; variants: %s.", word, strings.Join(engine.Variants(), ", "))
	}
	out, _ := s.puzzleMove(c, word, true)
	return out
}

// newPuzzle gives the player the untried puzzle of a variant nearest to
// their puzzle rating.
func (s *Service) newPuzzle(c *call, v *engine.Variant) []Reply {
	ps, err := puzzle.Stock(v.ID)
	if err != nil {
		return s.internal(c, err)
	}
	var st storage.PuzzleState
	err = s.store.UpdatePuzzle(c.User.ID, c.Channel, v.ID, c.EventID, c.Time, func(open *storage.PuzzleState, stats *storage.PuzzleStats) (*storage.PuzzleState, error) {
		if open != nil {
			return nil, errPuzzleOpen{open.Puzzle}
		}
		r := puzzleRating(*stats)
		var pick *puzzle.Puzzle
		for i := range ps {
			if slices.Contains(stats.Tried, ps[i].ID) {
				continue
			}
			if pick == nil || math.Abs(ps[i].Rating-r.R) < math.Abs(pick.Rating-r.R) {
				pick = &ps[i]
			}
		}
		if pick == nil {
			return nil, errNoPuzzleLeft
		}
		stats.Tried = append(stats.Tried, pick.ID)
		st = storage.PuzzleState{Puzzle: pick.ID, Started: c.Time}
		return &st, nil
	})
	var open errPuzzleOpen
	switch {
	case errors.As(err, &open):
		return s.fail(c, "You are solving puzzle %s here; answer it with /puzzle <move>, or /puzzle giveup first.", open.id)
	case errors.Is(err, errNoPuzzleLeft):
		return s.fail(c, "You have tried all %d %s puzzles I have. Try another board: /puzzle <variant> (/variants lists them).", len(ps), v.Name)
	case errors.Is(err, storage.ErrConflict):
		return s.fail(c, "Another puzzle was opened for you here at the same moment; /puzzle shows it.")
	case err != nil:
		return s.internal(c, err)
	}
	s.log.Info("puzzle", "puzzle", st.Puzzle, "user", c.User.ID)
	return s.showPuzzle(c, st, "")
}

// errPuzzleOpen: a puzzle is open already where a new one was asked for.
type errPuzzleOpen struct{ id string }

func (e errPuzzleOpen) Error() string { return "puzzle " + e.id + " is open" }

var (
	errNoPuzzleLeft = errors.New("every puzzle of the variant was tried")
	// errPuzzleMoved: the open puzzle changed between reading it and
	// writing the answer (another answer came first).
	errPuzzleMoved = errors.New("the open puzzle changed")
)

// puzzleAnswered is the change of an answer to the puzzle at st: it is
// applied only if the puzzle is still open at the same step.
func puzzleAnswered(st storage.PuzzleState, apply func(stats *storage.PuzzleStats) *storage.PuzzleState) storage.PuzzleChange {
	return func(open *storage.PuzzleState, stats *storage.PuzzleStats) (*storage.PuzzleState, error) {
		if open == nil || open.Puzzle != st.Puzzle || open.Step != st.Step {
			return nil, errPuzzleMoved
		}
		return apply(stats), nil
	}
}

// puzzleWriteFailed answers a failed write of a puzzle answer.
func (s *Service) puzzleWriteFailed(c *call, pz puzzle.Puzzle, err error) []Reply {
	if errors.Is(err, errPuzzleMoved) {
		return s.fail(c, "Puzzle %s moved on while I read your answer (another answer came first); nothing was changed. /puzzle shows where it stands.", pz.ID)
	}
	return s.internal(c, err)
}

// puzzleAt replays a puzzle to a step of its line.
func puzzleAt(pz puzzle.Puzzle, step int) (*engine.Position, error) {
	v, err := engine.GetVariant(pz.Variant)
	if err != nil {
		return nil, err
	}
	pos, err := v.ParsePosition(pz.Position)
	if err != nil {
		return nil, err
	}
	for _, mv := range pz.Line[:step] {
		m, err := pos.ParseCanonical(mv)
		if err != nil {
			return nil, err
		}
		pos.Make(m)
	}
	return pos, nil
}

func (s *Service) showPuzzle(c *call, st storage.PuzzleState, lead string) []Reply {
	pz, ok := puzzle.Find(st.Puzzle)
	if !ok {
		return s.fail(c, "That puzzle is no longer in my stock; /puzzle gives a new one.")
	}
	pos, err := puzzleAt(pz, st.Step)
	if err != nil {
		return s.internal(c, err)
	}
	text := fmt.Sprintf("Puzzle %s (rated %.0f) · %s · %s to move: %s. Themes: %s. Answer with your move: /puzzle <move> (or just type it when you play no game here); /puzzle giveup shows the solution.",
		pz.ID, pz.Rating, variantName(pz.Variant), colorName(pos.Side.String()), pz.Task(st.Step), strings.Join(pz.Themes, ", "))
	if lead != "" {
		text = lead + " " + text
	}
	return []Reply{s.puzzleReply(text, pz, pos, nil)}
}

// puzzleReply is a puzzle's position, drawn from the solver's side, with
// the move just played (or the solution) as an arrow.
func (s *Service) puzzleReply(text string, pz puzzle.Puzzle, pos *engine.Position, arrow []int) Reply {
	r := Reply{Text: text}
	solver := engine.White
	if strings.HasPrefix(pz.Position, "b") {
		solver = engine.Black
	}
	opt := render.Options{Orientation: solver, Last: arrow}
	if pos.InCheck() && pos.King[pos.Side] >= 0 {
		opt.Check = []int{int(pos.King[pos.Side])}
	}
	img, err := s.picture(pos, opt, fmt.Sprintf("puzzle-%s.png", pz.ID), "")
	if err != nil {
		s.log.Error("render failed", "puzzle", pz.ID, "err", err)
		r.Text += " (I could not draw the board this time.)"
		return r
	}
	r.Image = img
	return r
}

// puzzleMove answers the open puzzle with a move. ok is false when the
// caller has no open puzzle here, or (for a plain move, explicit false)
// plays a game here, which the move is then for.
func (s *Service) puzzleMove(c *call, input string, explicit bool) ([]Reply, bool) {
	st, open, err := s.store.OpenPuzzle(c.User.ID, c.Channel)
	if err != nil {
		return s.internal(c, err), true
	}
	if !open {
		if explicit {
			return s.fail(c, "You have no open puzzle here; /puzzle [variant] gives one."), true
		}
		return nil, false
	}
	if !explicit {
		if games, err := s.store.ActiveGames(c.User.ID, c.Channel); err != nil || len(games) > 0 {
			return nil, false
		}
	}
	pz, ok := puzzle.Find(st.Puzzle)
	if !ok {
		return s.fail(c, "That puzzle is no longer in my stock; /puzzle gives a new one."), true
	}
	pos, err := puzzleAt(pz, st.Step)
	if err != nil {
		return s.internal(c, err), true
	}
	m, err := pos.ParseMove(input)
	if err != nil {
		return s.fail(c, "Puzzle %s: %v. Your move again?", pz.ID, err), true
	}
	played := pos.Canonical(m)
	san := pos.SAN(m)
	want := pz.Line[st.Step]
	if played != want {
		sol, _ := pos.ParseCanonical(want)
		text := fmt.Sprintf("Puzzle %s: %s is not it. The solution was %s (the arrow).", pz.ID, san, pos.SAN(sol))
		return s.finishPuzzle(c, pz, st, 0, text, pos, lastMove(pos.V, want)), true
	}
	pos.Make(m)
	if st.Step+1 >= len(pz.Line) {
		text := fmt.Sprintf("Puzzle %s: %s — solved!", pz.ID, san)
		return s.finishPuzzle(c, pz, st, 1, text, pos, lastMove(pos.V, played)), true
	}
	reply := pz.Line[st.Step+1]
	rm, err := pos.ParseCanonical(reply)
	if err != nil {
		return s.internal(c, err), true
	}
	replySAN := pos.SAN(rm)
	pos.Make(rm)
	err = s.store.UpdatePuzzle(c.User.ID, c.Channel, pz.Variant, c.EventID, c.Time, puzzleAnswered(st, func(*storage.PuzzleStats) *storage.PuzzleState {
		next := st
		next.Step += 2
		return &next
	}))
	if err != nil {
		return s.puzzleWriteFailed(c, pz, err), true
	}
	st.Step += 2
	text := fmt.Sprintf("Puzzle %s: %s, right. The answer: %s. Your move: %s.", pz.ID, san, replySAN, pz.Task(st.Step))
	return []Reply{s.puzzleReply(text, pz, pos, lastMove(pos.V, reply))}, true
}

func (s *Service) puzzleGiveUp(c *call) []Reply {
	st, open, err := s.store.OpenPuzzle(c.User.ID, c.Channel)
	if err != nil {
		return s.internal(c, err)
	}
	if !open {
		return s.fail(c, "You have no open puzzle here; /puzzle [variant] gives one.")
	}
	pz, ok := puzzle.Find(st.Puzzle)
	if !ok {
		return s.fail(c, "That puzzle is no longer in my stock; /puzzle gives a new one.")
	}
	pos, err := puzzleAt(pz, st.Step)
	if err != nil {
		return s.internal(c, err)
	}
	sol, _ := pos.ParseCanonical(pz.Line[st.Step])
	text := fmt.Sprintf("Puzzle %s: the move was %s (the arrow).", pz.ID, pos.SAN(sol))
	return s.finishPuzzle(c, pz, st, 0, text, pos, lastMove(pos.V, pz.Line[st.Step]))
}

// finishPuzzle closes the puzzle open at st as solved (score 1) or
// failed (0): the rating and the streak change, and the reply says by how
// much.
func (s *Service) finishPuzzle(c *call, pz puzzle.Puzzle, st storage.PuzzleState, score float64, text string, pos *engine.Position, arrow []int) []Reply {
	var before, after rating.Rating
	var stats storage.PuzzleStats
	err := s.store.UpdatePuzzle(c.User.ID, c.Channel, pz.Variant, c.EventID, c.Time, puzzleAnswered(st, func(ps *storage.PuzzleStats) *storage.PuzzleState {
		before = puzzleRating(*ps)
		after, _ = rating.Game(before, rating.Rating{R: pz.Rating, RD: puzzleRD, Sigma: 0.06}, score)
		ps.R, ps.RD, ps.Sigma = after.R, after.RD, after.Sigma
		if score == 1 {
			ps.Solved++
			ps.Streak++
			ps.Best = max(ps.Best, ps.Streak)
		} else {
			ps.Failed++
			ps.Streak = 0
		}
		stats = *ps
		return nil
	}))
	if err != nil {
		return s.puzzleWriteFailed(c, pz, err)
	}
	text += fmt.Sprintf(" Your %s puzzle rating: %.0f → %.0f (%+.0f); streak %d (best %d). /puzzle %s gives another.",
		variantName(pz.Variant), before.R, after.R, after.R-before.R, stats.Streak, stats.Best, pz.Variant)
	r := s.puzzleReply(text, pz, pos, arrow)
	if start, err := puzzleAt(pz, 0); err == nil {
		r.Buttons = playOnButton(start)
	}
	return []Reply{r}
}

func puzzleRating(st storage.PuzzleStats) rating.Rating {
	if st.RD <= 0 {
		return rating.New()
	}
	return rating.Rating{R: st.R, RD: st.RD, Sigma: st.Sigma}
}
