package discord

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	dg "github.com/bwmarrin/discordgo"

	"topochess/bot"
)

// responder sends the first answer to an interaction: a REST callback for
// gateway interactions, the HTTP response for the interactions endpoint
// (which cannot carry files).
type responder struct {
	uploads bool
	respond func(ctx context.Context, r *interactionResponse, file *bot.Image) error
}

func (a *Adapter) restResponder(i *dg.Interaction) responder {
	return responder{uploads: true, respond: func(ctx context.Context, r *interactionResponse, file *bot.Image) error {
		_, err := a.call(ctx, "interaction callback", http.MethodPost, dg.EndpointInteractionResponse(i.ID, i.Token), r, file)
		return err
	}}
}

// callbackMargin is kept free of the 3 s window: a callback started later
// than that would arrive too late to count.
const callbackMargin = 200 * time.Millisecond

// onInteraction answers an interaction within Discord's window and
// returns what is left to do after that (follow-ups, edits), or nil.
func (a *Adapter) onInteraction(i *dg.Interaction, r responder) func() {
	received := time.Now()
	ctx, cancel := context.WithDeadline(context.Background(), received.Add(interactionWindow-callbackMargin))
	defer cancel()
	switch i.Type {
	case dg.InteractionApplicationCommandAutocomplete:
		a.autocomplete(ctx, i, r)
		return nil
	case dg.InteractionApplicationCommand:
		cmd, _ := slashCommand(i)
		return a.answer(ctx, i, cmd, false, r, received)
	case dg.InteractionMessageComponent:
		cmd, notice := a.pressed(i)
		if notice != "" {
			a.notice(ctx, r, notice)
			return nil
		}
		return a.answer(ctx, i, cmd, true, r, received)
	default:
		a.notice(ctx, r, "I can't handle that kind of interaction.")
		return nil
	}
}

// notice answers with a short private text.
func (a *Adapter) notice(ctx context.Context, r responder, text string) {
	m := &message{Content: &text, Flags: flagEphemeral, AllowedMentions: &allowedMentions{Parse: []string{}}}
	if err := r.respond(ctx, &interactionResponse{Type: dg.InteractionResponseChannelMessageWithSource, Data: m}, nil); err != nil {
		a.log.Warn("discord: could not answer an interaction", "err", err)
	}
}

