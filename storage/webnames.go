package storage

import (
	"bytes"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// bWebNames holds who owns each web chat name: key → the name and a hash
// of the secret its browser keeps. The key is the web adapter's
// look-alike skeleton of the name, so one record also guards its
// imitations. The bucket is created by the first claim.
var bWebNames = []byte("web_names")

type webNameRecord struct {
	V    int    `json:"v"`
	Name string `json:"name"`
	Hash []byte `json:"hash"`
}

// ClaimWebName stores (name, hash) under key unless the key is taken, in
// one transaction (two processes claiming at once cannot both win), and
// returns what the key holds afterwards.
func (s *Store) ClaimWebName(key, name string, hash []byte) (heldName string, heldHash []byte, err error) {
	err = s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bWebNames)
		if err != nil {
			return err
		}
		if data := b.Get([]byte(key)); data != nil {
			var rec webNameRecord
			if err := decode(data, &rec, nil); err != nil {
				return fmt.Errorf("web name %q: %w", key, err)
			}
			heldName, heldHash = rec.Name, rec.Hash
			return nil
		}
		data, err := json.Marshal(webNameRecord{V: FormatVersion, Name: name, Hash: hash})
		if err != nil {
			return err
		}
		heldName, heldHash = name, bytes.Clone(hash)
		return b.Put([]byte(key), data)
	})
	if err != nil {
		return "", nil, fmt.Errorf("storage: %w", err)
	}
	return heldName, heldHash, nil
}
