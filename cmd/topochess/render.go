package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"topochess/engine"
	"topochess/render"
)

// cmdRender draws a position to a PNG file, highlighting the last move of
// --moves and any cells given with --highlight.
func cmdRender(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("render", stderr)
	var pf positionFlags
	pf.register(fs)
	highlight := fs.String("highlight", "", "cells to highlight, comma separated")
	orientation := fs.String("orientation", "white", "side drawn at the bottom: white or black")
	out := fs.String("o", "", "output PNG file (- for standard output)")
	if err := fs.Parse(args); err != nil {
		return flagError(stderr, "render", err)
	}
	if fs.NArg() > 0 {
		return flagError(stderr, "render", fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	if *out == "" {
		return flagError(stderr, "render", errors.New("-o FILE is required (- for standard output)"))
	}
	var opt render.Options
	switch strings.ToLower(*orientation) {
	case "white", "w":
		opt.Orientation = engine.White
	case "black", "b":
		opt.Orientation = engine.Black
	default:
		return flagError(stderr, "render", fmt.Errorf("--orientation must be white or black, not %q", *orientation))
	}
	pos, last, err := loadWithLast(&pf)
	if err != nil {
		return flagError(stderr, "render", err)
	}
	opt.Last = last
	if strings.TrimSpace(*highlight) != "" {
		for _, s := range strings.Split(*highlight, ",") {
			c := pos.Geo().Cell(strings.TrimSpace(s))
			if c < 0 {
				return flagError(stderr, "render", fmt.Errorf("--highlight: no cell %q on the %s board", strings.TrimSpace(s), pos.V.ID))
			}
			opt.Highlight = append(opt.Highlight, c)
		}
	}
	if k := pos.King[pos.Side]; k >= 0 && pos.InCheck() {
		opt.Check = []int{int(k)}
	}
	data, err := render.New().PNG(pos, opt)
	if err != nil {
		return flagError(stderr, "render", err)
	}
	if *out == "-" {
		_, err = stdout.Write(data)
	} else {
		err = os.WriteFile(*out, data, 0o644)
	}
	if err != nil {
		return flagError(stderr, "render", err)
	}
	return 0
}

// loadWithLast loads the position like the other commands and also
// returns the from and to cells of the last move played by --moves.
func loadWithLast(pf *positionFlags) (*engine.Position, []int, error) {
	moves := pf.moves
	var lastMove string
	if strings.TrimSpace(moves) != "" {
		ms := strings.Split(moves, ",")
		lastMove = ms[len(ms)-1]
	}
	pos, err := pf.load()
	if err != nil || lastMove == "" {
		return pos, nil, err
	}
	// Replay all but the last move to learn its cells.
	ms := strings.Split(moves, ",")
	before := *pf
	before.moves = strings.Join(ms[:len(ms)-1], ",")
	prev, err := before.load()
	if err != nil {
		return nil, nil, err
	}
	m, err := prev.ParseCanonical(lastMove)
	if err != nil {
		return nil, nil, fmt.Errorf("--moves: %v", err)
	}
	return pos, []int{int(m.From), int(m.To)}, nil
}
