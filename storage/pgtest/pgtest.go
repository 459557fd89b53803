// Package pgtest starts a throwaway PostgreSQL server from the installed
// Debian binaries for tests: initdb and pg_ctl in a temporary directory,
// listening only on a unix socket there, with trust authentication for
// its one role. Tests that need PostgreSQL fail when the binaries are
// missing; only a developer who sets TOPOCHESS_SKIP_POSTGRES=1 may have
// them skipped.
package pgtest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// SkipEnv is the variable a developer without PostgreSQL sets to skip the
// tests that need it; CI never sets it.
const SkipEnv = "TOPOCHESS_SKIP_POSTGRES"

// ErrSkip is Start's answer when SkipEnv is set.
var ErrSkip = errors.New(SkipEnv + " is set: PostgreSQL tests skipped")

// Server is a running throwaway server.
type Server struct {
	dir, bin string
	cred     *syscall.Credential
	n        atomic.Int64
}

// BinDir finds the newest /usr/lib/postgresql/<version>/bin holding
// initdb, or PG_BINDIR when set.
func BinDir() (string, error) {
	if d := os.Getenv("PG_BINDIR"); d != "" {
		return d, nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(dirs) == 0 {
		if p, err := exec.LookPath("initdb"); err == nil {
			return filepath.Dir(p), nil
		}
		return "", errors.New("PostgreSQL server binaries not found (no /usr/lib/postgresql/*/bin/initdb): apt-get install postgresql, or set " + SkipEnv + "=1 to skip these tests")
	}
	sort.Slice(dirs, func(i, j int) bool { return pgVersion(dirs[i]) > pgVersion(dirs[j]) })
	return filepath.Dir(dirs[0]), nil
}

func pgVersion(initdb string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(initdb))))
	return n
}

// Options change how Start runs the server.
type Options struct {
	// Durable keeps PostgreSQL's own durability settings (fsync,
	// synchronous commit, full-page writes, its default shared buffers),
	// as a real server runs: for measurements, where commit time counts.
	// Tests leave it off and run faster.
	Durable bool
}

// Start creates and starts a server for tests (durability off). The
// caller stops it with Stop.
func Start() (*Server, error) { return StartWith(Options{}) }

// StartWith is Start with options.
func StartWith(o Options) (*Server, error) {
	if os.Getenv(SkipEnv) != "" {
		return nil, ErrSkip
	}
	bin, err := BinDir()
	if err != nil {
		return nil, err
	}
	// Under /tmp when there is one: the socket's path must stay under
	// the 107 bytes a unix socket address holds, and as root the server
	// (run as nobody) must be able to reach it, which a private TMPDIR
	// would not allow.
	base := ""
	if st, err := os.Stat("/tmp"); err == nil && st.IsDir() {
		base = "/tmp"
	}
	reapOrphans(base, bin)
	dir, err := os.MkdirTemp(base, "topochess-pg-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, bin: bin}
	// A test binary killed before Stop (a timeout) leaves its server
	// running; the next Start stops it, knowing its owner is gone.
	if err := os.WriteFile(filepath.Join(dir, "owner"), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	// initdb refuses to run as root: the server then runs as nobody, in
	// a directory given to nobody.
	if os.Geteuid() == 0 {
		u, err := user.Lookup("nobody")
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("running as root and no user nobody to run PostgreSQL as: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		s.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	data := filepath.Join(dir, "data")
	if out, err := s.run("initdb", "-D", data, "-U", "topochess", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"); err != nil {
		s.Stop()
		return nil, fmt.Errorf("initdb: %w\n%s", err, out)
	}
	// The socket only, in dir; durability is not what tests are about.
	opts := "-c listen_addresses='' -c unix_socket_directories=" + dir + " -c max_connections=200"
	if !o.Durable {
		opts += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c shared_buffers=16MB"
	}
	if out, err := s.run("pg_ctl", "-D", data, "-l", filepath.Join(dir, "log"), "-o", opts, "-w", "-t", "60", "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		s.Stop()
		return nil, fmt.Errorf("pg_ctl start: %w\n%s\n%s", err, out, log)
	}
	return s, nil
}

func (s *Server) run(name string, args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(s.bin, name), args...)
	cmd.Dir = s.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	return cmd.CombinedOutput()
}

// PIDs are the server's processes now: the postmaster first, then its
// children (one per connection, and the background workers), so a
// measurement can add up the CPU time the server used.
func (s *Server) PIDs() []int {
	b, err := os.ReadFile(filepath.Join(s.dir, "data", "postmaster.pid"))
	if err != nil {
		return nil
	}
	first, _, _ := strings.Cut(string(b), "\n")
	pm, err := strconv.Atoi(strings.TrimSpace(first))
	if err != nil {
		return nil
	}
	pids := []int{pm}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, st := range stats {
		b, err := os.ReadFile(st)
		if err != nil {
			continue
		}
		// The command name in parentheses may hold spaces and
		// parentheses; the fields after the last ")" are fixed: state,
		// then the parent's pid.
		i := strings.LastIndexByte(string(b), ')')
		f := strings.Fields(string(b)[i+1:])
		if i < 0 || len(f) < 2 || f[1] != strconv.Itoa(pm) {
			continue
		}
		if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(st))); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// URL is the connection string of database db.
func (s *Server) URL(db string) string {
	return fmt.Sprintf("host=%s user=topochess dbname=%s sslmode=disable", s.dir, db)
}

// NewDatabase creates an empty database and returns its connection
// string; every test gets its own.
func (s *Server) NewDatabase() (string, error) {
	name := fmt.Sprintf("t%d", s.n.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", err
	}
	return s.URL(name), nil
}

// reapOrphans stops the servers of test processes that are gone.
func reapOrphans(base, bin string) {
	dirs, _ := filepath.Glob(filepath.Join(cmp.Or(base, os.TempDir()), "topochess-pg-*"))
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, "owner"))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 || syscall.Kill(pid, 0) == nil || errors.Is(syscall.Kill(pid, 0), syscall.EPERM) {
			continue // its process still runs
		}
		s := &Server{dir: dir, bin: bin}
		if st, err := os.Stat(dir); err == nil && os.Geteuid() == 0 {
			if sys, ok := st.Sys().(*syscall.Stat_t); ok && sys.Uid != 0 {
				s.cred = &syscall.Credential{Uid: sys.Uid, Gid: sys.Gid}
			}
		}
		s.Stop()
	}
}

// Stop stops the server and removes its files.
func (s *Server) Stop() {
	if _, err := os.Stat(filepath.Join(s.dir, "data", "postmaster.pid")); err == nil {
		if out, err := s.run("pg_ctl", "-D", filepath.Join(s.dir, "data"), "-m", "immediate", "-w", "stop"); err != nil {
			fmt.Fprintf(os.Stderr, "pgtest: pg_ctl stop: %v\n%s", err, strings.TrimSpace(string(out)))
		}
	}
	os.RemoveAll(s.dir)
}
