package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"topochess/engine"
	"topochess/engine/puzzle"
)

// cmdPuzzles generates the puzzle stock shipped in the binary
// (engine/puzzle/stock.json): engine games in every variant, mates in 1 and 2
// with one solution at every step, each checked exhaustively.
func cmdPuzzles(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("puzzles", stderr)
	variants := fs.String("variant", "", "variant ids, comma separated (default: all)")
	per := fs.Int("per", 6, "puzzles per variant")
	games := fs.Int("games", 30, "most engine games per variant")
	plies := fs.Int("max-plies", 160, "longest engine game")
	seed := fs.Uint64("seed", 1, "seed of the engine games")
	out := fs.String("o", "", "write the stock here (default: standard output)")
	verbose := fs.Bool("v", false, "report each puzzle found on standard error")
	if err := fs.Parse(args); err != nil {
		return parseError(fs, stdout, stderr, err)
	}
	if fs.NArg() > 0 {
		return flagError(stderr, "puzzles", fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	ids := engine.Variants()
	if *variants != "" {
		ids = strings.Split(*variants, ",")
	}
	cfg := puzzle.GenConfig{PerVariant: *per, Games: *games, MaxPlies: *plies, Seed: *seed}
	if *verbose {
		cfg.Log = func(s string) { fmt.Fprintln(stderr, s) }
	}
	var all []puzzle.Puzzle
	for _, id := range ids {
		ps, err := puzzle.Generate(context.Background(), strings.TrimSpace(id), cfg)
		if err != nil {
			fmt.Fprintf(stderr, "topochess puzzles: %s: %v\n", id, err)
			return 1
		}
		fmt.Fprintf(stderr, "%s: %d puzzles\n", id, len(ps))
		all = append(all, ps...)
	}
	data, err := json.MarshalIndent(puzzle.Sorted(all), "", "  ")
	if err != nil {
		fmt.Fprintf(stderr, "topochess puzzles: %v\n", err)
		return 1
	}
	data = append(data, '\n')
	if *out == "" {
		_, err = stdout.Write(data)
	} else {
		err = os.WriteFile(*out, data, 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "topochess puzzles: %v\n", err)
		return 1
	}
	return 0
}
