package bot

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"topochess/engine"
	"topochess/engine/search"
	"topochess/storage"
)

// Reviews: /review [game] (and the Review button under a finished game)
// has the engine go over every position of the game off the request
// path, one review at a time, showing its progress by editing one
// message; then it posts the evaluation graph, the biggest mistakes of
// each side with the better move, and accuracy figures. A review is
// stored with the game and computed once; with a fixed depth and node
// budget and a fresh searcher it comes out the same every time.

// ReviewConfig is the search budget of a review, per position, and how
// many reviews may wait.
type ReviewConfig struct {
	// Depth in plies (default 6) and Nodes (default 40000); no clock, so
	// a review is reproducible.
	Depth int
	Nodes int64
	// Queue is how many reviews may be queued or running at once
	// (default 8), PerUser how many of them one user may have asked for
	// (default 2); a review takes seconds, so more would only wait long.
	Queue   int
	PerUser int
}

func (c ReviewConfig) withDefaults() ReviewConfig {
	if c.Depth <= 0 {
		c.Depth = 6
	}
	if c.Nodes <= 0 {
		c.Nodes = 40_000
	}
	if c.Queue <= 0 {
		c.Queue = 8
	}
	if c.PerUser <= 0 {
		c.PerUser = 2
	}
	return c
}

// reviews is the review worker: a queue run by one goroutine, and the
// games queued or being reviewed with who asked for each.
type reviews struct {
	queue   taskQueue
	mu      sync.Mutex
	pending map[string]string // game → user
	ctx     context.Context   // ends reviews when the service stops
}

// Why a review was not queued.
var (
	errReviewPending  = errors.New("the game is being reviewed already")
	errReviewerBusy   = errors.New("the review queue is full")
	errReviewUserBusy = errors.New("the user's reviews fill their share of the queue")
)

// begin marks a game as being reviewed for a user, within the bounds of
// cfg; it writes nothing when it says why not.
func (r *reviews) begin(game, user string, cfg ReviewConfig) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pending == nil {
		r.pending = map[string]string{}
	}
	if _, ok := r.pending[game]; ok {
		return errReviewPending
	}
	if len(r.pending) >= cfg.Queue {
		return errReviewerBusy
	}
	mine := 0
	for _, u := range r.pending {
		if u == user {
			mine++
		}
	}
	if mine >= cfg.PerUser {
		return errReviewUserBusy
	}
	r.pending[game] = user
	return nil
}

func (r *reviews) done(game string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.pending, game)
}

func (r *reviews) context() context.Context {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ctx == nil {
		return context.Background()
	}
	return r.ctx
}

func (r *reviews) setContext(ctx context.Context) {
	r.mu.Lock()
	r.ctx = ctx
	r.mu.Unlock()
}

func reviewKey(game string) string { return "review:" + game }

func (s *Service) cmdReview(c *call) []Reply {
	rec, replies := s.finishedGame(c, "its review")
	if rec == nil {
		return replies
	}
	if len(rec.Moves) == 0 {
		return s.fail(c, "%s ended before a move was played; there is nothing to review.", rec.ID)
	}
	rv, err := s.store.GameReview(rec.ID)
	switch {
	case err == nil && rv.Plies == len(rec.Moves):
		return s.reviewReplies(rec, rv)
	case err != nil && !errors.Is(err, storage.ErrNotFound):
		return s.internal(c, err)
	}
	cfg := s.after.reviewCfg.withDefaults()
	switch err := s.after.reviews.begin(rec.ID, c.User.ID, cfg); err {
	case errReviewPending:
		return []Reply{{Text: fmt.Sprintf("%s is being reviewed already; the results will be posted here.", rec.ID), Private: true}}
	case errReviewerBusy:
		return s.fail(c, "The reviewer is busy with %d games; try /review %s again in a minute.", cfg.Queue, rec.ID)
	case errReviewUserBusy:
		return s.fail(c, "The reviewer is busy with the %d reviews you asked for; try /review %s again in a minute, when they are posted.", cfg.PerUser, rec.ID)
	}
	s.log.Info("review queued", "game", rec.ID, "user", c.User.ID)
	channel, event := c.Channel, c.EventID
	s.after.reviews.queue.add(s.safely("review", func() {
		defer s.after.reviews.done(rec.ID)
		s.runReview(rec, channel, event)
	}))
	return []Reply{{
		Text: fmt.Sprintf("Reviewing %s: the engine goes over its %d positions…", rec.ID, len(rec.Moves)+1),
		Key:  reviewKey(rec.ID),
	}}
}

