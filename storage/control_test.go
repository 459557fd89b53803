package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// TestBackupWhileServing copies the database through the control socket
// while another goroutine keeps writing moves: every copy is a consistent
// database holding at least what was acknowledged before it was asked.
func TestBackupWhileServing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bot.db")
	s, err := Open(path, Options{Timeout: time.Second, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.ServeControl(ctx) }()
	for i := 0; ; i++ { // the socket is there once it answers
		if _, err := os.Stat(SocketPath(path)); err == nil {
			break
		}
		if i > 200 {
			t.Fatal("no control socket")
		}
		time.Sleep(10 * time.Millisecond)
	}

	var acked atomic.Int64 // moves written and acknowledged
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			g := newGame("u:a", "u:b", "ch")
			if err := s.CreateGame(g, "", t0); err != nil {
				t.Error(err)
				return
			}
			for _, m := range []string{"g1-f3", "g8-f6", "f3-g1", "f6-g8", "g1-f3"} {
				g.Moves = append(g.Moves, m)
				if err := s.SaveGame(g, "", t0); err != nil {
					t.Error(err)
					return
				}
				acked.Add(1)
			}
		}
	}()
	for k := range 4 {
		time.Sleep(50 * time.Millisecond)
		before := acked.Load()
		out := filepath.Join(dir, fmt.Sprintf("copy%d.db", k))
		f, err := os.Create(out)
		if err != nil {
			t.Fatal(err)
		}
		n, viaSocket, err := Backup(path, f, time.Second)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil || !viaSocket || n == 0 {
			t.Fatalf("backup %d: %d bytes, via socket %v: %v", k, n, viaSocket, err)
		}
		rep, err := CheckFile(out, time.Second)
		if err != nil || !rep.OK() {
			t.Fatalf("backup %d does not check: %v %+v", k, err, rep)
		}
		moves := int64(0)
		c, err := Open(out, Options{Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i <= rep.Games; i++ {
			if g, err := c.Game(fmt.Sprintf("%s%d", GameIDPrefix, i)); err == nil {
				moves += int64(len(g.Moves))
			}
		}
		c.Close()
		if moves < before {
			t.Errorf("backup %d holds %d moves; %d were acknowledged before it was asked", k, moves, before)
		}
	}
	close(stop)
	wg.Wait()
	cancel()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(SocketPath(path)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket left behind: %v", err)
	}
	// Without the socket, an open database is locked: the backup says so.
	_, _, err = Backup(path, io.Discard, 100*time.Millisecond)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), SocketPath(path)) {
		t.Errorf("backup of a database in use without a socket: %v", err)
	}
	// Closed, the file itself is copied.
	s.Close()
	var buf bytes.Buffer
	if n, viaSocket, err := Backup(path, &buf, time.Second); err != nil || viaSocket || n != int64(buf.Len()) || n == 0 {
		t.Errorf("backup of a closed database: %d bytes, via socket %v: %v", n, viaSocket, err)
	}
}

// plantRaw writes raw bytes under a key, as a damaged disk or a careless
// edit would.
func plantRaw(t *testing.T, path string, bucket, key string, val []byte) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, NoFreelistSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte(bucket))
		if err != nil {
			return err
		}
		return b.Put([]byte(key), val)
	}); err != nil {
		t.Fatal(err)
	}
}

func TestCheckFindsBadRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	if err := os.WriteFile(path, fixture(t), 0o600); err != nil {
		t.Fatal(err)
	}
	rep, err := CheckFile(path, time.Second)
	if err != nil || !rep.OK() || rep.Games != 250 || rep.Challenges != 60 || rep.Ratings == 0 {
		t.Fatalf("clean file: %v %+v", err, rep)
	}
	plantRaw(t, path, "games", "g7", []byte(`{"v":1,"id":"g7","moves":[`))
	plantRaw(t, path, "games", "g8", []byte(`{"v":1,"id":"g8","variant":"standard","moves":["e2-e5"],"result":"1-0"}`))
	plantRaw(t, path, "challenges", "c3", []byte(`not json`))
	plantRaw(t, path, "channel_active", "ch1\x00g999", nil)
	plantRaw(t, path, "web_names", "bob", []byte(`{"v":1,"name":`))
	plantRaw(t, path, "follows", "#5\x00web:hall", []byte(`{"v":1,"game":`))
	plantRaw(t, path, "reviews", "#6", []byte(`{"v":1,"game":"#6","scores":[1,2],"best":["e2-e4"]}`))
	plantRaw(t, path, "reviews", "#9", []byte(`[]`))
	plantRaw(t, path, "puzzle_open", "bob\x00web:hall", []byte(`{"v":1,"puzzle":7}`))
	plantRaw(t, path, "puzzle_stats", "standard\x00bob", []byte(`{`))
	rep, err = CheckFile(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range rep.Problems {
		got = append(got, p.String())
	}
	want := []string{"game g7: damaged record", "game g8: its moves do not replay", "challenge c3: damaged record", "points to game g999, which is missing", "web name bob: damaged record", "follow #5/web:hall: damaged record", "review #6: 2 scores but 1 best moves", "review #9: damaged record", "open puzzle bob/web:hall: damaged record", "puzzle stats standard/bob: damaged record"}
	if len(got) != len(want) {
		t.Errorf("problems %q, want %d", got, len(want))
	}
	for _, w := range want {
		found := false
		for _, g := range got {
			found = found || strings.Contains(g, w)
		}
		if !found {
			t.Errorf("no problem %q in %q", w, got)
		}
	}
	// A file with damaged pages is reported, not opened.
	data, _ := os.ReadFile(path)
	if err := os.WriteFile(path, data[:len(data)/3], 0o600); err != nil {
		t.Fatal(err)
	}
	rep, err = CheckFile(path, time.Second)
	if err != nil || rep.OK() || rep.Problems[0].Kind != "file" {
		t.Errorf("truncated file: %v %+v", err, rep)
	}
}

// A socket left by a process that died is replaced; the new one is for
// the owner only, and answers nothing but the copy.
func TestControlSocketIsPrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	if err := os.WriteFile(SocketPath(path), []byte("stale"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.ServeControl(ctx)
	var st os.FileInfo
	for i := 0; ; i++ {
		if st, err = os.Stat(SocketPath(path)); err == nil && st.Mode()&os.ModeSocket != 0 {
			break
		}
		if i > 200 {
			t.Fatalf("no socket: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if perm := st.Mode().Perm(); perm != 0o600 {
		t.Errorf("socket mode %v", perm)
	}
	conn, err := net.Dial("unix", SocketPath(path))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "dump everything\n")
	answer, _ := io.ReadAll(conn)
	if !strings.HasPrefix(string(answer), "error: unknown request") {
		t.Errorf("answer to an unknown request: %.100q", answer)
	}
}
