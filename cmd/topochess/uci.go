package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"topochess/engine"
	"topochess/engine/search"
)

// uciMaxLine bounds one command line: a game of a thousand moves fits many
// times over, and a runaway writer cannot exhaust memory.
const uciMaxLine = 1 << 20

const (
	uciDefaultHash = 16
	uciMaxHash     = 1024
	uciMaxThreads  = 256
)

// uciSession is one conversation with a GUI or match runner (docs/uci.md).
// Commands are read on the caller's goroutine; a search runs on its own,
// so that isready and stop are answered while it thinks.
type uciSession struct {
	mu  sync.Mutex // serialises whole output lines
	out io.Writer

	variant  *engine.Variant
	level    int
	hashMB   int
	threads  int
	searcher *search.Searcher
	pos      *engine.Position
	history  []uint64 // hashes of the positions before pos, oldest first

	// The last search started: cancel stops it, done is closed when its
	// goroutine has ended; running (under mu) until its bestmove is out.
	cancel  context.CancelFunc
	done    chan struct{}
	running bool
}

func cmdUCI(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("uci", stderr)
	if err := fs.Parse(args); err != nil {
		return parseError(fs, stdout, stderr, err)
	}
	if fs.NArg() > 0 {
		return flagError(stderr, "uci", fmt.Errorf("unexpected argument %q (the protocol is spoken on standard input; see docs/uci.md)", fs.Arg(0)))
	}
	s := &uciSession{out: stdout, level: search.MaxLevel, hashMB: uciDefaultHash, threads: 1}
	s.setVariant(engine.MustVariant("standard"))
	r := bufio.NewReaderSize(stdin, 64<<10)
	for {
		line, tooLong, err := readUCILine(r)
		if tooLong {
			s.say("info string line of more than %d bytes ignored", uciMaxLine)
		} else if !s.handle(line) {
			break
		}
		if err != nil { // end of input is a quit
			break
		}
	}
	s.stopSearch()
	return 0
}

// readUCILine reads one line without its end; an overlong line is
// consumed and reported instead of returned.
func readUCILine(r *bufio.Reader) (line string, tooLong bool, err error) {
	var b []byte
	for {
		chunk, isPrefix, err := r.ReadLine()
		if !tooLong {
			b = append(b, chunk...)
			if len(b) > uciMaxLine {
				tooLong, b = true, nil
			}
		}
		if err != nil || !isPrefix {
			return string(b), tooLong, err
		}
	}
}

func (s *uciSession) say(format string, a ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.out, format+"\n", a...)
}

var uciCommands = map[string]bool{
	"uci": true, "debug": true, "isready": true, "setoption": true, "register": true, "ucinewgame": true,
	"position": true, "go": true, "stop": true, "ponderhit": true, "quit": true,
}

// handle runs one command line; it reports false on quit.
func (s *uciSession) handle(line string) bool {
	f := strings.Fields(line)
	// The protocol skips unknown words before a command ("joho debug on").
	for len(f) > 0 && !uciCommands[f[0]] {
		f = f[1:]
	}
	if len(f) == 0 {
		if strings.TrimSpace(line) != "" {
			s.say("info string unknown command %q ignored (known: uci, isready, setoption, ucinewgame, position, go, stop, quit)", clip(line, 40))
		}
		return true
	}
	switch cmd, args := f[0], f[1:]; cmd {
	case "uci":
		s.say("id name topochess")
		s.say("id author the topochess authors")
		s.say("option name UCI_Variant type combo default %s var %s", s.variant.ID, strings.Join(engine.Variants(), " var "))
		s.say("option name Level type spin default %d min %d max %d", search.MaxLevel, search.MinLevel, search.MaxLevel)
		s.say("option name Hash type spin default %d min 1 max %d", uciDefaultHash, uciMaxHash)
		s.say("option name Threads type spin default 1 min 1 max %d", uciMaxThreads)
		s.say("uciok")
	case "isready":
		s.say("readyok")
	case "debug", "register", "ponderhit":
		// Nothing to do: there is no debug output, no registration and no
		// pondering (the Ponder option is not offered).
	case "setoption":
		s.stopSearch()
		s.setOption(args)
	case "ucinewgame":
		s.stopSearch()
		s.searcher = nil // a fresh table: nothing carries over between games
		s.setVariant(s.variant)
	case "position":
		s.position(args)
	case "go":
		if s.searching() {
			s.say("info string go ignored: already searching (send stop first)")
			return true
		}
		s.startSearch(parseGo(s, args))
	case "stop":
		s.stopSearch()
	case "quit":
		return false
	}
	return true
}

func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func (s *uciSession) setVariant(v *engine.Variant) {
	s.variant = v
	s.pos = v.StartPosition()
	s.history = nil
}

// setOption reads "name <words> [value <words>]"; names are matched
// without regard to case, as GUIs differ.
func (s *uciSession) setOption(args []string) {
	var name, value []string
	cur := &name
	for i, a := range args {
		switch {
		case i == 0 && a == "name":
		case a == "value" && cur == &name:
			cur = &value
		default:
			*cur = append(*cur, a)
		}
	}
	n, val := strings.Join(name, " "), strings.Join(value, " ")
	spin := func(lo, hi int) (int, bool) {
		x, err := strconv.Atoi(val)
		if err != nil || x < lo || x > hi {
			s.say("info string option %s needs a whole number from %d to %d, not %q: unchanged", n, lo, hi, clip(val, 20))
			return 0, false
		}
		return x, true
	}
	switch strings.ToLower(n) {
	case "uci_variant":
		v, err := engine.GetVariant(strings.ToLower(val))
		if err != nil {
			s.say("info string unknown variant %q (known: %s): unchanged", clip(val, 30), strings.Join(engine.Variants(), ", "))
			return
		}
		s.setVariant(v)
	case "level":
		if x, ok := spin(search.MinLevel, search.MaxLevel); ok {
			s.level = x
		}
	case "hash":
		if x, ok := spin(1, uciMaxHash); ok && x != s.hashMB {
			s.hashMB, s.searcher = x, nil
		}
	case "threads":
		if x, ok := spin(1, uciMaxThreads); ok {
			s.threads = x
		}
	case "":
		s.say("info string setoption needs: setoption name <name> value <value>")
	default:
		s.say("info string unknown option %q ignored (options: UCI_Variant, Level, Hash, Threads)", clip(n, 30))
	}
}

