package telegram

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"topochess/bot"
	"topochess/bot/metrics"
)

// sender is the outgoing queue. Each chat has its own queue, worked by one
// goroutine while it is not empty, so a slow or throttled chat holds up no
// other. Within a chat, messages keep their order and go before keyboard
// edits; an edit of a message replaces an older queued edit of the same
// message; edits that only tidy up wait for budget the messages leave.
// Every call waits for its chat's interval, its group's window and the
// global window. A failed call is tried again when the failure is
// transient (see retryDelay) until it goes through or is refused.
type sender struct {
	lim       Limits
	log       *slog.Logger
	now       func() time.Time
	retryUnit time.Duration // one second of retry_after (tests shorten it)
	metrics   *metrics.Platform
	// done is told when a reply's last call went through (nil error) or
	// the reply was refused for good.
	done func(r *bot.Reply, err error)

	mu      sync.Mutex
	chats   map[int64]*chatQueue
	global  []time.Time
	swept   time.Time
	wg      sync.WaitGroup
	started bool // calls are made only once the adapter is connected
	ctx     context.Context
	cancel  context.CancelFunc
}

type chatQueue struct {
	jobs   []*job
	busy   bool          // a worker runs this queue
	wake   chan struct{} // tells a waiting worker that a job was added
	next   time.Time     // no call before this (interval, retry_after)
	active time.Time     // the last message queued or sent
	recent []time.Time   // calls within the group window
}

// class orders the calls of one chat.
type class int8

const (
	classMessage class = iota // a message: a picture, a prompt, a text
	classEdit                 // a keyboard someone waits for (tap-to-move)
	classTidy                 // stale buttons taken away: only with budget to spare
)

// job is one API call. do returns the error of the call; errors that are
// success in disguise ("message is not modified") are filtered by do.
type job struct {
	method string
	do     func() error
	class  class
	msg    int     // the message an edit changes (0: none known)
	text   bool    // an edit of the message's text, not of its keyboard
	reply  *queued // the reply the call belongs to, if it is worth keeping
	last   bool    // the reply's last call
	tries  int
}

// queued is a reply in the queue, kept so that a stop can hand it over.
type queued struct {
	r    bot.Reply
	done bool // its last call went through, or it was refused
}

// maxTries bounds the attempts at one call (about 25 minutes with the
// backoff); a reply given up on stays in the outbox for the next start.
const maxTries = 30

// quietFor is how many per-chat intervals a group is left without
// messages before stale buttons are tidied away.
const quietFor = 5

// maxBackoff is the longest pause between two attempts, in retry units.
const maxBackoff = 60

// newSender makes a queue that holds calls until start; its context is
// that of the calls, cancelled by stop.
func newSender(lim Limits, log *slog.Logger) *sender {
	ctx, cancel := context.WithCancel(context.Background())
	return &sender{
		lim: lim, log: log, ctx: ctx, cancel: cancel,
		now:       time.Now,
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

// enqueue adds a call to a chat's queue. An edit of a message whose
// earlier edit is still queued takes that edit's place: only the last
// state of a keyboard is sent.
func (s *sender) enqueue(chat int64, j *job) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now := s.now(); now.Sub(s.swept) > s.lim.GroupWindow {
		s.sweep(now)
	}
	q := s.chats[chat]
	if q == nil {
		q = &chatQueue{wake: make(chan struct{}, 1)}
		s.chats[chat] = q
	}
	if j.class == classMessage {
		q.active = s.now()
	}
	if i := q.editOf(j); i >= 0 {
		q.jobs[i] = j
	} else {
		q.jobs = append(q.jobs, j)
	}
	select {
	case q.wake <- struct{}{}:
	default:
	}
	if !q.busy && s.started {
		q.busy = true
		s.wg.Add(1)
		go s.work(chat, q)
	}
}

// start begins sending what is queued and what comes.
func (s *sender) start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.started = true
	for chat, q := range s.chats {
		if !q.busy && len(q.jobs) > 0 {
			q.busy = true
			s.wg.Add(1)
			go s.work(chat, q)
		}
	}
}

