package bot

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"topochess/engine"
	"topochess/render"
	"topochess/storage"
)

// What a review says: each move judged by how much it lowered the
// mover's winning chances, the evaluation graph, the three biggest
// mistakes of each side with the better move, and accuracy per side.

// judgement is one move of a reviewed game.
type judgement struct {
	ply      int // 0 for White's first move of a game from the start
	mover    engine.Color
	before   float64 // the mover's winning chances before the move, in %
	after    float64 // and after it
	severity int     // 0 none, 1 inaccuracy, 2 mistake, 3 blunder
	played   string  // SAN
	best     string  // SAN of the engine's move, "" when it is the one played
	bestMove string  // canonical
	pos      *engine.Position
	num      int // move number
}

func (j judgement) drop() float64 { return max(0, j.before-j.after) }

// winChance turns centipawns for a side into its winning chances in
// percent: a logistic curve, so a pawn matters more in a level position
// than in a won one.
func winChance(cp int) float64 {
	return 50 + 50*(2/(1+math.Exp(-0.00368208*float64(cp)))-1)
}

// moveAccuracy is how close a move kept the mover's chances, 0..100.
func moveAccuracy(drop float64) float64 {
	return max(0, min(100, 103.1668*math.Exp(-0.04354*drop)-3.1669))
}

var severityWords = [4]string{"", "an inaccuracy", "a mistake", "a blunder"}
var severityMarks = [4]string{"", "?!", "?", "??"}

func severityOf(drop float64) int {
	switch {
	case drop >= 30:
		return 3
	case drop >= 20:
		return 2
	case drop >= 10:
		return 1
	}
	return 0
}

// judge replays a reviewed game and judges every move; evals are White's
// share of the winning chances in every position, as -1..1.
func judge(rec *storage.Game, rv *storage.Review) ([]judgement, []float64, error) {
	if len(rv.Scores) != len(rec.Moves)+1 || len(rv.Best) != len(rv.Scores) {
		return nil, nil, fmt.Errorf("review of %s has %d positions for %d moves", rec.ID, len(rv.Scores), len(rec.Moves))
	}
	v, err := engine.GetVariant(rec.Variant)
	if err != nil {
		return nil, nil, err
	}
	g, err := engine.NewGame(v, rec.Start)
	if err != nil {
		return nil, nil, err
	}
	pos := g.Position().Clone()
	white := func(p *engine.Position, cp int) float64 {
		w := winChance(cp)
		if p.Side == engine.Black {
			w = 100 - w
		}
		return (w - 50) / 50
	}
	var out []judgement
	evals := []float64{white(pos, rv.Scores[0])}
	for i, mv := range rec.Moves {
		m, err := pos.ParseCanonical(mv)
		if err != nil {
			return nil, nil, fmt.Errorf("move %d (%s): %w", i+1, mv, err)
		}
		j := judgement{ply: i, mover: pos.Side, pos: pos.Clone(), num: pos.Fullmove, played: pos.SAN(m)}
		j.before = winChance(rv.Scores[i])
		j.after = winChance(-rv.Scores[i+1])
		if rv.Best[i] == mv || rv.Best[i] == "" {
			j.after = max(j.after, j.before) // the engine's own choice loses nothing
		} else if bm, err := pos.ParseCanonical(rv.Best[i]); err == nil {
			j.best, j.bestMove = pos.SAN(bm), rv.Best[i]
		}
		j.severity = severityOf(j.drop())
		if j.best == "" {
			j.severity = 0
		}
		out = append(out, j)
		pos.Make(m)
		evals = append(evals, white(pos, rv.Scores[i+1]))
	}
	return out, evals, nil
}

