package search

import (
	"context"
	"sync"

	"topochess/engine"
)

// startHelpers starts n helper threads on root (Lazy SMP). They run the
// same iterative deepening as the owner, without root noise or node budget
// and with their own history, killers and evaluation cache, so they drift
// apart from it and from each other; every second helper starts a ply
// deeper so that the table holds results the owner is about to need. The
// returned function stops them, waits for them and counts their nodes; the
// owner calls it when its own search ends, whatever ended it.
func (s *Searcher) startHelpers(ctx context.Context, root *engine.Position, cfg Config, n int) func() int64 {
	for len(s.helpers) < n {
		h := &Searcher{tt: s.tt, shared: true, evalCache: make([]evalSlot, len(s.evalCache))}
		h.init()
		s.helpers = append(s.helpers, h)
	}
	s.running = n
	hctx, cancel := context.WithCancel(ctx)
	hcfg := cfg
	hcfg.Nodes, hcfg.Noise, hcfg.Progress, hcfg.Threads = 0, 0, nil, 0
	var wg sync.WaitGroup
	for i, h := range s.helpers[:n] {
		h.published.Store(0)
		// Cloned here: the owner starts moving on root as soon as this
		// returns.
		own := root.Clone()
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.help(hctx, own, hcfg, 1+(i+1)%2)
		}()
	}
	return func() int64 {
		cancel()
		wg.Wait()
		s.running = 0
		var total int64
		for _, h := range s.helpers[:n] {
			total += h.nodes
		}
		return total
	}
}

// helperNodes is what the running helpers (none after the search) have published of their node
// counts so far.
func (s *Searcher) helperNodes() int64 {
	var total int64
	for _, h := range s.helpers[:s.running] {
		total += h.published.Load()
	}
	return total
}

// help is a helper thread's search: iterative deepening from depth first
// until the context ends it (the owner cancels it when done) or the depth
// limit is reached. Its only output is what it writes to the shared table.
func (s *Searcher) help(ctx context.Context, root *engine.Position, cfg Config, first int) {
	s.prepare(ctx, root, cfg)
	defer func() { s.ctx, s.pos = nil, nil }()
	rs := newRootMoves(s, root.LegalMoves(), make([]int32, len(root.LegalMoves())))
	depthLimit := maxDepth
	if cfg.Depth > 0 {
		depthLimit = min(cfg.Depth, maxDepth)
	}
	var score int32
	for depth := first; depth <= depthLimit; depth++ {
		var ok bool
		if score, ok = s.aspire(rs, depth, score, depth >= aspirationDepth); !ok {
			return
		}
	}
}
