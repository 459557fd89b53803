package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"topochess/storage"
)

// cmdMigrate copies a bbolt database into an empty PostgreSQL database.
// The bot must be stopped: its file lock keeps the copy from starting
// while moves are still being written, so nothing can be left behind.
func cmdMigrate(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("migrate", stderr)
	from := fs.String("from", "", "the bbolt database file")
	to := fs.String("to", "", "the PostgreSQL database (postgres:// URL; default: TOPOCHESS_POSTGRES_URL, which keeps a password off the command line)")
	wait := fs.Duration("timeout", 5*time.Second, "how long to wait for a process using the file")
	if err := fs.Parse(args); err != nil {
		return parseError(fs, stdout, stderr, err)
	}
	if fs.NArg() > 0 {
		return flagError(stderr, "migrate", fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	url := *to
	if url == "" {
		url = getenv("TOPOCHESS_POSTGRES_URL")
	}
	if *from == "" || url == "" {
		return flagError(stderr, "migrate", errors.New("--from FILE and --to URL (or TOPOCHESS_POSTGRES_URL) are both needed"))
	}
	if _, err := os.Stat(*from); err != nil {
		fmt.Fprintf(stderr, "topochess migrate: %v\n", err)
		return 1
	}
	src, err := storage.Open(*from, storage.Options{Timeout: *wait})
	if errors.Is(err, storage.ErrLocked) {
		fmt.Fprintf(stderr, "topochess migrate: %v\nStop the bot first: records it writes during the copy would be left behind.\n", err)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "topochess migrate: %v\n", err)
		return 1
	}
	defer src.Close()
	dst, err := storage.OpenPostgres(url, storage.Options{})
	if err != nil {
		fmt.Fprintf(stderr, "topochess migrate: %v\n", err)
		return 1
	}
	defer dst.Close()
	if _, err := src.MigrateTo(dst); err != nil {
		fmt.Fprintf(stderr, "topochess migrate: %v\n", err)
		return 1
	}
	// Counted again from both sides after the commit, apart from the
	// copy's own check.
	a, errA := src.Counts()
	b, errB := dst.Counts()
	if err := errors.Join(errA, errB); err != nil {
		fmt.Fprintf(stderr, "topochess migrate: counting: %v\n", err)
		return 1
	}
	ok := true
	fmt.Fprintf(stdout, "%-16s %8s %10s\n", "records", "bbolt", "postgresql")
	for _, k := range a.Kinds() {
		mark := ""
		if a[k] != b[k] {
			mark, ok = "  DIFFERS", false
		}
		fmt.Fprintf(stdout, "%-16s %8d %10d%s\n", k, a[k], b[k], mark)
	}
	if !ok {
		fmt.Fprintln(stderr, "topochess migrate: the counts differ after the copy; do not start the bot on PostgreSQL")
		return 1
	}
	fmt.Fprintf(stdout, "All records copied. Set storage.postgres_url (or TOPOCHESS_POSTGRES_URL) and start the bot; keep %s as a backup.\n", *from)
	return 0
}
