package engine

// Chess 66 (RULES §7) rebuilt from the text: columns X and ranks, the step
// table of the special cells, and the switches {4, a4} and {5, h5}.

import (
	"fmt"
	"strings"
)

// Directions N, NE, E, SE, S, SW, W, NW.
var xoDirs = [8][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}

// xoC66Table is §7's table, row by row, directions N … NW ("" = none).
var xoC66Table = map[string][8]string{
	"4":  {"a5", "b5", "b4", "b3", "a3", "", "", ""},
	"a4": {"b5", "c5", "b4", "b3", "a3", "", "", "a5"},
	"5":  {"h6", "", "", "", "h4", "g4", "g5", "g6"},
	"h5": {"h6", "", "", "h4", "g4", "f4", "g5", "g6"},
}

type xoC66 struct {
	*xoGeo
	xr   [][2]int // (X, rank) by cell
	at   map[[2]int]int
	step [][8][]int // arrivals by cell and direction (an entered switch: both halves)
}

func xoBuildC66() (*xoC66, error) {
	k := &xoC66{xoGeo: &xoGeo{id: "chess66", byName: map[string]int{}, paths: map[byte][][][]int{}}, at: map[[2]int]int{}}
	add := func(name string, x, r int) {
		c := len(k.names)
		k.names = append(k.names, name)
		k.aliases = append(k.aliases, []string{name, strings.ToUpper(name)})
		k.byName[name] = c
		k.xr = append(k.xr, [2]int{x, r})
		k.at[[2]int{x, r}] = c
	}
	for r := 1; r <= 8; r++ {
		for f := 0; f < 8; f++ {
			x := f + 1
			if r >= 5 {
				x = f
			}
			add(fmt.Sprintf("%c%d", 'a'+f, r), x, r)
		}
	}
	add("4", 0, 4)
	add("5", 8, 5)
	N := len(k.names)
	k.partner = make([]int, N)
	for c := range k.partner {
		k.partner[c] = -1
	}
	pair := func(a, b string) {
		k.partner[k.byName[a]], k.partner[k.byName[b]] = k.byName[b], k.byName[a]
	}
	pair("4", "a4")
	pair("5", "h5")

	// A step onto either half enters the switch: the arrivals are both
	// halves, each continuing in the same direction.
	enter := func(t int) []int {
		if k.partner[t] >= 0 {
			return []int{t, k.partner[t]}
		}
		return []int{t}
	}
	k.step = make([][8][]int, N)
	for c, nm := range k.names {
		for d, v := range xoDirs {
			t := -1
			if row, ok := xoC66Table[nm]; ok {
				if row[d] != "" {
					t = k.byName[row[d]]
				}
			} else if !(nm == "a3" && d == 7) && !(nm == "h6" && d == 3) {
				if u, ok := k.at[[2]int{k.xr[c][0] + v[0], k.xr[c][1] + v[1]}]; ok {
					t = u
				}
			}
			if t >= 0 {
				k.step[c][d] = enter(t)
			}
		}
	}
	for _, nm := range []string{"4", "a4", "5", "h5", "a3", "b3", "b4", "a5", "b5", "c5", "h4", "g4", "f4", "h6", "g6", "g5", "a2", "h7", "b6", "g3"} {
		k.special = append(k.special, k.byName[nm])
	}

	k.king = make([][]int, N)
	for c := range k.names {
		seen := map[int]bool{}
		for d := range xoDirs {
			for _, t := range k.step[c][d] {
				if !seen[t] {
					seen[t] = true
					k.king[c] = append(k.king[c], t)
				}
			}
		}
	}

	// Rays, every fork expanded into its own path; a ray never re-enters a
	// cell it holds, the origin included.
	var walk func(origin, c, d int, path []int, out *[][]int)
	walk = func(origin, c, d int, path []int, out *[][]int) {
		grew := false
		for _, t := range k.step[c][d] {
			if t == origin || xoHas(path, t) {
				continue
			}
			grew = true
			walk(origin, t, d, append(append([]int(nil), path...), t), out)
		}
		if !grew && len(path) > 0 {
			*out = append(*out, path)
		}
	}
	for _, kind := range []byte("RBQ") {
		k.paths[kind] = make([][][]int, N)
		for c := range k.names {
			for d := range xoDirs {
				if (kind == 'R' && d%2 == 1) || (kind == 'B' && d%2 == 0) {
					continue
				}
				walk(c, c, d, nil, &k.paths[kind][c])
			}
		}
	}

	// Knights by the generic definition; and no move goes from one half
	// of a switch to the other.
	k.knight = make([][]int, N)
	for c := range k.names {
		drop := map[int]bool{c: true}
		if k.partner[c] >= 0 {
			drop[k.partner[c]] = true
		}
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

	// Pawns: White forward N, captures NE/NW, double steps from rank 2,
	// promotes on rank 8; Black mirrored with S, SE/SW, rank 7, rank 1.
	fwd := [2]int{0, 4}
	caps := [2][2]int{{1, 7}, {3, 5}}
	startRank := [2]string{"2", "7"}
	promoRank := [2]string{"8", "1"}
	for col := 0; col < 2; col++ {
		k.promo[col] = make([]bool, N)
		k.starts[col] = make([]bool, N)
		k.push[col] = make([][]int, N)
		k.capt[col] = make([][]int, N)
		k.double[col] = make([][][2]int, N)
		for c, nm := range k.names {
			k.promo[col][c] = len(nm) == 2 && nm[1:] == promoRank[col]
			k.push[col][c] = k.step[c][fwd[col]]
			k.capt[col][c] = append(append([]int(nil), k.step[c][caps[col][0]]...), k.step[c][caps[col][1]]...)
			if len(nm) == 2 && nm[1:] == startRank[col] {
				k.starts[col][c] = true
				for _, mid := range k.step[c][fwd[col]] {
					for _, t := range k.step[mid][fwd[col]] {
						k.double[col][c] = append(k.double[col][c], [2]int{mid, t})
					}
				}
			}
		}
	}

	for col, r := range []string{"1", "8"} {
		c := func(f string) int { return k.byName[f+r] }
		cs := func(files string) []int {
			var out []int
			for _, f := range files {
				out = append(out, c(string(f)))
			}
			return out
		}
		rights := [2]uint8{CastleWK, CastleWQ}
		if col == 1 {
			rights = [2]uint8{CastleBK, CastleBQ}
		}
		k.castle = append(k.castle,
			xoCastle{right: rights[0], col: col, kingFrom: c("e"), kingTo: c("g"), rookFrom: c("h"), rookTo: c("f"), between: cs("fg"), safe: cs("efg")},
			xoCastle{right: rights[1], col: col, kingFrom: c("e"), kingTo: c("c"), rookFrom: c("a"), rookTo: c("d"), between: cs("bcd"), safe: cs("edc")})
	}
	return k, nil
}

// startString is the orthodox start by cell names.
func (k *xoC66) startString() string {
	var t []string
	back := "RNBQKBNR"
	for f := 0; f < 8; f++ {
		l := string(rune('a' + f))
		t = append(t, back[f:f+1]+l+"1", "P"+l+"2", "p"+l+"7", strings.ToLower(back[f:f+1])+l+"8")
	}
	return "w " + strings.Join(t, ",") + " KQkq -"
}
