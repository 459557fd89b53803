package telegram

import (
	"errors"
	"fmt"
	"net/http"
	"sync"

	"topochess/bot/metrics"
)

// link is what the adapter last learnt of its connection to the Bot
// API, for the operator's readiness check.
type link struct {
	mu  sync.Mutex
	up  bool
	err error // the last failed poll, nil after a good one
}

func (l *link) set(up bool, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.up, l.err = up, err
}

// Connected reports whether the adapter reached the Bot API and, when it
// long-polls, whether its last poll went through.
func (a *Adapter) Connected() error {
	a.link.mu.Lock()
	defer a.link.mu.Unlock()
	switch {
	case a.link.err != nil:
		return fmt.Errorf("telegram: the last getUpdates failed: %w", a.secrets.Error(a.link.err))
	case !a.link.up:
		return errors.New("telegram: not connected to the Bot API yet")
	}
	return nil
}

// countFailure counts a failed Bot API call for the metrics: a 429 as
// such, anything else as an error.
func countFailure(p *metrics.Platform, err error) {
	if e, ok := apiError(err); ok && (e.RetryAfter > 0 || e.Code == http.StatusTooManyRequests) {
		p.RateLimited()
		return
	}
	p.Error()
}
