package web

import (
	"testing"
	"time"
)

// TestResumeOnAProcessCatchingUp: a page that reconnects to a process not
// yet caught up on the shared log (it had event 2 from another process)
// gets the events after 2 once, not event 2 again when this process reads
// it from the log.
func TestResumeOnAProcessCatchingUp(t *testing.T) {
	h := newHub(defaultStreamLimits, time.Now)
	h.publish("lobby", &event{Seq: 1, Kind: "chat", Text: "one"})
	s, backlog, refusal := h.subscribe("lobby", "tab", "bob", "127.0.0.1", 2)
	if refusal != "" || len(backlog) != 0 {
		t.Fatalf("refusal %q, backlog %d", refusal, len(backlog))
	}
	h.publish("lobby", &event{Seq: 2, Kind: "chat", Text: "two"}, &event{Seq: 3, Kind: "chat", Text: "three"})
	select {
	case e := <-s.ch:
		if e.Seq != 3 {
			t.Fatalf("first event after resuming at 2: %d %q", e.Seq, e.Text)
		}
	case <-time.After(time.Second):
		t.Fatal("event 3 never came")
	}
	select {
	case e := <-s.ch:
		t.Fatalf("another event: %d %q", e.Seq, e.Text)
	default:
	}
}
