package engine

// The cube boards of RULES §6 rebuilt from the text: integer points, the
// face table, the neighbour relation, the fold rule for rays word for word,
// and D(c) by breadth-first search for pawns.

import (
	"fmt"
	"strings"
)

type xoPt [3]int

// xoFace is one row of the §6 face table.
type xoFace struct {
	axis, at int // the plane: coordinate axis equals at
	normal   xoPt
	file     func(p xoPt) int
	rank     func(p xoPt) int
}

func xoFaces(n int) [7]xoFace {
	m := n - 1
	return [7]xoFace{
		1: {2, m, xoPt{0, 0, 1}, func(p xoPt) int { return p[0] }, func(p xoPt) int { return p[1] }},
		2: {1, 0, xoPt{0, -1, 0}, func(p xoPt) int { return p[0] }, func(p xoPt) int { return p[2] }},
		3: {2, 0, xoPt{0, 0, -1}, func(p xoPt) int { return p[0] }, func(p xoPt) int { return m - p[1] }},
		4: {1, m, xoPt{0, 1, 0}, func(p xoPt) int { return p[0] }, func(p xoPt) int { return m - p[2] }},
		5: {0, 0, xoPt{-1, 0, 0}, func(p xoPt) int { return m - p[1] }, func(p xoPt) int { return p[2] }},
		6: {0, m, xoPt{1, 0, 0}, func(p xoPt) int { return m - p[1] }, func(p xoPt) int { return m - p[2] }},
	}
}

// xoCube keeps the 3-D picture next to the flat lists.
type xoCube struct {
	*xoGeo
	n     int
	pts   []xoPt
	at    map[xoPt]int
	faces [7]xoFace
}

func (k *xoCube) onFace(p xoPt, f int) bool { return p[k.faces[f].axis] == k.faces[f].at }

func (k *xoCube) facesOf(p xoPt) []int {
	var fs []int
	for f := 1; f <= 6; f++ {
		if k.onFace(p, f) {
			fs = append(fs, f)
		}
	}
	return fs
}

func (k *xoCube) inside(p xoPt) bool {
	for _, v := range p {
		if v < 0 || v >= k.n {
			return false
		}
	}
	return true
}

func (k *xoCube) vertex(c int) bool { return len(k.facesOf(k.pts[c])) == 3 }

func xoSign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// next is one ray step exactly as §6 words it: c+d if that lies inside
// the cube; otherwise zero the components of the crossed faces, add minus
// the outward normals of c's other faces, reduce to signs, and step.
func (k *xoCube) next(c xoPt, d xoPt) (xoPt, xoPt) {
	s := xoPt{c[0] + d[0], c[1] + d[1], c[2] + d[2]}
	if k.inside(s) {
		return s, d
	}
	nd := d
	var other []int
	for _, f := range k.facesOf(c) {
		a := k.faces[f].axis
		if s[a] < 0 || s[a] >= k.n {
			nd[a] = 0
		} else {
			other = append(other, f)
		}
	}
	for _, f := range other {
		for i := range nd {
			nd[i] -= k.faces[f].normal[i]
		}
	}
	for i := range nd {
		nd[i] = xoSign(nd[i])
	}
	return xoPt{c[0] + nd[0], c[1] + nd[1], c[2] + nd[2]}, nd
}

func xoNonZero(d xoPt) int {
	n := 0
	for _, v := range d {
		if v != 0 {
			n++
		}
	}
	return n
}

