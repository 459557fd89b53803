package storage

import (
	"bytes"
	"sync"
	"testing"
)

// A claim survives reopening the file, and of many claims at once on one
// key exactly one wins.
func suiteClaimWebName(t *testing.T, open opener) {
	s := open(t)
	var wg sync.WaitGroup
	won := make(chan string, 20)
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := []byte{byte(i)}
			name, held, err := s.ClaimWebName("bob", "bob", h)
			if err != nil {
				t.Error(err)
				return
			}
			if name != "bob" {
				t.Errorf("held name %q", name)
			}
			if bytes.Equal(held, h) {
				won <- string(h)
			}
		}()
	}
	wg.Wait()
	close(won)
	var winners []string
	for w := range won {
		winners = append(winners, w)
	}
	if len(winners) != 1 {
		t.Fatalf("%d claims won, want 1", len(winners))
	}
	s.Close()
	s = open(t)
	name, held, err := s.ClaimWebName("bob", "b0b", []byte("other"))
	if err != nil || name != "bob" || string(held) != winners[0] {
		t.Errorf("after reopening: %q %q %v, want bob %q", name, held, err, winners[0])
	}
}
