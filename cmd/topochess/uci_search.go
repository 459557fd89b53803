package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"topochess/engine"
	"topochess/engine/search"
)

// searching reports whether a search has yet to write its bestmove: once
// it has, the GUI may send the next go at once.
func (s *uciSession) searching() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running
}

// stopSearch ends the running search, if any, and returns once its
// bestmove is written.
func (s *uciSession) stopSearch() {
	if s.done == nil {
		return
	}
	s.cancel()
	<-s.done
	s.done, s.cancel = nil, nil
}

// searchConfig is the level's configuration under the go limits: a level's
// node and depth caps and its noise always hold (they are its strength);
// any go limit replaces the level's own clock, and a bare go keeps it.
func (s *uciSession) searchConfig(l goLimits) search.Config {
	cfg, _ := search.Level(s.level)
	cfg.Threads = s.threads
	if !l.any() {
		return cfg
	}
	cfg.Time = 0
	if l.depth > 0 {
		cfg.Depth = minPositive(cfg.Depth, l.depth)
	}
	if l.nodes > 0 {
		cfg.Nodes = minPositive(cfg.Nodes, l.nodes)
	}
	switch {
	case l.infinite:
	case l.moveTime > 0:
		// The search uses all of it, so leave a margin for the
		// process and the pipe.
		cfg.Time = max(l.moveTime-min(l.moveTime/20, 25*time.Millisecond), time.Millisecond)
	case l.hasClock:
		c := 0
		if s.pos.Side == engine.Black {
			c = 1
		}
		cfg.Time = clockBudget(l.clock[c], l.inc[c], l.movesToGo)
		cfg.SaveTime = true
	}
	return cfg
}

func minPositive[T int | int64](a, b T) T {
	if a <= 0 {
		return b
	}
	return min(a, b)
}

// startSearch searches the current position on a new goroutine, which
// writes info lines as iterations finish and then the bestmove. Under go
// infinite the bestmove waits for stop or quit, as the protocol asks.
func (s *uciSession) startSearch(l goLimits) {
	if s.searcher == nil {
		s.searcher = search.NewSearcherMB(s.hashMB)
	}
	pos := s.pos.Clone()
	cfg := s.searchConfig(l)
	cfg.History = append([]uint64(nil), s.history...)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	s.stopSearch() // reap the previous search, whose bestmove is out
	s.cancel, s.done = cancel, done
	s.running = true
	searcher := s.searcher
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 23))
	start := time.Now()
	lastNodes := int64(-1) // written by the search goroutine only
	cfg.Progress = func(in search.Info) {
		lastNodes = in.Nodes
		s.say("%s", uciInfo(pos, in, time.Since(start)))
	}
	go func() {
		defer close(done)
		m, info, err := safeSearch(ctx, searcher, pos, cfg, rng)
		best := "(none)"
		switch {
		case errors.Is(err, search.ErrNoMoves):
			score := "cp 0"
			if pos.InCheck() {
				score = "mate 0"
			}
			s.say("info depth 0 score %s", score)
			s.say("info string no legal move: the game is over")
		case err != nil:
			// A failure of the search must not leave the GUI waiting: any
			// legal move is better than none.
			s.say("info string search failed (%v); playing the first legal move", err)
			best = uciMoveText(pos, pos.LegalMoves()[0])
		default:
			// The last iteration's line already says it all unless the
			// search went on (a stopped iteration) or had none (one reply).
			if info.Nodes != lastNodes {
				s.say("%s", uciInfo(pos, info, time.Since(start)))
			}
			best = uciMoveText(pos, m)
		}
		if l.infinite {
			<-ctx.Done()
		}
		s.mu.Lock()
		fmt.Fprintf(s.out, "bestmove %s\n", best)
		s.running = false
		s.mu.Unlock()
	}()
}

// uciInfo writes an info line: depth, score from the side to move's view,
// nodes, speed, time and the principal variation.
func uciInfo(pos *engine.Position, in search.Info, elapsed time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "info depth %d score ", in.Depth)
	if in.Mate != 0 {
		fmt.Fprintf(&b, "mate %d", in.Mate)
	} else {
		fmt.Fprintf(&b, "cp %d", in.Score)
	}
	ms := elapsed.Milliseconds()
	nps := int64(0)
	if elapsed > 0 {
		nps = int64(float64(in.Nodes) / elapsed.Seconds())
	}
	fmt.Fprintf(&b, " nodes %d nps %d time %d", in.Nodes, nps, ms)
	if len(in.PV) > 0 {
		b.WriteString(" pv")
		q := pos.Clone()
		for _, m := range in.PV {
			b.WriteString(" " + uciMoveText(q, m))
			q.Make(m)
		}
	}
	return b.String()
}
