package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// subcommandHelp is what `topochess NAME --help` says around the flag
// list: what the subcommand does and an example to start from. render
// keeps its own text next to its flags.
var subcommandHelp = map[string]struct{ usage, about, example string }{
	"serve": {
		usage:   "topochess [serve] [--config FILE]",
		about:   "Runs the bot on every chat platform the config enables (Discord, Telegram, the local web chat).\nWithout a config file the settings come from TOPOCHESS_* environment variables and defaults.",
		example: "topochess serve --config topochess.yaml",
	},
	"console": {
		usage:   "topochess console [--config FILE] [--images DIR] [--channel ID]",
		about:   "Plays through standard input: one \"name: /command\" a line, as many people as you like.\nBoard pictures are written into --images.",
		example: "printf 'alice: /challenge @bob\\nbob: /accept\\nalice: /move e2e4\\n' | topochess console --images /tmp/boards",
	},
	"perft": {
		usage:   "topochess perft --variant ID [--position P] [--moves m1,m2] --depth N [--divide]",
		about:   "Counts the leaf nodes of the legal move tree to a depth, to check move generation.",
		example: "topochess perft --variant moebius --depth 2 --divide",
	},
	"moves": {
		usage:   "topochess moves --variant ID [--position P] [--moves m1,m2]",
		about:   "Lists the legal moves of a position in canonical notation, one a line.",
		example: "topochess moves --variant toroidal --moves e2-e4",
	},
	"check": {
		usage:   "topochess check [--db FILE | --config FILE] [--timeout D]",
		about:   "Verifies a database: its pages, every record and every index entry; exits 1 naming what is damaged.\nA database in use by serve or console is checked on a copy that process writes.",
		example: "topochess check --db topochess.db",
	},
	"backup": {
		usage:   "topochess backup --out FILE [--db FILE | --config FILE] [--timeout D]",
		about:   "Writes a consistent copy of the database, checked before it is kept, also while the bot serves.\nTo restore: stop the bot, put the copy in place of the database file, start the bot (README, docs/security-storage.md).",
		example: "topochess backup --db topochess.db --out /backups/topochess-$(date +%F).db",
	},
	"migrate": {
		usage:   "topochess migrate --from FILE [--to URL] [--timeout D]",
		about:   "Copies every record of a bbolt database into an empty PostgreSQL database in one transaction, counting each kind on both sides.\nStop the bot first; keep the file as the backup of the moment of the move (docs/scaling.md).",
		example: "TOPOCHESS_POSTGRES_URL=postgres://topochess@db/topochess topochess migrate --from topochess.db",
	},
	"puzzles": {
		usage:   "topochess puzzles [--variant IDS] [--per N] [--games N] [--max-plies N] [--seed S] [--scout-nodes N] [--budget D] [--theme T] [--from FILE|none] [-o FILE] [-v]",
		about:   "Generates the puzzle stock shipped in the binary (engine/puzzle/stock.json): the engine plays games in each\nvariant and keeps forced mates in 1, 2 and 3 and forced wins of material in 1 or 2 moves with a single\nsolution at every step, each checked exhaustively. The puzzles of the stock it starts from (the shipped one\nunless --from says otherwise) keep their ids; those of the variants generated are checked again. The same flags give the same stock\n(node budgets, a seeded generator), unless --budget stops a variant early.",
		example: "topochess puzzles --variant moebius,cube --per 3 --budget 3m -o /tmp/stock.json",
	},
	"arena": {
		usage:   "topochess arena --variant ID --white L --black L --games N [flags]",
		about:   "Plays the computer against itself at levels 1-5, or level --white against a UCI engine (--uci),\nand prints the score with an Elo estimate (docs/ai.md). With --nodes and no --movetime the games are reproducible.",
		example: "topochess arena --variant standard --white 3 --black 1 --games 4 --alternate --nodes 2000",
	},
	"tune": {
		usage:   "topochess tune --variant ID (--games FILES | --labels FILES) -o FILE [--iterations N] [--rate R] [--cell-decay X] [--holdout N] [--skip N] [--from-default] [--terms LIST]\n       topochess tune --variant ID --games FILES --label CMD --labels FILE [--label-go ARGS] [--label-jobs N] [--label-every N]",
		about:   "Learns a variant's evaluation weights from games recorded by arena --record: each quiet position is\nlabelled with its game's result, or with the score an outside UCI engine gives it (--label writes those\nscores to --labels; a later run fits them), and the weights are fitted to predict the labels (docs/ai.md).\nThe file it writes goes to engine/search/weights/ID.json and is built into the binary.",
		example: "topochess arena --white 4 --black 4 --nodes 5000 --games 4000 --openings 8 --adjudicate 1000 --record games.jsonl\ntopochess tune --variant standard --games games.jsonl --label /usr/games/stockfish --label-jobs 2 --labels scored.jsonl\ntopochess tune --variant standard --labels scored.jsonl -o engine/search/weights/standard.json",
	},
	"elo": {
		usage:   "topochess elo FILE...",
		about:   "Rates the players of arena -v output: one maximum-likelihood fit of the logistic Elo model over all games\n(a draw is half a win), an outside engine played at UCI_Elo N (named in the file) fixed at N, and 95 % intervals\nwhere the likelihood, maximised over the other ratings, drops by 1.92; \"by spread\" scales that drop by the\nspread of the player's results around the model's expectation (draws narrow it), as arena's result line\ndoes for one match (docs/ai.md, \"Measured ratings\").",
		example: "topochess elo sf2000.log sf2400.log levels.log",
	},
	"uci": {
		usage:   "topochess uci",
		about:   "Speaks the Universal Chess Interface on standard input and output, on all ten boards (option UCI_Variant),\nfor chess GUIs, match runners and arena --uci (docs/uci.md). It takes no flags.",
		example: "printf 'uci\\nposition startpos moves e2e4\\ngo depth 6\\nquit\\n' | topochess uci",
	},
}

// parseError answers a failed flag parse: --help (or -h) prints the
// subcommand's help to stdout and succeeds, anything else is a usage
// error on stderr.
func parseError(fs *flag.FlagSet, stdout, stderr io.Writer, err error) int {
	h, ok := subcommandHelp[fs.Name()]
	if !errors.Is(err, flag.ErrHelp) || !ok {
		return flagError(stderr, fs.Name(), err)
	}
	fmt.Fprintf(stdout, "Usage: %s\n\n%s\n\nFlags:\n", h.usage, h.about)
	fs.SetOutput(stdout)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	fmt.Fprintf(stdout, "\nExample:\n  %s\n", h.example)
	return 0
}
