package bot

import (
	"fmt"
	"strings"
)

// The command table is the one description of what users can type or
// pick: Discord registers its slash commands from it, Telegram its "/"
// menu, the web chat its suggestions, and /help is written from it. An
// option added here is offered on every platform at once.

// OptionType is how a platform with typed options shows an option.
type OptionType string

const (
	// OptionString is free text, possibly restricted to Choices.
	OptionString OptionType = "string"
	// OptionUser names a person: a user picker on Discord, "@name" (or
	// a reply) where commands are typed. It reaches the bot as
	// Command.Mentions, not as an argument.
	OptionUser OptionType = "user"
	// OptionBool is true or false.
	OptionBool OptionType = "boolean"
)

// Option is one named option of a command (a bot.Command argument).
type Option struct {
	Name string
	Type OptionType
	// Description fits Discord's 100 characters.
	Description string
	Required    bool
	// Choices, when set, are all the values there are.
	Choices []string
	// Suggest: the bot offers values while the user types (Suggest()).
	Suggest bool
	// Example is a value that makes sense in a fresh game; help texts and
	// the cross-platform tests use it.
	Example string
}

// CommandSpec describes one command.
type CommandSpec struct {
	Name string
	// Description fits Discord's 100 characters.
	Description string
	// Usage is how the command is typed, for /help.
	Usage   string
	Options []Option
	// Buttons: its answers can carry buttons (accept/decline, choices).
	Buttons bool
}

func gameOption() Option {
	return Option{Name: "game", Type: OptionString, Description: "Which game, when you play several here (see /games)", Suggest: true, Example: "#1"}
}

// finishedGameOption names the finished game a command is about.
func finishedGameOption() Option {
	return Option{Name: "game", Type: OptionString, Description: "Which finished game (your last one here when empty)", Example: "#1"}
}

