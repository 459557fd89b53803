package storage

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// Two processes append to the web chat's log at once while a third reads
// it as it grows: every record is read once, in one order, and the
// reader's listener is woken by the appends.
func TestPostgresWebLogOrderAndWake(t *testing.T) {
	open := freshPostgres(t)
	a, b, r := open(t).(*Postgres), open(t).(*Postgres), open(t).(*Postgres)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	woken := make(chan struct{}, 1)
	listening := make(chan struct{})
	var once sync.Once
	go func() {
		_ = r.ListenWebLog(ctx, func() {
			once.Do(func() { close(listening) })
			select {
			case woken <- struct{}{}:
			default:
			}
		})
	}()
	<-listening
	<-woken // the wake after connecting
	now := time.Now()
	const each = 60
	var wg sync.WaitGroup
	for i, p := range []*Postgres{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range each {
				if err := p.AppendWebLog([][]byte{[]byte(fmt.Sprintf("%d-%d", i, n))}, now.Add(time.Hour)); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	// Read while the appends go on, as a process does.
	var got []string
	var last int64
	seen := map[string]bool{}
	read := func() {
		for {
			n, err := r.ReadWebLog(last, 7, now, func(id int64, data []byte) {
				if id <= last {
					t.Errorf("id %d after %d", id, last)
				}
				last = id
				got = append(got, string(data))
			})
			if err != nil {
				t.Fatal(err)
			}
			if n < 7 {
				return
			}
		}
	}
	deadline := time.After(20 * time.Second)
	for len(got) < 2*each {
		select {
		case <-woken:
		case <-deadline:
			t.Fatalf("read %d of %d records", len(got), 2*each)
		}
		read()
	}
	wg.Wait()
	read()
	for _, g := range got {
		if seen[g] {
			t.Errorf("record %s read twice", g)
		}
		seen[g] = true
	}
	if len(got) != 2*each {
		t.Errorf("read %d records, want %d", len(got), 2*each)
	}
	// Each writer's records in the order it wrote them.
	next := [2]int{}
	for _, g := range got {
		var w, n int
		fmt.Sscanf(g, "%d-%d", &w, &n)
		if n != next[w] {
			t.Errorf("writer %d: record %d read where %d was due", w, n, next[w])
		}
		next[w] = n + 1
	}
}

// Expired records are not read and are pruned; pictures are kept until
// they expire or the oldest go over the byte budget.
func TestPostgresWebLogExpiryAndPictures(t *testing.T) {
	p := freshPostgres(t)(t).(*Postgres)
	now := time.Now()
	if err := p.AppendWebLog([][]byte{[]byte("old")}, now.Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := p.AppendWebLog([][]byte{[]byte("new")}, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	var got []string
	if _, err := p.ReadWebLog(0, 10, now, func(_ int64, d []byte) { got = append(got, string(d)) }); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[new]" {
		t.Fatalf("read %v, want [new]", got)
	}
	for i, id := range []string{"a", "b", "c"} {
		if err := p.PutWebImage(id, []byte(`{}`), make([]byte, 100), now.Add(time.Duration(i)*time.Second), now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.PutWebImage("gone", []byte(`{}`), []byte("x"), now, now.Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, _, found, err := p.WebImage("gone", now); err != nil || found {
		t.Fatalf("an expired picture: found %v, %v", found, err)
	}
	if err := p.PruneWebLog(now, 250); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]bool{"a": false, "b": true, "c": true} {
		meta, data, found, err := p.WebImage(id, now)
		if err != nil || found != want || found && (string(meta) != "{}" || len(data) != 100) {
			t.Errorf("picture %s after pruning to 250 bytes: found %v (%q, %d bytes), %v; want found %v", id, found, meta, len(data), err, want)
		}
	}
	var rows int
	if err := p.pool.QueryRow(context.Background(), `SELECT count(*) FROM web_log`).Scan(&rows); err != nil || rows != 1 {
		t.Errorf("%d log rows after pruning, %v; want 1", rows, err)
	}
}

// A lock held by one process is refused to another until the first
// lets it go; a shared lock is had by many, and keeps the exclusive one
// out.
func TestPostgresHoldLock(t *testing.T) {
	open := freshPostgres(t)
	a, b := open(t).(*Postgres), open(t).(*Postgres)
	release, err := a.HoldLock("telegram", false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.HoldLock("telegram", false); !errors.Is(err, ErrLockHeld) {
		t.Fatalf("second holder: %v, want ErrLockHeld", err)
	}
	if _, err := b.HoldLock("telegram", true); !errors.Is(err, ErrLockHeld) {
		t.Fatalf("shared beside an exclusive holder: %v, want ErrLockHeld", err)
	}
	other, err := b.HoldLock("something else", false)
	if err != nil {
		t.Fatalf("another lock: %v", err)
	}
	other()
	release()
	s1, err := a.HoldLock("telegram", true)
	if err != nil {
		t.Fatalf("shared after release: %v", err)
	}
	s2, err := b.HoldLock("telegram", true)
	if err != nil {
		t.Fatalf("shared twice: %v", err)
	}
	if _, err := b.HoldLock("telegram", false); !errors.Is(err, ErrLockHeld) {
		t.Fatalf("exclusive beside shared holders: %v, want ErrLockHeld", err)
	}
	s1()
	s2()
	again, err := b.HoldLock("telegram", false)
	if err != nil {
		t.Fatalf("after every release: %v", err)
	}
	again()
}

// The listener's connection is cut (a database restart, a network
// failure): it connects again and wakes its reader, which then finds
// what was appended while nobody listened.
func TestPostgresWebLogListenerReconnects(t *testing.T) {
	open := freshPostgres(t)
	w, r := open(t).(*Postgres), open(t).(*Postgres)
	ctx, cancel := context.WithCancel(context.Background())
	woken := make(chan struct{}, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = r.ListenWebLog(ctx, func() { woken <- struct{}{} })
	}()
	defer func() { cancel(); <-done }()
	wait := func(what string) {
		t.Helper()
		select {
		case <-woken:
		case <-time.After(15 * time.Second):
			t.Fatalf("no wake %s", what)
		}
	}
	wait("after connecting")
	tag, err := w.pool.Exec(context.Background(), `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND query = 'LISTEN '||$1`, WebLogChannel)
	if err != nil || tag.RowsAffected() != 1 {
		t.Fatalf("cutting the listener: %v (%d)", err, tag.RowsAffected())
	}
	if err := w.AppendWebLog([][]byte{[]byte("while away")}, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	wait("after reconnecting")
	var got []string
	if _, err := r.ReadWebLog(0, 10, time.Now(), func(_ int64, d []byte) { got = append(got, string(d)) }); err != nil || fmt.Sprint(got) != "[while away]" {
		t.Fatalf("read %v, %v", got, err)
	}
	// And it listens again.
	for len(woken) > 0 {
		<-woken
	}
	if err := w.AppendWebLog([][]byte{[]byte("after")}, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	wait("for a record appended after reconnecting")
}

// BenchmarkWebLogAcrossProcesses: one web chat event from one process to
// another's reader, one at a time: append (lock, insert, NOTIFY), the
// notification, and the read.
func BenchmarkWebLogAcrossProcesses(b *testing.B) {
	open := freshPostgres(b)
	w, r := open(b).(*Postgres), open(b).(*Postgres)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	woken := make(chan struct{}, 1)
	go func() {
		_ = r.ListenWebLog(ctx, func() {
			select {
			case woken <- struct{}{}:
			default:
			}
		})
	}()
	<-woken
	rec := []byte(`{"k":"event","room":"lobby","event":{"kind":"chat","from":"alice","text":"e4 is the move"}}`)
	var last int64
	b.ResetTimer()
	for range b.N {
		if err := w.AppendWebLog([][]byte{rec}, time.Now().Add(time.Hour)); err != nil {
			b.Fatal(err)
		}
		for n := 0; n == 0; {
			<-woken
			var err error
			n, err = r.ReadWebLog(last, 10, time.Now(), func(id int64, _ []byte) { last = id })
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}
