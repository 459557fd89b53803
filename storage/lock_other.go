//go:build !unix

package storage

import (
	"os"
	"time"
)

// lockShared does nothing where bbolt uses other locks: the verification
// then reads the file unlocked.
func lockShared(*os.File, time.Duration) error { return nil }
