package storage

import (
	"encoding/json"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
)

// What the chat adapters must remember about messages they sent, so that
// buttons keep working across a restart: which platform message carries
// a reply key ("board:g12", "draw:g12", "challenge:c3"), to take its
// buttons away later, and buttons whose command does not fit into the
// platform's button data.
var (
	bMessageKeys = []byte("message_keys") // channel \0 reply key → messageRef
	bKeptButtons = []byte("kept_buttons") // platform \0 id → KeptButton
)

type messageRef struct {
	Message string    `json:"m"`
	At      time.Time `json:"at"`
}

// SwapMessage records that message carries a reply key in a channel and
// returns the message that carried it before ("" if none).
func (s *Store) SwapMessage(channel, replyKey, message string, now time.Time) (previous string, err error) {
	err = s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bMessageKeys)
		if err != nil {
			return err
		}
		k := key(channel, replyKey)
		var old messageRef
		if v := b.Get(k); v != nil && json.Unmarshal(v, &old) == nil {
			previous = old.Message
		}
		data, err := json.Marshal(messageRef{Message: message, At: now})
		if err != nil {
			return err
		}
		return b.Put(k, data)
	})
	return previous, err
}

// Message returns the message carrying a reply key ("" if none).
func (s *Store) Message(channel, replyKey string) (message string, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bMessageKeys)
		if b == nil {
			return nil
		}
		var ref messageRef
		if v := b.Get(key(channel, replyKey)); v != nil && json.Unmarshal(v, &ref) == nil {
			message = ref.Message
		}
		return nil
	})
	return message, err
}

// TakeMessage returns and forgets the message carrying a reply key.
func (s *Store) TakeMessage(channel, replyKey string) (message string, err error) {
	err = s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bMessageKeys)
		if b == nil {
			return nil
		}
		k := key(channel, replyKey)
		var ref messageRef
		if v := b.Get(k); v != nil && json.Unmarshal(v, &ref) == nil {
			message = ref.Message
		}
		return b.Delete(k)
	})
	return message, err
}

// KeptButton is a button kept by id for a platform whose button data
// cannot hold it.
type KeptButton struct {
	Label   string            `json:"label,omitempty"`
	Command string            `json:"command"`
	Args    map[string]string `json:"args,omitempty"`
	For     string            `json:"for,omitempty"`
	At      time.Time         `json:"at"`
}

// KeepButton stores a button and returns its id, unique for good (a
// restart never hands out an id again, so an old button cannot come to
// mean another).
func (s *Store) KeepButton(platform string, b KeptButton) (id string, err error) {
	err = s.db.Update(func(tx *bolt.Tx) error {
		bk, err := tx.CreateBucketIfNotExists(bKeptButtons)
		if err != nil {
			return err
		}
		n, err := bk.NextSequence()
		if err != nil {
			return err
		}
		id = strconv.FormatUint(n, 10)
		data, err := json.Marshal(b)
		if err != nil {
			return err
		}
		return bk.Put(key(platform, id), data)
	})
	return id, err
}

// Button loads a kept button; ErrNotFound when it was never kept or has
// been pruned.
func (s *Store) Button(platform, id string) (KeptButton, error) {
	var b KeptButton
	err := s.db.View(func(tx *bolt.Tx) error {
		bk := tx.Bucket(bKeptButtons)
		var v []byte
		if bk != nil {
			v = bk.Get(key(platform, id))
		}
		if v == nil {
			return ErrNotFound
		}
		return json.Unmarshal(v, &b)
	})
	return b, err
}

// PruneMessages forgets message keys and kept buttons recorded before a
// time: buttons that old are long superseded or out of date.
func (s *Store) PruneMessages(before time.Time) (int, error) {
	n := 0
	err := s.db.Update(func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bMessageKeys, bKeptButtons} {
			b := tx.Bucket(name)
			if b == nil {
				continue
			}
			var old [][]byte
			c := b.Cursor()
			for k, v := c.First(); k != nil; k, v = c.Next() {
				var rec struct {
					At time.Time `json:"at"`
				}
				if json.Unmarshal(v, &rec) != nil || rec.At.Before(before) {
					old = append(old, append([]byte(nil), k...))
				}
			}
			for _, k := range old {
				if err := b.Delete(k); err != nil {
					return err
				}
			}
			n += len(old)
		}
		return nil
	})
	return n, err
}
