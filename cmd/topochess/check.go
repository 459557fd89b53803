package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"topochess/storage"
)

// dbPath parses the flags of check and backup, which find the database
// by --db, else by the config's storage.path; code is -1 to go on.
func dbPath(name string, args []string, stdout, stderr io.Writer, extra func(fs *flag.FlagSet)) (path string, timeout time.Duration, code int) {
	fs := newFlagSet(name, stderr)
	db := fs.String("db", "", "database file (default: storage.path of the config)")
	configPath := fs.String("config", "", "config file (YAML)")
	wait := fs.Duration("timeout", 5*time.Second, "how long to wait for a process using the file")
	if extra != nil {
		extra(fs)
	}
	if err := fs.Parse(args); err != nil {
		return "", 0, parseError(fs, stdout, stderr, err)
	}
	if fs.NArg() > 0 {
		return "", 0, flagError(stderr, name, fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	if *db != "" {
		return *db, *wait, -1
	}
	cfg, err := loadConfig(*configPath, getenv)
	if err != nil {
		fmt.Fprintf(stderr, "topochess %s: %v\n", name, err)
		return "", 0, 1
	}
	if cfg.Storage.PostgresURL != "" {
		fmt.Fprintf(stderr, "topochess %s: storage.postgres_url is set: this command reads the bbolt file (--db FILE); PostgreSQL has its own tools (pg_dump, amcheck; docs/scaling.md)\n", name)
		return "", 0, 1
	}
	return cfg.Storage.Path, *wait, -1
}

// cmdCheck verifies a database: its pages, bbolt's own check, every
// record and index. A database being served is checked on a copy the
// serving process writes (it alone may open the file).
func cmdCheck(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	path, timeout, code := dbPath("check", args, stdout, stderr, nil)
	if code >= 0 {
		return code
	}
	if _, err := os.Stat(path); err != nil {
		fmt.Fprintf(stderr, "topochess check: %v\n", err)
		return 1
	}
	target, how := path, "the file"
	// The copy a serving process writes is as private as the database:
	// CreateTemp makes it mode 0600, and it is removed at the end.
	tmp, err := os.CreateTemp("", "topochess-check-*.db")
	if err != nil {
		fmt.Fprintf(stderr, "topochess check: %v\n", err)
		return 1
	}
	defer os.Remove(tmp.Name())
	_, err = storage.BackupServed(path, tmp, timeout)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	switch {
	case err == nil:
		target, how = tmp.Name(), "a copy made by the process serving it"
	case !errors.Is(err, storage.ErrNotServed):
		fmt.Fprintf(stderr, "topochess check: %v\n", err)
		return 1
	}
	rep, err := storage.CheckFile(target, timeout)
	if err != nil {
		fmt.Fprintf(stderr, "topochess check: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "topochess check: %s (checked on %s)\n", path, how)
	fmt.Fprintf(stdout, "  read %d games, %d challenges, %d ratings, %d settings, %d index entries\n",
		rep.Games, rep.Challenges, rep.Ratings, rep.Settings, rep.IndexEntries)
	if rep.OK() {
		fmt.Fprintln(stdout, "  no problems found")
		return 0
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(stdout, "  PROBLEM %s\n", p)
	}
	fmt.Fprintf(stdout, "  %d problem(s) found; see docs/security-storage.md for what to do\n", len(rep.Problems))
	return 1
}

// cmdBackup writes a consistent copy of the database, also while serve
// runs, and checks the copy before it takes the name asked for.
func cmdBackup(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	var out *string
	path, timeout, code := dbPath("backup", args, stdout, stderr, func(fs *flag.FlagSet) {
		out = fs.String("out", "", "file to write the copy to (required)")
	})
	if code >= 0 {
		return code
	}
	if *out == "" {
		return flagError(stderr, "backup", errors.New("--out FILE is required"))
	}
	if same(path, *out) {
		fmt.Fprintf(stderr, "topochess backup: --out %s is the database itself\n", *out)
		return 1
	}
	if _, err := os.Stat(path); err != nil {
		fmt.Fprintf(stderr, "topochess backup: %v\n", err)
		return 1
	}
	tmp, err := os.CreateTemp(filepath.Dir(*out), "."+filepath.Base(*out)+".*.tmp")
	if err != nil {
		fmt.Fprintf(stderr, "topochess backup: %v\n", err)
		return 1
	}
	defer os.Remove(tmp.Name()) // gone once renamed
	n, served, err := storage.Backup(path, tmp, timeout)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintf(stderr, "topochess backup: %v\n", err)
		return 1
	}
	rep, err := storage.CheckFile(tmp.Name(), timeout)
	if err != nil {
		fmt.Fprintf(stderr, "topochess backup: the copy cannot be checked: %v\n", err)
		return 1
	}
	if !rep.OK() && rep.Problems[0].Kind == "file" {
		fmt.Fprintf(stderr, "topochess backup: the copy is not a consistent database (%s); nothing was written to %s\n", rep.Problems[0], *out)
		return 1
	}
	if err := os.Rename(tmp.Name(), *out); err != nil {
		fmt.Fprintf(stderr, "topochess backup: %v\n", err)
		return 1
	}
	how := "from the file"
	if served {
		how = "through the serving process"
	}
	fmt.Fprintf(stdout, "topochess backup: %s written to %s (%d bytes, %s; %d games)\n", path, *out, n, how, rep.Games)
	if !rep.OK() {
		// A faithful copy of damaged records is still the best copy.
		fmt.Fprintf(stdout, "  the copy holds %d damaged record(s), as the database does; topochess check --db %s lists them\n", len(rep.Problems), *out)
	}
	return 0
}

// same reports whether two paths name one file.
func same(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(sa, sb)
	}
	aa, _ := filepath.Abs(a)
	ab, _ := filepath.Abs(b)
	return aa == ab
}
