package discord

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
	"topochess/adapters/internal/redact"

	dg "github.com/bwmarrin/discordgo"

	"topochess/bot"
)

// message is the body of every message the adapter sends or edits. It is
// our own because discordgo's attachment type has no description, which
// is where a board's alt text belongs.
type message struct {
	Content         *string               `json:"content,omitempty"`
	Components      []dg.MessageComponent `json:"components,omitempty"`
	Attachments     []attachment          `json:"attachments,omitempty"`
	Flags           dg.MessageFlags       `json:"flags,omitempty"`
	AllowedMentions *allowedMentions      `json:"allowed_mentions,omitempty"`
	// Nonce with EnforceNonce makes Discord answer a repeated channel
	// message (a retry whose first attempt did arrive) with the message
	// it already made; follow-ups and edits take no nonce.
	Nonce        string `json:"nonce,omitempty"`
	EnforceNonce bool   `json:"enforce_nonce,omitempty"`

	file *bot.Image // uploaded as files[0]
	box  string     // the outbox id of the reply this message completes
	// key names the message for a later Supersedes; private marks an
	// ephemeral one (only editable through its interaction token).
	key     string
	private bool
}

type attachment struct {
	ID          int    `json:"id"`
	Filename    string `json:"filename"`
	Description string `json:"description,omitempty"`
}

// allowedMentions pings exactly the users a reply names, never roles or
// @everyone, whatever a player's name or typed text contains.
type allowedMentions struct {
	Parse []string `json:"parse"`
	Users []string `json:"users,omitempty"`
}

// interactionResponse is discordgo's InteractionResponse with our message.
type interactionResponse struct {
	Type dg.InteractionResponseType `json:"type"`
	Data any                        `json:"data,omitempty"`
}

// messages turns a reply into the messages that carry it: long texts are
// cut in several, the picture, buttons and key go with the last one.
func (a *Adapter) messages(r bot.Reply) []*message {
	parts := splitContent(r.Text)
	out := make([]*message, len(parts))
	mentions := &allowedMentions{Parse: []string{}}
	for _, id := range r.Mentions {
		if rest, ok := strings.CutPrefix(id, prefix); ok {
			mentions.Users = append(mentions.Users, rest)
		}
	}
	for i, p := range parts {
		m := &message{Content: &p, AllowedMentions: mentions, private: r.Private}
		if r.Private {
			m.Flags = flagEphemeral
		}
		out[i] = m
	}
	last := out[len(out)-1]
	if r.Image != nil && len(r.Image.PNG) > 0 {
		name := r.Image.Name
		if name == "" || strings.ContainsAny(name, "/\\\"") {
			name = "board.png"
		}
		last.file = r.Image
		last.Attachments = []attachment{{ID: 0, Filename: name, Description: truncate(r.Image.Alt, maxDescription)}}
	} else if r.File != nil && len(r.File.Data) > 0 && !strings.ContainsAny(r.File.Name, "/\\\"") {
		// A document (a game's PGN) rides in the same upload slot.
		last.file = &bot.Image{Name: r.File.Name, PNG: r.File.Data}
		last.Attachments = []attachment{{ID: 0, Filename: r.File.Name}}
	}
	if len(r.Buttons) > 0 {
		last.Components = a.components(r.Buttons)
	}
	last.key, last.box = r.Key, r.Outbox
	if *last.Content == "" && last.file == nil && len(last.Components) == 0 {
		empty := "…"
		last.Content = &empty
	}
	return out
}

// body encodes a payload, as multipart when a picture goes with it.
func body(payload any, file *bot.Image) (contentType string, b []byte, err error) {
	if file == nil {
		b, err = json.Marshal(payload)
		return "application/json", b, err
	}
	name := "board.png"
	if m, ok := payload.(*message); ok && len(m.Attachments) > 0 {
		name = m.Attachments[0].Filename
	} else if r, ok := payload.(*interactionResponse); ok {
		if m, ok := r.Data.(*message); ok && len(m.Attachments) > 0 {
			name = m.Attachments[0].Filename
		}
	}
	ct := file.ContentType()
	if lower := strings.ToLower(name); !strings.HasSuffix(lower, ".png") && !strings.HasSuffix(lower, ".gif") {
		ct = "text/plain; charset=utf-8" // a document: Discord shows its text
	}
	return dg.MultipartBodyWithJSON(payload, []*dg.File{{Name: name, ContentType: ct, Reader: bytes.NewReader(file.PNG)}})
}

// maxTries bounds the attempts of one REST call through rate limits and
// transient failures.
const maxTries = 6

// firstBackoff is the pause after the first transient failure; it doubles
// with every further one.
const firstBackoff = 200 * time.Millisecond

