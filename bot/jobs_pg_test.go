package bot

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"topochess/engine/search"
	"topochess/render"
	"topochess/storage"
	"topochess/storage/pgtest"
)

// Jobs across OS processes on one PostgreSQL database: a second process
// (this test binary run again as TestJobHolderProcess) claims a clock job
// and a computer's move, is killed with SIGKILL mid-job, and this process
// takes both over once their leases run out and applies each once.

// pg is the test binary's one PostgreSQL server.
var pg pgtest.Shared

func pgURL(t *testing.T) string { return pg.Database(t) }

func TestMain(m *testing.M) {
	code := m.Run()
	pg.Stop()
	os.Exit(code)
}

const (
	holderEnv   = "TOPOCHESS_JOB_HOLDER_URL"
	holderLease = 2 * time.Second
)

// TestJobHolderProcess is the process that gets killed; it only runs
// when started by TestJobsTakenOverAfterSIGKILL.
func TestJobHolderProcess(t *testing.T) {
	url := os.Getenv(holderEnv)
	if url == "" {
		t.Skip("the helper process of TestJobsTakenOverAfterSIGKILL")
	}
	quiet := slog.New(slog.DiscardHandler)
	pg, err := storage.OpenPostgres(url, storage.Options{Lease: holderLease, Logger: quiet})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	// The clock job is claimed as Tick claims it; the process dies before
	// doing it.
	js, err := pg.ClaimJobs(storage.JobClock, time.Now(), 10)
	if err != nil || len(js) != 1 {
		fmt.Println("error: clock claim", js, err)
		os.Exit(1)
	}
	fmt.Println("clock", js[0].Key)
	// The computer's move is claimed by the real workers, and its search
	// runs without a limit until the kill.
	svc := New(pg, Config{Painter: &render.Renderer{Long: 64}, Logger: quiet, Bot: BotConfig{Workers: 1, Seed: 1,
		Level: func(level int) (search.Config, error) {
			fmt.Println("searching")
			return search.Config{Level: level}, nil
		}}})
	ctx := context.Background()
	svc.StartBot(ctx)
	// The job loop renews the leases while the process lives.
	go svc.RunClock(ctx, holderLease/20)
	time.Sleep(time.Minute) // killed long before
	os.Exit(2)
}

