package storage

import (
	"fmt"
	"testing"
)

// The cost of the two calls every move makes (load, then save with its
// revision check and one outbox record), on each implementation.
func BenchmarkMove(b *testing.B) {
	for _, impl := range []struct {
		name  string
		fresh func(testing.TB) opener
	}{{"bbolt", freshBolt}, {"postgres", freshPostgres}} {
		b.Run(impl.name, func(b *testing.B) {
			s := impl.fresh(b)(b)
			g := newGame("a", "b", "c")
			if err := s.CreateGame(g, "", t0); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := range b.N {
				cur, err := s.Game(g.ID)
				if err != nil {
					b.Fatal(err)
				}
				cur.DrawOffer = [2]string{"white", ""}[i%2]
				if err := s.SaveGame(cur, fmt.Sprintf("e%d", i), t0, &Outgoing{Channel: "c", Ply: len(cur.Moves)}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
