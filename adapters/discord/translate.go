package discord

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	dg "github.com/bwmarrin/discordgo"

	"topochess/bot"
)

const (
	platform = "discord"
	prefix   = platform + ":"

	// Discord's limits.
	maxContent     = 2000
	maxCustomID    = 100
	maxButtonLabel = 80
	maxOptionLabel = 100
	maxChoices     = 25
	maxChoiceName  = 100
	maxDescription = 1024
	perRow         = 5
	maxRows        = 5
	perSelect      = 25

	flagEphemeral = dg.MessageFlagsEphemeral // 64
)

// user returns who caused an interaction: Member in guilds, User in DMs.
func user(i *dg.Interaction) bot.User {
	var u *dg.User
	nick := ""
	if i.Member != nil && i.Member.User != nil {
		u, nick = i.Member.User, i.Member.Nick
	} else if i.User != nil {
		u = i.User
	}
	if u == nil {
		return bot.User{}
	}
	return botUser(u, nick)
}

func botUser(u *dg.User, nick string) bot.User {
	name := nick
	if name == "" {
		name = u.GlobalName
	}
	if name == "" {
		name = u.Username
	}
	if name == "" {
		name = u.ID
	}
	return bot.User{ID: prefix + u.ID, Name: name, Mention: "<@" + u.ID + ">"}
}

// baseCommand fills in what every command of an interaction shares.
func baseCommand(i *dg.Interaction) bot.Command {
	return bot.Command{
		EventID:  i.ID,
		Platform: platform,
		Channel:  prefix + i.ChannelID,
		Server:   guildServer(i.GuildID),
		User:     user(i),
		Args:     map[string]string{},
	}
}

// slashCommand translates an application command (or an autocomplete
// request, which carries the same options) into a bot.Command.
func slashCommand(i *dg.Interaction) (bot.Command, *dg.ApplicationCommandInteractionDataOption) {
	cmd := baseCommand(i)
	data := i.ApplicationCommandData()
	cmd.Name = data.Name
	var focused *dg.ApplicationCommandInteractionDataOption
	for _, o := range data.Options {
		if o.Focused {
			focused = o
		}
		switch o.Type {
		case dg.ApplicationCommandOptionUser:
			id := optionString(o)
			var mentioned bot.User
			if data.Resolved != nil && data.Resolved.Users[id] != nil {
				nick := ""
				if m := data.Resolved.Members[id]; m != nil {
					nick = m.Nick
				}
				mentioned = botUser(data.Resolved.Users[id], nick)
			} else {
				mentioned = bot.User{ID: prefix + id, Name: id, Mention: "<@" + id + ">"}
			}
			cmd.Mentions = append(cmd.Mentions, mentioned)
		default:
			cmd.Args[o.Name] = optionString(o)
		}
	}
	return cmd, focused
}

func optionString(o *dg.ApplicationCommandInteractionDataOption) string {
	switch v := o.Value.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	case nil:
		return ""
	default:
		return fmt.Sprint(v)
	}
}

// truncate cuts s to at most n characters (runes), marking the cut.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// splitContent cuts a text into messages of at most maxContent
// characters, at line breaks where it can.
func splitContent(s string) []string {
	var parts []string
	for utf8.RuneCountInString(s) > maxContent {
		r := []rune(s)
		cut := string(r[:maxContent])
		if i := strings.LastIndexByte(cut, '\n'); i > maxContent/2 {
			cut = cut[:i]
		}
		parts = append(parts, cut)
		s = strings.TrimLeft(s[len(cut):], "\n")
	}
	return append(parts, s)
}

// buttonStyle maps the bot's style names to Discord's.
func buttonStyle(s string) dg.ButtonStyle {
	switch s {
	case "secondary":
		return dg.SecondaryButton
	case "success":
		return dg.SuccessButton
	case "danger":
		return dg.DangerButton
	default:
		return dg.PrimaryButton
	}
}

// guildServer names a guild as a bot.Command's Server ("" in DMs).
func guildServer(guild string) string {
	if guild == "" {
		return ""
	}
	return prefix + "guild:" + guild
}
