package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"topochess/engine"
)

// positionFlags are the flags shared by perft, moves and render.
type positionFlags struct {
	variant, position, moves string
}

func (pf *positionFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&pf.variant, "variant", "standard", "variant id")
	fs.StringVar(&pf.position, "position", "", "position string (default: the variant's start)")
	fs.StringVar(&pf.moves, "moves", "", "canonical moves to play first, comma separated")
}

// load builds the position the flags describe.
func (pf *positionFlags) load() (*engine.Position, error) {
	v, err := engine.GetVariant(pf.variant)
	if err != nil {
		return nil, fmt.Errorf("%v (known: %s)", err, strings.Join(engine.Variants(), ", "))
	}
	var pos *engine.Position
	if pf.position == "" {
		pos = v.StartPosition()
	} else if pos, err = v.ParsePosition(pf.position); err != nil {
		return nil, fmt.Errorf("bad position: %v", err)
	}
	if strings.TrimSpace(pf.moves) != "" {
		for _, s := range strings.Split(pf.moves, ",") {
			m, err := pos.ParseCanonical(s)
			if err != nil {
				return nil, fmt.Errorf("--moves: %v", err)
			}
			pos.Make(m)
		}
	}
	return pos, nil
}

func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

func flagError(stderr io.Writer, name string, err error) int {
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(stderr, "topochess %s: see topochess help\n", name)
		return 2
	}
	fmt.Fprintf(stderr, "topochess %s: %v\n", name, err)
	return 2
}

func cmdPerft(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("perft", stderr)
	var pf positionFlags
	pf.register(fs)
	depth := fs.Int("depth", -1, "depth in plies")
	divide := fs.Bool("divide", false, "print the count below each first move")
	if err := fs.Parse(args); err != nil {
		return parseError(fs, stdout, stderr, err)
	}
	if fs.NArg() > 0 {
		return flagError(stderr, "perft", fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	if *depth < 0 || *depth > 20 {
		return flagError(stderr, "perft", errors.New("--depth must be between 0 and 20"))
	}
	pos, err := pf.load()
	if err != nil {
		return flagError(stderr, "perft", err)
	}
	if *divide && *depth > 0 {
		var lines []string
		var total uint64
		for m, n := range pos.Divide(*depth) {
			lines = append(lines, fmt.Sprintf("%s: %d", pos.Canonical(m), n))
			total += n
		}
		sort.Strings(lines)
		for _, l := range lines {
			fmt.Fprintln(stdout, l)
		}
		fmt.Fprintln(stdout)
		fmt.Fprintln(stdout, total)
		return 0
	}
	fmt.Fprintln(stdout, pos.Perft(*depth))
	return 0
}

func cmdMoves(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("moves", stderr)
	var pf positionFlags
	pf.register(fs)
	if err := fs.Parse(args); err != nil {
		return parseError(fs, stdout, stderr, err)
	}
	if fs.NArg() > 0 {
		return flagError(stderr, "moves", fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	pos, err := pf.load()
	if err != nil {
		return flagError(stderr, "moves", err)
	}
	for _, s := range pos.CanonicalMoves() {
		fmt.Fprintln(stdout, s)
	}
	return 0
}