// position reads "startpos|fen <position string or FEN> [moves m1 m2 …]".
// On any error the previous position stays.
func (s *uciSession) position(args []string) {
	movesAt := len(args)
	for i, a := range args {
		if a == "moves" {
			movesAt = i
			break
		}
	}
	var pos *engine.Position
	switch {
	case len(args) > 0 && args[0] == "startpos" && movesAt == 1:
		pos = s.variant.StartPosition()
	case len(args) > 0 && args[0] == "fen":
		var err error
		if pos, err = s.variant.ParsePosition(strings.Join(args[1:movesAt], " ")); err != nil {
			s.say("info string position: %v (variant %s): position unchanged", err, s.variant.ID)
			return
		}
	default:
		s.say("info string position needs startpos or fen <position>, then optionally moves …: position unchanged")
		return
	}
	var history []uint64
	if movesAt < len(args) {
		for i, text := range args[movesAt+1:] {
			m, err := parseUCIMove(pos, text)
			if err != nil {
				s.say("info string position: move %d %s: position unchanged", i+1, err)
				return
			}
			history = append(history, pos.Hash)
			pos.Make(m)
		}
	}
	s.pos, s.history = pos, history
}

// goLimits are the parameters of one go command.
type goLimits struct {
	depth, movesToGo   int
	nodes              int64
	moveTime           time.Duration
	clock              [2]time.Duration // by colour: wtime, btime
	inc                [2]time.Duration
	hasClock, infinite bool
}

func (l goLimits) any() bool {
	return l.depth > 0 || l.nodes > 0 || l.moveTime > 0 || l.hasClock || l.infinite
}

// parseGo reads the go parameters; a bad one is reported and skipped, and
// the search goes ahead with the rest, since a GUI waits for a bestmove.
func parseGo(s *uciSession, args []string) goLimits {
	var l goLimits
	for i := 0; i < len(args); i++ {
		key := args[i]
		num := func() (int64, bool) {
			if i+1 >= len(args) {
				s.say("info string go %s needs a number", key)
				return 0, false
			}
			i++
			x, err := strconv.ParseInt(args[i], 10, 64)
			if err != nil {
				s.say("info string go %s: %q is not a whole number, ignored", key, clip(args[i], 20))
				return 0, false
			}
			return x, true
		}
		ms := func() (time.Duration, bool) {
			x, ok := num()
			x = min(max(x, 0), int64(1e9)) // negative clocks happen on flag fall
			return time.Duration(x) * time.Millisecond, ok
		}
		var ok bool
		switch key {
		case "depth":
			var x int64
			if x, ok = num(); ok && x > 0 {
				l.depth = int(min(x, 1000))
			}
		case "nodes":
			var x int64
			if x, ok = num(); ok && x > 0 {
				l.nodes = x
			}
		case "mate":
			// A mate in n moves is found within 2n-1 plies.
			var x int64
			if x, ok = num(); ok && x > 0 {
				l.depth = int(min(2*x-1, 1000))
			}
		case "movetime":
			var d time.Duration
			if d, ok = ms(); ok {
				l.moveTime = max(d, time.Millisecond)
			}
		case "wtime", "btime", "winc", "binc":
			var d time.Duration
			if d, ok = ms(); ok {
				c := 0
				if key[0] == 'b' {
					c = 1
				}
				if strings.HasSuffix(key, "time") {
					l.clock[c], l.hasClock = d, true
				} else {
					l.inc[c] = d
				}
			}
		case "movestogo":
			var x int64
			if x, ok = num(); ok && x > 0 {
				l.movesToGo = int(min(x, 1000))
			}
		case "infinite":
			l.infinite = true
		case "ponder":
			s.say("info string go ponder is not supported: searching normally")
		case "searchmoves":
			s.say("info string go searchmoves is not supported: searching every move")
			for i+1 < len(args) && !goKeywords[args[i+1]] {
				i++
			}
		default:
			s.say("info string go: unknown parameter %q ignored", clip(key, 20))
		}
	}
	return l
}

var goKeywords = map[string]bool{"depth": true, "nodes": true, "mate": true, "movetime": true, "wtime": true, "btime": true,
	"winc": true, "binc": true, "movestogo": true, "infinite": true, "ponder": true, "searchmoves": true}

// clockBudget decides how long to think with this much time left: an
// equal share of the time for the moves to the next control (30 when
// unknown), plus most of the increment, never more than the clock allows.
// The search stops deepening after half of it, so it usually spends less.
func clockBudget(left, inc time.Duration, movesToGo int) time.Duration {
	mtg := 30
	if movesToGo > 0 {
		mtg = min(movesToGo, 30)
	}
	budget := left/time.Duration(mtg) + inc*3/4
	// Leave a margin for the process and the pipe.
	safety := min(50*time.Millisecond, left/5)
	return max(min(budget, left-safety), time.Millisecond)
}