// runReview computes, stores and posts a review (on the review worker).
// The event that asked for it is recorded with the stored review, so a
// redelivery after a restart does not post it again; one that comes
// while the review runs finds the game pending.
func (s *Service) runReview(rec *storage.Game, channel, event string) {
	progress := func(text string) {
		s.post(Reply{Channel: channel, Edits: []Edit{{Key: reviewKey(rec.ID), Text: text}}})
	}
	rv, err := s.reviewGame(s.after.reviews.context(), rec, func(done, total int) {
		progress(fmt.Sprintf("Reviewing %s: %d of %d positions…", rec.ID, done, total))
	})
	if err != nil {
		s.log.Error("review failed", "game", rec.ID, "err", err)
		progress(fmt.Sprintf("The review of %s could not be finished; please try /review %s again later.", rec.ID, rec.ID))
		return
	}
	switch err := s.store.SaveReview(rv, event, s.now()); {
	case errors.Is(err, storage.ErrDuplicate):
		// Another process answered the same event with its own review.
		s.log.Info("review already posted", "game", rec.ID, "event", event)
		return
	case err != nil:
		s.log.Error("review not stored", "game", rec.ID, "err", err)
	}
	s.log.Info("review done", "game", rec.ID, "positions", len(rv.Scores))
	progress(fmt.Sprintf("Reviewed %s: %d positions at depth %d.", rec.ID, len(rv.Scores), rv.Depth))
	for _, r := range s.reviewReplies(rec, rv) {
		r.Channel = channel
		s.post(r)
	}
}

// reviewGame searches every position of a game with a fresh searcher
// and the configured budget; report is called a few times on the way.
func (s *Service) reviewGame(ctx context.Context, rec *storage.Game, report func(done, total int)) (*storage.Review, error) {
	v, err := engine.GetVariant(rec.Variant)
	if err != nil {
		return nil, err
	}
	g, err := engine.NewGame(v, rec.Start)
	if err != nil {
		return nil, err
	}
	cfg := s.after.reviewCfg
	rv := &storage.Review{Game: rec.ID, Plies: len(rec.Moves), Depth: cfg.Depth, Nodes: cfg.Nodes, Created: s.now()}
	searcher := search.NewSearcher()
	pos := g.Position().Clone()
	var hist []uint64
	total := len(rec.Moves) + 1
	step := max(1, total/4)
	for i := 0; i < total; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		score, best, err := evaluate(ctx, searcher, pos, hist, cfg)
		if err != nil {
			return nil, fmt.Errorf("position %d: %w", i, err)
		}
		rv.Scores = append(rv.Scores, score)
		rv.Best = append(rv.Best, best)
		if i == len(rec.Moves) {
			break
		}
		m, err := pos.ParseCanonical(rec.Moves[i])
		if err != nil {
			return nil, fmt.Errorf("move %d (%s): %w", i+1, rec.Moves[i], err)
		}
		hist = append(hist, pos.Hash)
		pos.Make(m)
		if (i+1)%step == 0 && i+1 < total {
			report(i+1, total)
		}
	}
	return rv, nil
}

// mateCP writes a found mate as centipawns: nearer mates score higher.
const mateCP = 10000

// evaluate searches one position: its score for the side to move and the
// best move; a position without moves is mate or stalemate.
func evaluate(ctx context.Context, searcher *search.Searcher, pos *engine.Position, hist []uint64, cfg ReviewConfig) (int, string, error) {
	return evaluateForced(ctx, searcher, pos, hist, cfg, 8)
}

// evaluateForced is evaluate; a forced move (which the searcher plays
// without searching) is followed, at most forced times, to score the
// position after it.
func evaluateForced(ctx context.Context, searcher *search.Searcher, pos *engine.Position, hist []uint64, cfg ReviewConfig, forced int) (int, string, error) {
	legal := pos.LegalMoves()
	switch {
	case len(legal) == 0 && pos.InCheck():
		return -mateCP, "", nil
	case len(legal) == 0:
		return 0, "", nil
	case len(legal) == 1 && forced > 0:
		next := pos.Clone()
		next.Make(legal[0])
		score, _, err := evaluateForced(ctx, searcher, next, append(hist[:len(hist):len(hist)], pos.Hash), cfg, forced-1)
		if score > mateCP/2 || score < -mateCP/2 {
			score -= sign(score) // one move further from the mate
		}
		return -score, pos.Canonical(legal[0]), err
	}
	m, info, err := searcher.Search(ctx, pos, search.Config{Depth: cfg.Depth, Nodes: cfg.Nodes, History: hist}, nil)
	if err != nil {
		return 0, "", err
	}
	score := max(-mateCP/2, min(mateCP/2, info.Score))
	switch {
	case info.Mate > 0:
		score = mateCP - info.Mate
	case info.Mate < 0:
		score = -mateCP - info.Mate
	}
	return score, pos.Canonical(m), nil
}

func sign(x int) int {
	if x < 0 {
		return -1
	}
	return 1
}
