package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"topochess/storage"
)

// TestBackupWhilePlaying backs up and checks the database of a running
// console session (which, like serve, holds the file's lock) while moves
// keep arriving: every copy passes check and the later copies hold more.
func TestBackupWhilePlaying(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	cfg := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(cfg, []byte("storage:\n  path: "+db+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	stdout, stderr := &syncBuffer{}, &syncBuffer{}
	code := make(chan int, 1)
	go func() { code <- run([]string{"console", "--config", cfg, "--images", ""}, pr, stdout, stderr) }()
	stopPlaying := make(chan struct{})
	played := make(chan int, 1)
	go func() {
		n := 0
		defer func() { played <- n }()
		say := func(line string) bool {
			_, err := io.WriteString(pw, line+"\n")
			return err == nil
		}
		for {
			select {
			case <-stopPlaying:
				return
			default:
			}
			if !say("alice: /challenge @bob white") || !say("bob: /accept") {
				return
			}
			for _, m := range []string{"alice: Nf3", "bob: Nf6", "alice: Ng1", "bob: Ng8", "alice: Nc3", "bob: Nc6"} {
				if !say(m) {
					return
				}
				n++
			}
			if !say("alice: /resign") {
				return
			}
		}
	}()
	for i := 0; ; i++ {
		if _, err := os.Stat(storage.SocketPath(db)); err == nil {
			break
		}
		if i > 500 {
			t.Fatalf("no control socket: %s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	gamesRE := regexp.MustCompile(`; (\d+) games\)`)
	last := -1
	for k := range 3 {
		time.Sleep(300 * time.Millisecond)
		out := filepath.Join(dir, fmt.Sprintf("backup%d.db", k))
		var o, e strings.Builder
		if c := run([]string{"backup", "--db", db, "--out", out}, nil, &o, &e); c != 0 || !strings.Contains(o.String(), "through the serving process") {
			t.Fatalf("backup %d: exit %d: %s %s", k, c, o.String(), e.String())
		}
		m := gamesRE.FindStringSubmatch(o.String())
		if m == nil {
			t.Fatalf("backup %d: %q", k, o.String())
		}
		n, _ := strconv.Atoi(m[1])
		if n < last {
			t.Errorf("backup %d holds %d games, an earlier one %d", k, n, last)
		}
		last = n
		o.Reset()
		if c := run([]string{"check", "--db", out}, nil, &o, &e); c != 0 || !strings.Contains(o.String(), "no problems found") {
			t.Fatalf("check of backup %d: exit %d: %s %s", k, c, o.String(), e.String())
		}
		o.Reset()
		if c := run([]string{"check", "--db", db}, nil, &o, &e); c != 0 || !strings.Contains(o.String(), "a copy made by the process serving it") {
			t.Fatalf("check while playing: exit %d: %s %s", c, o.String(), e.String())
		}
	}
	close(stopPlaying)
	n := <-played
	pw.Close()
	if c := <-code; c != 0 {
		t.Fatalf("console ended with %d: %s", c, stderr.String())
	}
	if last < 1 || n < 6 {
		t.Fatalf("%d plies played, last backup holds %d games", n, last)
	}
	var o, e strings.Builder
	if c := run([]string{"check", "--db", db}, nil, &o, &e); c != 0 || !strings.Contains(o.String(), "checked on the file") {
		t.Fatalf("check after the session: exit %d: %s %s", c, o.String(), e.String())
	}
	t.Logf("%d plies played; the last backup held %d games", n, last)
}

func TestCheckReportsBadRecords(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	cfg := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(cfg, []byte("storage:\n  path: "+db+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var o, e strings.Builder
	script := "alice: /challenge @bob white\nbob: /accept\nalice: e4\ncarol: /challenge @dave\ndave: /accept\n"
	if c := run([]string{"console", "--config", cfg, "--images", ""}, strings.NewReader(script), &o, &e); c != 0 {
		t.Fatalf("console: %d %s", c, e.String())
	}
	o.Reset()
	if c := run([]string{"check", "--config", cfg}, nil, &o, &e); c != 0 || !strings.Contains(o.String(), "read 2 games") {
		t.Fatalf("check of a sound file: exit %d: %s %s", c, o.String(), e.String())
	}
	bdb, err := bolt.Open(db, 0o600, &bolt.Options{Timeout: time.Second, NoFreelistSync: true})
	if err != nil {
		t.Fatal(err)
	}
	err = bdb.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("games")).Put([]byte("g2"), []byte(`{"v":1,"id":"g2"`))
	})
	bdb.Close()
	if err != nil {
		t.Fatal(err)
	}
	o.Reset()
	if c := run([]string{"check", "--db", db}, nil, &o, &e); c != 1 || !strings.Contains(o.String(), "PROBLEM game g2: damaged record") || strings.Contains(o.String(), "game g1") {
		t.Fatalf("check with a bad record: exit %d: %s %s", c, o.String(), e.String())
	}
	// A backup copies the bad record faithfully and says so.
	o.Reset()
	if c := run([]string{"backup", "--db", db, "--out", filepath.Join(dir, "b.db")}, nil, &o, &e); c != 0 || !strings.Contains(o.String(), "1 damaged record(s)") {
		t.Fatalf("backup with a bad record: exit %d: %s %s", c, o.String(), e.String())
	}
	// Damaged pages: serve refuses to start with a clear message, check
	// reports the file.
	data, _ := os.ReadFile(db)
	if err := os.WriteFile(db, data[:9000], 0o600); err != nil {
		t.Fatal(err)
	}
	o.Reset()
	e.Reset()
	if c := run([]string{"check", "--db", db}, nil, &o, &e); c != 1 || !strings.Contains(o.String(), "PROBLEM file") {
		t.Fatalf("check of a truncated file: exit %d: %s %s", c, o.String(), e.String())
	}
	o.Reset()
	if c := run([]string{"console", "--config", cfg, "--images", ""}, strings.NewReader(""), &o, &e); c != 1 || !strings.Contains(e.String(), "is damaged") || !strings.Contains(e.String(), "topochess check --db "+db) {
		t.Fatalf("console on a truncated file: exit %d: %s", c, e.String())
	}
	if c := run([]string{"backup", "--db", db, "--out", db}, nil, &o, &e); c != 1 {
		t.Fatalf("backup onto the database itself: exit %d", c)
	}
}
