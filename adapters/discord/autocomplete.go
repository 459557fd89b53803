package discord

import (
	"context"
	"fmt"

	dg "github.com/bwmarrin/discordgo"

	"topochess/bot"
)

type choice struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type choices struct {
	Choices []choice `json:"choices"`
}

// autocomplete answers what the user is typing with at most 25
// suggestions from the bot (legal moves, games, variants).
func (a *Adapter) autocomplete(ctx context.Context, i *dg.Interaction, r responder) {
	out := choices{Choices: []choice{}}
	cmd, focused := slashCommand(i)
	if sg, ok := a.h.(bot.Suggester); ok && focused != nil {
		typed := optionString(focused)
		delete(cmd.Args, focused.Name)
		cmd.EventID = "" // a suggestion changes nothing and is not an event
		out.Choices = a.suggest(ctx, sg, cmd, focused.Name, typed)
	}
	resp := &interactionResponse{Type: dg.InteractionApplicationCommandAutocompleteResult, Data: out}
	if err := r.respond(ctx, resp, nil); err != nil {
		a.log.Debug("discord: autocomplete answer not sent", "err", err)
	}
}

// suggest asks the bot, giving up (no suggestions) rather than missing
// Discord's window.
func (a *Adapter) suggest(ctx context.Context, sg bot.Suggester, cmd bot.Command, option, typed string) []choice {
	done := make(chan []bot.Choice, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				a.log.Error("suggest panic", "option", option, "panic", fmt.Sprint(p))
				done <- nil
			}
		}()
		done <- sg.Suggest(cmd, option, typed)
	}()
	var got []bot.Choice
	wait, cancel := context.WithTimeout(ctx, a.cfg.DeferAfter)
	defer cancel()
	select {
	case got = <-done:
	case <-wait.Done():
		a.log.Warn("discord: suggestions too slow; none sent", "option", option)
	}
	out := []choice{}
	for _, c := range got {
		if len(out) == maxChoices {
			break
		}
		if c.Value == "" || len(c.Value) > maxChoiceName {
			continue
		}
		name := c.Name
		if name == "" {
			name = c.Value
		}
		out = append(out, choice{Name: truncate(name, maxChoiceName), Value: c.Value})
	}
	return out
}
