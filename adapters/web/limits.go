package web

import (
	"sync"
	"time"
)

// limiter allows a burst of events per key and then one per interval (a
// token bucket per key). Keys idle long enough to have a full bucket
// again are forgotten, so its memory follows the active keys only; when
// even those exceed max, arbitrary ones are forgotten (a forgotten key
// starts again with a full bucket).
type limiter struct {
	mu       sync.Mutex
	burst    float64
	interval time.Duration
	max      int
	m        map[string]*bucket
	swept    time.Time
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(burst int, interval time.Duration, max int) *limiter {
	return &limiter{burst: float64(burst), interval: interval, max: max, m: map[string]*bucket{}}
}

// refill brings a bucket up to now.
func (l *limiter) refill(b *bucket, now time.Time) {
	if d := now.Sub(b.at); d > 0 {
		b.tokens = min(l.burst, b.tokens+float64(d)/float64(l.interval))
		b.at = now
	}
}

// allow takes one token for key; false (and nothing taken) when none is
// left. wait is how long until the next token.
func (l *limiter) allow(key string, now time.Time) (ok bool, wait time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.m[key]
	if b == nil {
		l.sweepLocked(now)
		b = &bucket{tokens: l.burst, at: now}
		l.m[key] = b
	}
	l.refill(b, now)
	if b.tokens < 1 {
		return false, time.Duration((1 - b.tokens) * float64(l.interval))
	}
	b.tokens--
	return true, 0
}

// reset forgets a key (a right password clears its failures).
func (l *limiter) reset(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.m, key)
}

func (l *limiter) sweepLocked(now time.Time) {
	if len(l.m) < l.max && now.Sub(l.swept) < time.Minute {
		return
	}
	l.swept = now
	full := time.Duration(l.burst * float64(l.interval))
	for k, b := range l.m {
		if now.Sub(b.at) >= full {
			delete(l.m, k)
		}
	}
	for k := range l.m { // still too many: forget arbitrary ones
		if len(l.m) < l.max {
			break
		}
		delete(l.m, k)
	}
}
