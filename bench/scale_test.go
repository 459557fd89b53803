package bench

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"topochess/storage/pgtest"
)

// BenchmarkScale measures commands per second and reply latency through
// the whole bot: real `topochess serve` processes built from
// ../cmd/topochess, driven over the web chat's HTTP API by simulated
// players who play many games at once (every move answered with the
// board's picture, which the player loads). Three setups, all in one
// run and measured in turns (phases interleaved, the order rotated each
// round) so that the load of a shared machine falls on all of them:
//
//   - bbolt: one process on a bbolt file (fsync on every commit);
//   - pg1: one process on PostgreSQL;
//   - pg2: two processes on one PostgreSQL database, each game's white
//     on one process and black on the other.
//
// PostgreSQL is a throwaway server (storage/pgtest) with its durable
// settings (fsync, synchronous commit), as a real server runs.
//
//	cd bench && go test -run XXX -bench Scale -benchtime 1x -timeout 30m
//
// TOPOCHESS_BENCH_GAMES: games played at once, a list (default
// 2,8,32,96); TOPOCHESS_BENCH_PHASE: length of one measured phase
// (default 12s);
// TOPOCHESS_BENCH_ROUNDS: rounds over all setups and loads (default 2);
// TOPOCHESS_BENCH_RAMP: the players of the warm-up arrive over this time
// (default 5s; 0s: every pair challenges at once).
// Without the PostgreSQL server binaries the benchmark is skipped.
func BenchmarkScale(b *testing.B) {
	dir, err := pgtest.BinDir()
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "initdb"))
	}
	if err != nil {
		b.Skipf("BenchmarkScale compares bbolt with PostgreSQL in one run and needs the PostgreSQL server binaries: %v", err)
	}
	if os.Getenv(pgtest.SkipEnv) != "" {
		b.Skipf("%s is set: BenchmarkScale needs PostgreSQL", pgtest.SkipEnv)
	}
	loads := envInts(b, "TOPOCHESS_BENCH_GAMES", []int{2, 8, 32, 96})
	phase := 12 * time.Second
	if v := os.Getenv("TOPOCHESS_BENCH_PHASE"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			b.Fatalf("TOPOCHESS_BENCH_PHASE: %v", err)
		}
		phase = d
	}
	rounds := envInts(b, "TOPOCHESS_BENCH_ROUNDS", []int{2})[0]
	ramp := 5 * time.Second
	if v := os.Getenv("TOPOCHESS_BENCH_RAMP"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			b.Fatalf("TOPOCHESS_BENCH_RAMP: %q is not a duration", v)
		}
		ramp = d
	}
	for range b.N {
		scale(b, loads, phase, ramp, rounds)
	}
}

func envInts(b *testing.B, name string, def []int) []int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	var out []int
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			b.Fatalf("%s: %q is not a list of positive numbers", name, v)
		}
		out = append(out, n)
	}
	return out
}

// proc is one running `topochess serve`.
type proc struct {
	cmd  *exec.Cmd
	log  string // its output
	url  string // the web chat, without the final slash
	done chan struct{}
}

// setup is one way of running the bot, with its players.
type setup struct {
	name  string
	procs []*proc
	db    func() []int // the database server's processes (none for bbolt)
	pairs []*pair
}

// stats is what the phases of one setup at one load add up to.
type stats struct {
	samples        []sample
	elapsed        time.Duration
	botCPU, dbCPU  time.Duration
	games          int
	failed         int
	loadAvgs       []string
	clientCPUTotal time.Duration
}