// handle runs the bot; a panic becomes an apology, not a dead adapter.
func (a *Adapter) handle(cmd bot.Command) (out []bot.Reply) {
	defer func() {
		if p := recover(); p != nil {
			a.log.Error("handler panic", "command", cmd.Name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			out = []bot.Reply{{Text: "Sorry, something went wrong on my side. Please try again.", Private: true, Error: true}}
		}
	}()
	return a.h.Handle(cmd)
}

// batch is one command's replies on their way to Discord.
type batch struct {
	i         *dg.Interaction
	received  time.Time
	cmd       bot.Command
	component bool
	// here are the messages answering the interaction, in order; away
	// are public replies for other channels.
	here []*message
	away []awayMessage
	// stale are the sent messages whose buttons the replies supersede,
	// taken from the index before the new keys are recorded.
	stale []sentRef
	// edits are the sent messages whose text the replies change.
	edits []textEdit
}

type textEdit struct {
	ref  sentRef
	text string
}

type awayMessage struct {
	channel string
	m       *message
}

func (a *Adapter) newBatch(i *dg.Interaction, cmd bot.Command, component bool, received time.Time, replies []bot.Reply) *batch {
	b := &batch{i: i, cmd: cmd, component: component, received: received}
	for _, r := range replies {
		b.edits = append(b.edits, a.textEdits(r)...)
		for _, key := range r.Supersedes {
			if ref, ok := a.sent.take(key); ok {
				b.stale = append(b.stale, ref)
			}
		}
		if r.EditOnly() {
			continue
		}
		ms := a.messages(r)
		if r.Channel != "" && r.Channel != cmd.Channel && !r.Private {
			ch, ok := strings.CutPrefix(r.Channel, prefix)
			if !ok {
				a.log.Warn("reply for another platform dropped", "channel", r.Channel)
				continue
			}
			for _, m := range ms {
				b.away = append(b.away, awayMessage{ch, m})
			}
			continue
		}
		b.here = append(b.here, ms...)
	}
	return b
}

// answer runs the command and answers at once when the bot is quick, or
// acknowledges first (deferred) and follows up when it is not.
func (a *Adapter) answer(ctx context.Context, i *dg.Interaction, cmd bot.Command, component bool, r responder, received time.Time) func() {
	done := make(chan []bot.Reply, 1)
	go func() { done <- a.handle(cmd) }()
	timer := time.NewTimer(max(0, a.cfg.DeferAfter-time.Since(received)))
	defer timer.Stop()
	select {
	case replies := <-done:
		return a.answerNow(ctx, a.newBatch(i, cmd, component, received, replies), r)
	case <-timer.C:
	}
	ack := dg.InteractionResponseDeferredChannelMessageWithSource
	if component {
		ack = dg.InteractionResponseDeferredMessageUpdate
	}
	if err := r.respond(ctx, &interactionResponse{Type: ack}, nil); err != nil {
		a.log.Warn("discord: could not acknowledge a slow command in time", "command", cmd.Name, "interaction", i.ID)
	}
	return func() {
		a.finishDeferred(a.newBatch(i, cmd, component, received, <-done))
	}
}

// answerNow sends the first message as the interaction's answer.
func (a *Adapter) answerNow(ctx context.Context, b *batch, r responder) func() {
	if len(b.here) == 0 {
		if b.component {
			_ = r.respond(ctx, &interactionResponse{Type: dg.InteractionResponseDeferredMessageUpdate}, nil)
		} else {
			a.notice(ctx, r, "Done.")
		}
		return func() { a.finish(b, nil) }
	}
	first := b.here[0]
	if first.file != nil && !r.uploads {
		// The HTTP answer cannot carry the picture: acknowledge with the
		// message's visibility, then send the messages as follow-ups with
		// their files. The first one takes the place of the "thinking"
		// placeholder, and unlike an edit it notifies the users it
		// mentions.
		err := r.respond(ctx, &interactionResponse{Type: dg.InteractionResponseDeferredChannelMessageWithSource, Data: &message{Flags: first.Flags}}, nil)
		if err != nil {
			a.log.Warn("discord: could not acknowledge an interaction", "interaction", b.i.ID)
			return nil
		}
		return func() { a.finish(b, b.here) }
	}
	// The key is known before the message exists, so that a button
	// pressed at once can already supersede it (through the token).
	if first.key != "" {
		a.sent.put(first.key, a.originalRef(b, first))
	}
	err := r.respond(ctx, &interactionResponse{Type: dg.InteractionResponseChannelMessageWithSource, Data: first}, first.file)
	a.report(first, err)
	if err != nil {
		if first.key != "" {
			a.sent.take(first.key)
		}
		if status, code := restCode(err); status >= 400 && status != http.StatusTooManyRequests {
			a.notice(ctx, r, apology(code))
		}
		return nil
	}
	return func() {
		if first.key != "" {
			a.learnOriginalID(b, first.key)
		}
		a.finish(b, b.here[1:])
	}
}

// finishDeferred puts the replies of a deferred interaction in place.
func (a *Adapter) finishDeferred(b *batch) {
	rest := b.here
	if !b.component && len(rest) > 0 {
		first := rest[0]
		rest = rest[1:]
		if first.private {
			// A deferred answer is public; a private first reply replaces
			// it as an ephemeral follow-up.
			a.deleteOriginal(b)
			rest = append([]*message{first}, rest...)
		} else {
			a.editOriginal(b, first)
		}
	} else if !b.component {
		a.deleteOriginal(b)
	}
	a.finish(b, rest)
}

// finish sends the remaining messages as follow-ups, the replies for other
// channels, and clears the buttons of superseded messages.
func (a *Adapter) finish(b *batch, rest []*message) {
	ctx, cancel := context.WithDeadline(context.Background(), b.received.Add(tokenLifetime))
	defer cancel()
	for _, m := range rest {
		a.followUp(ctx, b, m)
	}
	for _, am := range b.away {
		a.channelMessage(am.channel, am.m)
	}
	for _, e := range b.edits {
		a.editText(ctx, e)
	}
	for _, ref := range b.stale {
		a.clearButtons(ctx, ref)
	}
}

// textEdits finds the sent messages a reply edits (before its
// Supersedes forget them).
func (a *Adapter) textEdits(r bot.Reply) []textEdit {
	var out []textEdit
	for _, e := range r.Edits {
		if ref, ok := a.sent.peek(e.Key); ok {
			out = append(out, textEdit{ref, e.Text})
		}
	}
	return out
}

// editText replaces a sent message's text; its picture and buttons stay.
func (a *Adapter) editText(ctx context.Context, e textEdit) {
	text := e.text
	if parts := splitContent(text); len(parts) > 0 {
		text = parts[0]
	}
	edit := struct {
		Content string `json:"content"`
	}{text}
	var url string
	switch ref := e.ref; {
	case ref.token != "" && time.Since(ref.at) < tokenLifetime-time.Minute:
		url = dg.EndpointWebhookMessage(ref.appID, ref.token, ref.webhookMsg)
	case !ref.private && ref.channelID != "" && ref.messageID != "":
		url = dg.EndpointChannelMessage(ref.channelID, ref.messageID)
	default:
		return
	}
	_, _ = a.call(ctx, "edit message", http.MethodPatch, url, &edit, nil)
}

func (a *Adapter) appID(i *dg.Interaction) string {
	if i.AppID != "" {
		return i.AppID
	}
	return a.cfg.AppID
}

func (a *Adapter) followUp(ctx context.Context, b *batch, m *message) {
	if time.Since(b.received) > tokenLifetime-time.Minute && !m.private {
		// Too late for the interaction's token: a channel message instead.
		a.channelMessage(b.i.ChannelID, m)
		return
	}
	url := dg.EndpointFollowupMessage(a.appID(b.i), b.i.Token) + "?wait=true"
	out, err := a.call(ctx, "follow-up", http.MethodPost, url, m, m.file)
	if err != nil && !m.private && (transient(err) || tokenGone(err)) {
		// The interaction cannot carry it (its token expired, or Discord
		// kept failing): what matters to the channel goes as a message.
		a.channelMessage(b.i.ChannelID, m)
		return
	}
	a.report(m, err)
	if err != nil {
		if status, code := restCode(err); status >= 400 && status != http.StatusTooManyRequests {
			text := apology(code)
			_, _ = a.call(ctx, "follow-up apology", http.MethodPost, url, &message{Content: &text, Flags: flagEphemeral}, nil)
		}
		return
	}
	if m.key != "" {
		sm := decodeSent(out)
		a.sent.put(m.key, sentRef{channelID: sm.ChannelID, messageID: sm.ID, webhookMsg: sm.ID, appID: a.appID(b.i), token: b.i.Token, private: m.private, at: time.Now()})
	}
}

// channelMessage posts a message in a channel, with a nonce so that a
// retry whose first attempt arrived makes no second message.
func (a *Adapter) channelMessage(channel string, m *message) {
	if channel == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cm := *m
	cm.Flags = 0
	cm.Nonce, cm.EnforceNonce = newNonce(), true
	out, err := a.call(ctx, "channel message", http.MethodPost, dg.EndpointChannelMessages(channel), &cm, m.file)
	a.report(m, err)
	if err == nil && m.key != "" {
		a.sent.put(m.key, sentRef{channelID: channel, messageID: decodeSent(out).ID, at: time.Now()})
	}
}

// tokenGone is Discord's answer to a follow-up through an expired
// interaction token (50027 invalid webhook token, 10015 unknown webhook).
func tokenGone(err error) bool {
	_, code := restCode(err)
	return code == 50027 || code == 10015
}

// newNonce is a channel message's nonce (Discord allows 25 characters).
func newNonce() string {
	var b [10]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (a *Adapter) editOriginal(b *batch, m *message) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	edit := *m
	edit.Flags = 0 // flags cannot change on an edit
	out, err := a.call(ctx, "edit original", http.MethodPatch, dg.EndpointInteractionResponseActions(a.appID(b.i), b.i.Token), &edit, m.file)
	a.report(m, err)
	if err != nil {
		if status, code := restCode(err); status >= 400 && status != http.StatusTooManyRequests {
			text := apology(code)
			_, _ = a.call(ctx, "edit original apology", http.MethodPatch, dg.EndpointInteractionResponseActions(a.appID(b.i), b.i.Token), &message{Content: &text}, nil)
		}
		return
	}
	if m.key != "" {
		sm := decodeSent(out)
		a.sent.put(m.key, sentRef{channelID: sm.ChannelID, messageID: sm.ID, webhookMsg: "@original", appID: a.appID(b.i), token: b.i.Token, private: m.private, at: time.Now()})
	}
}

func (a *Adapter) deleteOriginal(b *batch) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, _ = a.call(ctx, "delete original", http.MethodDelete, dg.EndpointInteractionResponseActions(a.appID(b.i), b.i.Token), nil, nil)
}

