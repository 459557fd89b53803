//go:build unix

package storage

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// lockShared takes a shared flock on f (released when f is closed): it
// waits for a writer that holds bbolt's exclusive lock, like bbolt does.
func lockShared(f *os.File, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
		if err == nil {
			return nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return err
		}
		if time.Now().After(deadline) {
			return ErrLocked
		}
		time.Sleep(50 * time.Millisecond)
	}
}
