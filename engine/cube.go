package engine

import (
	"fmt"
	"strings"
)

// Chess on the surface of a cube (RULES §6): cells are the integer points
// on the surface of [0,n−1]³; edge cells belong to two faces, vertices to
// three.

func init() {
	register("cube", newCube8)
	register("cube5", newCube5)
}

type vec3 [3]int

func (a vec3) add(b vec3) vec3 { return vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func (a vec3) sub(b vec3) vec3 { return vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// cubeFace is one row of the face table of RULES §6: the face lies in the
// plane p[axis] = 0 or n−1 and is seen from outside with file to the right
// and rank upward.
type cubeFace struct {
	axis int
	high bool // plane at n−1 (outward normal positive)
}

var cubeFaces = [7]cubeFace{{}, {2, true}, {1, false}, {2, false}, {1, true}, {0, false}, {0, true}}

func (f cubeFace) normal() vec3 {
	var v vec3
	v[f.axis] = -1
	if f.high {
		v[f.axis] = 1
	}
	return v
}

// cubePoint is the point of file, rank (0-based) on a face.
func cubePoint(n, face, file, rank int) vec3 {
	m := n - 1
	switch face {
	case 1:
		return vec3{file, rank, m}
	case 2:
		return vec3{file, 0, rank}
	case 3:
		return vec3{file, m - rank, 0}
	case 4:
		return vec3{file, m, m - rank}
	case 5:
		return vec3{0, m - file, rank}
	default:
		return vec3{m, m - file, m - rank}
	}
}

// cubeFileRank is the inverse of cubePoint for a point on the face.
func cubeFileRank(n, face int, p vec3) (file, rank int) {
	m := n - 1
	switch face {
	case 1:
		return p[0], p[1]
	case 2:
		return p[0], p[2]
	case 3:
		return p[0], m - p[1]
	case 4:
		return p[0], m - p[2]
	case 5:
		return m - p[1], p[2]
	default:
		return m - p[1], m - p[2]
	}
}

// cubeBoard is the geometry under construction plus the 3-D facts the
// builders, the layout and the tests need.
type cubeBoard struct {
	n     int
	pts   []vec3
	index []int     // n³ grid → cell, −1 inside the cube
	faces []uint8   // bit f set when the cell lies on face f
	ortho [][]int16 // orthogonal king steps
	diag  [][]int16 // diagonal king steps
}

func (b *cubeBoard) inside(p vec3) bool {
	for _, x := range p {
		if x < 0 || x >= b.n {
			return false
		}
	}
	return true
}

// at is the cell at p, or −1 when p is off the surface.
func (b *cubeBoard) at(p vec3) int {
	if !b.inside(p) {
		return -1
	}
	return b.index[(p[0]*b.n+p[1])*b.n+p[2]]
}

func (b *cubeBoard) isVertex(c int) bool { return popcount8(b.faces[c]) == 3 }

func popcount8(x uint8) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

func newCubeBoard(n int) *cubeBoard {
	b := &cubeBoard{n: n, index: make([]int, n*n*n)}
	for i := range b.index {
		b.index[i] = -1
	}
	// Cells are numbered face by face, so a cell's canonical name (on its
	// lowest-numbered face) comes first in names.
	for face := 1; face <= 6; face++ {
		for rank := 0; rank < n; rank++ {
			for file := 0; file < n; file++ {
				p := cubePoint(n, face, file, rank)
				k := (p[0]*n+p[1])*n + p[2]
				if b.index[k] < 0 {
					b.index[k] = len(b.pts)
					b.pts = append(b.pts, p)
					b.faces = append(b.faces, 0)
				}
				b.faces[b.index[k]] |= 1 << face
			}
		}
	}
	return b
}

func cubeName(face, file, rank int) string {
	return fmt.Sprintf("%d%c%d", face, 'a'+file, rank+1)
}

// names lists the canonical names and every alias of each cell.
func (b *cubeBoard) names() (canon []string, aliases [][]string) {
	canon = make([]string, len(b.pts))
	aliases = make([][]string, len(b.pts))
	for c, p := range b.pts {
		for face := 1; face <= 6; face++ {
			if b.faces[c]&(1<<face) == 0 {
				continue
			}
			f, r := cubeFileRank(b.n, face, p)
			nm := cubeName(face, f, r)
			if canon[c] == "" {
				canon[c] = nm
			} else {
				aliases[c] = append(aliases[c], nm)
			}
		}
	}
	return canon, aliases
}

// buildSteps finds king steps: some face holds both cells and no
// coordinate differs by more than one.
func (b *cubeBoard) buildSteps() [][]int16 {
	kings := make([][]int16, len(b.pts))
	b.ortho = make([][]int16, len(b.pts))
	b.diag = make([][]int16, len(b.pts))
	for c, p := range b.pts {
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				for dz := -1; dz <= 1; dz++ {
					d := vec3{dx, dy, dz}
					q := b.at(p.add(d))
					if q < 0 || q == c || b.faces[c]&b.faces[q] == 0 {
						continue
					}
					kings[c] = append(kings[c], int16(q))
					if dx*dx+dy*dy+dz*dz == 1 {
						b.ortho[c] = append(b.ortho[c], int16(q))
					} else {
						b.diag[c] = append(b.diag[c], int16(q))
					}
				}
			}
		}
	}
	return kings
}

