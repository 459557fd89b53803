package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"topochess/engine"
	"topochess/render"
)

const renderHelp = `Usage: topochess render [flags] -o OUT.png

Draws a position of any variant to a PNG, the picture the bot sends: the last
move of --moves as an arrow, a check with the line from each checking piece.
With --map it also writes where every cell is drawn, as JSON:
{"width": W, "height": H, "cells": [{"cell": "e4", "polygons": [[[x, y], ...]]}, ...]}

Flags:
`

const renderExample = `
Example:
  topochess render --variant moebius --moves e2-e4,e7-e5 --width 400 --map moebius.json -o moebius.png
`

// cmdRender draws a position to a PNG file, highlighting the last move of
// --moves and any cells given with --highlight.
func cmdRender(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("render", stderr)
	var pf positionFlags
	pf.register(fs)
	highlight := fs.String("highlight", "", "cells to highlight, comma separated")
	orientation := fs.String("orientation", "white", "side drawn at the bottom: white or black")
	width := fs.Int("width", render.DefaultWidth, "picture width in pixels (the height follows the board, at most 1.8× the width)")
	mapFile := fs.String("map", "", "also write the cell map (JSON) to this file")
	out := fs.String("o", "", "output PNG file (- for standard output)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, renderHelp)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			fmt.Fprint(stdout, renderExample)
			return 0
		}
		return flagError(stderr, "render", err)
	}
	if fs.NArg() > 0 {
		return flagError(stderr, "render", fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	if *out == "" {
		return flagError(stderr, "render", errors.New("-o FILE is required (- for standard output)"))
	}
	if *width < minRenderWidth || *width > maxRenderWidth {
		return flagError(stderr, "render", fmt.Errorf("--width must be between %d and %d pixels, not %d", minRenderWidth, maxRenderWidth, *width))
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
	r := &render.Renderer{Width: *width}
	data, err := r.PNG(pos, opt)
	if err != nil {
		return flagError(stderr, "render", err)
	}
	if *mapFile != "" {
		js, err := json.Marshal(*r.CellMap(pos.V, opt.Orientation))
		if err == nil {
			err = os.WriteFile(*mapFile, js, 0o644)
		}
		if err != nil {
			return flagError(stderr, "render", err)
		}
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

// Pictures narrower than a phone's thumbnail or wider than a screen are
// mistakes.
const (
	minRenderWidth = 120
	maxRenderWidth = 4096
)

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
