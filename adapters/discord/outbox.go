package discord

import (
	"context"
	"errors"

	dg "github.com/bwmarrin/discordgo"

	"topochess/bot"
)

// outbox is the bot's durable store of replies not yet delivered
// (bot/outbox.go); *bot.Service has it. Replies that matter to a game
// come with an outbox id; the adapter reports what became of them.
type outbox interface {
	Undelivered(platform string) []bot.Reply
	Delivered(r bot.Reply, refused error)
}

// resend posts the replies left undelivered by the last run. They go as
// channel messages: the interactions they answered are long gone.
func (a *Adapter) resend() {
	box, ok := a.h.(outbox)
	if !ok {
		return
	}
	left := box.Undelivered(platform)
	if len(left) > 0 {
		a.log.Info("discord: sending replies left from the last run", "count", len(left))
	}
	for _, r := range left {
		a.Send(r)
	}
}

// report tells the outbox what became of the message that completes a
// reply: delivered, or refused for good. A transient failure leaves the
// reply in the outbox for the next start.
func (a *Adapter) report(m *message, err error) {
	box, ok := a.h.(outbox)
	if !ok || m.box == "" || (err != nil && unfinished(err)) {
		return
	}
	box.Delivered(bot.Reply{Outbox: m.box}, err)
}

// unfinished is a failure that says nothing final about the message: a
// deadline, a rate limit given up on, a transient error.
func unfinished(err error) bool {
	var rl *dg.RateLimitError
	return transient(err) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.As(err, &rl)
}
