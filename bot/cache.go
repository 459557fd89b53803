package bot

import (
	"sync"

	"topochess/engine"
	"topochess/storage"
)

// gameCache keeps replayed games so a move does not replay the whole
// game first. An entry is valid only for the stored revision it was made
// from, and is used and changed only under the game's lock.
type gameCache struct {
	mu  sync.Mutex
	max int
	m   map[string]cachedGame
}

type cachedGame struct {
	rev uint64
	g   *engine.Game
}

func newGameCache(max int) *gameCache {
	return &gameCache{max: max, m: map[string]cachedGame{}}
}

func (c *gameCache) get(id string, rev uint64) *engine.Game {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[id]; ok && e.rev == rev {
		return e.g
	}
	return nil
}

func (c *gameCache) put(id string, rev uint64, g *engine.Game) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[id]; !ok && len(c.m) >= c.max {
		for k := range c.m { // evict an arbitrary entry: cheap and good enough
			delete(c.m, k)
			break
		}
	}
	c.m[id] = cachedGame{rev, g}
}

func (c *gameCache) drop(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, id)
}

// game returns the engine game of a record (call under the game lock):
// from the cache when it holds this revision, else replayed.
func (s *Service) game(rec *storage.Game) (*engine.Game, error) {
	if g := s.cache.get(rec.ID, rec.Rev); g != nil {
		return g, nil
	}
	g, err := replay(rec)
	if err != nil {
		return nil, err
	}
	s.cache.put(rec.ID, rec.Rev, g)
	return g, nil
}

// save stores a changed game and keeps the cache in step: the engine
// game was changed in place, so on failure its entry must go.
// The outbox records of the replies reporting the change are written with
// it.
func (s *Service) save(c *call, rec *storage.Game, g *engine.Game, out ...*storage.Outgoing) error {
	if err := s.store.SaveGame(rec, c.EventID, c.Time, out...); err != nil {
		s.cache.drop(rec.ID)
		return err
	}
	s.rateGame(c, rec)
	s.cache.put(rec.ID, rec.Rev, g)
	s.botSaved(rec)
	s.followSaved(rec, g)
	return nil
}

// snapshot reads a game and a copy of its position under the game's
// lock, for commands that only look.
func (s *Service) snapshot(c *call, id string) (*storage.Game, *engine.Position, []Reply) {
	unlock := s.lockGame(id)
	defer unlock()
	rec, g, replies := s.loadLocked(c, id)
	if rec == nil {
		return nil, nil, replies
	}
	return rec, g.Position().Clone(), nil
}
