package web

import (
	"net/http"
	"strings"

	"topochess/bot"
	"topochess/engine"
	"topochess/render"
)

// Where a click on a board picture lands is read from render.CellMap, the
// renderer's one source of truth for where each cell is drawn. The page
// fetches the map of a picture (scaled to that picture's own pixels) and
// sends the cell it hit; a click sent as x, y is looked up in the same map.

// pictureMap is the cell map of a stored board picture in the picture's
// own pixels (the bot may draw at another size than the adapter's
// renderer: the map is scaled to the picture).
func (s *Server) pictureMap(img *storedImage) (*render.CellMap, *engine.Variant, bool) {
	if img.game == "" || img.variant == "" || img.w == 0 || img.h == 0 {
		return nil, nil, false
	}
	v, err := engine.GetVariant(img.variant)
	if err != nil {
		return nil, nil, false
	}
	o := engine.White
	if img.orientation == "black" {
		o = engine.Black
	}
	m := s.opt.Renderer.CellMap(v, o)
	if m.Width <= 0 || m.Height <= 0 {
		return nil, nil, false
	}
	sx, sy := float64(img.w)/float64(m.Width), float64(img.h)/float64(m.Height)
	out := &render.CellMap{Width: img.w, Height: img.h, Cells: make([]render.MapCell, len(m.Cells))}
	for i, c := range m.Cells {
		mc := render.MapCell{Cell: c.Cell, Polygons: make([][][2]float64, len(c.Polygons))}
		for j, poly := range c.Polygons {
			p := make([][2]float64, len(poly))
			for k, pt := range poly {
				p[k] = [2]float64{pt[0] * sx, pt[1] * sy}
			}
			mc.Polygons[j] = p
		}
		out.Cells[i] = mc
	}
	return out, v, true
}

// serveMap answers GET /api/map/{id}: the JSON cell map of a board picture.
func (s *Server) serveMap(w http.ResponseWriter, r *http.Request) {
	img, ok := s.image(r.PathValue("id"))
	if !ok {
		jsonError(w, http.StatusNotFound, "That picture is too old; type /board for a fresh one.")
		return
	}
	m, _, ok := s.pictureMap(img)
	if !ok {
		jsonError(w, http.StatusBadRequest, "That picture is not a game board.")
		return
	}
	writeJSON(w, http.StatusOK, m)
}

// cellIn finds the cell whose polygon holds the point; "" off the board.
func cellIn(m *render.CellMap, x, y float64) string {
	if !(x >= 0 && y >= 0 && x <= float64(m.Width) && y <= float64(m.Height)) {
		return ""
	}
	for _, c := range m.Cells {
		for _, p := range c.Polygons {
			if inPolygon(p, x, y) {
				return c.Cell
			}
		}
	}
	return ""
}

// inPolygon is the even-odd rule: a ray to the right crosses the edges of
// a polygon an odd number of times from inside.
func inPolygon(p [][2]float64, x, y float64) bool {
	in := false
	for i, j := 0, len(p)-1; i < len(p); j, i = i, i+1 {
		xi, yi, xj, yj := p[i][0], p[i][1], p[j][0], p[j][1]
		if (yi > y) != (yj > y) && x < (xj-xi)*(y-yi)/(yj-yi)+xi {
			in = !in
		}
	}
	return in
}

// cellNamed checks a cell the page found in the map: it must be a cell of
// the picture's board, and it is returned by its canonical name.
func cellNamed(v *engine.Variant, name string) string {
	if len(name) > 16 {
		return ""
	}
	c := v.Geo.Cell(strings.TrimSpace(name))
	if c < 0 {
		return ""
	}
	return v.Geo.Name(c)
}

// mover is the part of the bot that recognises a move typed without a
// command, as Telegram's plain-text moves use it; *bot.Service has it.
type mover interface {
	PlainMove(cmd bot.Command) (bot.Command, bool)
}

// plainMove turns a line typed without a slash into the /move it stands
// for, when it is a move by the player to move in one of their games
// here (d4, Nf3, a1-e8'); anything else stays chat.
func (s *Server) plainMove(se session, eventID, line string) (cmd bot.Command, ok bool) {
	m, isMover := s.h.(mover)
	if !isMover {
		return bot.Command{}, false
	}
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("plain move check panicked", "user", se.user.ID, "panic", p)
			cmd, ok = bot.Command{}, false
		}
	}()
	cmd = s.command(se, eventID)
	cmd.Name, cmd.Text = "move", line
	return m.PlainMove(cmd)
}

// tapper is the part of the bot that checks a step of tap-to-move;
// *bot.Service has it. A first click on a board shows the moves of any
// piece (/moves answers for both sides), but only a piece its player may
// move now is kept selected for the second click.
type tapper interface {
	Tap(cmd bot.Command, game string, ply int, path []string) (bot.TapMenu, *bot.Reply)
}

// movableFrom reports whether the clicking player may move the piece on
// cell now; true when the bot cannot tell.
func (s *Server) movableFrom(se session, game, cell string) (ok bool) {
	t, isTapper := s.h.(tapper)
	if !isTapper {
		return true
	}
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("tap check panicked", "user", se.user.ID, "panic", p)
			ok = true
		}
	}()
	_, refused := t.Tap(s.command(se, ""), game, -1, []string{cell})
	return refused == nil
}
