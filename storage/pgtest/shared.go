package pgtest

import (
	"errors"
	"sync"
	"testing"
)

// Shared is one throwaway server for a whole test binary: the first test
// that asks for it starts it, and the binary's TestMain stops it (Stop).
// Its zero value is ready to use.
type Shared struct {
	once sync.Once
	srv  *Server
	err  error
}

// Server returns the server, starting it on first use. A test is skipped
// when SkipEnv is set and fails when the server cannot start.
func (s *Shared) Server(t testing.TB) *Server {
	t.Helper()
	s.once.Do(func() { s.srv, s.err = Start() })
	if errors.Is(s.err, ErrSkip) {
		t.Skip(s.err)
	}
	if s.err != nil {
		t.Fatal(s.err)
	}
	return s.srv
}

// Database returns the URL of a new empty database on the server.
func (s *Shared) Database(t testing.TB) string {
	t.Helper()
	url, err := s.Server(t).NewDatabase()
	if err != nil {
		t.Fatal(err)
	}
	return url
}

// Stop stops the server if a test started it.
func (s *Shared) Stop() {
	if s.srv != nil {
		s.srv.Stop()
	}
}