func TestJobsTakenOverAfterSIGKILL(t *testing.T) {
	url := pgURL(t)
	quiet := slog.New(slog.DiscardHandler)
	pg, err := storage.OpenPostgres(url, storage.Options{Lease: holderLease, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()

	// Two games set up three days ago: a correspondence game whose
	// deadline has passed, and a game against the computer waiting for
	// its answer.
	h := &harness{t: t, now: time.Now().Add(-72 * time.Hour).Truncate(time.Second)}
	h.cfg = Config{Limits: Limits{CommandsPer10s: 1000}, Painter: &render.Renderer{Long: 64}, Now: h.clock, Coin: func() bool { return true }, Logger: quiet}
	h.svc = New(pg, h.cfg)
	clockGame := h.timedGame("time:1d rated:false")
	h.ok("alice", "/challenge bot level:1 white")
	games, err := pg.UserActiveGames(BotID)
	if err != nil || len(games) != 1 {
		t.Fatalf("bot games: %v %v", games, err)
	}
	botGame := games[0].ID
	h.ok("alice", "/move e4 game:"+botGame)
	before := map[string]*storage.Game{}
	for _, id := range []string{clockGame, botGame} {
		if before[id], err = pg.Game(id); err != nil {
			t.Fatal(err)
		}
	}

	// The other process claims both jobs and is killed mid-search.
	cmd := exec.Command(os.Args[0], "-test.run=^TestJobHolderProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), holderEnv+"="+url)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	want := map[string]bool{"clock " + clockGame: false, "searching": false}
	for deadline := time.After(60 * time.Second); slices.Contains(mapValues(want), false); {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the holder process ended early: %v", cmd.Wait())
			}
			if _, known := want[l]; !known {
				t.Fatalf("holder process: %s", l)
			}
			want[l] = true
		case <-deadline:
			t.Fatal("the holder process did not claim its jobs")
		}
	}
	go io.Copy(io.Discard, out)

	// Alive, it keeps its leases past their length by renewing them.
	time.Sleep(2*holderLease + holderLease/4)
	for _, kind := range []string{storage.JobClock, storage.JobBotMove} {
		if js, err := pg.ClaimJobs(kind, time.Now(), 10); err != nil || len(js) != 0 {
			t.Fatalf("claimed %s jobs from a live process: %+v %v", kind, js, err)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	killed := time.Now()

	// This process carries on: the jobs are taken over once the leases
	// run out.
	var mu sync.Mutex
	var sent []Reply
	svc := New(pg, Config{Painter: &render.Renderer{Long: 64}, Logger: quiet, Bot: BotConfig{Workers: 1, Seed: 1, Level: budgetLevels}})
	svc.Notify("test", func(r Reply) {
		mu.Lock()
		sent = append(sent, r)
		mu.Unlock()
	})
	ctx, stop := context.WithCancel(context.Background())
	wait := svc.StartBot(ctx)
	loop := make(chan struct{})
	go func() {
		defer close(loop)
		svc.RunClock(ctx, 100*time.Millisecond)
	}()
	defer func() {
		stop()
		wait()
		<-loop
	}()
	var took time.Duration
	for {
		c, err1 := pg.Game(clockGame)
		b, err2 := pg.Game(botGame)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !c.Active() && len(b.Moves) == 2 {
			took = time.Since(killed)
			break
		}
		if time.Since(killed) > 30*time.Second {
			t.Fatalf("not taken over: clock game %s %s, bot game moves %v", c.Result, c.Reason, b.Moves)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The leases were renewed (every 0.1 s) up to the kill: no claim
	// before they ran out.
	if took < holderLease/2 {
		t.Errorf("taken over %v after the kill, before the lease (%v) ran out", took, holderLease)
	}
	t.Logf("both jobs taken over %v after the SIGKILL (lease %v)", took, holderLease)

	// More rounds of the job loop change nothing: each job was done once.
	time.Sleep(5 * 100 * time.Millisecond)
	c, _ := pg.Game(clockGame)
	b, _ := pg.Game(botGame)
	if c.Reason != "time" || c.Rev != before[clockGame].Rev+1 {
		t.Errorf("clock game: reason %q, revision %d (was %d): the loss on time is written once", c.Reason, c.Rev, before[clockGame].Rev)
	}
	if len(b.Moves) != 2 || b.Rev != before[botGame].Rev+1 || !b.Active() {
		t.Errorf("bot game: moves %v, revision %d (was %d): one computer move", b.Moves, b.Rev, before[botGame].Rev)
	}
	mu.Lock()
	defer mu.Unlock()
	flags, moves := 0, 0
	for _, r := range sent {
		if strings.Contains(r.Text, "ran out of time") && strings.Contains(r.Text, clockGame) {
			flags++
		}
		if r.Image != nil && r.Image.Game == botGame {
			moves++
		}
	}
	if flags != 1 || moves != 1 {
		t.Errorf("posted %d losses on time and %d computer moves, want one each: %s", flags, moves, dump(sent))
	}
	// Neither job is left: the game that ended has no clock, the
	// computer has moved.
	for _, kind := range []string{storage.JobClock, storage.JobBotMove} {
		if js, err := pg.ClaimJobs(kind, time.Now().Add(time.Hour), 10); err != nil || len(js) != 0 {
			t.Errorf("%s jobs left: %+v %v", kind, js, err)
		}
	}
}

func mapValues(m map[string]bool) []bool {
	var out []bool
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// Outbox records on one database shared by two processes (two connection
// pools): a second process starting posts nothing the first is still
// posting; what the first hands back on a graceful stop is posted by the
// second at once, and what it leaves by dying, once its lease ran out;
// each record once.
func TestOutboxPostedByOneProcess(t *testing.T) {
	url := pgURL(t)
	quiet := slog.New(slog.DiscardHandler)
	open := func() *storage.Postgres {
		p, err := storage.OpenPostgres(url, storage.Options{Lease: holderLease, Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		return p
	}
	pgA, pgB := open(), open()
	// Process A: its clock is real time (a second on per command).
	h := &harness{t: t, now: time.Now()}
	h.cfg = Config{Limits: Limits{CommandsPer10s: 1000}, Painter: &render.Renderer{Long: 64}, Now: h.clock, Coin: func() bool { return true }, Logger: quiet}
	h.svc = New(pgA, h.cfg)
	h.svc.Undelivered("test")
	g := h.startGame("standard")
	h.ok("alice", "/move e4 game:"+g)
	if n, _ := pgA.OutboxCount(); n != 2 {
		t.Fatalf("%d outbox records, want the start and the move", n)
	}

	// Process B starts while A is posting those.
	var mu sync.Mutex
	posted := map[string]int{}
	b := New(pgB, Config{Painter: &render.Renderer{Long: 64}, Logger: quiet})
	b.Notify("test", func(r Reply) {
		mu.Lock()
		posted[r.Outbox]++
		mu.Unlock()
		b.Delivered(r, nil)
	})
	if left := b.Undelivered("test"); len(left) != 0 {
		t.Fatalf("a second process took the first one's replies: %s", dump(left))
	}
	ctx, stop := context.WithCancel(context.Background())
	loop := make(chan struct{})
	go func() {
		defer close(loop)
		b.RunClock(ctx, 50*time.Millisecond)
	}()
	defer func() {
		stop()
		<-loop
	}()
	count := func() (records, posts int) {
		mu.Lock()
		defer mu.Unlock()
		for _, n := range posted {
			records, posts = records+1, posts+n
		}
		return records, posts
	}
	waitPosted := func(want int, within time.Duration) {
		t.Helper()
		for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
			if r, _ := count(); r >= want {
				return
			}
			if time.Since(start) > within {
				r, p := count()
				t.Fatalf("%d records posted (%d posts), want %d", r, p, want)
			}
		}
	}
	time.Sleep(300 * time.Millisecond)
	if r, _ := count(); r != 0 {
		t.Fatalf("posted %d records under the first process's lease", r)
	}
	// A stops gracefully: its leases are released and B posts at once.
	h.svc.ReleaseJobs()
	waitPosted(2, 2*time.Second)

	// A writes another and dies: B posts it once the lease ran out.
	h.ok("bob", "/move e5 game:"+g)
	died := time.Now()
	waitPosted(3, 10*time.Second)
	if took := time.Since(died); took < holderLease/2 {
		t.Errorf("posted %v after the writer died, before its lease ran out", took)
	}
	time.Sleep(300 * time.Millisecond)
	if r, p := count(); r != 3 || p != 3 {
		t.Errorf("%d records in %d posts, want each of 3 once", r, p)
	}
	if n, _ := pgA.OutboxCount(); n != 0 {
		t.Errorf("%d records left", n)
	}
}

// A graceful stop hands a computer move being searched over at once: its
// lease is released rather than left to run out (30 s here).
func TestBotMoveHandedOverOnGracefulStop(t *testing.T) {
	url := pgURL(t)
	quiet := slog.New(slog.DiscardHandler)
	open := func() *storage.Postgres {
		p, err := storage.OpenPostgres(url, storage.Options{Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		return p
	}
	pgA, pgB := open(), open()
	searching := make(chan struct{}, 1)
	h := &harness{t: t, now: time.Now()}
	h.cfg = Config{Limits: Limits{CommandsPer10s: 1000}, Painter: &render.Renderer{Long: 64}, Now: h.clock, Coin: func() bool { return true }, Logger: quiet,
		Bot: BotConfig{Workers: 1, Seed: 1, Level: func(level int) (search.Config, error) {
			searching <- struct{}{}
			return search.Config{Level: level}, nil // no limit: searches until stopped
		}}}
	h.svc = New(pgA, h.cfg)
	ctxA, stopA := context.WithCancel(context.Background())
	waitA := h.svc.StartBot(ctxA)
	h.ok("alice", "/challenge bot level:1 white")
	games, err := pgA.UserActiveGames(BotID)
	if err != nil || len(games) != 1 {
		t.Fatalf("bot games: %v %v", games, err)
	}
	id := games[0].ID
	h.ok("alice", "/move e4 game:"+id)
	select {
	case <-searching:
	case <-time.After(30 * time.Second):
		t.Fatal("process A did not start searching")
	}
	before, _ := pgA.Game(id)

	var mu sync.Mutex
	var sent []Reply
	b := New(pgB, Config{Painter: &render.Renderer{Long: 64}, Logger: quiet, Bot: BotConfig{Workers: 1, Seed: 1, Level: budgetLevels}})
	b.Notify("test", func(r Reply) {
		mu.Lock()
		sent = append(sent, r)
		mu.Unlock()
	})
	ctxB, stopB := context.WithCancel(context.Background())
	waitB := b.StartBot(ctxB)
	loop := make(chan struct{})
	go func() {
		defer close(loop)
		b.RunClock(ctxB, 100*time.Millisecond)
	}()
	defer func() {
		stopB()
		waitB()
		<-loop
	}()
	time.Sleep(500 * time.Millisecond)
	if g, _ := pgB.Game(id); len(g.Moves) != 1 {
		t.Fatalf("process B moved while A was searching: %v", g.Moves)
	}

	// A stops as serve does: workers stopped, then its leases released.
	stopA()
	waitA()
	h.svc.ReleaseJobs()
	stopped := time.Now()
	for {
		g, err := pgB.Game(id)
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Moves) == 2 {
			break
		}
		if time.Since(stopped) > 10*time.Second {
			t.Fatalf("the move was not taken over after a graceful stop (moves %v)", g.Moves)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("taken over %v after the graceful stop (lease %v)", time.Since(stopped), storage.DefaultLease)
	time.Sleep(300 * time.Millisecond)
	g, _ := pgB.Game(id)
	mu.Lock()
	defer mu.Unlock()
	if len(g.Moves) != 2 || g.Rev != before.Rev+1 || len(sent) != 1 {
		t.Errorf("moves %v, revision %d (was %d), %d replies posted: want one computer move", g.Moves, g.Rev, before.Rev, len(sent))
	}
}
