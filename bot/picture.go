package bot

import (
	"fmt"
	"strings"

	"topochess/engine"
	"topochess/render"
	"topochess/storage"
)

// orientation picks the side drawn at the bottom for a viewer: their
// setting, or with "auto" the side to move.
func (s *Service) orientation(userID string, pos *engine.Position) engine.Color {
	if userID != "" {
		if st, err := s.store.Settings(userID); err == nil {
			switch st.Orientation {
			case "white":
				return engine.White
			case "black":
				return engine.Black
			}
		}
	}
	return pos.Side
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
		Name:        name,
		PNG:         png,
		Alt:         render.AltText(pos, opt),
		Variant:     pos.V.ID,
		Orientation: opt.Orientation.String(),
		Game:        gameID,
	}, nil
}

// gamePicture draws a game's current position for a viewer.
func (s *Service) gamePicture(rec *storage.Game, pos *engine.Position, viewer string) (*Image, error) {
	o := s.orientation(viewer, pos)
	if rec.BotLevel > 0 {
		o = s.botGameOrientation(rec)
	}
	opt := boardOptions(rec, pos, o)
	return s.picture(pos, opt, fmt.Sprintf("%s-%d.png", rec.ID, len(rec.Moves)), rec.ID)
}
