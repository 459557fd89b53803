package storage

import (
	"bytes"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// MoveChannel gives a channel's games, active and finished, its open
// challenges and the games it follows a new channel id: a Telegram group that becomes a
// supergroup gets a new chat id and keeps its games. Every moved game's
// revision is bumped, so a copy loaded before the move is not saved over
// it. Moving a channel that has nothing, or again, moves nothing.
func (s *Store) MoveChannel(from, to string) (games, challenges int, err error) {
	if from == to || from == "" || to == "" {
		return 0, 0, fmt.Errorf("move channel %q to %q: not two channels", from, to)
	}
	err = s.db.Update(func(tx *bolt.Tx) error {
		ids := prefixIDs(tx.Bucket(bChanGames), append(key(from), 0))
		if cf := tx.Bucket(bChanFinished); cf != nil {
			for _, rest := range prefixIDs(cf, append(key(from), 0)) { // ended \0 game
				if i := bytes.LastIndexByte([]byte(rest), 0); i >= 0 {
					ids = append(ids, rest[i+1:])
				}
			}
		}
		seen := map[string]bool{}
		for _, id := range ids {
			if seen[id] {
				continue
			}
			seen[id] = true
			g, err := getGame(tx, id)
			if err != nil {
				return err
			}
			if err := unindexGame(tx, g); err != nil {
				return err
			}
			g.Channel = to
			if g.Server == from { // a Telegram group is its own server
				g.Server = to
			}
			g.Rev++
			if err := putGame(tx, g); err != nil {
				return err
			}
			games++
		}
		for _, id := range prefixIDs(tx.Bucket(bChanChal), append(key(from), 0)) {
			c, err := getChallenge(tx, id)
			if err != nil {
				return err
			}
			if err := tx.Bucket(bChanChal).Delete(key(from, id)); err != nil {
				return err
			}
			c.Channel = to
			c.V = FormatVersion
			data, err := json.Marshal(c)
			if err != nil {
				return err
			}
			if err := tx.Bucket(bChallenges).Put([]byte(id), data); err != nil {
				return err
			}
			if err := tx.Bucket(bChanChal).Put(key(to, id), nil); err != nil {
				return err
			}
			challenges++
		}
		return moveFollows(tx, from, to)
	})
	if err != nil {
		return 0, 0, err
	}
	return games, challenges, nil
}

// unindexGame removes the index entries that name a game's channel;
// putGame writes them again for the game as it is then.
func unindexGame(tx *bolt.Tx, g *Game) error {
	del := func(bucket []byte, k []byte) error {
		if b := tx.Bucket(bucket); b != nil {
			return b.Delete(k)
		}
		return nil
	}
	ended := endedKey(g)
	for _, u := range []string{g.White.ID, g.Black.ID} {
		if err := del(bUserGames, key(u, g.Channel, g.ID)); err != nil {
			return err
		}
		if err := del(bUserFinished, key(u, g.Channel, ended, g.ID)); err != nil {
			return err
		}
	}
	if err := del(bChanGames, key(g.Channel, g.ID)); err != nil {
		return err
	}
	return del(bChanFinished, key(g.Channel, ended, g.ID))
}

// moveFollows makes the follows of channel from those of channel to.
func moveFollows(tx *bolt.Tx, from, to string) error {
	b := tx.Bucket(bFollows)
	if b == nil {
		return nil
	}
	suffix := append([]byte{0}, from...)
	var keys [][]byte
	if err := b.ForEach(func(k, _ []byte) error {
		if bytes.HasSuffix(k, suffix) {
			keys = append(keys, bytes.Clone(k))
		}
		return nil
	}); err != nil {
		return err
	}
	for _, k := range keys {
		var f Follow
		if err := decode(b.Get(k), &f, migrateFollow); err != nil {
			return fmt.Errorf("follow %s: %w", printable(k), err)
		}
		f.Channel, f.V = to, FormatVersion
		data, err := json.Marshal(f)
		if err != nil {
			return err
		}
		if err := b.Delete(k); err != nil {
			return err
		}
		if err := b.Put(key(f.Game, to), data); err != nil {
			return err
		}
	}
	return nil
}
