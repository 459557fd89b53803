package storage

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The outbox holds the replies that matter to a game until the platform
// has them. A record is written in the same transaction as the change it
// reports (SaveGame, CreateGame, AcceptChallenge take records), so a
// crash can lose neither without the other; the adapter deletes it once
// delivered. Keys are the write sequence, so a scan is the write order.
var (
	bOutbox  = []byte("outbox")
	bRefused = []byte("outbox_refused") // channel \0 id → record
)

// maxRefused is how many refused deliveries a channel keeps, the newest:
// a chat that blocked the bot refuses every reply, and /games only tells
// of the last day's.
const maxRefused = 20

// Outgoing is one reply waiting for delivery. It is either a render
// instruction — the picture and prompt of Game after Ply moves, under
// Caption — or a reply the bot encoded whole (Reply). Instructions keep
// the game's transaction small (no picture is drawn under the game's
// lock) and are drawn again from the stored moves on delivery.
type Outgoing struct {
	V       int    `json:"v"`
	ID      string `json:"id"` // given when written
	Channel string `json:"channel"`
	Game    string `json:"game,omitempty"`
	Ply     int    `json:"ply,omitempty"`
	Caption string `json:"caption,omitempty"`
	// Reply is the bot's encoding of a whole reply; storage does not read it.
	Reply   json.RawMessage `json:"reply,omitempty"`
	Created time.Time       `json:"created"`
	// Refused is the platform's final refusal (blocked, chat not found).
	Refused string `json:"refused,omitempty"`
}

func outboxBuckets(tx *bolt.Tx) (*bolt.Bucket, *bolt.Bucket, error) {
	// Created on first use: databases from before the outbox open as they are.
	box, err := tx.CreateBucketIfNotExists(bOutbox)
	if err != nil {
		return nil, nil, err
	}
	ref, err := tx.CreateBucketIfNotExists(bRefused)
	return box, ref, err
}

// putOutgoing writes records inside a write transaction, giving them ids
// in order. A render instruction without a game takes game's id (a game
// created in the same transaction), and "{game}" in its caption too.
func putOutgoing(tx *bolt.Tx, out []*Outgoing, game string, now time.Time) error {
	if len(out) == 0 {
		return nil
	}
	box, _, err := outboxBuckets(tx)
	if err != nil {
		return err
	}
	for _, o := range out {
		if o == nil {
			continue // a reply its platform does not keep
		}
		n, err := box.NextSequence()
		if err != nil {
			return err
		}
		var k [8]byte
		binary.BigEndian.PutUint64(k[:], n)
		rec := *o
		rec.V, rec.ID = FormatVersion, hex.EncodeToString(k[:])
		if rec.Game == "" && rec.Reply == nil {
			rec.Game = game
			rec.Caption = strings.ReplaceAll(rec.Caption, "{game}", game)
		}
		if rec.Created.IsZero() {
			rec.Created = now
		}
		data, err := json.Marshal(&rec)
		if err != nil {
			return err
		}
		if err := box.Put([]byte(rec.ID), data); err != nil {
			return err
		}
		o.ID, o.Game, o.Caption, o.Created = rec.ID, rec.Game, rec.Caption, rec.Created
	}
	return nil
}

// PutOutgoing writes records on their own (replies that change no game:
// clock warnings).
func (s *Store) PutOutgoing(now time.Time, out ...*Outgoing) error {
	return s.db.Update(func(tx *bolt.Tx) error { return putOutgoing(tx, out, "", now) })
}

// ReplaceOutgoing deletes the records done (by id) and writes out, in one
// transaction: a stop hands its queue over this way, in the queue's order.
// The records written are free for any process to claim (ClaimOutgoing).
func (s *Store) ReplaceOutgoing(done []string, now time.Time, out ...*Outgoing) error {
	err := s.db.Update(func(tx *bolt.Tx) error {
		box, _, err := outboxBuckets(tx)
		if err != nil {
			return err
		}
		for _, id := range done {
			if err := box.Delete([]byte(id)); err != nil {
				return err
			}
		}
		return putOutgoing(tx, out, "", now)
	})
	if err == nil {
		s.outboxDone(done...)
		s.outboxReleased(out)
	}
	return err
}

// PendingOutgoing lists the records whose channel starts with prefix
// ("telegram:"), oldest first.
func (s *Store) PendingOutgoing(prefix string) ([]*Outgoing, error) {
	var out []*Outgoing
	err := s.db.View(func(tx *bolt.Tx) error {
		box := tx.Bucket(bOutbox)
		if box == nil {
			return nil
		}
		return box.ForEach(func(k, v []byte) error {
			var o Outgoing
			if err := decode(v, &o, nil); err != nil {
				// One damaged record must not hold back every other
				// platform's replies at each start.
				s.skipped("outbox", string(k), err)
				return nil
			}
			if strings.HasPrefix(o.Channel, prefix) {
				out = append(out, &o)
			}
			return nil
		})
	})
	return out, err
}

// DeliveredOutgoing forgets a delivered record; refused non-empty keeps it
// among the refused deliveries of its channel instead.
func (s *Store) DeliveredOutgoing(id, refused string) error {
	defer s.outboxDone(id)
	return s.db.Update(func(tx *bolt.Tx) error {
		box, ref, err := outboxBuckets(tx)
		if err != nil {
			return err
		}
		v := box.Get([]byte(id))
		if v == nil {
			return nil // delivered before, or handed over meanwhile
		}
		if refused != "" {
			var o Outgoing
			if err := decode(v, &o, nil); err != nil {
				return err
			}
			o.Refused, o.Reply = refused, nil // the content is not needed any more
			data, err := json.Marshal(&o)
			if err != nil {
				return err
			}
			if err := ref.Put(key(o.Channel, o.ID), data); err != nil {
				return err
			}
			if err := pruneRefused(ref, o.Channel); err != nil {
				return err
			}
		}
		return box.Delete([]byte(id))
	})
}

// pruneRefused drops a channel's oldest refused deliveries past maxRefused.
func pruneRefused(ref *bolt.Bucket, channel string) error {
	prefix := key(channel, "")
	var keys [][]byte
	c := ref.Cursor()
	for k, _ := c.Seek(prefix); k != nil && strings.HasPrefix(string(k), string(prefix)); k, _ = c.Next() {
		keys = append(keys, bytes.Clone(k))
	}
	for len(keys) > maxRefused {
		if err := ref.Delete(keys[0]); err != nil {
			return err
		}
		keys = keys[1:]
	}
	return nil
}

// RefusedOutgoing lists the deliveries the platform refused in a channel,
// oldest first.
func (s *Store) RefusedOutgoing(channel string) ([]*Outgoing, error) {
	var out []*Outgoing
	err := s.db.View(func(tx *bolt.Tx) error {
		ref := tx.Bucket(bRefused)
		if ref == nil {
			return nil
		}
		prefix := key(channel, "")
		c := ref.Cursor()
		for k, v := c.Seek(prefix); k != nil && strings.HasPrefix(string(k), string(prefix)); k, v = c.Next() {
			var o Outgoing
			if err := decode(v, &o, nil); err != nil {
				s.skipped("refused outbox record", string(k), err)
				continue
			}
			out = append(out, &o)
		}
		return nil
	})
	return out, err
}