func (a *Adapter) originalRef(b *batch, m *message) sentRef {
	return sentRef{webhookMsg: "@original", appID: a.appID(b.i), token: b.i.Token, private: m.private, channelID: b.i.ChannelID, at: time.Now()}
}

// learnOriginalID asks for the id of an answer sent as the callback (the
// callback returns nothing): after its token expires, only the channel
// and the id can clear its buttons.
func (a *Adapter) learnOriginalID(b *batch, key string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := a.call(ctx, "get original", http.MethodGet, dg.EndpointInteractionResponseActions(a.appID(b.i), b.i.Token), nil, nil)
	if err != nil {
		return
	}
	sm := decodeSent(out)
	a.sent.update(key, b.i.Token, func(ref *sentRef) {
		ref.messageID = sm.ID
		if sm.ChannelID != "" {
			ref.channelID = sm.ChannelID
		}
	})
}

// clearButtons removes the buttons of a superseded message: through its
// interaction token while that lives (the only way for ephemeral ones),
// through the channel afterwards.
func (a *Adapter) clearButtons(ctx context.Context, ref sentRef) {
	edit := struct {
		Components []dg.MessageComponent `json:"components"`
	}{Components: []dg.MessageComponent{}}
	var url string
	switch {
	case ref.token != "" && time.Since(ref.at) < tokenLifetime-time.Minute:
		url = dg.EndpointWebhookMessage(ref.appID, ref.token, ref.webhookMsg)
	case !ref.private && ref.channelID != "" && ref.messageID != "":
		url = dg.EndpointChannelMessage(ref.channelID, ref.messageID)
	default:
		return
	}
	_, _ = a.call(ctx, "clear buttons", http.MethodPatch, url, &edit, nil)
}

