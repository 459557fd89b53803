package engine

import "math/bits"

// The counter's pawns as masks: pawnBits where a pawn's targets lie in one
// word, pawnWide where they span two, only partly promote, or include two
// double steps.

// pawnBits is what a pawn of one colour and direction does from one cell,
// as masks of one word: its pushes, its double step (the cell skipped and
// the target) and its captures. ok is false where two of the pawn's
// targets are one cell (pawnCell.distinct), they span words, it has more
// than one double step, a double step promotes, or only some of its other
// targets promote; the counter then reads the tables. promo: every push
// and capture promotes (four moves each).
type pawnBits struct {
	push, double, cap uint64
	doubleTo          uint64
	word              uint8
	promo, ok         bool
}

func (g *Geometry) pawnBitsOf(c Color, d, o int) pawnBits {
	pt := &g.pawnAt[c][d][o]
	var pb pawnBits
	var all []int16
	all = append(append(all, pt.push...), pt.cap...)
	if len(pt.double) > 1 || !pt.distinct {
		return pb
	}
	for _, md := range pt.double {
		if g.Promo[c][d][md[1]] {
			return pb
		}
		all = append(all, md[0], md[1])
	}
	if len(all) == 0 {
		pb.ok = true
		return pb
	}
	pb.word = uint8(all[0] >> 6)
	for _, t := range all {
		if uint8(t>>6) != pb.word {
			return pb
		}
	}
	promos := 0
	for i, t := range pt.push {
		pb.push |= 1 << uint(t&63)
		if pt.promo[i] {
			promos++
		}
	}
	for i, t := range pt.cap {
		pb.cap |= 1 << uint(t&63)
		if pt.promoCap[i] {
			promos++
		}
	}
	for _, md := range pt.double {
		pb.double = 1<<uint(md[0]&63) | 1<<uint(md[1]&63)
		pb.doubleTo = 1 << uint(md[1]&63)
	}
	if promos != 0 && promos != len(pt.push)+len(pt.cap) {
		return pb
	}
	pb.promo = promos != 0
	pb.ok = true
	return pb
}

// countPawn counts the moves of a pawn with the tables pb.
func (o *occupancy) countPawn(pb *pawnBits) int {
	w := pb.word & 7
	all := o.all[w]
	n := bits.OnesCount64(pb.push&^all) + bits.OnesCount64(pb.cap&all&^o.own[w])
	if pb.promo {
		n *= 4
	}
	if pb.double != 0 && pb.double&all == 0 {
		n++
	}
	return n
}

// pawnWide is pawnBits for a pawn whose targets lie in two words, only
// some of which promote (a cube's pawn near an edge), or that has two
// double steps (Chess 66's, into either half of a switch): per word its
// pushes, captures and promoting targets, and per double step and word
// the cells it skips and lands on. ok is false where two targets are one
// cell, they span more words, the pawn has more double steps, or one
// promotes.
type pawnWide struct {
	push, cap, promo [2]uint64
	double           [2][2]uint64
	word             [2]uint8
	doubles          uint8
	ok               bool
}

func (g *Geometry) pawnWideOf(c Color, d, o int) pawnWide {
	pt := &g.pawnAt[c][d][o]
	var pw pawnWide
	if !pt.distinct || len(pt.double) > len(pw.double) {
		return pw
	}
	var words []int16
	slot := func(t int16) (int, bool) {
		for i, w := range words {
			if w == t>>6 {
				return i, true
			}
		}
		if len(words) == len(pw.word) {
			return 0, false
		}
		words = append(words, t>>6)
		pw.word[len(words)-1] = uint8(t >> 6)
		return len(words) - 1, true
	}
	put := func(masks *[2]uint64, t int16, promo bool) bool {
		i, ok := slot(t)
		if ok {
			masks[i] |= 1 << uint(t&63)
			if promo {
				pw.promo[i] |= 1 << uint(t&63)
			}
		}
		return ok
	}
	for i, t := range pt.push {
		if !put(&pw.push, t, pt.promo[i]) {
			return pawnWide{}
		}
	}
	for i, t := range pt.cap {
		if !put(&pw.cap, t, pt.promoCap[i]) {
			return pawnWide{}
		}
	}
	for i, md := range pt.double {
		if g.Promo[c][d][md[1]] || !put(&pw.double[i], md[0], false) || !put(&pw.double[i], md[1], false) {
			return pawnWide{}
		}
	}
	if len(words) == 1 {
		pw.word[1] = pw.word[0] // the second word's masks are empty
	}
	pw.doubles = uint8(len(pt.double))
	pw.ok = true
	return pw
}

// countPawnWide counts the moves of a pawn with the tables pw.
func (o *occupancy) countPawnWide(pw *pawnWide) int {
	w0, w1 := pw.word[0]&7, pw.word[1]&7
	all0, all1 := o.all[w0], o.all[w1]
	to0 := pw.push[0]&^all0 | pw.cap[0]&all0&^o.own[w0]
	to1 := pw.push[1]&^all1 | pw.cap[1]&all1&^o.own[w1]
	n := bits.OnesCount64(to0) + bits.OnesCount64(to1) +
		3*(bits.OnesCount64(to0&pw.promo[0])+bits.OnesCount64(to1&pw.promo[1]))
	if pw.doubles > 0 && pw.double[0][0]&all0|pw.double[0][1]&all1 == 0 {
		n++
	}
	if pw.doubles > 1 && pw.double[1][0]&all0|pw.double[1][1]&all1 == 0 {
		n++
	}
	return n
}
