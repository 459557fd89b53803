package telegram

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"topochess/adapters/internal/endpoint"
)

// secretHeader carries telegram.webhook_secret on every webhook request.
const secretHeader = "X-Telegram-Bot-Api-Secret-Token"

// ServeHTTP receives webhook updates. Requests without the right secret
// get 401 and are not looked at further.
func (a *Adapter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	got := r.Header.Get(secretHeader)
	if got == "" || subtle.ConstantTimeCompare([]byte(got), []byte(a.cfg.WebhookSecret)) != 1 {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	var u tgbotapi.Update
	if err := json.NewDecoder(r.Body).Decode(&u); err != nil {
		var tooLarge *http.MaxBytesError
		var ne net.Error
		switch {
		case errors.As(err, &tooLarge):
			http.Error(w, "update too large", http.StatusRequestEntityTooLarge)
		case errors.As(err, &ne) && ne.Timeout():
			// Cut off while sending: Telegram delivers it again.
			http.Error(w, "too slow", http.StatusRequestTimeout)
		default:
			// 400 would make Telegram redeliver a broken update forever;
			// it is logged and acknowledged instead.
			a.log.Warn("telegram: unreadable webhook update", "err", err)
			w.WriteHeader(http.StatusOK)
		}
		return
	}
	a.dispatch(u)
	w.WriteHeader(http.StatusOK)
}

// serveWebhook listens on webhook_listen, registers the webhook with
// Telegram and serves until ctx ends.
func (a *Adapter) serveWebhook(ctx context.Context) error {
	u, _ := url.Parse(a.cfg.WebhookURL) // validated by New
	path := u.Path
	if path == "" {
		path = "/"
	}
	mux := http.NewServeMux()
	mux.Handle(path, a)
	srv := endpoint.Server(mux, a.log, a.cfg.limits)
	ln, err := endpoint.Listen(a.cfg.WebhookListen, a.cfg.limits)
	if err != nil {
		return err
	}
	a.listening <- ln.Addr().String()
	failed := make(chan error, 1)
	go func() { failed <- srv.Serve(ln) }()
	params := tgbotapi.Params{"url": a.cfg.WebhookURL, "secret_token": a.cfg.WebhookSecret}
	_ = params.AddInterface("allowed_updates", allowedUpdates)
	// The library's WebhookConfig predates secret_token, so the call is
	// made by hand.
	for wait := a.cfg.Backoff; ; wait = min(2*wait, a.cfg.MaxBackoff) {
		_, err := a.api.MakeRequest("setWebhook", params)
		if err == nil {
			a.log.Info("telegram: webhook registered", "url", a.secrets.String(a.cfg.WebhookURL), "listen", ln.Addr().String())
			break
		}
		if e, ok := apiError(err); ok && e.Code == http.StatusBadRequest {
			_ = srv.Close()
			return fmt.Errorf("telegram: setWebhook refused %s: %s", a.secrets.String(a.cfg.WebhookURL), e.Message)
		}
		a.log.Warn("telegram: setWebhook failed, retrying", "err", err, "wait", wait)
		if a.sleep(ctx, wait) != nil {
			break
		}
	}
	select {
	case <-ctx.Done():
	case err := <-failed:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(shut)
	a.busy.Wait()
	return nil
}
