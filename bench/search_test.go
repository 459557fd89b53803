package bench

import (
	"context"
	"math/rand/v2"
	"testing"

	"topochess/engine"
	"topochess/engine/search"
)

// searchNodes is the node budget of one benchmarked search: enough for
// the table, killers and history to matter, short enough to repeat.
const searchNodes = 200_000

// BenchmarkSearch reports the search's nodes/s in every variant, from the
// start position and from a middlegame reached by 24 random plies (the
// same for every run).
func BenchmarkSearch(b *testing.B) {
	for _, id := range engine.Variants() {
		v := engine.MustVariant(id)
		positions := map[string]*engine.Position{"start": v.StartPosition(), "middlegame": playout(v, 24)}
		for _, name := range []string{"start", "middlegame"} {
			pos := positions[name]
			b.Run(id+"/"+name, func(b *testing.B) {
				cfg, err := search.Level(5)
				if err != nil {
					b.Fatal(err)
				}
				cfg.Time, cfg.Nodes = 0, searchNodes
				var nodes int64
				depth := 0
				for i := 0; i < b.N; i++ {
					// A fresh searcher each time: no table carried over.
					_, info, err := search.NewSearcher().Search(context.Background(), pos, cfg, nil)
					if err != nil {
						b.Fatal(err)
					}
					nodes += info.Nodes
					depth = info.Depth
				}
				b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
				b.ReportMetric(float64(depth), "depth")
			})
		}
	}
}

func playout(v *engine.Variant, plies int) *engine.Position {
	rng := rand.New(rand.NewPCG(2026, 11))
	for {
		pos := v.StartPosition()
		ok := true
		for i := 0; i < plies && ok; i++ {
			ms := pos.LegalMoves()
			if len(ms) == 0 {
				ok = false
				break
			}
			pos.Make(ms[rng.IntN(len(ms))])
		}
		if ok && len(pos.LegalMoves()) > 0 {
			return pos
		}
	}
}
