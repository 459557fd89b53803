// Command topochess is the chess bot for twisted boards: it serves the
// chat platforms (serve, the default), runs a local console, and offers
// perft, moves and render for checking rules and pictures from outside.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// commands maps subcommand names to their entry points.
var commands = map[string]func(args []string, stdin io.Reader, stdout, stderr io.Writer) int{
	"perft":   cmdPerft,
	"moves":   cmdMoves,
	"console": cmdConsole,
	"serve":   cmdServe,
	"render":  cmdRender,
	"arena":   cmdArena,
	"check":   cmdCheck,
	"backup":  cmdBackup,
	"uci":     cmdUCI,
	"migrate": cmdMigrate,
	"puzzles": cmdPuzzles,
	"tune":    cmdTune,
	"elo":     cmdElo,
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	name := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		name, args = args[0], args[1:]
	}
	switch name {
	case "help", "-h", "--help":
		usage(stdout)
		return 0
	}
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "topochess: unknown command %q (try: topochess help)\n", name)
		return 2
	}
	return cmd(args, stdin, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprint(w, `topochess — chess on twisted boards, as a chat bot

Usage:
  topochess [serve] [--config FILE]       run the bot (local web chat when no platform token is set)
  topochess console [--config FILE] [--images DIR]
                                          play through standard input, one "name: /command" per line
  topochess perft --variant ID [--position P] [--moves m1,m2] --depth N [--divide]
  topochess moves --variant ID [--position P] [--moves m1,m2]
  topochess render --variant ID [--position P] [--moves m1,m2] [--highlight c1,c2] [--orientation black]
                   [--width W] [--map cells.json] -o out.png
                                          draw a picture (topochess render --help)
  topochess arena --variant ID --white L --black L --games N [--alternate] [--max-moves M]
                  [--nodes N] [--movetime D] [--seed S] [--jobs J] [--uci CMD] [--openings P] [--adjudicate CP] [--record FILE] [-v]
                                          play the computer against itself at levels 1-5, or against a UCI
                                          engine (--uci), with an Elo estimate (docs/ai.md)
  topochess check [--db FILE | --config FILE]
                                          verify a database (also while serve runs); exit 1 on problems
  topochess backup --out FILE [--db FILE | --config FILE]
                                          write a consistent copy, also while serve runs (docs/security-storage.md)
  topochess migrate --from FILE [--to URL]
                                          copy a stopped bot's bbolt file into an empty PostgreSQL database
                                          (URL default: TOPOCHESS_POSTGRES_URL) and verify the counts (docs/scaling.md)
  topochess puzzles [--variant IDS] [--per N] [--games N] [--seed S] [--budget D] [--theme T] [-o FILE] [-v]
                                          generate the shipped puzzles from engine games: forced mates in 1-3
                                          and wins of material, unique at every step (docs/puzzles.md)
  topochess tune --variant ID --games FILES -o FILE
                                          learn a board's evaluation weights from recorded games (docs/ai.md)
  topochess elo FILE...                   rate the levels from arena -v output against anchored UCI engines (docs/ai.md)
  topochess uci                           speak the Universal Chess Interface on every board (docs/uci.md)

Every command answers --help with its flags and an example.
`)
}
