package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"topochess/engine"
	"topochess/engine/search"
)

// cmdTune learns a variant's evaluation weights from games recorded by
// arena --record: every quiet position is labelled with its game's result,
// or with an outside engine's score of it (--label, then --labels), and
// the weights are fitted to predict the labels (docs/ai.md).
func cmdTune(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("tune", stderr)
	variant := fs.String("variant", "standard", "variant id")
	in := fs.String("games", "", "comma-separated files of games written by arena --record")
	out := fs.String("o", "", "write the weight file here (e.g. engine/search/weights/standard.json)")
	skip := fs.Int("skip", 4, "positions left out after each game's random opening")
	iterations := fs.Int("iterations", 600, "gradient steps")
	rate := fs.Float64("rate", 1, "step size in centipawns")
	decay := fs.Float64("cell-decay", 1e-7, "L2 penalty on the tables (mobility, hanging pieces, king zone, cells)")
	minSeen := fs.Int("min-seen", 100, "weights of terms met in fewer training positions keep their starting value")
	holdout := fs.Int("holdout", 10, "every Nth game is kept out of the fit to measure it (0: none)")
	fromDefault := fs.Bool("from-default", false, "start from the hand-set weights instead of the shipped ones")
	labels := fs.String("labels", "", "file of positions scored by a UCI engine: written with --label, else fitted instead of --games (comma-separated files)")
	label := fs.String("label", "", "UCI engine command (e.g. /usr/games/stockfish): score the quiet positions of --games with it into --labels, no fit")
	labelGo := fs.String("label-go", "depth 9", "the go command's arguments for each position with --label")
	labelJobs := fs.Int("label-jobs", 1, "copies of the --label engine run at once")
	labelEvery := fs.Int("label-every", 1, "with --label, score every Nth quiet position")
	fixK := fs.Float64("k", 0, "scale of the logistic curve (0: fitted to the starting weights); 1 keeps scored labels' centipawns")
	netHidden := fs.Int("net", 0, "learn a network evaluation with this many hidden units from --labels instead of the weights (-o FILE.net)")
	epochs := fs.Int("epochs", 12, "with --net, passes over the training positions")
	batch := fs.Int("batch", 1024, "with --net, positions a step")
	netRate := fs.Float64("net-rate", 0.001, "with --net, Adam's step size")
	netTurn := fs.Bool("turn", false, "with --net, also train on each position turned left to right (files a and h swapped)")
	buckets := fs.Int("buckets", 1, "with --net, output weights for this many shares of the pieces left on the board")
	onTerms := fs.Bool("on-terms", false, "with --net, learn what to add to the weighted terms' evaluation instead of replacing it")
	terms := fs.String("terms", "", "comma-separated groups of weights to fit, the others kept (default: all): "+strings.Join(search.TermNames, ", "))
	if err := fs.Parse(args); err != nil {
		return parseError(fs, stdout, stderr, err)
	}
	if fs.NArg() > 0 {
		return flagError(stderr, "tune", fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	v, err := engine.GetVariant(*variant)
	if err != nil {
		return flagError(stderr, "tune", fmt.Errorf("%v (known: %s)", err, strings.Join(engine.Variants(), ", ")))
	}
	if *iterations < 1 || *rate <= 0 || *decay < 0 || *holdout < 0 || *skip < 0 || *labelJobs < 1 || *labelEvery < 1 || *fixK < 0 || *minSeen < 0 {
		return flagError(stderr, "tune", errors.New("--iterations, --rate, --label-jobs and --label-every must be positive; --cell-decay, --holdout, --skip, --min-seen and -k not negative"))
	}
	if *label != "" {
		if *in == "" || *labels == "" {
			return flagError(stderr, "tune", errors.New("--label needs --games to read and --labels to write"))
		}
		f, err := os.Create(*labels)
		if err != nil {
			fmt.Fprintf(stderr, "tune: %v\n", err)
			return 1
		}
		n, err := labelPositions(strings.Split(*in, ","), v, *skip, *labelEvery, *label, *labelGo, *labelJobs, f, stdout)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			fmt.Fprintf(stderr, "tune: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "wrote %d labelled positions to %s\n", n, *labels)
		return 0
	}
	if *netHidden > 0 {
		if *labels == "" || *in != "" || *out == "" || *epochs < 1 || *batch < 1 || *netRate <= 0 || *netHidden > 4096 || *buckets < 1 || *buckets > search.MaxNetBuckets {
			return flagError(stderr, "tune", fmt.Errorf("--net needs --labels and -o (not --games), --net at most 4096, --buckets 1 to %d, and positive --epochs, --batch and --net-rate", search.MaxNetBuckets))
		}
		return tuneNet(v, strings.Split(*labels, ","), *holdout, *netTurn, search.NetOptions{Hidden: *netHidden, Buckets: *buckets, Epochs: *epochs, Batch: *batch, Rate: *netRate, Seed: 1, Threads: runtime.GOMAXPROCS(0), OnTerms: *onTerms}, *out, stdout, stderr)
	}
	if (*in == "") == (*labels == "") || *out == "" {
		return flagError(stderr, "tune", errors.New("-o and one of --games or --labels are required"))
	}
	d := search.NewDataset(v)
	var train, test []int
	games := 0
	keep := func(game int) {
		if *holdout > 0 && game%*holdout == *holdout-1 {
			test = append(test, d.Len()-1)
		} else {
			train = append(train, d.Len()-1)
		}
	}
	if *labels != "" {
		// Game numbers count from 0 in each file: those of later files
		// are moved past the earlier ones', so that holding out whole
		// games still holds out whole games.
		seen := map[int]bool{}
		base := 0
		for _, name := range strings.Split(*labels, ",") {
			if name == "" {
				continue
			}
			next := base
			if err := readLabels(name, v, func(p *engine.Position, target float64, game int) {
				game += base
				next = max(next, game+1)
				if !seen[game] {
					seen[game] = true
					games++
				}
				if d.Add(p, target) {
					keep(game)
				}
			}); err != nil {
				fmt.Fprintf(stderr, "tune: %v\n", err)
				return 1
			}
			base = next
		}
	}
	for _, name := range strings.Split(*in, ",") {
		if name == "" {
			continue
		}
		if err := readTuneGames(name, v, *skip, func(p *engine.Position, result float64) {
			if d.Add(p, result) {
				keep(games)
			}
		}, func() { games++ }); err != nil {
			fmt.Fprintf(stderr, "tune: %v\n", err)
			return 1
		}
	}
	if len(train) == 0 {
		fmt.Fprintln(stderr, "tune: no quiet positions to fit")
		return 1
	}
	fmt.Fprintf(stdout, "%s: %d games, %d positions (%d held out), %d not quiet\n", v.ID, games, d.Len(), len(test), d.Skipped)
	drawn := d.DrawnCounts()
	fmt.Fprintf(stdout, "drawn endings by class (none, 1 to %d): %v\n", len(drawn)-1, drawn)
	w0 := search.Weights(v)
	if *fromDefault {
		w0 = search.DefaultWeights(v)
	}
	var frozen []bool
	if *terms != "" {
		frozen = make([]bool, len(w0))
		for i := range frozen {
			frozen[i] = true
		}
		for _, t := range strings.Split(*terms, ",") {
			lo, hi, ok := search.TermRange(strings.TrimSpace(t), len(w0))
			if !ok {
				return flagError(stderr, "tune", fmt.Errorf("unknown group of weights %q (known: %s)", t, strings.Join(search.TermNames, ", ")))
			}
			for i := lo; i < hi; i++ {
				frozen[i] = false
			}
		}
	}
	k := *fixK
	if k == 0 {
		k = d.FitK(w0, train)
	}
	res := search.WeightFile{Variant: v.ID, Games: games, Positions: d.Len(), K: k,
		LossStart: d.Loss(w0, k, train)}
	if len(test) > 0 {
		res.HeldOutStart = d.Loss(w0, k, test)
	}
	fmt.Fprintf(stdout, "K %.3f, loss %.5f (held out %.5f)\n", k, res.LossStart, res.HeldOutStart)
	w := d.Fit(w0, k, train, search.TuneOptions{Iterations: *iterations, Rate: *rate, CellDecay: *decay, MinSeen: *minSeen, Frozen: frozen,
		Progress: func(it int, loss float64) { fmt.Fprintf(stdout, "  step %d: loss %.5f\n", it, loss) }})
	res.LossEnd = d.Loss(w, k, train)
	if len(test) > 0 {
		res.HeldOutEnd = d.Loss(w, k, test)
	}
	res.Weights = w
	fmt.Fprintf(stdout, "loss %.5f → %.5f, held out %.5f → %.5f\n", res.LossStart, res.LossEnd, res.HeldOutStart, res.HeldOutEnd)
	data, err := json.Marshal(res)
	if err == nil {
		err = os.WriteFile(*out, append(data, '\n'), 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "tune: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s\n", *out)
	return 0
}

// readTuneGames replays every recorded game of the variant and hands each
// position after the opening (and skip more plies) to add with the game's
// result for White.
func readTuneGames(name string, v *engine.Variant, skip int, add func(*engine.Position, float64), gameDone func()) error {
	return replayTuneGames(name, v, func(g tuneGame, ply int, pos *engine.Position) {
		if ply >= g.openings+skip {
			add(pos, g.result)
		}
	}, func(tuneGame) { gameDone() })
}

// tuneGame is a recorded game as the tuning reads it: its moves, the
// number of opening plies, and the result for White (1, 0.5 or 0).
type tuneGame struct {
	moves    []string
	openings int
	result   float64
}

// replayTuneGames replays every recorded game of the variant once, handing
// at the position before each move (ply counting from 0; pos is the
// replay's own, to be cloned if kept) and done the game after its last.
// A move that does not replay legally ends the reading with an error.
func replayTuneGames(name string, v *engine.Variant, at func(g tuneGame, ply int, pos *engine.Position), done func(g tuneGame)) error {
	return readJSONLines(name, 1<<24, func(r gameRecord) error {
		if r.Variant != v.ID {
			return nil
		}
		g := tuneGame{moves: r.Moves, openings: r.Openings}
		switch r.Result {
		case "1-0":
			g.result = 1
		case "0-1":
			g.result = 0
		case "1/2-1/2":
			g.result = 0.5
		default:
			return fmt.Errorf("result %q", r.Result)
		}
		pos := v.StartPosition()
		for i, s := range r.Moves {
			at(g, i, pos)
			m, err := pos.ParseCanonical(s)
			if err != nil {
				return fmt.Errorf("move %d (%s): %v", i+1, s, err)
			}
			pos.Make(m)
		}
		done(g)
		return nil
	})
}

// readJSONLines decodes every line of the file (at most max bytes long)
// as a T and hands it to f; an error, from decoding or from f, names the
// file and line.
func readJSONLines[T any](name string, max int, f func(T) error) error {
	file, err := os.Open(name)
	if err != nil {
		return err
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 1<<16), max)
	line := 0
	for sc.Scan() {
		line++
		var r T
		err := json.Unmarshal(sc.Bytes(), &r)
		if err == nil {
			err = f(r)
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %v", name, line, err)
		}
	}
	return sc.Err()
}

// tuneNet learns a network evaluation from scored positions and writes it
// to out (docs/ai.md, "A network evaluation").
func tuneNet(v *engine.Variant, files []string, holdout int, turn bool, o search.NetOptions, out string, stdout, stderr io.Writer) int {
	d, err := search.NewNetData(v)
	if err != nil {
		fmt.Fprintf(stderr, "tune: %v\n", err)
		return 1
	}
	var train, test []int
	base := 0
	for _, name := range files {
		if name == "" {
			continue
		}
		next := base
		err := readJSONLines(name, 1<<20, func(r labelRecord) error {
			if r.Variant != v.ID {
				return nil
			}
			p, err := v.ParsePosition(r.Position)
			if err != nil {
				return err
			}
			game := r.Game + base
			next = max(next, game+1)
			if holdout > 0 && game%holdout == holdout-1 {
				test = append(test, d.Len())
				return d.Add(p, float64(r.CP), false)
			}
			train = append(train, d.Len())
			if err := d.Add(p, float64(r.CP), false); err != nil || !turn {
				return err
			}
			train = append(train, d.Len())
			return d.Add(p, float64(r.CP), true)
		})
		if err != nil {
			fmt.Fprintf(stderr, "tune: %v\n", err)
			return 1
		}
		base = next
	}
	if len(train) == 0 {
		fmt.Fprintln(stderr, "tune: no positions to fit")
		return 1
	}
	fmt.Fprintf(stdout, "%s: %d positions (%d held out); the weighted terms' loss %.5f (held out %.5f)\n",
		v.ID, d.Len(), len(test), d.TermsLoss(train), d.TermsLoss(test))
	o.Progress = func(epoch int, tr, te float64) {
		fmt.Fprintf(stdout, "  epoch %d: loss %.5f, held out %.5f\n", epoch, tr, te)
	}
	n, err := d.TrainNet(v, train, test, o)
	if err == nil {
		var data []byte
		data, _ = n.MarshalBinary()
		err = os.WriteFile(out, data, 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "tune: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "net: loss %.5f, held out %.5f; wrote %s\n", d.Loss(n, train), d.Loss(n, test), out)
	return 0
}