// apology is what a waiting user reads when Discord refused our answer.
func apology(code int) string {
	switch code {
	case 40005:
		return "Sorry, the picture was too large for Discord. Try /board again."
	case 50013:
		return "Sorry, I lack a permission in this channel (Send Messages, Attach Files, Embed Links)."
	}
	if code != 0 {
		return fmt.Sprintf("Sorry, Discord refused my answer (error %d). Please try again.", code)
	}
	return "Sorry, Discord refused my answer. Please try again."
}

// Send posts a reply the bot produced on its own (clock reminders, loss on
// time) as a message in the channel its Channel names.
func (a *Adapter) Send(r bot.Reply) {
	ch, ok := strings.CutPrefix(r.Channel, prefix)
	if !ok || ch == "" {
		a.log.Warn("reply for another platform dropped", "channel", r.Channel)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	edits := a.textEdits(r)
	var stale []sentRef
	for _, key := range r.Supersedes {
		if ref, ok := a.sent.take(key); ok {
			stale = append(stale, ref)
		}
	}
	for _, e := range edits {
		a.editText(ctx, e)
	}
	if r.EditOnly() {
		for _, ref := range stale {
			a.clearButtons(ctx, ref)
		}
		// Edits are tried once: an old text left standing is harmless.
		if box, ok := a.h.(outbox); ok && r.Outbox != "" {
			box.Delivered(r, nil)
		}
		return
	}
	for _, m := range a.messages(r) {
		a.channelMessage(ch, m) // flags go: nobody to show a private message to
	}
	for _, ref := range stale {
		a.clearButtons(ctx, ref)
	}
}