// cubeStarts are the pawn cells of the two armies (double-step cells).
func xoBuildCube(n int) (*xoCube, error) {
	k := &xoCube{xoGeo: &xoGeo{byName: map[string]int{}, paths: map[byte][][][]int{}}, n: n, at: map[xoPt]int{}, faces: xoFaces(n)}
	k.id = "cube"
	if n == 5 {
		k.id = "cube5"
	}
	m := n - 1
	for x := 0; x < n; x++ {
		for y := 0; y < n; y++ {
			for z := 0; z < n; z++ {
				p := xoPt{x, y, z}
				if len(k.facesOf(p)) > 0 {
					k.at[p] = len(k.pts)
					k.pts = append(k.pts, p)
				}
			}
		}
	}
	N := len(k.pts)
	k.names = make([]string, N)
	k.aliases = make([][]string, N)
	k.partner = make([]int, N)
	for c, p := range k.pts {
		k.partner[c] = -1
		for _, f := range k.facesOf(p) { // ascending: the first is canonical
			nm := fmt.Sprintf("%d%c%d", f, 'a'+k.faces[f].file(p), k.faces[f].rank(p)+1)
			if k.names[c] == "" {
				k.names[c] = nm
			}
			k.aliases[c] = append(k.aliases[c], nm)
			k.byName[nm] = c
		}
		if len(k.facesOf(p)) > 1 {
			k.special = append(k.special, c)
		}
	}

	// Neighbours: some face holds both and no coordinate differs by more
	// than one.
	k.king = make([][]int, N)
	ortho := make([][]int, N)
	diag := make([][]int, N)
	for a, p := range k.pts {
		for b, q := range k.pts {
			if a == b {
				continue
			}
			differ, far := 0, false
			for i := range p {
				if p[i] != q[i] {
					differ++
				}
				if p[i]-q[i] > 1 || q[i]-p[i] > 1 {
					far = true
				}
			}
			share := false
			for _, f := range k.facesOf(p) {
				share = share || k.onFace(q, f)
			}
			if !share || far {
				continue
			}
			k.king[a] = append(k.king[a], b)
			if differ == 1 {
				ortho[a] = append(ortho[a], b)
			} else {
				diag[a] = append(diag[a], b)
			}
		}
	}

	// Rays: every in-plane unit direction of every face of the origin that
	// leads to a cell of that face; rooks and bishops end at a vertex,
	// queens turn there; no ray re-enters a cell it holds.
	for _, kind := range []byte("RBQ") {
		k.paths[kind] = make([][][]int, N)
		for c, p := range k.pts {
			seenDir := map[xoPt]bool{}
			for _, f := range k.facesOf(p) {
				ax := k.faces[f].axis
				for dx := -1; dx <= 1; dx++ {
					for dy := -1; dy <= 1; dy++ {
						for dz := -1; dz <= 1; dz++ {
							d := xoPt{dx, dy, dz}
							nz := xoNonZero(d)
							if d[ax] != 0 || nz == 0 || seenDir[d] {
								continue
							}
							if (kind == 'R' && nz != 1) || (kind == 'B' && nz != 2) {
								continue
							}
							if !k.inside(xoPt{p[0] + dx, p[1] + dy, p[2] + dz}) {
								continue
							}
							seenDir[d] = true
							path, err := k.ray(c, d, kind != 'Q')
							if err != nil {
								return nil, err
							}
							k.paths[kind][c] = append(k.paths[kind][c], path)
						}
					}
				}
			}
		}
	}

	// Knights: two king steps, minus the origin, the king steps and the
	// first two cells of every rook and bishop ray on an empty board.
	k.knight = make([][]int, N)
	for c := range k.pts {
		drop := map[int]bool{c: true}
		for _, t := range k.king[c] {
			drop[t] = true
		}
		for _, kind := range []byte("RB") {
			for _, path := range k.paths[kind][c] {
				for i := 0; i < 2 && i < len(path); i++ {
					drop[path[i]] = true
				}
			}
		}
		got := map[int]bool{}
		for _, a := range k.king[c] {
			for _, t := range k.king[a] {
				if !drop[t] && !got[t] {
					got[t] = true
					k.knight[c] = append(k.knight[c], t)
				}
			}
		}
	}

	// Pawns.
	var promoNames, startNames [2][]string
	if n == 8 {
		for f := 0; f < 8; f++ {
			l := string(rune('a' + f))
			promoNames[0] = append(promoNames[0], "2"+l+"1")
			promoNames[1] = append(promoNames[1], "1"+l+"8")
			startNames[0] = append(startNames[0], "1"+l+"7", "4"+l+"2")
			startNames[1] = append(startNames[1], "2"+l+"2", "3"+l+"7")
		}
		startNames[0] = append(startNames[0], "5b7", "6b2")
		startNames[1] = append(startNames[1], "5g2", "6g7")
	} else {
		for c, p := range k.pts {
			if k.onFace(p, 3) {
				promoNames[0] = append(promoNames[0], k.names[c])
			}
			if k.onFace(p, 1) {
				promoNames[1] = append(promoNames[1], k.names[c])
			}
			border := p[0] == 0 || p[0] == m || p[1] == 0 || p[1] == m
			if k.onFace(p, 1) && border {
				startNames[0] = append(startNames[0], k.names[c])
			}
			if k.onFace(p, 3) && border {
				startNames[1] = append(startNames[1], k.names[c])
			}
		}
	}
	for col := 0; col < 2; col++ {
		k.promo[col] = make([]bool, N)
		k.starts[col] = make([]bool, N)
		D := make([]int, N)
		for c := range D {
			D[c] = -1
		}
		var queue []int
		for _, nm := range promoNames[col] {
			c := k.byName[nm]
			k.promo[col][c] = true
			D[c] = 0
			queue = append(queue, c)
		}
		for len(queue) > 0 {
			c := queue[0]
			queue = queue[1:]
			for _, t := range ortho[c] {
				if D[t] < 0 {
					D[t] = D[c] + 1
					queue = append(queue, t)
				}
			}
		}
		k.push[col] = make([][]int, N)
		k.capt[col] = make([][]int, N)
		k.double[col] = make([][][2]int, N)
		for c := range k.pts {
			for _, t := range ortho[c] {
				if D[t] == D[c]-1 {
					k.push[col][c] = append(k.push[col][c], t)
				}
			}
			for _, t := range diag[c] {
				if D[t] < D[c] {
					k.capt[col][c] = append(k.capt[col][c], t)
				}
			}
		}
		for _, nm := range startNames[col] {
			s := k.byName[nm]
			k.starts[col][s] = true
			for _, mid := range k.push[col][s] {
				if k.vertex(mid) {
					// "one more ray step" past a vertex would need the
					// rook/queen decision; no starting cell leads there.
					return nil, fmt.Errorf("%s: double step from %s through vertex %s", k.id, nm, k.names[mid])
				}
				ps, pm := k.pts[s], k.pts[mid]
				d := xoPt{pm[0] - ps[0], pm[1] - ps[1], pm[2] - ps[2]}
				to, _ := k.next(pm, d)
				if t, ok := k.at[to]; ok && D[t] == D[mid]-1 {
					k.double[col][s] = append(k.double[col][s], [2]int{mid, t})
				}
			}
		}
	}

	// Castling on `cube` (§6): king two cells along the home edge, the rook
	// onto the cell it passed.
	if n == 8 {
		cells := func(names ...string) []int {
			var out []int
			for _, nm := range names {
				out = append(out, k.byName[nm])
			}
			return out
		}
		for col, face := range []string{"1", "2"} {
			r := "8"
			if col == 1 {
				r = "1"
			}
			c := func(file string) int { return k.byName[face+file+r] }
			cs := func(files string) []int {
				var nm []string
				for _, f := range files {
					nm = append(nm, face+string(f)+r)
				}
				return cells(nm...)
			}
			rights := [2]uint8{CastleWK, CastleWQ}
			if col == 1 {
				rights = [2]uint8{CastleBK, CastleBQ}
			}
			k.castle = append(k.castle,
				xoCastle{right: rights[0], col: col, kingFrom: c("e"), kingTo: c("g"), rookFrom: c("h"), rookTo: c("f"), between: cs("fg"), safe: cs("efg")},
				xoCastle{right: rights[1], col: col, kingFrom: c("e"), kingTo: c("c"), rookFrom: c("a"), rookTo: c("d"), between: cs("bcd"), safe: cs("edc")})
		}
	}
	return k, nil
}

