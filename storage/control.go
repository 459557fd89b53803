package storage

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// A serving process holds bbolt's exclusive lock on the file for as long
// as it runs, so a backup cannot open the file then. It asks the serving
// process instead, through a unix socket next to the database: the
// process writes a copy from one read transaction (bbolt's Tx.WriteTo), a
// consistent snapshot while moves go on being written. The socket is
// only reachable by whoever may write in the database's directory, like
// the file itself, and serves nothing but that copy.

// SocketPath is the socket of the process serving the database at path.
func SocketPath(path string) string { return path + ".sock" }

// controlIdle is how long the socket waits for a request line, and for
// the client to take more of the copy; a read transaction held open by a
// stalled client would keep bbolt from growing the file.
const controlIdle = 30 * time.Second

// ServeControl answers backup requests on SocketPath until ctx ends. One
// copy is written at a time.
func (s *Store) ServeControl(ctx context.Context) error {
	path := SocketPath(s.Path())
	// This process holds the database's lock, so a socket left there is
	// from a process that died.
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("storage: control socket: %w", err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return fmt.Errorf("storage: control socket: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return fmt.Errorf("storage: control socket: %w", err)
	}
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	defer os.Remove(path)
	for {
		conn, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("storage: control socket: %w", err)
		}
		s.answer(conn)
	}
}

func (s *Store) answer(conn net.Conn) {
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(controlIdle))
	line, err := bufio.NewReader(io.LimitReader(conn, 64)).ReadString('\n')
	if err != nil {
		return
	}
	if strings.TrimSpace(line) != "backup" {
		fmt.Fprintf(conn, "error: unknown request %q\n", strings.TrimSpace(line))
		return
	}
	start := time.Now()
	var n int64
	err = s.db.View(func(tx *bolt.Tx) error {
		if _, err := fmt.Fprintf(conn, "ok %d\n", tx.Size()); err != nil {
			return err
		}
		var err error
		n, err = tx.WriteTo(idleWriter{conn})
		return err
	})
	if err != nil {
		s.log.Error("storage: backup through the control socket failed", "err", err)
		return
	}
	s.log.Info("storage: backup written through the control socket", "bytes", n, "took", time.Since(start))
}

// idleWriter gives the client controlIdle for every write.
type idleWriter struct{ c net.Conn }

func (w idleWriter) Write(p []byte) (int, error) {
	w.c.SetWriteDeadline(time.Now().Add(controlIdle))
	return w.c.Write(p)
}

// Backup writes a consistent copy of the database at path to w: through
// the serving process's socket when one answers (served), else from the
// file itself, waiting up to timeout for a process using it to let go.
func Backup(path string, w io.Writer, timeout time.Duration) (n int64, served bool, err error) {
	if timeout <= 0 {
		timeout = time.Second
	}
	if n, err := BackupServed(path, w, timeout); !errors.Is(err, ErrNotServed) {
		return n, true, err
	}
	// Nobody serves it: read the file, whose pages are checked first as
	// bbolt must not map a damaged file.
	if err := verifyPath(path, timeout); errors.Is(err, ErrLocked) {
		return 0, false, fmt.Errorf("storage: %s: %w, and no process answers on %s (stop it, or let a topochess that serves the socket make the backup)", path, ErrLocked, SocketPath(path))
	} else if err != nil {
		return 0, false, fmt.Errorf("storage: %s: %w", path, err)
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: timeout})
	if errors.Is(err, berrors.ErrTimeout) {
		return 0, false, fmt.Errorf("storage: %s: %w (waited %v)", path, ErrLocked, timeout)
	}
	if err != nil {
		return 0, false, fmt.Errorf("storage: %s: %w", path, err)
	}
	defer db.Close()
	err = db.View(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	return n, false, err
}

// ErrNotServed: no process answers on the database's control socket.
var ErrNotServed = errors.New("no process serves the database")

// BackupServed is Backup through the serving process only.
func BackupServed(path string, w io.Writer, timeout time.Duration) (int64, error) {
	conn, err := net.DialTimeout("unix", SocketPath(path), timeout)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrNotServed, err)
	}
	return backupFrom(conn, w)
}

func backupFrom(conn net.Conn, w io.Writer) (int64, error) {
	defer conn.Close()
	if _, err := io.WriteString(conn, "backup\n"); err != nil {
		return 0, fmt.Errorf("storage: control socket: %w", err)
	}
	r := bufio.NewReader(conn)
	head, err := r.ReadString('\n')
	if err != nil {
		return 0, fmt.Errorf("storage: control socket: no answer: %w", err)
	}
	head = strings.TrimSpace(head)
	size, err := strconv.ParseInt(strings.TrimPrefix(head, "ok "), 10, 64)
	if !strings.HasPrefix(head, "ok ") || err != nil || size < 0 {
		return 0, fmt.Errorf("storage: control socket: %s", head)
	}
	n, err := io.CopyN(w, r, size)
	if err != nil {
		return n, fmt.Errorf("storage: control socket: copy ended after %d of %d bytes: %w", n, size, err)
	}
	return n, nil
}
