package storage

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

func suiteMessagesAcrossReopen(t *testing.T, open opener) {
	s := open(t)
	if prev, err := s.SwapMessage("tg:1", "board:g1", "10", t0); prev != "" || err != nil {
		t.Fatalf("first swap: %q %v", prev, err)
	}
	if prev, _ := s.SwapMessage("tg:1", "board:g1", "12", t0); prev != "10" {
		t.Errorf("second swap returned %q, want 10", prev)
	}
	s.SwapMessage("tg:1", "draw:g1", "11", t0)
	s.SwapMessage("tg:1", "board:#1", "13", t0)
	id1, err := s.KeepButton("telegram", KeptButton{Command: "move", Args: map[string]string{"move": "e2-e4"}, For: "telegram:5", At: t0})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()

	s = open(t)
	if m, _ := s.Message("tg:1", "challenge:c1"); m != "" {
		t.Errorf("a key never recorded is carried by %q", m)
	}
	if m, _ := s.Message("tg:1", "board:#1"); m != "13" {
		t.Errorf("after reopening, board:#1 is carried by %q, want 13 (looked up, kept)", m)
	}
	if m, _ := s.TakeMessage("tg:1", "board:#1"); m != "13" {
		t.Errorf("board:#1 after a look-up: %q, want 13", m)
	}
	if m, _ := s.TakeMessage("tg:1", "draw:g1"); m != "11" {
		t.Errorf("after reopening, draw:g1 is carried by %q, want 11", m)
	}
	if m, _ := s.TakeMessage("tg:1", "draw:g1"); m != "" {
		t.Errorf("taken twice: %q", m)
	}
	if m, _ := s.TakeMessage("tg:2", "board:g1"); m != "" {
		t.Errorf("another chat's key: %q", m)
	}
	b, err := s.Button("telegram", id1)
	if err != nil || b.Command != "move" || b.Args["move"] != "e2-e4" || b.For != "telegram:5" {
		t.Errorf("kept button after reopening: %+v %v", b, err)
	}
	id2, _ := s.KeepButton("telegram", KeptButton{Command: "board", At: t0.Add(48 * time.Hour)})
	if id2 == id1 {
		t.Errorf("a button id was handed out twice: %s", id2)
	}
	if _, err := s.Button("discord", id1); !errors.Is(err, ErrNotFound) {
		t.Errorf("another platform's button: %v", err)
	}
	if n, err := s.PruneMessages(t0.Add(time.Hour)); n != 2 || err != nil {
		t.Errorf("pruned %d (%v), want the board key and the first button", n, err)
	}
	if _, err := s.Button("telegram", id2); err != nil {
		t.Errorf("a recent button was pruned: %v", err)
	}
	if _, err := s.Button("telegram", id1); !errors.Is(err, ErrNotFound) {
		t.Errorf("a pruned button is still there: %v", err)
	}
	if m, _ := s.TakeMessage("tg:1", "board:g1"); m != "" {
		t.Errorf("a pruned message key is still there: %q", m)
	}
}

// Swaps of one key at once behave as one after the other: every message
// but the last is returned as the previous one exactly once.
func suiteRacingSwapsOneChain(t *testing.T, open opener) {
	s := open(t)
	const n = 8
	var wg sync.WaitGroup
	prevs := make(chan string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			prev, err := s.SwapMessage("tg:1", "board:g1", fmt.Sprint(i), t0)
			if err != nil {
				t.Error(err)
			}
			prevs <- prev
		}()
	}
	wg.Wait()
	close(prevs)
	got := []string{}
	for p := range prevs {
		got = append(got, p)
	}
	last, err := s.TakeMessage("tg:1", "board:g1")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, last)
	slices.Sort(got)
	want := []string{""}
	for i := range n {
		want = append(want, fmt.Sprint(i))
	}
	if !slices.Equal(got, want) {
		t.Errorf("previous messages and the last one: %q, want each of %q once", got, want)
	}
}
