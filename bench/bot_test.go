package bench

import (
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"topochess/bot"
	"topochess/engine"
	"topochess/render"
	"topochess/storage"
)

// The bot benchmarks measure a command end to end in-process — parse,
// lock, load and replay, check, store with fsync, draw — on a database
// that already holds 10,000 games, and report the 50th and 99th
// percentile per operation (a mean hides the fsync tail).
//
//	cd bench && go test -run XXX -bench 'Bot' -benchtime 200x

const filler = 10000

// runs numbers benchmark invocations: each uses fresh channels and users.
var runs atomic.Int64

var (
	dbOnce  sync.Once
	dbStore *storage.Store
	dbErr   error
)

// store opens (once per run) a database with 10,000 games spread over
// 100 channels and 400 users, in every variant, each 20 plies long.
func store(b *testing.B) *storage.Store {
	dbOnce.Do(func() {
		dir, err := os.MkdirTemp("", "topochess-bench")
		if err != nil {
			dbErr = err
			return
		}
		dbStore, dbErr = storage.Open(filepath.Join(dir, "bench.db"), storage.Options{})
		if dbErr != nil {
			return
		}
		ids := engine.Variants()
		now := time.Now()
		rng := rand.New(rand.NewPCG(1, 2))
		var batch []*storage.Game
		for i := 0; i < filler; i++ {
			v := engine.MustVariant(ids[i%len(ids)])
			moves := randomGame(v, rng, 20)
			batch = append(batch, &storage.Game{
				Variant: v.ID, Channel: fmt.Sprintf("fill:%d", i%100), Moves: moves,
				White: storage.Player{ID: fmt.Sprintf("fill:u%d", i%400), Name: "w"},
				Black: storage.Player{ID: fmt.Sprintf("fill:u%d", (i+1)%400), Name: "b"},
			})
			if len(batch) == 1000 {
				if dbErr = dbStore.ImportGames(batch, now); dbErr != nil {
					return
				}
				batch = nil
			}
		}
	})
	if dbErr != nil {
		b.Fatal(dbErr)
	}
	return dbStore
}

// randomGame plays up to n random legal plies, stopping before the game
// would end.
func randomGame(v *engine.Variant, rng *rand.Rand, n int) []string {
	g, _ := engine.NewGame(v, "")
	for len(g.Moves) < n {
		ms := g.Position().LegalMoves()
		if len(ms) == 0 {
			break
		}
		m := ms[rng.IntN(len(ms))]
		before := slices.Clone(g.Moves)
		if g.Play(m) != nil || g.Over() {
			g, _ = engine.Replay(v, "", before)
			break
		}
	}
	return g.Moves
}

type nopPainter struct{}

func (nopPainter) PNG(*engine.Position, render.Options) ([]byte, error) { return nil, nil }

// painters: the default renderer, and none, to separate the bot's own
// cost from drawing.
var painters = []struct {
	name string
	p    bot.Painter
}{
	{"render", render.New()},
	{"norender", nopPainter{}},
}

func service(st *storage.Store, p bot.Painter) *bot.Service {
	return bot.New(st, bot.Config{
		Limits:  bot.Limits{CommandsPer10s: 1 << 30, ActiveGames: 1 << 20},
		Painter: p,
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
}

func report(b *testing.B, d []time.Duration) {
	slices.Sort(d)
	if len(d) == 0 {
		return
	}
	q := func(p float64) float64 { return float64(d[int(p*float64(len(d)-1))]) / 1e6 }
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	b.ReportMetric(0, "ns/op") // the percentiles are the figures
}

// BenchmarkBotMove plays random legal moves typed in SAN, in a game of
// up to 60 plies (a new game starts when one ends or gets that long).
func BenchmarkBotMove(b *testing.B) {
	st := store(b)
	for _, id := range engine.Variants() {
		v := engine.MustVariant(id)
		for _, pt := range painters {
			b.Run(id+"/"+pt.name, func(b *testing.B) {
				svc := service(st, pt.p)
				ch := fmt.Sprintf("bench:%s:%s:%d", id, pt.name, runs.Add(1))
				white, black := bot.User{ID: ch + ":w", Name: "w"}, bot.User{ID: ch + ":b", Name: "b"}
				rng := rand.New(rand.NewPCG(3, 4))
				var g *engine.Game
				var rec *storage.Game
				durations := make([]time.Duration, 0, b.N)
				for i := 0; i < b.N; i++ {
					if g == nil || g.Over() || len(g.Moves) >= 60 {
						if rec != nil { // leave the finished or long game
							rec, _ = st.Game(rec.ID)
							rec.Result, rec.Reason = "1/2-1/2", "agreement"
							st.SaveGame(rec, "", time.Now())
						}
						rec = &storage.Game{Variant: id, Channel: ch, White: storage.Player{ID: white.ID, Name: "w"}, Black: storage.Player{ID: black.ID, Name: "b"}, Moves: []string{}}
						if err := st.CreateGame(rec, "", time.Now()); err != nil {
							b.Fatal(err)
						}
						g, _ = engine.NewGame(v, "")
					}
					pos := g.Position()
					ms := pos.LegalMoves()
					m := ms[rng.IntN(len(ms))]
					who := white
					if pos.Side == engine.Black {
						who = black
					}
					// Typed as SAN, as players do, unless the engine's SAN
					// does not read back as this move (pawn moves on the cube
					// and in Heisenberg can be ambiguous): then canonical.
					text := pos.SAN(m)
					if back, err := pos.ParseMove(text); err != nil || !back.Same(m) {
						text = pos.Canonical(m)
					}
					cmd := bot.Command{EventID: fmt.Sprintf("%s-%d", ch, i), Platform: "bench", Channel: ch, User: who, Name: "move", Text: text}
					start := time.Now()
					rs := svc.Handle(cmd)
					durations = append(durations, time.Since(start))
					if len(rs) != 1 || rs[0].Error {
						b.Fatalf("move %s refused: %+v", cmd.Text, rs)
					}
					if !strings.Contains(rs[0].Text, rec.ID+" · ") {
						b.Fatalf("move %s not played: %q", cmd.Text, rs[0].Text)
					}
					if err := g.Play(m); err != nil {
						b.Fatal(err)
					}
				}
				report(b, durations)
			})
		}
	}
}

// BenchmarkBotBoard shows the board of a 30-ply game.
func BenchmarkBotBoard(b *testing.B) {
	st := store(b)
	for _, id := range engine.Variants() {
		v := engine.MustVariant(id)
		for _, pt := range painters {
			b.Run(id+"/"+pt.name, func(b *testing.B) {
				svc := service(st, pt.p)
				ch := fmt.Sprintf("bench-board:%s:%s:%d", id, pt.name, runs.Add(1))
				rec := &storage.Game{Variant: id, Channel: ch, White: storage.Player{ID: ch + ":w"}, Black: storage.Player{ID: ch + ":b"},
					Moves: randomGame(v, rand.New(rand.NewPCG(5, 6)), 30)}
				if err := st.CreateGame(rec, "", time.Now()); err != nil {
					b.Fatal(err)
				}
				durations := make([]time.Duration, 0, b.N)
				for i := 0; i < b.N; i++ {
					cmd := bot.Command{Platform: "bench", Channel: ch, User: bot.User{ID: ch + ":w"}, Name: "board"}
					start := time.Now()
					rs := svc.Handle(cmd)
					durations = append(durations, time.Since(start))
					if len(rs) != 1 || rs[0].Error || !strings.Contains(rs[0].Text, rec.ID) {
						b.Fatalf("board refused: %+v", rs)
					}
				}
				report(b, durations)
			})
		}
	}
}
