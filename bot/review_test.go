package bot

import (
	"bytes"
	"context"
	"image/png"
	"reflect"
	"strings"
	"testing"
)

var testReview = ReviewConfig{Depth: 3, Nodes: 3000}

// foolsMate plays the shortest mate and returns the final reply.
func foolsMate(t *testing.T, h *harness) Reply {
	t.Helper()
	h.startGame("standard")
	h.ok("alice", "f3")
	h.ok("bob", "e5")
	h.refused("alice", "/review", "You have not finished a game here yet")
	h.refused("alice", "/review #1", "still being played")
	h.ok("alice", "g4")
	return h.ok("bob", "Qh4#")
}

func TestReviewFoolsMate(t *testing.T) {
	fh := newFollowHarness(t)
	fh.svc.after.reviewCfg = testReview
	end := foolsMate(t, fh.harness)
	rs := fh.press("carol", buttonOf(t, end, "Review"))
	if len(rs) != 1 || rs[0].Key != "review:#1" || !strings.HasPrefix(rs[0].Text, "Reviewing #1") {
		t.Fatalf("review: %s", dump(rs))
	}
	posted := fh.takePosted()
	var edits []Edit
	var results []Reply
	for _, r := range posted {
		if r.Channel != "test:chan" {
			t.Errorf("posted to %q", r.Channel)
		}
		if r.EditOnly() {
			edits = append(edits, r.Edits...)
		} else {
			results = append(results, r)
		}
	}
	if len(edits) < 2 || edits[len(edits)-1].Text != "Reviewed #1: 5 positions at depth 3." || !strings.Contains(edits[0].Text, "of 5 positions") {
		t.Fatalf("progress edits %+v", edits)
	}
	for _, e := range edits {
		if e.Key != "review:#1" {
			t.Errorf("edit of %q", e.Key)
		}
	}
	if len(results) < 3 {
		t.Fatalf("results %s", dump(results))
	}
	graph := results[0]
	if graph.Image == nil || !strings.Contains(graph.Text, "Accuracy: alice ") || !strings.Contains(graph.Text, "1 blunder,") {
		t.Fatalf("graph reply %s", dump(results[:1]))
	}
	checkPNGBytes(t, graph.Image.PNG)
	if !strings.Contains(graph.Image.Alt, "Marked mistakes and blunders: 2. g4") {
		t.Errorf("graph alt %q", graph.Image.Alt)
	}
	var g4 *Reply
	for i, r := range results[1:] {
		if strings.Contains(r.Text, "2. g4?? was a blunder") {
			g4 = &results[1+i]
		}
	}
	if g4 == nil || !strings.Contains(g4.Text, "Better was") || g4.Image == nil || !strings.Contains(g4.Image.Alt, "Better move") {
		t.Fatalf("the blunder 2. g4 is not named with a better move: %s", dump(results))
	}
	checkPNG(t, *g4)
	if !strings.Contains(dump(results), "bob (Black) made no mistake") {
		t.Errorf("bob's clean game is not said: %s", dump(results))
	}

	// Asked again, it is read from storage: answered at once, same words,
	// nothing queued.
	stored, err := fh.store.GameReview("#1")
	if err != nil {
		t.Fatal(err)
	}
	again := fh.do("dave", "/review 1")
	if len(again) != len(results) || again[0].Text != graph.Text {
		t.Fatalf("second review: %s", dump(again))
	}
	if got := fh.takePosted(); len(got) != 0 {
		t.Fatalf("a second review was computed: %s", dump(got))
	}
	if st, _ := fh.store.GameReview("#1"); !st.Created.Equal(stored.Created) {
		t.Errorf("the stored review was rewritten")
	}
}

