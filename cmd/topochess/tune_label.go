package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sync"
	"time"

	"topochess/engine"
	"topochess/engine/search"
)

// A labelled position: the score an outside UCI engine gives it, in
// centipawns from White's side, for tune --labels. Game numbers the game
// the position came from, so that held-out positions are whole games.
type labelRecord struct {
	Variant  string `json:"variant"`
	Game     int    `json:"game"`
	Position string `json:"position"`
	CP       int    `json:"cp"`
}

// labelCap bounds the centipawns a label may carry: a mate is worth this
// much, and a larger score says nothing more about the position.
const labelCap = 2000

// labelTarget turns a label into the expected score for White that the
// fit aims at (the logistic curve the tuning uses, at scale 1).
func labelTarget(cp int) float64 {
	cp = max(-labelCap, min(labelCap, cp))
	return 1 / (1 + math.Pow(10, -float64(cp)/400))
}

type labelJob struct {
	game  int
	moves []string
	pos   *engine.Position
}

// labelPositions asks jobs copies of the UCI engine cmd to score every
// quiet position after the opening of the recorded games (every nth one)
// and writes one labelRecord per line to out. It returns how many it wrote.
func labelPositions(games []string, v *engine.Variant, skip, every int, cmd, goArgs string, jobs int, out io.Writer, progress io.Writer) (int, error) {
	work := make(chan labelJob, 64)
	var mu sync.Mutex
	var firstErr error
	written := 0
	w := bufio.NewWriter(out)
	var wg sync.WaitGroup
	for range jobs {
		c, err := startUCIClient(cmd)
		if err == nil {
			if err = c.newGame(v, [][2]string{{"Threads", "1"}}); err != nil {
				c.close()
			}
		}
		if err != nil {
			close(work) // the copies already started quit
			wg.Wait()
			return 0, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.close()
			start := v.StartPosition()
			for j := range work {
				_, _, _, score, err := c.bestMove(start, j.moves, goArgs, time.Minute)
				if err == nil && score == nil {
					err = fmt.Errorf("no score for game %d after %d moves", j.game, len(j.moves))
				}
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					continue
				}
				cp := *score
				if j.pos.Side == engine.Black {
					cp = -cp
				}
				data, _ := json.Marshal(labelRecord{Variant: v.ID, Game: j.game, Position: j.pos.String(), CP: max(-labelCap, min(labelCap, cp))})
				w.Write(append(data, '\n'))
				written++
				if progress != nil && written%5000 == 0 {
					fmt.Fprintf(progress, "  %d positions labelled\n", written)
				}
				mu.Unlock()
			}
		}()
	}
	d := search.NewDataset(v)
	game, seen := 0, 0
	var readErr error
	for _, name := range games {
		err := replayTuneGames(name, v, func(g tuneGame, ply int, pos *engine.Position) {
			if ply >= g.openings+skip && d.Quiet(pos) {
				seen++
				if seen%every == 0 {
					work <- labelJob{game: game, moves: g.moves[:ply:ply], pos: pos.Clone()}
				}
			}
		}, func(tuneGame) { game++ })
		if err != nil {
			readErr = err
			break
		}
	}
	close(work)
	wg.Wait()
	if err := w.Flush(); err != nil && readErr == nil {
		readErr = err
	}
	if readErr != nil {
		return written, readErr
	}
	return written, firstErr
}

// readLabels reads a file written by labelPositions and hands every
// position of the variant to add with its target score and game number.
func readLabels(name string, v *engine.Variant, add func(p *engine.Position, target float64, game int)) error {
	return readJSONLines(name, 1<<20, func(r labelRecord) error {
		if r.Variant != v.ID {
			return nil
		}
		p, err := v.ParsePosition(r.Position)
		if err != nil {
			return err
		}
		add(p, labelTarget(r.CP), r.Game)
		return nil
	})
}
