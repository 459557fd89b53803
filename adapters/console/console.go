// Package console is the text adapter: one "name: /command" per input
// line, replies printed as text and pictures written to a folder. It is
// how the bot is tried locally and how whole games are tested as
// transcripts.
package console

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"topochess/bot"
)

// Options configure a console session.
type Options struct {
	// Channel is the default channel id (default "console:main"). A line
	// "alice@room2: /board" speaks in channel "console:room2".
	Channel string
	// ImageDir receives the pictures; "" prints their names only.
	ImageDir string
	// Now stamps the commands (default: none, the service's clock).
	Now func() time.Time
}

// Console feeds typed lines to a bot.Handler.
type Console struct {
	h   bot.Handler
	opt Options
	// shown are the recent replies' buttons, newest last, so "[Accept]"
	// presses the latest button of that label; a superseded reply's
	// buttons are removed by its key.
	shown  []shown
	images int
	events int
	last   *bot.Command
	// session makes event ids unique across runs on the same database
	// (the service remembers applied event ids).
	session string
	// posted are the replies the service sent on its own (the bot
	// opponent's moves), printed once it has settled.
	postedMu sync.Mutex
	posted   []bot.Reply
}

// notifier and waiter are the parts of bot.Service the console uses to
// show the bot opponent's moves, which arrive asynchronously.
type notifier interface {
	Notify(platform string, send func(bot.Reply))
}

type waiter interface {
	WaitBot()
}

type shown struct {
	key     string
	buttons []bot.Button
}

// New starts a session.
func New(h bot.Handler, opt Options) *Console {
	if opt.Channel == "" {
		opt.Channel = "console:main"
	}
	c := &Console{h: h, opt: opt, session: strconv.FormatInt(time.Now().UnixNano(), 36)}
	if n, ok := h.(notifier); ok {
		n.Notify("console", func(r bot.Reply) {
			c.postedMu.Lock()
			c.posted = append(c.posted, r)
			c.postedMu.Unlock()
		})
	}
	return c
}

// MaxLine is the longest input line handled; a longer one is skipped
// with a message and the session goes on.
const MaxLine = 1 << 20