// startDirs is every in-plane unit direction d of every face holding p
// with p+d on that face, deduplicated as vectors and split into
// orthogonal and diagonal ones.
func (b *cubeBoard) startDirs(c int) (ortho, diag []vec3) {
	p := b.pts[c]
	seen := map[vec3]bool{}
	for face := 1; face <= 6; face++ {
		if b.faces[c]&(1<<face) == 0 {
			continue
		}
		ax := cubeFaces[face].axis
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				for dz := -1; dz <= 1; dz++ {
					d := vec3{dx, dy, dz}
					if d[ax] != 0 || d == (vec3{}) || seen[d] || !b.inside(p.add(d)) {
						continue
					}
					seen[d] = true
					if dx*dx+dy*dy+dz*dz == 1 {
						ortho = append(ortho, d)
					} else {
						diag = append(diag, d)
					}
				}
			}
		}
	}
	return ortho, diag
}

// next is one ray step of RULES §6: straight on while inside the cube;
// otherwise drop the components of the crossed planes, push away from the
// faces not crossed, and take signs.
func (b *cubeBoard) next(c int, d vec3) (int, vec3) {
	p := b.pts[c]
	q := p.add(d)
	if !b.inside(q) {
		crossed := [3]bool{}
		for i := range q {
			if q[i] < 0 || q[i] >= b.n {
				crossed[i] = true
				d[i] = 0
			}
		}
		for face := 1; face <= 6; face++ {
			if b.faces[c]&(1<<face) != 0 && !crossed[cubeFaces[face].axis] {
				d = d.sub(cubeFaces[face].normal())
			}
		}
		for i := range d {
			d[i] = sign(d[i])
		}
		q = p.add(d)
	}
	nc := b.at(q)
	if nc < 0 {
		panic(fmt.Sprintf("engine: cube ray from %v in %v leaves the surface", p, d))
	}
	return nc, d
}

// rayTree walks one unforked ray per start direction, stopping before a
// cell already on the ray and, when stopAtVertex, just after a vertex.
func (b *cubeBoard) rayTree(origin int, dirs []vec3, stopAtVertex bool) []rayNode {
	var out []rayNode
	for _, d := range dirs {
		start := len(out)
		onRay := map[int]bool{origin: true}
		c := origin
		for {
			nc, nd := b.next(c, d)
			if onRay[nc] {
				break
			}
			depth := len(out) - start + 1
			if depth > 127 {
				panic("engine: cube ray too long for rayNode.Depth")
			}
			out = append(out, rayNode{Cell: int16(nc), Depth: int8(depth)})
			onRay[nc] = true
			if stopAtVertex && b.isVertex(nc) {
				break
			}
			c, d = nc, nd
		}
		// An unforked ray's subtree at each node is the rest of the ray.
		for i := start; i < len(out); i++ {
			out[i].Skip = int16(len(out))
		}
	}
	return out
}

// cubeSide is one army's data on a cube variant.
type cubeSide struct {
	pawns []string // start pawn cells: the double-step cells
	promo func(p vec3) bool
}

// cubeVariant describes one of the two cube variants.
type cubeVariant struct {
	n        int
	sides    [2]cubeSide
	start    string
	castling bool
	// own14 is the face drawn with the 1/4 edge row in the picture.
	own14    int
	id, name string
	short    string
	rules    string
}