// editOf finds a queued edit of the same message as j, and of the same
// part of it (text or keyboard) (-1: none).
func (q *chatQueue) editOf(j *job) int {
	if j.class == classMessage || j.msg == 0 {
		return -1
	}
	for i, o := range q.jobs {
		if o.class != classMessage && o.msg == j.msg && o.text == j.text {
			return i
		}
	}
	return -1
}

// sweep forgets idle chats whose timing no longer matters, so memory
// stays bounded however many chats the bot has seen.
func (s *sender) sweep(now time.Time) {
	s.swept = now
	for id, q := range s.chats {
		if !q.busy && len(q.jobs) == 0 && !q.next.After(now) && len(within(q.recent, now, s.lim.GroupWindow)) == 0 {
			delete(s.chats, id)
		}
	}
}

// stop lets the queues drain for up to grace, then stops sending and
// returns the replies not yet delivered, in order per chat.
func (s *sender) stop(grace time.Duration) []bot.Reply {
	s.mu.Lock()
	if !s.started {
		grace = 0 // nothing could be sent: no point waiting
	}
	s.mu.Unlock()
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
	}
	s.cancel()
	<-done
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []bot.Reply
	for _, q := range s.chats {
		seen := map[*queued]bool{}
		for _, j := range q.jobs {
			if r := j.reply; r != nil && !r.done && !seen[r] {
				seen[r] = true
				out = append(out, r.r)
			}
		}
	}
	return out
}

func (s *sender) work(chat int64, q *chatQueue) {
	defer s.wg.Done()
	for {
		s.mu.Lock()
		if len(q.jobs) == 0 || s.ctx.Err() != nil {
			q.busy = false
			s.mu.Unlock()
			return
		}
		i, d := s.pick(chat, q)
		if d > 0 {
			s.mu.Unlock()
			if !s.pause(d, q.wake) {
				s.mu.Lock()
				q.busy = false
				s.mu.Unlock()
				return
			}
			continue
		}
		j := q.jobs[i]
		q.jobs = append(q.jobs[:i:i], q.jobs[i+1:]...)
		s.book(chat, q)
		if j.class == classMessage {
			q.active = s.now()
		}
		skip := j.reply != nil && j.reply.done
		s.mu.Unlock()
		if !skip {
			s.run(chat, q, j)
			s.settle(chat, q)
		}
	}
}

// settle counts a finished call from its end: Telegram counts calls when
// they arrive, which is somewhere before the answer, so spacing calls
// from the end of the previous one keeps them apart however long the
// way there took.
func (s *sender) settle(chat int64, q *chatQueue) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	if next := now.Add(s.lim.PerChat); next.After(q.next) {
		q.next = next
	}
	if n := len(q.recent); chat < 0 && n > 0 {
		q.recent[n-1] = now
	}
}

// pause waits d, or less when a job is added; false when sending stops.
func (s *sender) pause(d time.Duration, wake chan struct{}) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-s.ctx.Done():
		return false
	case <-wake:
	case <-t.C:
	}
	return true
}

// pick chooses the chat's next call — the first message, else the first
// edit — and says how long it must wait (call with s.mu held).
func (s *sender) pick(chat int64, q *chatQueue) (int, time.Duration) {
	best := 0
	for i, j := range q.jobs {
		if j.class < q.jobs[best].class {
			best = i
		}
	}
	now := s.now()
	d := q.next.Sub(now)
	if chat < 0 { // groups and supergroups have negative ids
		q.recent = within(q.recent, now, s.lim.GroupWindow)
		budget := s.lim.GroupMessages
		if q.jobs[best].class == classTidy {
			// Tidying waits until the players pause, and a quarter of the
			// group's budget stays for the pictures and prompts of the
			// moves to come.
			budget -= max(1, s.lim.GroupMessages/4)
			d = max(d, q.active.Add(quietFor*s.lim.PerChat).Sub(now))
		}
		if n := len(q.recent); n >= budget {
			d = max(d, q.recent[n-budget].Add(s.lim.GroupWindow).Sub(now))
		}
	}
	s.global = within(s.global, now, s.lim.GlobalWindow)
	if len(s.global) >= s.lim.Global {
		d = max(d, s.global[0].Add(s.lim.GlobalWindow).Sub(now))
	}
	return best, d
}