func scale(b *testing.B, loads []int, phase, ramp time.Duration, rounds int) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := b.TempDir()
	bin := buildServe(b, dir)

	pg, err := pgtest.StartWith(pgtest.Options{Durable: true})
	if err != nil {
		b.Fatal(err)
	}
	defer pg.Stop()
	url1, err := pg.NewDatabase()
	if err != nil {
		b.Fatal(err)
	}
	url2, err := pg.NewDatabase()
	if err != nil {
		b.Fatal(err)
	}

	maxGames := slices.Max(loads)
	setups := []*setup{
		{name: "bbolt, 1 process", procs: []*proc{startServe(b, bin, dir, "bbolt", "")}},
		{name: "PostgreSQL, 1 process", procs: []*proc{startServe(b, bin, dir, "pg1", url1)}, db: pg.PIDs},
		{name: "PostgreSQL, 2 processes", procs: []*proc{startServe(b, bin, dir, "pg2a", url2), startServe(b, bin, dir, "pg2b", url2)}, db: pg.PIDs},
	}
	defer func() {
		for _, s := range setups {
			for _, p := range s.procs {
				p.stop()
			}
		}
	}()
	// Every player has its own loopback address; 127.0.0.0/8 is all
	// loopback on Linux, so a server on 127.0.0.1 sees many clients.
	next := 0
	addr := func() netip.Addr {
		next++
		return netip.AddrFrom4([4]byte{127, 1, byte(next / 250), byte(next%250 + 1)})
	}
	for si, s := range setups {
		for g := range maxGames {
			room := fmt.Sprintf("g%d", g)
			pw, pb := s.procs[g%len(s.procs)], s.procs[(g+1)%len(s.procs)]
			w, err := newPlayer(ctx, pw.url, fmt.Sprintf("w%d", g), room, addr())
			if err != nil {
				b.Fatal(err)
			}
			k, err := newPlayer(ctx, pb.url, fmt.Sprintf("b%d", g), room, addr())
			if err != nil {
				b.Fatal(err)
			}
			s.pairs = append(s.pairs, &pair{white: w, black: k, rng: rand.New(rand.NewPCG(uint64(si), uint64(g)))})
		}
	}
	// Warm up: the first picture of each variant builds its board, the
	// database's pool connects.
	for _, s := range setups {
		ph, err := runPhase(ctx, s, maxGames, ramp+5*time.Second, ramp)
		if err != nil {
			b.Fatalf("%s: %v%s", s.name, err, s.errors())
		}
		if ph.failed > 0 {
			fmt.Printf("%s, warming up with %d games: %d commands failed on the bot's side, e.g. %q\n", s.name, maxGames, ph.failed, ph.failures)
		}
	}
	results := map[string]*stats{}
	key := func(s *setup, games int) string { return fmt.Sprintf("%s/%d", s.name, games) }
	for r := range rounds {
		for _, games := range loads {
			for i := range setups {
				s := setups[(i+r)%len(setups)]
				st := results[key(s, games)]
				if st == nil {
					st = &stats{}
					results[key(s, games)] = st
				}
				var ru0 syscall.Rusage
				_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
				ph, err := runPhase(ctx, s, games, phase, 0)
				if err != nil {
					b.Fatalf("%s, %d games: %v%s", s.name, games, err, s.errors())
				}
				var ru1 syscall.Rusage
				_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
				st.samples = append(st.samples, ph.samples...)
				st.elapsed += ph.elapsed
				st.botCPU += ph.botCPU
				st.dbCPU += ph.dbCPU
				st.games += ph.games
				st.failed += ph.failed
				if ph.failed > 0 {
					fmt.Printf("%s, %d games: %d commands failed on the bot's side, e.g. %q\n", s.name, games, ph.failed, ph.failures)
				}
				st.clientCPUTotal += rusageCPU(ru1) - rusageCPU(ru0)
				st.loadAvgs = append(st.loadAvgs, loadAvg())
			}
		}
	}
	fmt.Printf("\nBenchmarkScale: %d rounds of %v per setup and load, %d cores, load average now %s\n", rounds, phase, runtime.NumCPU(), loadAvg())
	printResults(b, setups, loads, func(s *setup, games int) *stats { return results[key(s, games)] })
	b.ReportMetric(0, "ns/op")
}