// TestReviewReproducible: the same game reviewed twice gives the same
// evaluations and moves.
func TestReviewReproducible(t *testing.T) {
	h := newHarness(t, Limits{CommandsPer10s: 1000})
	h.svc.after.reviewCfg = testReview
	h.startGame("klein")
	pos := func() []string { g, _ := replay(h.game("#1")); return g.Position().CanonicalMoves() }
	for i := 0; i < 8; i++ {
		who := []string{"alice", "bob"}[i%2]
		ms := pos()
		h.ok(who, "/move "+ms[(i*7)%len(ms)])
	}
	h.ok("bob", "/resign")
	a, err := h.svc.reviewGame(context.Background(), h.game("#1"), func(int, int) {})
	if err != nil {
		t.Fatal(err)
	}
	b, err := h.svc.reviewGame(context.Background(), h.game("#1"), func(int, int) {})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Scores) != 9 || !reflect.DeepEqual(a.Scores, b.Scores) || !reflect.DeepEqual(a.Best, b.Best) {
		t.Fatalf("two reviews differ:\n%v %v\n%v %v", a.Scores, a.Best, b.Scores, b.Best)
	}
}

func TestReviewOnlyOnceAtATime(t *testing.T) {
	fh := newFollowHarness(t)
	fh.svc.after.reviewCfg = testReview
	foolsMate(t, fh.harness)
	if err := fh.svc.after.reviews.begin("#1", "test:dave", testReview.withDefaults()); err != nil { // as if a review were running
		t.Fatal(err)
	}
	r := fh.ok("alice", "/review")
	if !strings.Contains(r.Text, "being reviewed already") {
		t.Fatalf("second request: %q", r.Text)
	}
	fh.svc.after.reviews.done("#1")
}

func checkPNGBytes(t *testing.T, data []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("picture does not decode: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 100 || b.Dy() < 40 {
		t.Fatalf("picture is %v", b)
	}
}

// The review queue is bounded overall and per user: a request over a
// bound is refused kindly and queues nothing.
func TestReviewQueueBounded(t *testing.T) {
	fh := newFollowHarness(t)
	fh.svc.after.reviewCfg = ReviewConfig{Depth: 3, Nodes: 3000, Queue: 3, PerUser: 2}
	cfg := fh.svc.after.reviewCfg
	foolsMate(t, fh.harness)
	rv := &fh.svc.after.reviews
	// As if alice had two reviews of other games running.
	for _, g := range []string{"#90", "#91"} {
		if err := rv.begin(g, "test:alice", cfg); err != nil {
			t.Fatal(err)
		}
	}
	if err := rv.begin("#92", "test:alice", cfg); err != errReviewUserBusy {
		t.Fatalf("alice's third review: %v", err)
	}
	fh.refused("alice", "/review", "The reviewer is busy with the 2 reviews you asked for; try /review #1 again in a minute")
	// Somebody else may still ask; then the queue is full for everyone.
	if err := rv.begin("#93", "test:dave", cfg); err != nil {
		t.Fatal(err)
	}
	fh.refused("carol", "/review #1", "The reviewer is busy with 3 games; try /review #1 again in a minute")
	if got := fh.takePosted(); len(got) != 0 {
		t.Fatalf("a refused review posted %s", dump(got))
	}
	if _, err := fh.store.GameReview("#1"); err == nil {
		t.Fatal("a refused review was stored")
	}
	rv.mu.Lock()
	_, queued := rv.pending["#1"]
	rv.mu.Unlock()
	if queued {
		t.Fatal("a refused review was queued")
	}
	// One done: carol's review goes through, and while it runs the same
	// game is not queued a second time.
	rv.done("#93")
	if r := fh.ok("carol", "/review #1"); !strings.HasPrefix(r.Text, "Reviewing #1") {
		t.Fatalf("review once there is room: %q", r.Text)
	}
	// (Unless it is done already: then the stored review is shown.)
	if rs := fh.do("dave", "/review #1"); len(rs) == 0 || rs[0].Error ||
		!strings.Contains(rs[0].Text, "being reviewed already") && !strings.Contains(rs[0].Text, "Accuracy: alice ") {
		t.Fatalf("the same game again: %s", dump(rs))
	}
	if n := len(fh.takePosted()); n < 3 {
		t.Fatalf("%d replies posted by the review", n)
	}
	rv.done("#90")
	rv.done("#91")
}
