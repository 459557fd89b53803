package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"topochess/engine"
)

// uciClient runs an outside UCI engine for arena --uci: a process spoken
// to through its standard input and output.
type uciClient struct {
	cmd      *exec.Cmd
	in       io.WriteCloser
	lines    chan string
	name     string
	options  map[string]bool // option names offered, lower case
	variants map[string]bool // the UCI_Variant values offered
}

// startUCIClient starts the engine and completes the uci handshake.
func startUCIClient(cmdline string) (*uciClient, error) {
	f := strings.Fields(cmdline)
	if len(f) == 0 {
		return nil, errors.New("--uci needs a command")
	}
	cmd := exec.Command(f[0], f[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %q: %w", cmdline, err)
	}
	c := &uciClient{cmd: cmd, in: in, lines: make(chan string, 256), name: f[0], options: map[string]bool{}, variants: map[string]bool{}}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	if err := c.send("uci"); err != nil {
		c.close()
		return nil, err
	}
	for {
		l, err := c.next(10 * time.Second)
		if err != nil {
			c.close()
			return nil, fmt.Errorf("%q did not complete the uci handshake: %w", cmdline, err)
		}
		if l == "uciok" {
			break
		}
		if name, ok := strings.CutPrefix(l, "id name "); ok {
			c.name = strings.TrimSpace(name)
		}
		if rest, ok := strings.CutPrefix(l, "option name "); ok {
			name, _, _ := strings.Cut(rest, " type ")
			c.options[strings.ToLower(strings.TrimSpace(name))] = true
			if strings.EqualFold(strings.TrimSpace(name), "UCI_Variant") {
				w := strings.Fields(rest)
				for i := 0; i+1 < len(w); i++ {
					if w[i] == "var" {
						c.variants[w[i+1]] = true
					}
				}
			}
		}
	}
	return c, nil
}

func (c *uciClient) send(format string, a ...any) error {
	_, err := fmt.Fprintf(c.in, format+"\n", a...)
	return err
}

// next returns the next output line, failing when the engine ends or stays
// silent for timeout.
func (c *uciClient) next(timeout time.Duration) (string, error) {
	select {
	case l, ok := <-c.lines:
		if !ok {
			return "", errors.New("the engine exited")
		}
		return strings.TrimSpace(l), nil
	case <-time.After(timeout):
		return "", fmt.Errorf("no answer within %v", timeout)
	}
}

// newGame prepares the engine for a game of variant v with the options
// given on the command line.
func (c *uciClient) newGame(v *engine.Variant, options [][2]string) error {
	if c.options["uci_variant"] {
		if !c.variants[v.ID] {
			return fmt.Errorf("%s does not play %s", c.name, v.ID)
		}
		if err := c.send("setoption name UCI_Variant value %s", v.ID); err != nil {
			return err
		}
	} else if v.ID != "standard" {
		return fmt.Errorf("%s has no UCI_Variant option: it plays standard chess only (use --uci \"topochess uci\" for %s)", c.name, v.ID)
	}
	for _, o := range options {
		if err := c.send("setoption name %s value %s", o[0], o[1]); err != nil {
			return err
		}
	}
	if err := c.send("ucinewgame"); err != nil {
		return err
	}
	return c.ready()
}

func (c *uciClient) ready() error {
	if err := c.send("isready"); err != nil {
		return err
	}
	for {
		l, err := c.next(30 * time.Second)
		if err != nil {
			return err
		}
		if l == "readyok" {
			return nil
		}
	}
}

// bestMove asks for a move after the game's moves and reads the engine's
// answer with the last depth and node count it reported.
func (c *uciClient) bestMove(start *engine.Position, moves []string, goArgs string, timeout time.Duration) (move string, depth int, nodes int64, score *int, err error) {
	var b strings.Builder
	b.WriteString("position startpos")
	if len(moves) > 0 {
		b.WriteString(" moves")
		pos := start.Clone()
		for _, s := range moves {
			m, err := pos.ParseCanonical(s)
			if err != nil {
				return "", 0, 0, nil, err
			}
			b.WriteString(" " + uciMoveText(pos, m))
			pos.Make(m)
		}
	}
	if err := c.send("%s", b.String()); err != nil {
		return "", 0, 0, nil, err
	}
	if err := c.send("go %s", goArgs); err != nil {
		return "", 0, 0, nil, err
	}
	deadline := time.Now().Add(timeout)
	for {
		l, err := c.next(time.Until(deadline))
		if err != nil {
			return "", depth, nodes, score, err
		}
		f := strings.Fields(l)
		if len(f) >= 2 && f[0] == "bestmove" {
			return f[1], depth, nodes, score, nil
		}
		if len(f) > 0 && f[0] == "info" {
			for i := 1; i+1 < len(f); i++ {
				switch f[i] {
				case "depth":
					if d, err := strconv.Atoi(f[i+1]); err == nil {
						depth = d
					}
				case "nodes":
					if n, err := strconv.ParseInt(f[i+1], 10, 64); err == nil {
						nodes = n
					}
				case "score":
					if i+2 < len(f) {
						if x, err := strconv.Atoi(f[i+2]); err == nil {
							switch f[i+1] {
							case "cp":
								score = &x
							case "mate":
								m := mateCP
								if x < 0 {
									m = -mateCP
								}
								score = &m
							}
						}
					}
				}
			}
		}
	}
}

// close asks the engine to quit and kills it if it does not.
func (c *uciClient) close() {
	c.send("quit")
	c.in.Close()
	go func() { // nobody reads any more: keep the reader from blocking
		for range c.lines {
		}
	}()
	done := make(chan struct{})
	go func() { c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		c.cmd.Process.Kill()
		<-done
	}
}