// printResults prints the table docs/performance.md shows, and reports
// each setup's rate and p99 as benchmark metrics.
func printResults(b *testing.B, setups []*setup, loads []int, results func(*setup, int) *stats) {
	fmt.Println("| setup | games at once | commands | cmds/s | games ended/s | p50 | p99 | p99 POST only | failed | server CPU per command (bot + db) | harness CPU per command |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|")
	for _, games := range loads {
		for _, s := range setups {
			st := results(s, games)
			n := len(st.samples)
			full := make([]time.Duration, n)
			post := make([]time.Duration, n)
			for i, x := range st.samples {
				full[i], post[i] = x.full, x.post
			}
			slices.Sort(full)
			slices.Sort(post)
			rate := float64(n) / st.elapsed.Seconds()
			per := func(d time.Duration) float64 { return float64(d) / float64(n) / 1e6 }
			fmt.Printf("| %s | %d | %d | %.0f | %.2f | %.1f ms | %.1f ms | %.1f ms | %d | %.2f ms (%.2f + %.2f) | %.2f ms |\n",
				s.name, games, n, rate, float64(st.games)/st.elapsed.Seconds(),
				ms(quantile(full, 0.50)), ms(quantile(full, 0.99)), ms(quantile(post, 0.99)), st.failed,
				per(st.botCPU+st.dbCPU), per(st.botCPU), per(st.dbCPU), per(st.clientCPUTotal))
			unit := strings.NewReplacer(" ", "", ",", "-").Replace(s.name) + "-" + strconv.Itoa(games)
			b.ReportMetric(rate, "cmds/s:"+unit)
			b.ReportMetric(ms(quantile(full, 0.99)), "p99-ms:"+unit)
		}
	}
	fmt.Println("load averages after each phase:")
	for _, games := range loads {
		for _, s := range setups {
			fmt.Printf("  %s, %d games: %s\n", s.name, games, strings.Join(results(s, games).loadAvgs, "; "))
		}
	}
}

// phaseResult is one phase of one setup.
type phaseResult struct {
	samples       []sample
	failed        int // commands the bot answered "something went wrong on my side"
	failures      []string
	elapsed       time.Duration
	botCPU, dbCPU time.Duration
	games         int
}

// runPhase lets the first games pairs of a setup play for d, each pair
// sending its next command as soon as the last one is answered, and
// measures what the setup's processes (and the database server's) used.
//
// ramp spreads the pairs' start over that time, as players arrive; at
// the very start every pair would otherwise create its game at once.
func runPhase(ctx context.Context, s *setup, games int, d, ramp time.Duration) (phaseResult, error) {
	var botPIDs []int
	for _, p := range s.procs {
		botPIDs = append(botPIDs, p.cmd.Process.Pid)
	}
	dbPIDs := func() []int { return nil }
	if s.db != nil {
		dbPIDs = s.db
	}
	bot0, db0 := cpuOf(botPIDs), cpuOf(dbPIDs())
	finished0 := 0
	for _, g := range s.pairs[:games] {
		finished0 += g.finished
	}
	start := time.Now()
	deadline := start.Add(d)
	var (
		mu      sync.Mutex
		wg      sync.WaitGroup
		samples []sample
		first   error
		failed  int
		// firstFailures are a few of the failed commands, for the log.
		firstFailures []string
	)
	for i, g := range s.pairs[:games] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ramp > 0 {
				time.Sleep(time.Duration(i) * ramp / time.Duration(games))
			}
			for time.Now().Before(deadline) {
				x, err := g.step(ctx)
				mu.Lock()
				var r *refusal
				if errors.As(err, &r) && r.failed {
					failed++
					if failed <= 3 {
						firstFailures = append(firstFailures, r.msg)
					}
					// Still a reply the player waited for: its time counts.
					err = nil
				}
				if err != nil && first == nil {
					first = err
				}
				stop := first != nil
				if err == nil {
					samples = append(samples, x)
				}
				mu.Unlock()
				if stop {
					return
				}
			}
		}()
	}
	wg.Wait()
	res := phaseResult{samples: samples, elapsed: time.Since(start), failed: failed, failures: firstFailures}
	res.botCPU, res.dbCPU = cpuOf(botPIDs)-bot0, cpuOf(dbPIDs())-db0
	for _, g := range s.pairs[:games] {
		res.games += g.finished
	}
	res.games -= finished0
	for _, p := range s.procs {
		select {
		case <-p.done:
			return res, fmt.Errorf("serve at %s ended during the phase", p.url)
		default:
		}
	}
	return res, first
}

// errors are the error lines the setup's processes logged, for a
// failure's message.
func (s *setup) errors() string {
	var out strings.Builder
	for _, p := range s.procs {
		data, _ := os.ReadFile(p.log)
		for _, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, "level=ERROR") && out.Len() < 8000 {
				fmt.Fprintf(&out, "\n%s: %s", filepath.Base(p.log), line)
			}
		}
	}
	return out.String()
}

func quantile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[int(q*float64(len(d)-1))]
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
