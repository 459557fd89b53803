package discord

import (
	"maps"
	"net/url"
	"strconv"
	"strings"
	"sync"

	dg "github.com/bwmarrin/discordgo"

	"topochess/bot"
)

// A button's custom_id carries everything a press needs, so a press
// works after a restart and no table grows with every message:
//
//	b:<user or empty>:<command>:<args as a query string>[:<n>]
//
// The user is the Discord id the button is reserved for. The rare button
// whose code would pass Discord's 100 characters is kept in a bounded
// table under a short code k:<n> instead, or stored with the games under
// K:<n> when the bot can store it. Select menus (used when a reply
// has more buttons than fit) carry the same codes as option values.

// overflow keeps buttons whose code is too long for a custom_id. It
// forgets the oldest first; a press on a forgotten one asks the user to
// type the command.
type overflow struct {
	mu    sync.Mutex
	next  int
	max   int
	codes map[string]bot.Button
	order []string
	// mem stores them with the games instead, under K:<n> codes that are
	// never reused, so they work after a restart (nil: memory only).
	mem MessageMemory
}

func newOverflow(max int) *overflow {
	return &overflow{max: max, codes: map[string]bot.Button{}}
}

func (o *overflow) put(b bot.Button) string {
	if o.mem != nil {
		if id, ok := o.mem.KeepButton(platform, b); ok {
			return "K:" + id
		}
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.next++
	code := "k:" + strconv.Itoa(o.next)
	o.codes[code] = b
	o.order = append(o.order, code)
	if len(o.order) > o.max {
		delete(o.codes, o.order[0])
		o.order = o.order[1:]
	}
	return code
}

func (o *overflow) get(code string) (bot.Button, bool) {
	if id, ok := strings.CutPrefix(code, "K:"); ok {
		if o.mem == nil {
			return bot.Button{}, false
		}
		id, _, _ = strings.Cut(id, ":") // a copy's ":n" suffix
		return o.mem.KeptButton(platform, id)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	b, ok := o.codes[code]
	return b, ok
}

func forField(id string) string {
	if id == "" {
		return ""
	}
	if rest, ok := strings.CutPrefix(id, prefix); ok && !strings.Contains(rest, ":") {
		return rest
	}
	return "!" + url.QueryEscape(id)
}

func (a *Adapter) encode(b bot.Button) string {
	q := url.Values{}
	for k, v := range b.Args {
		q.Set(k, v)
	}
	code := "b:" + forField(b.For) + ":" + b.Command + ":" + q.Encode()
	if len(code) > maxCustomID-4 || strings.Contains(b.Command, ":") { // room for a :n suffix
		code = a.overflow.put(b)
	}
	return code
}

// decode reverses encode; ok is false for codes it does not know.
func (a *Adapter) decode(code string) (bot.Button, bool) {
	if strings.HasPrefix(code, "k:") || strings.HasPrefix(code, "K:") {
		return a.overflow.get(code)
	}
	f := strings.SplitN(code, ":", 5)
	if len(f) < 4 || f[0] != "b" || f[2] == "" {
		return bot.Button{}, false
	}
	b := bot.Button{Command: f[2], Args: map[string]string{}}
	switch {
	case f[1] == "":
	case strings.HasPrefix(f[1], "!"):
		id, err := url.QueryUnescape(f[1][1:])
		if err != nil {
			return bot.Button{}, false
		}
		b.For = id
	default:
		b.For = prefix + f[1]
	}
	q, err := url.ParseQuery(f[3])
	if err != nil {
		return bot.Button{}, false
	}
	for k, v := range q {
		b.Args[k] = v[0]
	}
	return b, true
}

// components lays out a reply's buttons: rows of five buttons while they
// fit in five rows, select menus of 25 choices otherwise. The result is
// never nil, so it also clears the buttons of the message it replaces.
func (a *Adapter) components(buttons []bot.Button) []dg.MessageComponent {
	out := []dg.MessageComponent{}
	if len(buttons) == 0 {
		return out
	}
	codes := make([]string, len(buttons))
	seen := map[string]bool{}
	for i, b := range buttons {
		c := a.encode(b)
		if seen[c] { // custom ids must differ within a message
			c += ":" + strconv.Itoa(i)
		}
		seen[c] = true
		codes[i] = c
	}
	if len(buttons) <= perRow*maxRows {
		var row dg.ActionsRow
		for i, b := range buttons {
			row.Components = append(row.Components, dg.Button{
				Label: truncate(b.Label, maxButtonLabel), Style: buttonStyle(b.Style), CustomID: codes[i],
			})
			if len(row.Components) == perRow {
				out = append(out, row)
				row = dg.ActionsRow{}
			}
		}
		if len(row.Components) > 0 {
			out = append(out, row)
		}
		return out
	}
	for start := 0; start < len(buttons) && len(out) < maxRows; start += perSelect {
		end := min(start+perSelect, len(buttons))
		menu := dg.SelectMenu{
			MenuType:    dg.StringSelectMenu,
			CustomID:    "s:" + strconv.Itoa(len(out)),
			Placeholder: "Choose… (" + strconv.Itoa(start+1) + "–" + strconv.Itoa(end) + ")",
		}
		for i := start; i < end; i++ {
			menu.Options = append(menu.Options, dg.SelectMenuOption{Label: truncate(buttons[i].Label, maxOptionLabel), Value: codes[i]})
		}
		out = append(out, dg.ActionsRow{Components: []dg.MessageComponent{menu}})
	}
	if len(buttons) > perSelect*maxRows {
		a.log.Warn("more choices than a message can hold; the rest are left out", "choices", len(buttons), "shown", perSelect*maxRows)
	}
	return out
}

// pressed translates a button press or menu choice. notice is set (and
// the command empty) when the press must be refused: a button reserved
// for someone else, or one this process no longer knows.
func (a *Adapter) pressed(i *dg.Interaction) (cmd bot.Command, notice string) {
	cmd = baseCommand(i)
	data := i.MessageComponentData()
	code := data.CustomID
	if strings.HasPrefix(code, "s:") {
		if len(data.Values) == 0 {
			return cmd, "Pick one of the choices."
		}
		code = data.Values[0]
	}
	b, ok := a.decode(code)
	if !ok {
		return cmd, "That button has expired. Please use the slash command instead."
	}
	if b.For != "" && b.For != cmd.User.ID {
		return cmd, "That button is not yours: it is for " + mentionOf(b.For) + "."
	}
	cmd.Name = b.Command
	cmd.Args = maps.Clone(b.Args)
	return cmd, ""
}

func mentionOf(id string) string {
	if rest, ok := strings.CutPrefix(id, prefix); ok {
		return "<@" + rest + ">"
	}
	return "someone else"
}