func buildCubeGeometry(cv *cubeVariant) (*Geometry, *cubeBoard) {
	b := newCubeBoard(cv.n)
	canon, aliases := b.names()
	g := newGeometry(canon)
	for c, as := range aliases {
		for _, a := range as {
			g.AddAlias(a, c)
		}
	}
	g.KingSteps = b.buildSteps()
	rook := make([][]rayNode, g.N)
	bishop := make([][]rayNode, g.N)
	queen := make([][]rayNode, g.N)
	for c := 0; c < g.N; c++ {
		o, d := b.startDirs(c)
		// Rook and bishop rays end at a vertex; the queen passes and turns.
		rook[c] = b.rayTree(c, o, true)
		bishop[c] = b.rayTree(c, d, true)
		queen[c] = b.rayTree(c, append(append([]vec3(nil), o...), d...), false)
	}
	g.setRays(Rook, rook)
	g.setRays(Bishop, bishop)
	g.setRays(Queen, queen)
	g.buildKnights()
	g.MayDup = true
	b.buildPawns(g, cv)
	g.Layout = b.layout(cv.own14)
	g.finish()
	return g, b
}

// distance is the orthogonal-step distance of every cell to a set.
func (b *cubeBoard) distance(in func(p vec3) bool) []int {
	dist := make([]int, len(b.pts))
	var queue []int
	for c, p := range b.pts {
		dist[c] = -1
		if in(p) {
			dist[c] = 0
			queue = append(queue, c)
		}
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, q := range b.ortho[c] {
			if dist[q] < 0 {
				dist[q] = dist[c] + 1
				queue = append(queue, int(q))
			}
		}
	}
	return dist
}

// buildPawns applies the distance rule of RULES §6. Direction does not
// matter on the cube, so both direction slots get the same tables.
func (b *cubeBoard) buildPawns(g *Geometry, cv *cubeVariant) {
	for col := 0; col < 2; col++ {
		side := cv.sides[col]
		dist := b.distance(side.promo)
		starts := map[int]bool{}
		for _, nm := range side.pawns {
			c := g.Cell(nm)
			if c < 0 {
				panic("engine: cube pawn cell " + nm)
			}
			starts[c] = true
		}
		push := make([][]int16, g.N)
		caps := make([][]int16, g.N)
		dbl := make([][][2]int16, g.N)
		promo := make([]bool, g.N)
		for c := 0; c < g.N; c++ {
			promo[c] = dist[c] == 0
			for _, a := range b.ortho[c] {
				if dist[a] != dist[c]-1 {
					continue
				}
				push[c] = append(push[c], a)
				if !starts[c] {
					continue
				}
				// One more ray step in the same direction. No start cell
				// has a vertex as its first step, so the vertex stop of
				// rook rays never arises here.
				nb, _ := b.next(int(a), b.pts[a].sub(b.pts[c]))
				if dist[nb] == dist[a]-1 {
					dbl[c] = append(dbl[c], [2]int16{a, int16(nb)})
				}
			}
			for _, t := range b.diag[c] {
				if dist[t] < dist[c] {
					caps[c] = append(caps[c], t)
				}
			}
		}
		for dir := 0; dir < 2; dir++ {
			g.PawnPush[col][dir], g.PawnCap[col][dir], g.PawnDouble[col][dir], g.Promo[col][dir] = push, caps, dbl, promo
		}
	}
}

// cellRange names cells face+file+rank for files from..to on one rank.
func cellRange(face int, from, to byte, rank int) []string {
	var out []string
	for f := from; f <= to; f++ {
		out = append(out, fmt.Sprintf("%d%c%d", face, f, rank))
	}
	return out
}

func cubeStart(white, black []string, pieces string, castle string) string {
	var toks []string
	toks = append(toks, pieces)
	for _, c := range white {
		toks = append(toks, "P"+c)
	}
	for _, c := range black {
		toks = append(toks, "p"+c)
	}
	return "w " + strings.Join(toks, ",") + " " + castle + " - 0 1"
}

func newCubeVariant(cv *cubeVariant) *Variant {
	g, _ := buildCubeGeometry(cv)
	v := &Variant{ID: cv.id, Name: cv.name, Short: cv.short, Rules: cv.rules, Geo: g, Start: cv.start}
	if cv.castling {
		v.Castling = []CastleDef{
			castleByNames(g, White, CastleWK, "1e8", "1g8", "1h8", "1f8", []string{"1f8", "1g8"}, []string{"1e8", "1f8", "1g8"}),
			castleByNames(g, White, CastleWQ, "1e8", "1c8", "1a8", "1d8", []string{"1b8", "1c8", "1d8"}, []string{"1e8", "1d8", "1c8"}),
			castleByNames(g, Black, CastleBK, "2e1", "2g1", "2h1", "2f1", []string{"2f1", "2g1"}, []string{"2e1", "2f1", "2g1"}),
			castleByNames(g, Black, CastleBQ, "2e1", "2c1", "2a1", "2d1", []string{"2b1", "2c1", "2d1"}, []string{"2e1", "2d1", "2c1"}),
		}
	}
	return v
}