// reviewReplies words a stored review: the graph with accuracy figures,
// then each side's biggest mistakes with a picture of the better move.
func (s *Service) reviewReplies(rec *storage.Game, rv *storage.Review) []Reply {
	js, evals, err := judge(rec, rv)
	if err != nil {
		s.log.Error("review unreadable", "game", rec.ID, "err", err)
		return []Reply{{Text: fmt.Sprintf("Sorry, the review of %s cannot be read.", rec.ID), Error: true}}
	}
	var marks []render.GraphMark
	var acc [2]float64
	var count [2]int
	var worst [2][]judgement
	var tally [2][4]int
	for _, j := range js {
		acc[j.mover] += moveAccuracy(j.drop())
		count[j.mover]++
		tally[j.mover][j.severity]++
		if j.severity > 0 {
			marks = append(marks, render.GraphMark{Ply: j.ply + 1, Severity: j.severity})
			worst[j.mover] = append(worst[j.mover], j)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Review of %s · %s · %s (White) vs %s (Black) · %s\nAccuracy:", rec.ID, variantName(rec.Variant), rec.White.Name, rec.Black.Name, endText(rec))
	for _, side := range []engine.Color{engine.White, engine.Black} {
		p := playerOf(rec, side)
		if count[side] == 0 {
			fmt.Fprintf(&b, " %s made no move;", p.Name)
			continue
		}
		t := tally[side]
		fmt.Fprintf(&b, " %s %.0f%% (%s, %s, %s);", p.Name, acc[side]/float64(count[side]), plural(t[3], "blunder", "blunders"), plural(t[2], "mistake", "mistakes"), plural(t[1], "inaccuracy", "inaccuracies"))
	}
	text := strings.TrimSuffix(b.String(), ";") + fmt.Sprintf(".\nThe engine looked %d plies deep at every position.", rv.Depth)
	graph := Reply{Text: text}
	png, err := render.EvalGraph(evals, marks, render.GraphOptions{Width: s.graphWidth(), Title: fmt.Sprintf("%s · %s vs %s", rec.ID, rec.White.Name, rec.Black.Name)})
	if err != nil {
		s.log.Error("graph failed", "game", rec.ID, "err", err)
		graph.Text += " (I could not draw the graph this time.)"
	} else {
		graph.Image = &Image{Name: fileName(rec.ID + "-review.png"), PNG: png, Alt: graphAlt(rec, js, evals)}
	}
	out := []Reply{graph}
	for _, side := range []engine.Color{engine.White, engine.Black} {
		ws := worst[side]
		slices.SortStableFunc(ws, func(a, b judgement) int {
			if a.drop() != b.drop() {
				if a.drop() > b.drop() {
					return -1
				}
				return 1
			}
			return a.ply - b.ply
		})
		p := playerOf(rec, side)
		if len(ws) == 0 {
			out = append(out, Reply{Text: fmt.Sprintf("%s · %s (%s) made no mistake the engine found.", rec.ID, p.Name, colorName(side.String()))})
			continue
		}
		for i, j := range ws[:min(3, len(ws))] {
			out = append(out, s.mistakeReply(rec, p, j, i+1, min(3, len(ws))))
		}
	}
	return out
}

// mistakeReply is one mistake with a picture of the position before it
// and the better move drawn as an arrow.
func (s *Service) mistakeReply(rec *storage.Game, p storage.Player, j judgement, n, of int) Reply {
	dots := "."
	if j.mover == engine.Black {
		dots = "..."
	}
	text := fmt.Sprintf("%s · %s's mistake %d of %d: %d%s %s%s was %s: %s's chances fell from %.0f%% to %.0f%%. Better was %s (the arrow).",
		rec.ID, p.Name, n, of, j.num, dots, j.played, severityMarks[j.severity], severityWords[j.severity], colorName(j.mover.String()), j.before, j.after, j.best)
	r := Reply{Text: text}
	opt := render.Options{Orientation: j.mover, Last: lastMove(j.pos.V, j.bestMove)}
	if j.pos.InCheck() && j.pos.King[j.pos.Side] >= 0 {
		opt.Check = []int{int(j.pos.King[j.pos.Side])}
	}
	img, err := s.picture(j.pos, opt, fmt.Sprintf("%s-review-%d.png", rec.ID, j.ply+1), "")
	if err != nil {
		s.log.Error("render failed", "game", rec.ID, "err", err)
		r.Text += " (I could not draw the board this time.)"
		return r
	}
	img.Alt = strings.Replace(img.Alt, ". Last move ", ". Better move ", 1)
	r.Image = img
	r.Buttons = playOnButton(j.pos)
	return r
}

// graphAlt describes the graph for screen readers.
func graphAlt(rec *storage.Game, js []judgement, evals []float64) string {
	lead := func(v float64) string {
		switch {
		case v > 0.2:
			return "White ahead"
		case v < -0.2:
			return "Black ahead"
		}
		return "about level"
	}
	var turns []string
	for _, j := range js {
		if j.severity >= 2 {
			dots := "."
			if j.mover == engine.Black {
				dots = "..."
			}
			turns = append(turns, fmt.Sprintf("%d%s %s", j.num, dots, j.played))
		}
	}
	s := fmt.Sprintf("Evaluation graph of game %s over %d moves: at the start %s, at the end %s.", rec.ID, len(js), lead(evals[0]), lead(evals[len(evals)-1]))
	if len(turns) > 0 {
		s += " Marked mistakes and blunders: " + strings.Join(turns, ", ") + "."
	}
	return s
}

// graphWidth follows the board pictures' size.
func (s *Service) graphWidth() int {
	if r, ok := s.painter.(*render.Renderer); ok {
		if r.Width > 0 {
			return r.Width
		}
		if r.Long > 0 {
			return r.Long * 2
		}
	}
	return render.DefaultWidth
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
