package discord

import (
	dg "github.com/bwmarrin/discordgo"

	"topochess/bot"
)

// slashCommands are the commands registered with Discord, made from the
// bot's command table. Their names and option names are the bot's
// (bot.Command.Name and Args), so translating an interaction is a copy.
func slashCommands() []*dg.ApplicationCommand {
	out := make([]*dg.ApplicationCommand, 0, len(bot.Commands))
	for _, c := range bot.Commands {
		ac := &dg.ApplicationCommand{Name: c.Name, Description: c.Description}
		for _, o := range c.Options {
			ac.Options = append(ac.Options, slashOption(o))
		}
		out = append(out, ac)
	}
	return out
}

func slashOption(o bot.Option) *dg.ApplicationCommandOption {
	opt := &dg.ApplicationCommandOption{Type: dg.ApplicationCommandOptionString, Name: o.Name, Description: o.Description, Required: o.Required}
	switch o.Type {
	case bot.OptionUser:
		opt.Type = dg.ApplicationCommandOptionUser
	case bot.OptionBool:
		opt.Type = dg.ApplicationCommandOptionBoolean
	default:
		// Discord allows either fixed choices or suggestions, not both.
		opt.Autocomplete = o.Suggest && len(o.Choices) == 0
		for _, v := range o.Choices {
			opt.Choices = append(opt.Choices, &dg.ApplicationCommandOptionChoice{Name: v, Value: v})
		}
	}
	return opt
}
