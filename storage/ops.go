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

// ActiveGameCount counts the unfinished games.
func (p *Postgres) ActiveGameCount() (int, error) {
	return p.count(`SELECT count(*) FROM games WHERE active`)
}

// OutboxCount counts the replies not yet delivered to their platform.
func (p *Postgres) OutboxCount() (int, error) { return p.count(`SELECT count(*) FROM outbox`) }

func (p *Postgres) count(q string) (int, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	var n int
	err := p.pool.QueryRow(ctx, q).Scan(&n)
	return n, err
}