// ray walks one ray from cell c in direction d on an empty board.
func (k *xoCube) ray(c int, d xoPt, stopAtVertex bool) ([]int, error) {
	on := map[int]bool{c: true}
	var path []int
	p := k.pts[c]
	for {
		np, nd := k.next(p, d)
		t, ok := k.at[np]
		if !ok {
			return nil, fmt.Errorf("%s: ray from %s leaves the surface at %v", k.id, k.names[c], np)
		}
		if on[t] {
			return path, nil
		}
		on[t] = true
		path = append(path, t)
		if stopAtVertex && k.vertex(t) {
			return path, nil
		}
		p, d = np, nd
	}
}

// startString is §6's start position written from its text.
func (k *xoCube) startString() string {
	var w, b []string
	if k.n == 8 {
		back := "RNBQKBNR"
		for f := 0; f < 8; f++ {
			l := string(rune('a' + f))
			w = append(w, back[f:f+1]+"1"+l+"8", "P1"+l+"7", "P4"+l+"2")
			b = append(b, strings.ToLower(back[f:f+1])+"2"+l+"1", "p2"+l+"2", "p3"+l+"7")
		}
		w = append(w, "P5b7", "P6b2")
		b = append(b, "p5g2", "p6g7")
		return "w " + strings.Join(append(w, b...), ",") + " KQkq -"
	}
	w = strings.Split("Q1b4 Q1c4 B1d4 R1b3 K1c3 B1d3 R1b2 N1c2 N1d2", " ")
	b = strings.Split("q3b2 q3c2 b3d2 r3b3 k3c3 b3d3 r3b4 n3c4 n3d4", " ")
	for c, p := range k.pts {
		border := p[0] == 0 || p[0] == k.n-1 || p[1] == 0 || p[1] == k.n-1
		if k.onFace(p, 1) && border {
			w = append(w, "P"+k.names[c])
		}
		if k.onFace(p, 3) && border {
			b = append(b, "p"+k.names[c])
		}
	}
	return "w " + strings.Join(append(w, b...), ",") + " - -"
}
