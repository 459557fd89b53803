package storage

import bolt "go.etcd.io/bbolt"

// UserActiveGames lists a user's active games in every channel, oldest
// first. The bot opponent uses it at start to find the games where it is
// to move.
func (s *Store) UserActiveGames(userID string) ([]*Game, error) {
	var out []*Game
	err := s.db.View(func(tx *bolt.Tx) error {
		// Index keys are user \0 channel \0 game: the game id is the part
		// after the last zero byte.
		for _, rest := range prefixIDs(tx.Bucket(bUserGames), append(key(userID), 0)) {
			id := rest
			for i := len(rest) - 1; i >= 0; i-- {
				if rest[i] == 0 {
					id = rest[i+1:]
					break
				}
			}
			g, err := getGame(tx, id)
			if err != nil {
				s.skipped("game", id, err)
				continue
			}
			out = append(out, g)
		}
		return nil
	})
	sortGames(out)
	return out, err
}