// call sends one REST request through discordgo's rate limiter. A 429 is
// never slept on inside discordgo (it would sleep past an interaction's
// deadline); call waits retry_after itself only while ctx's deadline
// allows, and gives up otherwise. Transient failures — any 5xx, a dropped
// or timed-out connection — are tried again the same way, with backoff:
// discordgo itself retries only a 502, at once, and drops the rest.
func (a *Adapter) call(ctx context.Context, what, method, endpoint string, payload any, file *bot.Image) ([]byte, error) {
	var contentType string
	var b []byte
	if payload != nil {
		var err error
		if contentType, b, err = body(payload, file); err != nil {
			return nil, fmt.Errorf("%s: encode: %w", what, err)
		}
	}
	arrived := false // an earlier attempt may have reached Discord
	for try := 1; ; try++ {
		resp, err := a.s.RequestRaw(method, endpoint, contentType, b, "", 0,
			dg.WithRetryOnRatelimit(false), dg.WithContext(ctx))
		if err != nil && arrived && alreadyDone(err) {
			// The attempt whose answer was lost did arrive.
			a.log.Info("discord: an earlier attempt had arrived", "call", what)
			return resp, nil
		}
		if err != nil && transient(err) && ctx.Err() == nil {
			wait := firstBackoff << (try - 1)
			deadline, has := ctx.Deadline()
			if try < maxTries && !(has && time.Now().Add(wait).After(deadline)) {
				a.log.Warn("discord: call failed, retrying", "call", what, "err", safeErr(err, a.secrets), "wait", wait)
				arrived = true
				if !sleepCtx(ctx, wait) {
					return nil, ctx.Err()
				}
				continue
			}
		}
		var rl *dg.RateLimitError
		if !errors.As(err, &rl) {
			if err != nil {
				a.cfg.Metrics.Error()
				a.logREST(what, endpoint, err)
			}
			return resp, err
		}
		a.cfg.Metrics.RateLimited()
		wait := rl.RetryAfter
		deadline, has := ctx.Deadline()
		if try >= maxTries || (has && time.Now().Add(wait).After(deadline)) {
			a.log.Warn("discord rate limit: giving up", "call", what, "retry_after", wait, "tries", try)
			return nil, err
		}
		a.log.Info("discord rate limit: waiting", "call", what, "retry_after", wait)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// logREST logs a failed call with Discord's error code. URLs are not
// logged: webhook URLs carry interaction tokens, which are cut out of
// error texts too (a proxy may echo the request).
func (a *Adapter) logREST(what, endpoint string, err error) {
	secrets := a.secrets.With(interactionToken(endpoint))
	var re *dg.RESTError
	if errors.As(err, &re) {
		attrs := []any{"call", what, "status", re.Response.StatusCode}
		if re.Message != nil {
			attrs = append(attrs, "code", re.Message.Code, "message", secrets.String(re.Message.Message))
		}
		a.log.Error("discord REST call failed", attrs...)
		return
	}
	var ue *url.Error
	if errors.As(err, &ue) { // its text holds the URL
		err = fmt.Errorf("%s: %w", ue.Op, ue.Err)
	}
	a.log.Error("discord REST call failed", "call", what, "err", secrets.String(err.Error()))
}

// interactionToken is the interaction token in a webhook or callback
// endpoint ("" if none).
func interactionToken(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return ""
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	for i, p := range parts {
		if (p == "webhooks" || p == "interactions") && i+2 < len(parts) {
			return parts[i+2]
		}
	}
	return ""
}

// transient reports a failure worth another attempt: any 5xx (discordgo
// gives up on a 502 after its own retries with a plain error), and a
// connection that failed, dropped or timed out. Cancellation is not.
func transient(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var re *dg.RESTError
	if errors.As(err, &re) {
		return re.Response.StatusCode >= 500
	}
	if strings.HasPrefix(err.Error(), "Exceeded Max retries HTTP 5") {
		return true
	}
	var ue *url.Error
	var ne net.Error
	return errors.As(err, &ue) || errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

// alreadyDone is Discord's answer to a second response to one interaction
// (40060, "already acknowledged"): the first one, whose answer was lost,
// got there.
func alreadyDone(err error) bool {
	_, code := restCode(err)
	return code == 40060
}

// safeErr is an error's text without URLs (webhook URLs hold tokens).
func safeErr(err error, secrets *redact.Filter) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = fmt.Errorf("%s: %w", ue.Op, ue.Err)
	}
	var re *dg.RESTError
	if errors.As(err, &re) {
		if re.Message != nil && re.Message.Message != "" {
			return secrets.String(fmt.Sprintf("HTTP %d: %s", re.Response.StatusCode, re.Message.Message))
		}
		return fmt.Sprintf("HTTP %d", re.Response.StatusCode)
	}
	return secrets.String(err.Error())
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// restCode is Discord's JSON error code of a failed call (0 if none).
func restCode(err error) (status, code int) {
	var re *dg.RESTError
	if errors.As(err, &re) {
		status = re.Response.StatusCode
		if re.Message != nil {
			code = re.Message.Code
		}
	}
	return status, code
}

// sentMessage is the part of Discord's message answer we keep.
type sentMessage struct {
	ID        string `json:"id"`
	ChannelID string `json:"channel_id"`
}

func decodeSent(b []byte) sentMessage {
	var m sentMessage
	_ = json.Unmarshal(b, &m)
	return m
}

var errUnauthorized = errors.New("discord: the token was refused (401); check discord.token")

func isUnauthorized(err error) bool {
	status, _ := restCode(err)
	return status == http.StatusUnauthorized || errors.Is(err, dg.ErrUnauthorized)
}
