package bot

import (
	"fmt"
	"strings"

	"topochess/engine"
	"topochess/render"
	"topochess/storage"
)

// Orientation rule (the /settings help says it too): a picture posted
// where both players and onlookers see it keeps one orientation for the
// whole game — White at the bottom, or against the computer the human's
// side (or their setting) — so coordinates do not jump between moves. A
// view meant for one player alone (a private or ephemeral reply) follows
// their /settings orientation; with "auto" it shows their own side at the
// bottom, or the game's shared orientation to someone not playing.

// sharedOrientation is the side at the bottom of a game's pictures posted
// for everyone.
func (s *Service) sharedOrientation(rec *storage.Game) engine.Color {
	if rec.BotLevel > 0 {
		return s.botGameOrientation(rec)
	}
	return engine.White
}

// viewOrientation is the side at the bottom of a picture of a game meant
// for one viewer alone.
func (s *Service) viewOrientation(rec *storage.Game, viewer string) engine.Color {
	if viewer != "" {
		if st, err := s.store.Settings(viewer); err == nil {
			switch st.Orientation {
			case "white":
				return engine.White
			case "black":
				return engine.Black
			}
		}
	}
	switch rec.ColorOf(viewer) {
	case "white":
		return engine.White
	case "black":
		return engine.Black
	}
	return s.sharedOrientation(rec)
}

// lastMove returns the cells of a canonical move ("e2-e4", "e7-e8=Q").
func lastMove(v *engine.Variant, canonical string) []int {
	body, _, _ := strings.Cut(canonical, "=")
	a, b, ok := strings.Cut(body, "-")
	if !ok {
		return nil
	}
	from, to := v.Geo.Cell(a), v.Geo.Cell(b)
	if from < 0 || to < 0 {
		return nil
	}
	return []int{from, to}
}

// boardOptions are the marks every game picture carries: the last move
// and a king in check.
func boardOptions(rec *storage.Game, pos *engine.Position, o engine.Color) render.Options {
	opt := render.Options{Orientation: o}
	if n := len(rec.Moves); n > 0 {
		opt.Last = lastMove(pos.V, rec.Moves[n-1])
	}
	if pos.InCheck() && pos.King[pos.Side] >= 0 {
		opt.Check = []int{int(pos.King[pos.Side])}
	}
	return opt
}

// picture draws a position into a reply image.
func (s *Service) picture(pos *engine.Position, opt render.Options, name, gameID string) (img *Image, err error) {
	// A drawing bug must not turn an applied move into an error reply.
	defer func() {
		if r := recover(); r != nil {
			img, err = nil, fmt.Errorf("render %s: panic: %v", name, r)
		}
	}()
	png, err := s.painter.PNG(pos, opt)
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", name, err)
	}
	return &Image{
		Name:        fileName(name),
		PNG:         png,
		Alt:         render.AltText(pos, opt),
		Variant:     pos.V.ID,
		Orientation: opt.Orientation.String(),
		Game:        gameID,
	}, nil
}

// gamePicture draws a game's current position to be posted for everyone.
func (s *Service) gamePicture(rec *storage.Game, pos *engine.Position) (*Image, error) {
	opt := boardOptions(rec, pos, s.sharedOrientation(rec))
	return s.picture(pos, opt, fmt.Sprintf("%s-%d.png", rec.ID, len(rec.Moves)), rec.ID)
}

// fileName keeps "#" of game ids out of file names: platforms put the
// name into attachment URLs, where "#" would start a fragment.
func fileName(name string) string { return strings.ReplaceAll(name, "#", "game") }
