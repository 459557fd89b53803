package storage

import (
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Caps bound what one user may hold at once. They are counted inside the
// write transaction that would pass them: bbolt runs one writer at a
// time, so requests arriving together are counted one after the other
// and cannot all slip under the cap. Zero fields mean no cap.
type Caps struct {
	// OpenChallenges is how many unexpired challenges a user may have
	// made.
	OpenChallenges int
	// ActiveGames is how many unfinished games a user may play, in every
	// channel together.
	ActiveGames int
	// Exempt is a user the caps do not apply to (the computer opponent,
	// which plays everyone's games).
	Exempt string
}

// ErrLimit is what a LimitError is: nothing was written.
var ErrLimit = errors.New("limit reached")

// LimitError says which user is at which cap.
type LimitError struct {
	User Player
	// What is "challenges" or "games".
	What string
	// Count is how many the user holds already.
	Count int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("%s has %d open %s: %v", e.User.ID, e.Count, e.What, ErrLimit)
}

func (e *LimitError) Is(target error) bool { return target == ErrLimit }

// checkGames refuses when a player is at the cap of active games.
func (caps Caps) checkGames(tx *bolt.Tx, players ...Player) error {
	if caps.ActiveGames <= 0 {
		return nil
	}
	for _, p := range players {
		if p.ID == "" || p.ID == caps.Exempt {
			continue
		}
		if n := len(prefixIDs(tx.Bucket(bUserGames), append(key(p.ID), 0))); n >= caps.ActiveGames {
			return &LimitError{User: p, What: "games", Count: n}
		}
	}
	return nil
}

// checkChallenges refuses when a user is at the cap of open challenges.
// Expired ones do not count (they are pruned later); neither do records
// that no longer decode, so a damaged record never locks a user out.
func (caps Caps) checkChallenges(tx *bolt.Tx, p Player, now time.Time) error {
	if caps.OpenChallenges <= 0 || p.ID == caps.Exempt {
		return nil
	}
	n := 0
	for _, id := range prefixIDs(tx.Bucket(bUserChal), append(key(p.ID), 0)) {
		if c, err := getChallenge(tx, id); err == nil && !c.Expired(now) {
			n++
		}
	}
	if n >= caps.OpenChallenges {
		return &LimitError{User: p, What: "challenges", Count: n}
	}
	return nil
}