// cubeRules is the part of the players' rules both cubes share; aliases is
// an example of a corner's three names on that board.
func cubeRules(aliases string) string {
	return "• Edge cells belong to two faces and corner cells to three; every name of a cell works (" + aliases + ").\n" +
		"• Lines run straight over the edges of the cube. Rooks and bishops may stop or capture on a corner cell but never pass it; a queen passes through a corner and turns there: a diagonal becomes a straight line along the far edge, a straight line becomes a diagonal of the far face.\n" +
		"• Knights go to the cells two king steps away, except the cells next to the knight and the first two cells of every rook and bishop line from it (on an empty board).\n" +
		"• Pawns always move toward their promotion cells: a pawn steps straight onto any neighbour that is one step closer and captures diagonally onto any neighbour that is closer. Near the side faces and corners a pawn can have two forward cells. A pawn still on one of its side's starting pawn cells may move two cells in a straight line; en passant works as usual.\n"
}

func newCube8() *Variant {
	white := append(append(cellRange(1, 'a', 'h', 7), cellRange(4, 'a', 'h', 2)...), "5b7", "6b2")
	black := append(append(cellRange(2, 'a', 'h', 2), cellRange(3, 'a', 'h', 7)...), "5g2", "6g7")
	return newCubeVariant(&cubeVariant{
		n: 8,
		sides: [2]cubeSide{
			{white, func(p vec3) bool { return p[1] == 0 && p[2] == 0 }},
			{black, func(p vec3) bool { return p[1] == 7 && p[2] == 7 }},
		},
		start: cubeStart(white, black,
			"R1a8,N1b8,B1c8,Q1d8,K1e8,B1f8,N1g8,R1h8,r2a1,n2b1,b2c1,q2d1,k2e1,b2f1,n2g1,r2h1", "KQkq"),
		castling: true,
		// Faces 3 and 4 then read as one board with both armies' pieces.
		own14: 4,
		id:    "cube",
		name:  "Cube chess",
		short: "Six 8×8 faces glued into a cube that share their edge cells (296 cells).",
		rules: "Cube chess: the board is the surface of a cube, six 8×8 faces numbered 1–6; a cell is named face, file, rank, like 1e4.\n" +
			cubeRules("1a8 = 4a1 = 5a8") +
			"• White starts on the edge where faces 1 and 4 meet (king on 1e8), Black on the edge of faces 2 and 3 (king on 2e1), each with pawns in front of and behind its pieces and next to its corner rooks on faces 5 and 6.\n" +
			"• White promotes on Black's home edge (2a1–2h1), Black on White's (1a8–1h8).\n" +
			"• Castling as usual along the home edge: 1e8-1g8 or 1e8-1c8 for White, 2e1-2g1 or 2e1-2c1 for Black.\n" +
			"• Otherwise FIDE rules; draws are automatic on threefold repetition, after 100 half-moves without a capture or pawn move, and with only the kings left.",
	})
}

func newCube5() *Variant {
	border := func(face int) []string {
		var out []string
		for r := 1; r <= 5; r++ {
			for f := byte('a'); f <= 'e'; f++ {
				if r == 1 || r == 5 || f == 'a' || f == 'e' {
					out = append(out, fmt.Sprintf("%d%c%d", face, f, r))
				}
			}
		}
		return out
	}
	white, black := border(1), border(3)
	return newCubeVariant(&cubeVariant{
		n: 5,
		sides: [2]cubeSide{
			{white, func(p vec3) bool { return p[2] == 0 }},
			{black, func(p vec3) bool { return p[2] == 4 }},
		},
		start: cubeStart(white, black,
			"Q1b4,Q1c4,B1d4,R1b3,K1c3,B1d3,R1b2,N1c2,N1d2,q3b2,q3c2,b3d2,r3b3,k3c3,b3d3,r3b4,n3c4,n3d4", "-"),
		// White's whole army stays on face 1.
		own14: 1,
		id:    "cube5",
		name:  "Cube chess 5×5",
		short: "A small cube of six 5×5 faces (98 cells); the armies start on opposite faces.",
		rules: "Cube chess 5×5: the board is the surface of a cube, six 5×5 faces numbered 1–6; a cell is named face, file, rank, like 1c3.\n" +
			cubeRules("1a5 = 4a1 = 5a5") +
			"• White starts on face 1 and Black on the opposite face 3, each with two queens and a ring of 16 pawns.\n" +
			"• White promotes on any cell of face 3, Black on any cell of face 1.\n" +
			"• No castling. Otherwise FIDE rules; draws are automatic on threefold repetition, after 100 half-moves without a capture or pawn move, and with only the kings left.",
	})
}
