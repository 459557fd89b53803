package pgtest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// The durable option must really give a server that syncs its commits,
// or a measurement of commit time would measure nothing; tests keep the
// fast settings.
func TestDurableSettings(t *testing.T) {
	for _, tc := range []struct {
		opt  Options
		want string
	}{{Options{}, "off"}, {Options{Durable: true}, "on"}} {
		s, err := StartWith(tc.opt)
		if errors.Is(err, ErrSkip) {
			t.Skip(err)
		}
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		conn, err := pgx.Connect(ctx, s.URL("postgres"))
		if err != nil {
			cancel()
			s.Stop()
			t.Fatal(err)
		}
		for _, setting := range []string{"fsync", "synchronous_commit", "full_page_writes"} {
			var got string
			if err := conn.QueryRow(ctx, "SHOW "+setting).Scan(&got); err != nil {
				t.Error(err)
			} else if got != tc.want {
				t.Errorf("durable %v: %s = %s, want %s", tc.opt.Durable, setting, got, tc.want)
			}
		}
		// The postmaster and its connection's process are among the
		// server's processes.
		if pids := s.PIDs(); len(pids) < 2 {
			t.Errorf("durable %v: server processes %v, want the postmaster and its children", tc.opt.Durable, pids)
		}
		conn.Close(ctx)
		cancel()
		s.Stop()
	}
}