// book records a call in the chat's and the global windows.
func (s *sender) book(chat int64, q *chatQueue) {
	now := s.now()
	q.next = now.Add(s.lim.PerChat)
	if chat < 0 {
		q.recent = append(q.recent, now)
	}
	s.global = append(s.global, now)
}

// run makes one call. A transient failure puts the call back at the head
// of the queue with a pause; a refusal ends the reply.
func (s *sender) run(chat int64, q *chatQueue, j *job) {
	j.tries++
	err := j.do()
	if err == nil {
		if j.last && j.reply != nil {
			s.finish(j.reply, nil)
		}
		return
	}
	if s.ctx.Err() != nil {
		// Stopping: the call is handed over with its reply (it may have
		// gone through; see docs/delivery.md).
		s.requeue(q, j, 0)
		return
	}
	countFailure(s.metrics, err)
	wait, retry := retryDelay(err, s.retryUnit, j.tries)
	switch {
	case !retry:
		s.log.Error("telegram: message refused", "method", j.method, "chat", chat, "err", err)
		if j.reply != nil {
			s.finish(j.reply, err)
		}
	case j.tries >= maxTries:
		s.log.Error("telegram: call failed, giving up until the next start", "method", j.method, "chat", chat, "err", err, "tries", j.tries)
		if j.reply != nil {
			s.mu.Lock()
			j.reply.done = true // left in the outbox
			s.mu.Unlock()
		}
	default:
		s.log.Warn("telegram: call failed, will retry", "method", j.method, "chat", chat, "wait", wait, "err", err)
		s.requeue(q, j, wait)
	}
}

// requeue puts a failed call back first in line, unless a newer edit of
// the same message has come meanwhile.
func (s *sender) requeue(q *chatQueue, j *job, wait time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if until := s.now().Add(wait); until.After(q.next) {
		q.next = until
	}
	if q.editOf(j) >= 0 {
		return
	}
	q.jobs = append([]*job{j}, q.jobs...)
}

func (s *sender) finish(r *queued, err error) {
	s.mu.Lock()
	r.done = true
	s.mu.Unlock()
	if s.done != nil {
		s.done(&r.r, err)
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
// long. Transient are: no answer (a refused, dropped or timed-out
// connection), any 5xx whatever its body, and 429 (after its
// retry_after; multipart uploads come back with Code 0 and only
// RetryAfter set). A Bot API answer with another code (400 chat not
// found, 403 blocked) is a plain refusal.
func retryDelay(err error, unit time.Duration, tries int) (time.Duration, bool) {
	backoff := unit << min(tries-1, 6)
	backoff = min(backoff, maxBackoff*unit)
	var te *transientError
	if errors.As(err, &te) {
		return backoff, true
	}
	e, ok := apiError(err)
	if !ok {
		// An answer that is not the Bot API's (a broken body): the call
		// may well have gone through; trying again risks a duplicate of
		// every such answer, so it counts as done.
		return 0, false
	}
	switch {
	case e.RetryAfter > 0:
		return time.Duration(e.RetryAfter) * unit, true
	case e.Code == http.StatusTooManyRequests:
		return unit, true
	case e.Code >= 500:
		return backoff, true
	}
	return 0, false
}

// notModified is Telegram's answer to an edit that changes nothing: the
// message already looks as wanted.
func notModified(err error) bool {
	return err != nil && strings.Contains(err.Error(), "message is not modified")
}
