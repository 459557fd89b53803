package telegram

import (
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"topochess/storage"
)

// The bot in a process of its own, so that a test can kill it for real.
// It runs when the test binary is started with TOPOCHESS_TEST_CHILD set:
// the real bot on the database TOPOCHESS_TEST_DB, against the Bot API at
// TOPOCHESS_TEST_API, until SIGTERM.
func TestMain(m *testing.M) {
	if os.Getenv("TOPOCHESS_TEST_CHILD") == "" {
		os.Exit(m.Run())
	}
	os.Exit(runChild())
}

func runChild() int {
	st, err := storage.Open(os.Getenv("TOPOCHESS_TEST_DB"), storage.Options{Timeout: time.Second})
	if err != nil {
		return 2
	}
	defer st.Close()
	a, err := New(Config{
		Token: testToken, APIEndpoint: os.Getenv("TOPOCHESS_TEST_API"),
		PollTimeout: time.Second, Backoff: 10 * time.Millisecond, MaxBackoff: 40 * time.Millisecond,
		Limits: fastLimits, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}, serviceOn(st))
	if err != nil {
		return 2
	}
	a.retryUnit, a.grace = 20*time.Millisecond, 100*time.Millisecond
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	if err := a.Run(ctx); err != nil {
		return 1
	}
	return 0
}

// child starts the bot in its own process on the database at path.
func child(t *testing.T, f *fakeAPI, path string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "TOPOCHESS_TEST_CHILD=1", "TOPOCHESS_TEST_DB="+path, "TOPOCHESS_TEST_API="+f.endpoint())
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	f.waitFor("the child's setMyCommands", func(reqs []apiRequest) bool {
		for _, q := range reqs {
			if q.Method == "setMyCommands" {
				return true
			}
		}
		return false
	})
	return cmd
}

func TestSIGKILLWithRepliesQueued(t *testing.T) {
	f := newFakeAPI(t)
	path := filepath.Join(t.TempDir(), "bot.db")
	cmd := child(t, f, path)
	queuedMoves(t, game{t, f})
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	endOutage(f)

	svc, _ := newServiceAt(t, path)
	start(t, f, svc, nil)
	wantAfterRestart(t, f)
}

func TestSIGTERMWithRepliesQueued(t *testing.T) {
	f := newFakeAPI(t)
	path := filepath.Join(t.TempDir(), "bot.db")
	cmd := child(t, f, path)
	queuedMoves(t, game{t, f})
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the bot did not stop cleanly: %v", err)
	}
	endOutage(f)

	svc, _ := newServiceAt(t, path)
	start(t, f, svc, nil)
	wantAfterRestart(t, f)
	f.waitFor("the /help answer kept by the stop", func([]apiRequest) bool { return helpArrived(f) })
}
