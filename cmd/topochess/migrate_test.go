package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"topochess/storage/pgtest"
)

// pg is the test binary's one PostgreSQL server.
var pg pgtest.Shared

func pgDatabase(t *testing.T) string { return pg.Database(t) }

func TestMain(m *testing.M) {
	code := m.Run()
	pg.Stop()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// runConsole runs topochess console with a config and a script.
func runConsole(t *testing.T, cfg, script string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"console", "--config", cfg, "--images", ""}, strings.NewReader(script), &stdout, &stderr); code != 0 {
		t.Fatalf("console exit %d: %s", code, stderr.String())
	}
	return stdout.String()
}

// A bot played on bbolt is moved to PostgreSQL and goes on there: the
// same games, the same ids, the next move lands in the old game.
func TestMigrateThenServeFromPostgres(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	boltCfg := filepath.Join(dir, "bolt.yaml")
	if err := os.WriteFile(boltCfg, []byte("storage:\n  path: "+db+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	runConsole(t, boltCfg, strings.Join([]string{
		"alice: /challenge @bob white", "bob: /accept", "alice: e4", "bob: e5", "alice: Nf3",
		"carol: /challenge @dave black", "dave: /accept", "dave: d4", "carol: d5", "carol: /resign",
		"erin: /challenge",
		"alice: /settings orientation:black",
	}, "\n")+"\n")

	url := pgDatabase(t)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"migrate", "--from", db, "--to", url}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("migrate exit %d: %s%s", code, stdout.String(), stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{`games\s+2\s+2\n`, `challenges\s+1\s+1\n`, `ratings\s+2\s+2\n`, `settings\s+1\s+1\n`, `All records copied`} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("migrate output lacks %q:\n%s", want, out)
		}
	}
	// Twice: the database holds records now; nothing is written.
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"migrate", "--from", db, "--to", url}, nil, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "already holds records") {
		t.Errorf("second migrate: exit %d, %s", code, stderr.String())
	}

	// The bot on PostgreSQL, the URL from the environment.
	pgCfg := filepath.Join(dir, "pg.yaml")
	if err := os.WriteFile(pgCfg, []byte("storage:\n  path: "+filepath.Join(dir, "unused.db")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := getenv
	getenv = func(k string) string {
		if k == "TOPOCHESS_POSTGRES_URL" {
			return url
		}
		return old(k)
	}
	defer func() { getenv = old }()
	out = runConsole(t, pgCfg, "bob: Nc6\nalice: /pgn\nalice: /settings\ndave: /rating\n")
	if !strings.Contains(out, "orientation:black") || !strings.Contains(out, "1 game (1 won") {
		t.Errorf("settings or ratings did not move:\n%s", out)
	}
	if !strings.Contains(out, "PostgreSQL") {
		t.Errorf("console does not say where the records are:\n%s", out)
	}
	if !regexp.MustCompile(`1\. e4 e5 2\. Nf3 Nc6`).MatchString(out) {
		t.Errorf("the old game did not go on on PostgreSQL:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "unused.db")); err == nil {
		t.Error("a bbolt file was created although postgres_url is set")
	}
}

func TestMigrateNeedsBothEnds(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"migrate", "--from", "x.db"}, nil, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "--to URL") {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
}

// check and backup read the bbolt file; with PostgreSQL configured they
// say so instead of checking a file the bot does not use.
func TestCheckWithPostgresConfigured(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(cfg, []byte("storage:\n  postgres_url: postgres://u:s3cret@db/x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"check", "backup"} {
		var stdout, stderr bytes.Buffer
		args := []string{cmd, "--config", cfg}
		if cmd == "backup" {
			args = append(args, "--out", filepath.Join(dir, "b.db"))
		}
		code := run(args, nil, &stdout, &stderr)
		if code != 1 || !strings.Contains(stderr.String(), "pg_dump") || strings.Contains(stderr.String(), "s3cret") {
			t.Errorf("%s: exit %d, %q", cmd, code, stderr.String())
		}
	}
}
