package storage

import bolt "go.etcd.io/bbolt"

// Counts for the operations metrics (docs/operations.md): key counts of
// index buckets, no record is decoded, so a scrape stays cheap.

// ActiveGameCount counts the unfinished games.
func (s *Store) ActiveGameCount() (int, error) { return s.keyCount(bChanGames) }

// OutboxCount counts the replies not yet delivered to their platform.
func (s *Store) OutboxCount() (int, error) { return s.keyCount(bOutbox) }

func (s *Store) keyCount(bucket []byte) (int, error) {
	n := 0
	err := s.db.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bucket); b != nil {
			n = b.Stats().KeyN
		}
		return nil
	})
	return n, err
}