// Commands is the command table, in the order menus show it.
var Commands = []CommandSpec{
	{Name: "challenge", Description: "Challenge someone (or anyone here) to a game, or play the computer",
		Usage:   "/challenge @player [variant] [white|black|random] [time:1d|time:5+3] [rated:false] [position:\"…\"] — no @player: anyone here may accept; /challenge bot [variant] [level:1-5] plays the computer (unrated); position:\"w Ke1,Qd1,ke8 - -\" starts from a position (RULES §1; a FEN for standard and heisenberg), unrated",
		Buttons: true,
		Options: []Option{
			{Name: "opponent", Type: OptionUser, Description: "Who to play; leave empty to let anyone here accept", Example: "bob"},
			{Name: "variant", Type: OptionString, Description: "Board: standard, moebius, toroidal, cube, chess66, heisenberg, … (see /variants)", Suggest: true, Example: "moebius"},
			{Name: "color", Type: OptionString, Description: "Your colour (random if not given)", Choices: []string{"white", "black", "random"}, Example: "white"},
			{Name: "level", Type: OptionString, Description: "Play the computer at this level instead: 1 easiest … 5 strongest", Choices: []string{"1", "2", "3", "4", "5"}, Example: "2"},
			{Name: "time", Type: OptionString, Description: "Clock: 1d or 12h per move, or 5+3 (minutes each + seconds per move); none by default", Example: "5+3"},
			{Name: "rated", Type: OptionBool, Description: "Count the game for the ratings (true by default)", Example: "false"},
			{Name: "position", Type: OptionString, Description: "Start from this position string (or a FEN on 8×8 boards); such games are unrated", Example: "w Ke1,Qd1,ke8 - -"},
		}},
	{Name: "accept", Description: "Accept a challenge (or a draw offer)", Usage: "/accept [challenge]", Buttons: true,
		Options: []Option{{Name: "challenge", Type: OptionString, Description: "Which challenge, when several are open", Example: "c1"}}},
	{Name: "decline", Description: "Decline a challenge made to you (or a draw offer)", Usage: "/decline [challenge]",
		Options: []Option{{Name: "challenge", Type: OptionString, Description: "Which challenge, when several are open", Example: "c1"}}},
	{Name: "cancel", Description: "Withdraw your open challenge", Usage: "/cancel [challenge]",
		Options: []Option{{Name: "challenge", Type: OptionString, Description: "Which challenge, when you have several", Example: "c1"}}},
	{Name: "move", Description: "Play a move: e2e4, Nf3, O-O, e7e8=Q …", Usage: "/move <move> — play a move: e2e4, e2-e4, Nf3, exd5, O-O, e7e8=Q",
		Buttons: true,
		Options: []Option{
			{Name: "move", Type: OptionString, Description: "Your move; start typing to see the legal ones", Required: true, Suggest: true, Example: "e2e4"},
			gameOption(),
		}},
	{Name: "board", Description: "Show the board of your game", Usage: "/board [game]", Options: []Option{gameOption()}},
	{Name: "moves", Description: "Show where a piece can go", Usage: "/moves <cell> — where the piece on that cell can go (yours or your opponent's)",
		Options: []Option{
			{Name: "cell", Type: OptionString, Description: "The cell of the piece, for example g1", Required: true, Suggest: true, Example: "g1"},
			gameOption(),
		}},
	{Name: "resign", Description: "Resign a game", Usage: "/resign [game]", Buttons: true, Options: []Option{gameOption()}},
	{Name: "draw", Description: "Offer a draw, or answer an offer", Usage: "/draw [accept|decline] — offer a draw, or answer the one offered to you",
		Buttons: true,
		Options: []Option{
			{Name: "answer", Type: OptionString, Description: "offer (the default), accept or decline", Choices: []string{"offer", "accept", "decline"}, Example: "offer"},
			gameOption(),
		}},
	{Name: "takeback", Description: "Ask to take back your last move, or answer such a request", Usage: "/takeback [accept|decline]",
		Buttons: true,
		Options: []Option{
			{Name: "answer", Type: OptionString, Description: "ask (the default), accept or decline", Choices: []string{"ask", "accept", "decline"}, Example: "ask"},
			gameOption(),
		}},
	{Name: "games", Description: "List your games and the open challenges here, or every game played here", Usage: "/games [all] — your games and challenges here; /games all — every game being played here, each board on request",
		Buttons: true,
		Options: []Option{{Name: "which", Type: OptionString, Description: "Yours (the default), or every game being played here", Choices: []string{"mine", "all"}, Example: "all"}}},
	{Name: "rematch", Description: "The same game again, colours swapped", Usage: "/rematch [game] — the same game again, colours swapped",
		Buttons: true, Options: []Option{finishedGameOption()}},
	{Name: "review", Description: "The engine's review of a finished game: graph, mistakes, accuracy", Usage: "/review [game] — the engine's review of a finished game: graph, mistakes, accuracy",
		Buttons: true, Options: []Option{finishedGameOption()}},
	{Name: "watch", Description: "Post a game's moves in this channel as they are played", Usage: "/watch <game> [off] — post a game's moves in this channel as they are played (a game of another channel of this server)",
		Options: []Option{
			{Name: "game", Type: OptionString, Description: "The game to follow, from another channel of this server (e.g. #12)", Required: true, Example: "#1"},
			{Name: "follow", Type: OptionString, Description: "on (the default) or off", Choices: []string{"on", "off"}, Example: "off"},
		}},
	{Name: "puzzle", Description: "A puzzle on a board of your choice, or your answer to one", Usage: "/puzzle [variant] — a forced mate to find; answer with /puzzle <move> (or /puzzle giveup)",
		Buttons: true,
		Options: []Option{
			{Name: "variant", Type: OptionString, Description: "Which board (standard when empty)", Suggest: true, Example: "standard"},
			{Name: "move", Type: OptionString, Description: "Your answer to the open puzzle (or giveup)", Example: "giveup"},
		}},
	{Name: "pgn", Description: "The game as PGN", Usage: "/pgn [game]", Options: []Option{gameOption()}},
	{Name: "replay", Description: "The whole game as an animation", Usage: "/replay [game]", Options: []Option{gameOption()}},
	{Name: "history", Description: "Finished games in this channel", Usage: "/history [@player]",
		Options: []Option{{Name: "player", Type: OptionUser, Description: "Only this player's games", Example: "bob"}}},
	{Name: "leaderboard", Description: "The best rated players of a variant", Usage: "/leaderboard [variant]",
		Options: []Option{{Name: "variant", Type: OptionString, Description: "Which board", Suggest: true, Example: "standard"}}},
	{Name: "stats", Description: "Ratings and results of a player", Usage: "/stats [@player]",
		Options: []Option{{Name: "player", Type: OptionUser, Description: "Whose (you when empty)", Example: "bob"}}},
	{Name: "variants", Description: "List the boards you can play on", Usage: "/variants"},
	{Name: "rules", Description: "Explain the rules of a variant", Usage: "/rules <variant>", Buttons: true,
		Options: []Option{{Name: "variant", Type: OptionString, Description: "Which variant", Suggest: true, Example: "moebius"}}},
	{Name: "settings", Description: "Show or change your settings", Usage: "/settings orientation:auto|white|black — which side is drawn at the bottom of the boards shown to you alone (auto: your side); boards posted for everyone keep White at the bottom all game (against the computer: your side)",
		Options: []Option{{Name: "orientation", Type: OptionString, Description: "Which side is drawn at the bottom", Choices: []string{"auto", "white", "black"}, Example: "black"}}},
	{Name: "help", Description: "What this bot can do", Usage: "/help"},
}

// CommandByName finds a command of the table.
func CommandByName(name string) (CommandSpec, bool) {
	for _, c := range Commands {
		if c.Name == name {
			return c, true
		}
	}
	return CommandSpec{}, false
}

// Typed writes a command with options as it is typed on platforms
// without option pickers: user options as @name, the others as
// name:value, quoted when the value has spaces ("/challenge @bob
// variant:moebius rated:false position:\"w Ke1,ke8 - -\"").
func (c CommandSpec) Typed(values map[string]string) string {
	var b strings.Builder
	b.WriteString("/" + c.Name)
	for _, o := range c.Options {
		v, ok := values[o.Name]
		if !ok {
			continue
		}
		switch {
		case o.Type == OptionUser:
			fmt.Fprintf(&b, " @%s", v)
		case strings.ContainsAny(v, " \t"):
			fmt.Fprintf(&b, " %s:%q", o.Name, v)
		default:
			fmt.Fprintf(&b, " %s:%s", o.Name, v)
		}
	}
	return b.String()
}

// HelpText lists the commands; adapters may show it as their description.
var HelpText = helpText()

func helpText() string {
	var b strings.Builder
	b.WriteString("I run chess games on twisted boards. Commands:")
	for _, c := range Commands {
		b.WriteString("\n" + c.Usage)
		if !strings.Contains(c.Usage, " — ") {
			b.WriteString(" — " + lowerFirst(c.Description))
		}
	}
	b.WriteString("\nWith several games at once, add game:ID (for example game:#12, or game:12) to a command.")
	return b.String()
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
