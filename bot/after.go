package bot

import (
	"fmt"
	"runtime/debug"
	"sync"
)

// afterGame is the service's state for what comes around games: the
// thinking lines to edit, the queue of posts to following channels, the
// reviews being computed.
type afterGame struct {
	thinking  thinkingLines
	follow    taskQueue
	reviews   reviews
	reviewCfg ReviewConfig
}

// taskQueue runs tasks one after another, in the order they were added,
// on one goroutine that lives while there is work.
type taskQueue struct {
	mu      sync.Mutex
	cond    *sync.Cond
	tasks   []func()
	running bool
}

func (q *taskQueue) add(task func()) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.cond == nil {
		q.cond = sync.NewCond(&q.mu)
	}
	q.tasks = append(q.tasks, task)
	if !q.running {
		q.running = true
		go q.run()
	}
}

func (q *taskQueue) run() {
	for {
		q.mu.Lock()
		if len(q.tasks) == 0 {
			q.running = false
			q.cond.Broadcast()
			q.mu.Unlock()
			return
		}
		task := q.tasks[0]
		q.tasks = q.tasks[1:]
		q.mu.Unlock()
		task()
	}
}

// wait blocks until every task added so far has run.
func (q *taskQueue) wait() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.running {
		q.cond.Wait()
	}
}

// safely wraps a background task so that a panic in it is logged and
// does not stop its queue or the process.
func (s *Service) safely(what string, task func()) func() {
	return func() {
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("background task panic", "task", what, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			}
		}()
		task()
	}
}
