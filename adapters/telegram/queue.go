package telegram

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// sender is the outgoing queue. Each chat has its own FIFO, worked by one
// goroutine while it is not empty, so a chat's messages keep their order
// and a slow or throttled chat holds up no other. Every call waits for
// its chat's interval, its group's window and the global window; a 429
// pauses the chat for retry_after and the call is tried again.
type sender struct {
	lim       Limits
	log       *slog.Logger
	now       func() time.Time
	sleep     func(ctx context.Context, d time.Duration) error
	retryUnit time.Duration // one second of retry_after (tests shorten it)

	mu     sync.Mutex
	chats  map[int64]*chatQueue
	global []time.Time
	swept  time.Time
	wg     sync.WaitGroup
	ctx    context.Context
}

type chatQueue struct {
	jobs   []job
	next   time.Time   // no call before this (interval, retry_after)
	recent []time.Time // calls within the group window
}

// job is one API call. do returns the error of the call; errors that are
// success in disguise ("message is not modified") are filtered by do.
type job struct {
	method string
	do     func() error
}

// maxTries bounds retries of one call after 429s and server errors.
const maxTries = 5

func newSender(ctx context.Context, lim Limits, log *slog.Logger) *sender {
	return &sender{
		lim: lim, log: log, ctx: ctx,
		now:       time.Now,
		sleep:     sleepCtx,
		retryUnit: time.Second,
		chats:     map[int64]*chatQueue{},
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// enqueue adds a call to a chat's queue.
func (s *sender) enqueue(chat int64, j job) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now := s.now(); now.Sub(s.swept) > s.lim.GroupWindow {
		s.sweep(now)
	}
	q := s.chats[chat]
	if q == nil {
		q = &chatQueue{}
		s.chats[chat] = q
	}
	q.jobs = append(q.jobs, j)
	if len(q.jobs) == 1 {
		s.wg.Add(1)
		go s.work(chat, q)
	}
}

// sweep forgets idle chats whose timing no longer matters, so memory
// stays bounded however many chats the bot has seen.
func (s *sender) sweep(now time.Time) {
	s.swept = now
	for id, q := range s.chats {
		if len(q.jobs) == 0 && !q.next.After(now) && len(within(q.recent, now, s.lim.GroupWindow)) == 0 {
			delete(s.chats, id)
		}
	}
}

// drain waits until every queue is empty or the timeout passes.
func (s *sender) drain(timeout time.Duration) bool {
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(timeout):
		return false
	}
}

func (s *sender) work(chat int64, q *chatQueue) {
	defer s.wg.Done()
	for {
		s.mu.Lock()
		if len(q.jobs) == 0 {
			s.mu.Unlock()
			return
		}
		j := q.jobs[0]
		s.mu.Unlock()
		s.run(chat, q, j)
		s.mu.Lock()
		q.jobs[0] = job{}
		q.jobs = q.jobs[1:]
		s.mu.Unlock()
	}
}

// run makes one call, waiting for the limits, and retries after 429s.
func (s *sender) run(chat int64, q *chatQueue, j job) {
	for try := 1; ; try++ {
		if err := s.wait(chat, q); err != nil {
			s.log.Warn("telegram: message dropped at shutdown", "method", j.method, "chat", chat)
			return
		}
		err := j.do()
		if err == nil {
			return
		}
		wait, retry := retryDelay(err, s.retryUnit)
		if !retry || try == maxTries {
			s.log.Error("telegram: call failed", "method", j.method, "chat", chat, "err", err, "tries", try)
			return
		}
		s.log.Warn("telegram: call throttled, will retry", "method", j.method, "chat", chat, "wait", wait, "err", err)
		s.mu.Lock()
		if until := s.now().Add(wait); until.After(q.next) {
			q.next = until
		}
		s.mu.Unlock()
	}
}

// wait blocks until the chat may send, and books the slot.
func (s *sender) wait(chat int64, q *chatQueue) error {
	for {
		s.mu.Lock()
		now := s.now()
		d := q.next.Sub(now)
		group := chat < 0 // groups and supergroups have negative ids
		if group {
			q.recent = within(q.recent, now, s.lim.GroupWindow)
			if len(q.recent) >= s.lim.GroupMessages {
				d = max(d, q.recent[0].Add(s.lim.GroupWindow).Sub(now))
			}
		}
		s.global = within(s.global, now, s.lim.GlobalWindow)
		if len(s.global) >= s.lim.Global {
			d = max(d, s.global[0].Add(s.lim.GlobalWindow).Sub(now))
		}
		if d <= 0 {
			q.next = now.Add(s.lim.PerChat)
			if group {
				q.recent = append(q.recent, now)
			}
			s.global = append(s.global, now)
			s.mu.Unlock()
			return nil
		}
		s.mu.Unlock()
		if err := s.sleep(s.ctx, d); err != nil {
			return err
		}
	}
}

// within drops the times older than the window (the slice is in order).
func within(ts []time.Time, now time.Time, window time.Duration) []time.Time {
	i := 0
	for i < len(ts) && !ts[i].Add(window).After(now) {
		i++
	}
	return ts[i:]
}

// apiError unwraps the library's error. The library returns *Error from
// its calls; a value is accepted too.
func apiError(err error) (tgbotapi.Error, bool) {
	var p *tgbotapi.Error
	if errors.As(err, &p) && p != nil {
		return *p, true
	}
	var v tgbotapi.Error
	if errors.As(err, &v) {
		return v, true
	}
	return tgbotapi.Error{}, false
}

// retryDelay says whether a failed call may be tried again and after how
// long. Multipart uploads (sendPhoto) come back with Code 0 and only
// RetryAfter set, so RetryAfter is what counts.
func retryDelay(err error, unit time.Duration) (time.Duration, bool) {
	var se *serverError
	if errors.As(err, &se) {
		return unit, true
	}
	e, ok := apiError(err)
	if !ok {
		return 0, false // network errors: the call may have gone through
	}
	switch {
	case e.RetryAfter > 0:
		return time.Duration(e.RetryAfter) * unit, true
	case e.Code == 429:
		return unit, true
	case e.Code >= 500:
		return unit, true
	}
	return 0, false
}

// notModified is Telegram's answer to an edit that changes nothing: the
// message already looks as wanted.
func notModified(err error) bool {
	return err != nil && strings.Contains(err.Error(), "message is not modified")
}
