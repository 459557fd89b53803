package engine

// Random positions for the cross-check, written as position strings so the
// engine's parser is exercised too: any piece anywhere (vertices, edges,
// switches favoured), pawns off their promotion cells, castling rights
// where king and rook stand ready, and en-passant rights that a double step
// really could have left.

import (
	"math/rand"
	"strings"
)

// randomPosition returns a position string and the reference's reading of
// it. ok is false when the side not to move came out in check (the string
// is still returned: the engine must refuse it). With lines set, the mover's
// king gets a queen line with an enemy rider on it and often one of its own
// pieces in between: checks and pins along forks, edges and turned lines.
func (g *xoGeo) randomPosition(rng *rand.Rand, lines bool) (s string, want *xoPos, ok bool) {
	N := len(g.names)
	b := make([]byte, N)
	cell := func() int {
		if len(g.special) > 0 && rng.Intn(5) < 2 {
			return g.special[rng.Intn(len(g.special))]
		}
		return rng.Intn(N)
	}
	// Pawns one step from promotion, so promotions come up often.
	var nearPromo [2][]int
	for col := 0; col < 2; col++ {
		for c := range b {
			for _, t := range append(append([]int(nil), g.push[col][c]...), g.capt[col][c]...) {
				if g.promo[col][t] && !g.promo[col][c] {
					nearPromo[col] = append(nearPromo[col], c)
					break
				}
			}
		}
	}
	place := func(pc byte) bool {
		for try := 0; try < 50; try++ {
			c := cell()
			if xoKind(pc) == 'P' && rng.Intn(4) == 0 {
				near := nearPromo[xoColor(pc)]
				c = near[rng.Intn(len(near))]
			}
			if !g.free(&xoPos{b: b}, c) {
				continue
			}
			if xoKind(pc) == 'P' && g.promo[xoColor(pc)][c] {
				continue
			}
			b[c] = pc
			return true
		}
		return false
	}
	side := rng.Intn(2)
	castle := uint8(0)
	// Now and then start from the castling setup so castling gets tried.
	if len(g.castle) > 0 && rng.Intn(3) == 0 {
		for _, cd := range g.castle {
			if rng.Intn(3) > 0 {
				b[cd.kingFrom] = xoLetter(cd.col, 'K')
				b[cd.rookFrom] = xoLetter(cd.col, 'R')
			}
		}
	}
	if lines {
		for try := 0; try < 20; try++ {
			k := (&xoPos{b: b}).kingOf(side)
			if k < 0 {
				k = cell()
			}
			if (b[k] != 0 && b[k] != xoLetter(side, 'K')) || len(g.paths['Q'][k]) == 0 {
				continue
			}
			path := g.paths['Q'][k][rng.Intn(len(g.paths['Q'][k]))]
			j := rng.Intn(len(path))
			if !g.free(&xoPos{b: b}, path[j]) {
				continue
			}
			b[k] = xoLetter(side, 'K')
			b[path[j]] = xoLetter(1-side, "QRB"[rng.Intn(3)])
			if i := rng.Intn(j + 1); i < j && rng.Intn(5) > 0 && g.free(&xoPos{b: b}, path[i]) {
				kind := "QRBNPP"[rng.Intn(6)]
				if kind != 'P' || !g.promo[side][path[i]] {
					b[path[i]] = xoLetter(side, kind)
				}
			}
			break
		}
	}
	for col := 0; col < 2; col++ {
		if !strings.ContainsRune(string(b), rune(xoLetter(col, 'K'))) {
			place(xoLetter(col, 'K'))
		}
	}
	n := rng.Intn(16)
	for i := 0; i < n; i++ {
		kind := "QRBNPPP"[rng.Intn(7)]
		place(xoLetter(rng.Intn(2), kind))
	}
	for _, cd := range g.castle {
		if b[cd.kingFrom] == xoLetter(cd.col, 'K') && b[cd.rookFrom] == xoLetter(cd.col, 'R') && rng.Intn(4) > 0 {
			castle |= cd.right
		}
	}
	// En passant: a pawn of the side not to move that has just
	// double-stepped, often with a pawn of the mover next to it.
	ep := "-"
	epSkip, epPawn := -1, -1
	if rng.Intn(3) == 0 {
		them := 1 - side
		var starts []int
		for c := range b {
			if g.starts[them][c] && len(g.double[them][c]) > 0 {
				starts = append(starts, c)
			}
		}
		if len(starts) > 0 {
			a := starts[rng.Intn(len(starts))]
			d := g.double[them][a][rng.Intn(len(g.double[them][a]))]
			p := &xoPos{b: b}
			if g.free(p, a) && g.free(p, d[0]) && g.free(p, d[1]) {
				b[d[1]] = xoLetter(them, 'P')
				epSkip, epPawn = d[0], d[1]
				ep = g.aliases[d[0]][rng.Intn(len(g.aliases[d[0]]))] + "/" + g.aliases[d[1]][rng.Intn(len(g.aliases[d[1]]))]
				if g.id == "chess66" && rng.Intn(2) == 0 {
					ep = g.names[d[0]] // §1.2: the skipped cell alone
				}
				if rng.Intn(4) > 0 {
					for _, c := range g.king[d[1]] {
						if g.free(p, c) && xoHas(g.capt[side][c], d[0]) && !g.promo[side][c] {
							b[c] = xoLetter(side, 'P')
							break
						}
					}
				}
			}
		}
	}
	var toks []string
	for c, pc := range b {
		if pc == 0 {
			continue
		}
		// Any accepted spelling of the cell will do.
		nm := g.aliases[c][rng.Intn(len(g.aliases[c]))]
		toks = append(toks, string(pc)+nm)
	}
	rng.Shuffle(len(toks), func(i, j int) { toks[i], toks[j] = toks[j], toks[i] })
	cs := ""
	for i, r := range []uint8{CastleWK, CastleWQ, CastleBK, CastleBQ} {
		if castle&r != 0 {
			cs += string("KQkq"[i])
		}
	}
	if cs == "" {
		cs = "-"
	}
	s = "wb"[side:side+1] + " " + strings.Join(toks, ",") + " " + cs + " " + ep + " 0 1"
	want = &xoPos{b: b, side: side, castle: castle, epSkip: epSkip, epPawn: epPawn}
	k := want.kingOf(1 - side)
	return s, want, k < 0 || !g.attacked(want, k, side)
}
