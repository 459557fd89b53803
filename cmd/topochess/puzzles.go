package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"topochess/engine"
	"topochess/engine/puzzle"
)

// cmdPuzzles generates the puzzle stock shipped in the binary
// (engine/puzzle/stock.json): engine games in every variant, mates in 1 to 3
// and wins of material with one solution at every step, each checked
// exhaustively. The puzzles of the stock it starts from are checked again
// and kept under their ids, so that players' puzzle histories stay true.
func cmdPuzzles(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("puzzles", stderr)
	variants := fs.String("variant", "", "variant ids, comma separated (default: all)")
	per := fs.Int("per", 2, "puzzles of each kind per variant (mate in 1, 2, 3, winning material), counting those kept")
	games := fs.Int("games", 30, "most engine games per variant")
	plies := fs.Int("max-plies", 160, "longest engine game")
	seed := fs.Uint64("seed", 1, "seed of the engine games")
	scout := fs.Int64("scout-nodes", 20000, "engine nodes spent spotting a candidate in each position")
	budget := fs.Duration("budget", 0, "stop looking in a variant after this long (0: only the games bound it)")
	from := fs.String("from", "", "the stock to start from (default: the shipped one; \"none\": start afresh)")
	theme := fs.String("theme", "", "a theme wanted --per times more, e.g. \"switch fork\" (a puzzle showing it is kept whatever its kind's count)")
	out := fs.String("o", "", "write the stock here (default: standard output)")
	verbose := fs.Bool("v", false, "report each puzzle found on standard error")
	if err := fs.Parse(args); err != nil {
		return parseError(fs, stdout, stderr, err)
	}
	if fs.NArg() > 0 {
		return flagError(stderr, "puzzles", fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "topochess puzzles: %v\n", err)
		return 1
	}
	have, err := startingStock(*from)
	if err != nil {
		return fail(err)
	}
	ids := engine.Variants()
	if *variants != "" {
		ids = strings.Split(*variants, ",")
	}
	for i := range ids {
		ids[i] = strings.TrimSpace(ids[i])
	}
	// The kept puzzles of the variants generated are checked again (the
	// others are copied as they are: the tests check the whole stock).
	var all []puzzle.Puzzle
	byVariant := map[string][]puzzle.Puzzle{}
	for _, pz := range have {
		if slices.Contains(ids, pz.Variant) {
			if err := puzzle.Check(pz); err != nil {
				return fail(fmt.Errorf("the stock to start from: %w", err))
			}
			pz.Themes = puzzle.Themes(pz)
		}
		byVariant[pz.Variant] = append(byVariant[pz.Variant], pz)
		all = append(all, pz)
	}
	for _, id := range ids {
		cfg := puzzle.GenConfig{PerKind: *per, Games: *games, MaxPlies: *plies, Seed: *seed, ScoutNodes: *scout, Have: byVariant[id], Theme: *theme}
		if *verbose {
			cfg.Log = func(s string) { fmt.Fprintln(stderr, s) }
		}
		ctx, cancel := context.Background(), func() {}
		if *budget > 0 {
			ctx, cancel = context.WithTimeout(ctx, *budget)
		}
		start := time.Now()
		ps, err := puzzle.Generate(ctx, id, cfg)
		cancel()
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return fail(fmt.Errorf("%s: %w", id, err))
		}
		all = append(all, ps...)
		fmt.Fprintf(stderr, "%s: %d new puzzles in %s; %s\n", id, len(ps), time.Since(start).Round(time.Second), kindCounts(append(byVariant[id], ps...)))
	}
	data, err := json.MarshalIndent(puzzle.Sorted(all), "", "  ")
	if err != nil {
		return fail(err)
	}
	data = append(data, '\n')
	if *out == "" {
		_, err = stdout.Write(data)
	} else {
		err = os.WriteFile(*out, data, 0o644)
	}
	if err != nil {
		return fail(err)
	}
	return 0
}

// startingStock reads the stock a run starts from.
func startingStock(from string) ([]puzzle.Puzzle, error) {
	switch from {
	case "":
		return puzzle.All()
	case "none":
		return nil, nil
	}
	data, err := os.ReadFile(from)
	if err != nil {
		return nil, err
	}
	var ps []puzzle.Puzzle
	if err := json.Unmarshal(data, &ps); err != nil {
		return nil, fmt.Errorf("%s: %w", from, err)
	}
	return ps, nil
}

// kindCounts says how many puzzles of each kind a variant has, e.g.
// "mate in 1: 2, mate in 2: 5, mate in 3: 0, winning material in 2: 1".
func kindCounts(ps []puzzle.Puzzle) string {
	n := map[string]int{}
	for _, pz := range ps {
		n[puzzle.Kind(pz)]++
	}
	var parts []string
	for _, k := range puzzle.Kinds {
		parts = append(parts, fmt.Sprintf("%s: %d", k, n[k]))
	}
	return strings.Join(parts, ", ")
}
