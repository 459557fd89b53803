package discord

import (
	dg "github.com/bwmarrin/discordgo"
)

func strOpt(name, desc string, required, auto bool) *dg.ApplicationCommandOption {
	return &dg.ApplicationCommandOption{Type: dg.ApplicationCommandOptionString, Name: name, Description: desc, Required: required, Autocomplete: auto}
}

func choiceOpt(name, desc string, values ...string) *dg.ApplicationCommandOption {
	o := &dg.ApplicationCommandOption{Type: dg.ApplicationCommandOptionString, Name: name, Description: desc}
	for _, v := range values {
		o.Choices = append(o.Choices, &dg.ApplicationCommandOptionChoice{Name: v, Value: v})
	}
	return o
}

func gameOpt() *dg.ApplicationCommandOption {
	return strOpt("game", "Which game, when you play several here (see /games)", false, true)
}

// slashCommands are the commands registered with Discord. Their names and
// option names are the bot's (bot.Command.Name and Args), so translating
// an interaction is a copy.
func slashCommands() []*dg.ApplicationCommand {
	return []*dg.ApplicationCommand{
		{Name: "challenge", Description: "Challenge someone (or anyone here) to a game", Options: []*dg.ApplicationCommandOption{
			{Type: dg.ApplicationCommandOptionUser, Name: "opponent", Description: "Who to play; leave empty to let anyone here accept"},
			strOpt("variant", "Board: standard, moebius, torus, cube, chess66, heisenberg, … (see /variants)", false, true),
			choiceOpt("color", "Your colour (random if not given)", "white", "black", "random"),
			choiceOpt("level", "Play the computer at this level instead: 1 easiest … 5 strongest", "1", "2", "3", "4", "5"),
			strOpt("position", "Start from this position string (or FEN on 8×8 boards); unrated", false, false),
		}},
		{Name: "accept", Description: "Accept a challenge", Options: []*dg.ApplicationCommandOption{
			strOpt("challenge", "Which challenge, when several are open", false, false),
		}},
		{Name: "decline", Description: "Decline a challenge made to you", Options: []*dg.ApplicationCommandOption{
			strOpt("challenge", "Which challenge, when several are open", false, false),
		}},
		{Name: "cancel", Description: "Withdraw your open challenge", Options: []*dg.ApplicationCommandOption{
			strOpt("challenge", "Which challenge, when you have several", false, false),
		}},
		{Name: "move", Description: "Play a move: e2e4, Nf3, O-O, e7e8=Q …", Options: []*dg.ApplicationCommandOption{
			strOpt("move", "Your move; start typing to see the legal ones", true, true),
			gameOpt(),
		}},
		{Name: "board", Description: "Show the board of your game", Options: []*dg.ApplicationCommandOption{gameOpt()}},
		{Name: "moves", Description: "Show where a piece can go", Options: []*dg.ApplicationCommandOption{
			strOpt("cell", "The cell of the piece, for example g1", true, true),
			gameOpt(),
		}},
		{Name: "resign", Description: "Resign a game", Options: []*dg.ApplicationCommandOption{gameOpt()}},
		{Name: "draw", Description: "Offer a draw, or answer an offer", Options: []*dg.ApplicationCommandOption{
			choiceOpt("answer", "offer (the default), accept or decline", "offer", "accept", "decline"),
			gameOpt(),
		}},
		{Name: "games", Description: "List your games and open challenges", Options: []*dg.ApplicationCommandOption{
			choiceOpt("which", "Yours (the default), or every game being played here", "mine", "all"),
		}},
		{Name: "variants", Description: "List the boards you can play on"},
		{Name: "rules", Description: "Explain the rules of a variant", Options: []*dg.ApplicationCommandOption{
			strOpt("variant", "Which variant", false, true),
		}},
		{Name: "help", Description: "What this bot can do"},
		{Name: "settings", Description: "Show or change your settings", Options: []*dg.ApplicationCommandOption{
			choiceOpt("orientation", "Which side is drawn at the bottom", "auto", "white", "black"),
		}},
		{Name: "takeback", Description: "Ask your opponent to take back the last move", Options: []*dg.ApplicationCommandOption{gameOpt()}},
		{Name: "pgn", Description: "The game as PGN", Options: []*dg.ApplicationCommandOption{gameOpt()}},
		{Name: "replay", Description: "The whole game as an animation", Options: []*dg.ApplicationCommandOption{gameOpt()}},
		{Name: "history", Description: "Finished games in this channel", Options: []*dg.ApplicationCommandOption{
			{Type: dg.ApplicationCommandOptionUser, Name: "player", Description: "Only this player's games"},
		}},
		{Name: "leaderboard", Description: "The best rated players of a variant", Options: []*dg.ApplicationCommandOption{
			strOpt("variant", "Which board", false, true),
		}},
		{Name: "stats", Description: "Ratings and results of a player", Options: []*dg.ApplicationCommandOption{
			{Type: dg.ApplicationCommandOptionUser, Name: "player", Description: "Whose (you when empty)"},
		}},
		{Name: "rematch", Description: "The same game again, colours swapped", Options: []*dg.ApplicationCommandOption{
			strOpt("game", "Which finished game (your last one here when empty)", false, false),
		}},
		{Name: "review", Description: "The engine's review of a finished game: graph, mistakes, accuracy", Options: []*dg.ApplicationCommandOption{
			strOpt("game", "Which finished game (your last one here when empty)", false, false),
		}},
		{Name: "watch", Description: "Post a game's moves in this channel as they are played", Options: []*dg.ApplicationCommandOption{
			strOpt("game", "The game to follow, from another channel of this server (e.g. #12)", true, false),
			choiceOpt("follow", "on (the default) or off", "on", "off"),
		}},
		{Name: "puzzle", Description: "A puzzle on a board of your choice, or your answer to one", Options: []*dg.ApplicationCommandOption{
			strOpt("variant", "Which board (standard when empty)", false, true),
			strOpt("move", "Your answer to the open puzzle (or giveup)", false, false),
		}},
	}
}
