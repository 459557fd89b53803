package render

import "topochess/engine"

// CellMap says where each cell is drawn in the pictures this renderer makes.
type CellMap struct {
	Width  int       `json:"width"`
	Height int       `json:"height"`
	Cells  []MapCell `json:"cells"`
}

// MapCell is one cell (its canonical name) and the polygon(s) it covers, in picture pixels.
type MapCell struct {
	Cell     string         `json:"cell"`
	Polygons [][][2]float64 `json:"polygons"`
}

// CellMap returns the map of the pictures r draws of variant v seen from side o.
// It is read from the same cached board the pictures are painted on, so a
// click on the map lands where the cell is drawn.
func (r *Renderer) CellMap(v *engine.Variant, o engine.Color) *CellMap {
	b := r.board(v, o)
	m := &CellMap{Width: b.t.w, Height: b.t.h}
	for c, idx := range b.byCell {
		if len(idx) == 0 {
			continue
		}
		mc := MapCell{Cell: v.Geo.Name(c)}
		for _, i := range idx {
			poly := make([][2]float64, len(b.shapes[i].poly))
			copy(poly, b.shapes[i].poly)
			mc.Polygons = append(mc.Polygons, poly)
		}
		m.Cells = append(m.Cells, mc)
	}
	return m
}