// Run reads lines until EOF.
func (c *Console) Run(in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, 64*1024)
	// Moves of resumed games against the bot come first.
	if err := c.settle(bot.Command{Channel: c.opt.Channel}, out); err != nil {
		return err
	}
	for {
		line, tooLong, err := readLine(r)
		if tooLong {
			if _, werr := fmt.Fprintf(out, "! that line is longer than %d bytes; skipped\n", MaxLine); werr != nil {
				return werr
			}
		} else if lerr := c.Line(line, out); lerr != nil {
			return lerr
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine reads up to the next newline. A line over MaxLine is read to
// its end but not kept (tooLong), so memory stays bounded whatever
// arrives.
func readLine(r *bufio.Reader) (line string, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > MaxLine+2 { // room for "\r\n"
				tooLong, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return strings.TrimRight(string(buf), "\r\n"), tooLong, err
	}
}

func user(name string) bot.User {
	return bot.User{ID: "console:" + name, Name: name, Mention: "@" + name}
}

// Line handles one input line: a comment ("# …", echoed), "!again" (the
// previous command redelivered with the same event id), or
// "name[@channel]: text" where text is "/command args", "[Button label]"
// or a bare move; "name@dm" speaks in name's private chat with the bot.
func (c *Console) Line(line string, out io.Writer) error {
	line = strings.TrimSpace(line)
	switch {
	case line == "":
		return nil
	case strings.HasPrefix(line, "#"):
		_, err := fmt.Fprintln(out, line)
		return err
	case line == "!again":
		if c.last == nil {
			_, err := fmt.Fprintln(out, "! nothing to send again")
			return err
		}
		fmt.Fprintln(out, "> (the previous command, delivered again)")
		return c.send(*c.last, out)
	}
	who, text, ok := strings.Cut(line, ":")
	// "alice@room2" speaks in room2; a line must name its speaker.
	who, room, _ := strings.Cut(strings.TrimSpace(who), "@")
	if !ok || who == "" || strings.ContainsAny(who, " \t/") || strings.ContainsAny(room, " \t/") {
		_, err := fmt.Fprintln(out, `! write "name: /command", for example "alice: /challenge @bob"`)
		return err
	}
	channel, server := c.opt.Channel, "console"
	switch room {
	case "":
	case "dm":
		// The speaker's private chat with the bot: like a direct message
		// on Discord, it belongs to no server.
		channel, server = "console:dm:"+who, ""
	default:
		channel = "console:" + room
	}
	text = strings.TrimSpace(text)
	fmt.Fprintf(out, "> %s\n", line)
	c.events++
	cmd := bot.Command{
		EventID:  fmt.Sprintf("console-%s-%d", c.session, c.events),
		Platform: "console",
		Channel:  channel,
		Server:   server,
		User:     user(who),
	}
	if c.opt.Now != nil {
		cmd.Time = c.opt.Now()
	}
	if strings.HasPrefix(text, "[") && strings.HasSuffix(text, "]") {
		label := strings.TrimSpace(text[1 : len(text)-1])
		b, found := c.button(label)
		if !found {
			_, err := fmt.Fprintf(out, "! no button [%s] on screen\n", label)
			return err
		}
		if b.For != "" && b.For != cmd.User.ID {
			_, err := fmt.Fprintf(out, "! that button is for %s\n", strings.TrimPrefix(b.For, "console:"))
			return err
		}
		cmd.Name, cmd.Args = b.Command, b.Args
	} else if name, rest, slash := bot.ParseLine(text); slash {
		cmd.Name, cmd.Text = name, rest
	} else {
		cmd.Name, cmd.Text = "move", rest
	}
	for _, w := range strings.Fields(cmd.Text) {
		if strings.HasPrefix(w, "@") && len(w) > 1 {
			cmd.Mentions = append(cmd.Mentions, user(w[1:]))
		}
	}
	c.last = &cmd
	return c.send(cmd, out)
}

func (c *Console) button(label string) (bot.Button, bool) {
	for i := len(c.shown) - 1; i >= 0; i-- {
		bs := c.shown[i].buttons
		for j := len(bs) - 1; j >= 0; j-- {
			if strings.EqualFold(bs[j].Label, label) {
				return bs[j], true
			}
		}
	}
	return bot.Button{}, false
}

func (c *Console) send(cmd bot.Command, out io.Writer) error {
	// The console has no clock of its own running: reminders and losses
	// on time that fell due are shown before the next command.
	if t, ok := c.h.(interface{ Tick(time.Time) []bot.Reply }); ok {
		for _, r := range t.Tick(cmd.Time) {
			if err := c.print(r, cmd, out); err != nil {
				return err
			}
		}
	}
	for _, r := range c.h.Handle(cmd) {
		if err := c.print(r, cmd, out); err != nil {
			return err
		}
	}
	return c.settle(cmd, out)
}

// settle waits until the bot opponent has answered and prints its
// moves, so a transcript reads in order and the next line sees the
// answered game.
func (c *Console) settle(cmd bot.Command, out io.Writer) error {
	if w, ok := c.h.(waiter); ok {
		w.WaitBot()
	}
	c.postedMu.Lock()
	posted := c.posted
	c.posted = nil
	c.postedMu.Unlock()
	for _, r := range posted {
		// Nobody typed it: it is no one's private reply.
		if err := c.print(r, bot.Command{Channel: cmd.Channel}, out); err != nil {
			return err
		}
	}
	return nil
}

func (c *Console) print(r bot.Reply, cmd bot.Command, out io.Writer) error {
	var head []string
	if r.Channel != cmd.Channel {
		head = append(head, "in "+r.Channel)
	}
	if r.Private {
		head = append(head, "only "+cmd.User.Name)
	}
	if r.Error {
		head = append(head, "refused")
	}
	prefix := "<"
	if len(head) > 0 {
		prefix += " (" + strings.Join(head, ", ") + ")"
	}
	// An edit shows as the edited message's key and its new text.
	for _, e := range r.Edits {
		fmt.Fprintf(out, "  edited %s: %s\n", e.Key, strings.ReplaceAll(e.Text, "\n", "\n  "))
	}
	if r.EditOnly() {
		return nil
	}
	fmt.Fprintf(out, "%s %s\n", prefix, strings.ReplaceAll(r.Text, "\n", "\n  "))
	if len(r.Mentions) > 0 {
		fmt.Fprintf(out, "  notify: %s\n", strings.Join(r.Mentions, ", "))
	}
	if len(r.Supersedes) > 0 {
		fmt.Fprintf(out, "  buttons of %s are gone\n", strings.Join(r.Supersedes, ", "))
		c.dropButtons(r.Supersedes)
	}
	if len(r.Buttons) > 0 {
		var bs []string
		for _, b := range r.Buttons {
			s := "[" + b.Label + "]"
			if b.For != "" {
				s += " (for " + strings.TrimPrefix(b.For, "console:") + ")"
			}
			bs = append(bs, s)
		}
		fmt.Fprintf(out, "  buttons: %s\n", strings.Join(bs, " "))
		c.shown = append(c.shown, shown{r.Key, r.Buttons})
		if len(c.shown) > 100 {
			c.shown = c.shown[1:]
		}
	}
	if r.Image != nil {
		c.images++
		name := fmt.Sprintf("%04d-%s", c.images, r.Image.Name)
		where := name
		if c.opt.ImageDir != "" {
			where = filepath.Join(c.opt.ImageDir, name)
			if err := os.MkdirAll(c.opt.ImageDir, 0o755); err != nil {
				return fmt.Errorf("console: %w", err)
			}
			if err := os.WriteFile(where, r.Image.PNG, 0o644); err != nil {
				return fmt.Errorf("console: %w", err)
			}
		}
		fmt.Fprintf(out, "  picture: %s (%s)\n", where, r.Image.Alt)
	}
	return nil
}

// dropButtons forgets the buttons of superseded replies.
func (c *Console) dropButtons(keys []string) {
	kept := c.shown[:0]
	for _, sh := range c.shown {
		stale := false
		for _, k := range keys {
			stale = stale || sh.key != "" && sh.key == k
		}
		if !stale {
			kept = append(kept, sh)
		}
	}
	c.shown = kept
}
