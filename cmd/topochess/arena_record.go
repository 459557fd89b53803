package main

import (
	"encoding/json"
	"os"
)

// gameRecord is one finished arena game as --record writes it: the input
// of tune, which learns evaluation weights from game results.
type gameRecord struct {
	Variant string `json:"variant"`
	// Result is "1-0", "0-1" or "1/2-1/2" (engine.Result).
	Result string `json:"result"`
	Reason string `json:"reason"`
	// Openings is how many of the first moves were random.
	Openings int      `json:"openings"`
	Moves    []string `json:"moves"`
}

type gameRecorder struct {
	f        *os.File
	enc      *json.Encoder
	variant  string
	openings int
}

func newGameRecorder(path, variant string, openings int) (*gameRecorder, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	return &gameRecorder{f: f, enc: json.NewEncoder(f), variant: variant, openings: openings}, nil
}

// write appends a game, unless it ended by a forfeit (an illegal move or a
// crash says nothing about the position).
func (r *gameRecorder) write(g arenaGame) error {
	if g.loserBy != "" || g.reason == "setup error" {
		return nil
	}
	return r.enc.Encode(gameRecord{Variant: r.variant, Result: string(g.result), Reason: g.reason, Openings: r.openings, Moves: g.moves})
}

func (r *gameRecorder) close() error { return r.f.Close() }
