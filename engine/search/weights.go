package search

import (
	"embed"
	"encoding/json"
	"fmt"
	"path"

	"topochess/engine"
)

// The evaluation is a sum of weighted terms, each with a middlegame and an
// endgame weight blended by the material on the board. The weights are one
// flat vector per variant, laid out as below (every term is a pair: index
// 2i is the middlegame weight, 2i+1 the endgame one). A variant with a
// tuned file in weights/ (written by `topochess tune` from game results or
// from an outside engine's scores) plays with it; the others use
// defaultWeights.
const (
	wMaterial  = 0                                      // by kind (pawn … king; the king's unused)
	wMobility  = wMaterial + 14                         // per pseudo-legal destination, by kind
	wKingZone  = wMobility + 14                         // per attacked cell next to the king, scaled by enemy force
	wShield    = wKingZone + 2                          // per own pawn next to the king
	wProgress  = wShield + 2                            // pawn by pushes left to promotion (1..6)
	wBishops   = wProgress + 14                         // two bishops or more
	wTempo     = wBishops + 2                           // the side to move
	wPassed    = wTempo + 2                             // passed pawn by pushes left to promotion (1..6)
	wGuarded   = wPassed + 14                           // pawn guarded by an own pawn
	wStacked   = wGuarded + 2                           // pawn with an own pawn on its way
	wPawnHit   = wStacked + 2                           // enemy piece (not a pawn) attacked by a pawn
	wMobTable  = wPawnHit + 2                           // piece by kind and its destinations: [k][m] pairs, m < engine.MobilityBuckets
	wHanging   = wMobTable + 7*engine.MobilityBuckets*2 // piece attacked and not defended, by kind
	wKingTable = wHanging + 14                          // attacked cells next to the king, by count (capped), scaled by enemy force
	wThreat    = wKingTable + 2*kingTableSize           // enemy piece attacked, by attacker group, victim kind and whether it is defended: [g][k][d] pairs
	wKingGroup = wThreat + 2*attackGroups*victimKinds*2 // attacked cells next to the king, by attacker group, scaled by enemy force
	wPassKing  = wKingGroup + 2*attackGroups            // passed pawn by the own king's, then the enemy king's, distance to it (capped): [2][passKingDist] pairs
	wCheck     = wPassKing + 2*2*passKingDist           // cells from which an enemy knight, bishop, rook or queen there could check the king, by kind and whether the king's side defends them: [k][d] pairs, scaled by enemy force
	wTropism   = wCheck + 2*4*2                         // knight, bishop, rook or queen by its king-step distance to the enemy king (capped): [k][dist] pairs
	wPawnKing  = wTropism + 2*4*kingDistCap             // pawn by its own king's, then the enemy king's, distance to it (capped): [2][dist] pairs
	wKingWeak  = wPawnKing + 2*2*kingDistCap            // cells next to the king the enemy attacks and no own piece but the king defends, by count (capped), scaled by enemy force
	wSafeMob   = wKingWeak + 2*kingWeakSize             // knight, bishop, rook or queen by its destinations no enemy pawn attacks: [k][m] pairs
	wLines     = wSafeMob + 2*4*engine.MobilityBuckets  // rook, queen or king on a line (a pawn's way through its cell, both ways) with no own pawn: [k][open] pairs, open when no pawn at all
	wOutpost   = wLines + 2*3*2                         // knight or bishop on a cell no enemy pawn can attack, now or after pushes: [k][guarded by an own pawn] pairs
	wIsolated  = wOutpost + 2*2*2                       // pawn with no own pawn on the lines next to its own
	wPushHit   = wIsolated + 2                          // enemy piece (not a pawn) a pawn would attack after a safe push
	wPhalanx   = wPushHit + 2                           // pawn with an own pawn of the same direction beside it (a king step away, as many pushes from promotion), by pushes left (1..6)
	wPassFree  = wPhalanx + 14                          // passed pawn that cannot push (every push cell taken), one whose free push cells the enemy all attacks, one whose whole way is empty and unattacked by the enemy, by pushes left (1..6): [3][7] pairs
	wKingKinds = wPassFree + 42                         // the kinds among knight, bishop, rook and queen that attack cells next to the king, as a set (bit k-Knight), scaled by enemy force: [16] pairs
	wImbalance = wKingKinds + 32                        // knight, bishop, rook or queen times the own, then the enemy, pawns on the board: [k][2] pairs
	wPairs     = wImbalance + 16                        // pairs of pieces (knight to queen): own with own, by kinds a ≤ b ([10] pairs), then own with enemy, by kinds a < b ([6] pairs)
	wDrawn     = wPairs + 32                            // the endgame's share, in 64ths, in the endings where the side ahead seldom wins, by class (drawnClass; two classes a pair), fitted as a factor of the endgame score
	wPST       = wDrawn + drawnClasses                  // by kind and cell class: [k][class] pairs
)

// imbalanceIndex is the index of the middlegame weight of a knight,
// bishop, rook or queen (k) counted once per own pawn on the board, or per
// enemy one.
func imbalanceIndex(k engine.Kind, enemy bool) int {
	i := wImbalance + 4*int(k-engine.Knight)
	if enemy {
		i += 2
	}
	return i
}

// imbalanceCounts calls f with the index and the count of every
// imbalance weight of colour c (count: pieces by colour and kind): each
// knight, bishop, rook and queen once per own pawn, then once per enemy
// pawn.
func imbalanceCounts(count *[2][engine.King]int32, c int, f func(i int, n int32)) {
	for k := engine.Knight; k < engine.King; k++ {
		n := count[c][k]
		if n == 0 {
			continue
		}
		if own := n * count[c][engine.Pawn]; own != 0 {
			f(imbalanceIndex(k, false), own)
		}
		if enemy := n * count[1-c][engine.Pawn]; enemy != 0 {
			f(imbalanceIndex(k, true), enemy)
		}
	}
}

// pairIndex is the index of the middlegame weight of a pair of pieces,
// kinds a and b from knight to queen: both of one side (a ≤ b), or a of
// one side and b of the other (a < b; a pair of one kind, one on each
// side, counts the same for both, and b against a is a against b with
// the sign turned).
func pairIndex(a, b engine.Kind, enemy bool) int {
	x, y := int(a-engine.Knight), int(b-engine.Knight)
	if enemy {
		return wPairs + 20 + 2*(4*x-x*(x+1)/2+y-x-1)
	}
	return wPairs + 2*(4*x-x*(x-1)/2+y-x)
}

// pairCounts calls f with the index and the number of every pair of
// pieces of colour c (count: pieces by colour and kind): two of its own,
// and one of its own of kind a with an enemy one of a later kind b.
func pairCounts(count *[2][engine.King]int32, c int, f func(i int, n int32)) {
	for a := engine.Knight; a < engine.King; a++ {
		na := count[c][a]
		if na == 0 {
			continue
		}
		if n := na * (na - 1) / 2; n != 0 {
			f(pairIndex(a, a, false), n)
		}
		for b := a + 1; b < engine.King; b++ {
			if n := na * count[c][b]; n != 0 {
				f(pairIndex(a, b, false), n)
			}
			if n := na * count[1-c][b]; n != 0 {
				f(pairIndex(a, b, true), n)
			}
		}
	}
}

// The drawn classes (drawnClass): the endings where the side ahead seldom
// wins, each with its share of the endgame score in 64ths (wDrawn).
const (
	drawnMinor      = 1 // no pawns, a bishop's worth of pieces at most
	drawnExchange   = 2 // no pawns, a bishop's worth more at most
	drawnCorner     = 3 // pawns that all promote on one corner the own bishops cannot reach, the enemy king next to it
	drawnBishops    = 4 // a bishop each on cells of different shades, nothing else but pawns
	drawnBishopsAnd = 5 // a bishop each on different shades, equal pieces beside them
	drawnPawns      = 5 // drawnPawns+k: k pawns (1 to 3), a bishop's worth of pieces more at most
	drawnClasses    = drawnPawns + 3
)

// drawnClass sorts the endings where the side ahead seldom wins. The side
// the endgame score favours (egWhite: White's minus Black's) has at most a
// bishop's worth of pieces more than the other (force, by colour; pawns
// and bishops: their counts); then, in order: with no pawns, at most a
// bishop's worth of pieces in all is drawnMinor and more drawnExchange; a
// side with no pieces but bishops whose pawns all promote on a corner its
// bishops cannot reach, the enemy king on it or next to it, is
// drawnCorner; a bishop each on cells of different shades (cells no
// bishop move joins) is drawnBishops with no other pieces, or
// drawnBishopsAnd with equal force; else one to three pawns are
// drawnPawns+k. The endgame score is then cut to w[wDrawn+class-1] 64ths.
// 0: none of them.
func drawnClass(p *engine.Position, bi *boardInfo, egWhite int32, force, pawns, bishops [2]int32) int {
	s := 0
	switch {
	case egWhite == 0:
		return 0
	case egWhite < 0:
		s = 1
	}
	o := 1 - s
	if force[s]-force[o] > value[engine.Bishop] {
		return 0
	}
	if pawns[s] == 0 {
		if force[s] <= value[engine.Bishop] {
			return drawnMinor
		}
		return drawnExchange
	}
	onlyBishops := force[s] == bishops[s]*value[engine.Bishop]
	pairBishops := bishops[0] == 1 && bishops[1] == 1
	if onlyBishops || pairBishops {
		shades, corner := bi.bishopShades(p, engine.Color(s))
		if onlyBishops && corner >= 0 && shades[s]&bi.shadeBit(corner) == 0 && p.King[o] >= 0 && bi.kingDist[int(p.King[o])*bi.n+corner] <= 1 {
			return drawnCorner
		}
		if pairBishops && shades[0] != shades[1] {
			switch {
			case force[s] == value[engine.Bishop] && force[o] == value[engine.Bishop]:
				return drawnBishops
			case force[s] == force[o]:
				return drawnBishopsAnd
			}
		}
	}
	if pawns[s] <= 3 {
		return drawnPawns + int(pawns[s])
	}
	return 0
}

// shadeBit is the bit of the cell's shade: the set of cells its bishop
// moves join.
func (bi *boardInfo) shadeBit(cell int) uint64 { return 1 << bi.shade[cell] }

// bishopShades returns the shades of each side's bishops (as bits) and the
// corner on which every pawn of side s promotes, or -1 when they do not
// all promote on one corner.
func (bi *boardInfo) bishopShades(p *engine.Position, s engine.Color) (shades [2]uint64, corner int) {
	corner = -2
	for c, pc := range p.Board {
		switch {
		case pc.Kind() == engine.Bishop:
			shades[pc.Color()] |= bi.shadeBit(c)
		case pc.Kind() == engine.Pawn && pc.Color() == s:
			k := int(bi.promoCorner[s][pc.Dir()][c])
			if corner == -2 || corner == k {
				corner = k
			} else {
				corner = -1
			}
		}
	}
	return shades, max(corner, -1)
}

// blend is a side's score from its middlegame and endgame parts, the
// endgame's counting share/64 of its due (phaseNum/phaseDen: the
// middlegame's share).
func blend(mg, eg, phaseNum, phaseDen, share int32) int32 {
	if share == 64 {
		return (mg*phaseNum + eg*(phaseDen-phaseNum)) / phaseDen
	}
	return int32((int64(mg)*int64(phaseNum)*64 + int64(eg)*int64(phaseDen-phaseNum)*int64(share)) / (64 * int64(phaseDen)))
}

// checkIndex is the index of the middlegame weight of a cell from which an
// enemy piece of kind k (knight to queen) reaching it would give check.
func checkIndex(k engine.Kind, defended bool) int {
	i := wCheck + 4*int(k-engine.Knight)
	if defended {
		i += 2
	}
	return i
}

// kingDistCap is the number of king distances the tropism and pawn-king
// tables tell apart; farther counts as the last.
const kingDistCap = 8

// kingWeakSize is the number of entries of the weak king-zone table.
const kingWeakSize = 8

// tropismIndex is the index of the middlegame weight of a knight, bishop,
// rook or queen (k) dist king steps from the enemy king.
func tropismIndex(k engine.Kind, dist uint8) int {
	return wTropism + 2*(int(k-engine.Knight)*kingDistCap+int(min(dist, kingDistCap-1)))
}

// pawnKingIndex is the index of the middlegame weight of a pawn dist king
// steps from its own king, or from the enemy's.
func pawnKingIndex(enemy bool, dist uint8) int {
	i := wPawnKing + 2*int(min(dist, kingDistCap-1))
	if enemy {
		i += 2 * kingDistCap
	}
	return i
}

// safeMobIndex is the index of the middlegame weight of a knight, bishop,
// rook or queen with the given number of safe destinations.
func safeMobIndex(k engine.Kind, safe int) int {
	return wSafeMob + 2*(int(k-engine.Knight)*engine.MobilityBuckets+min(safe, engine.MobilityBuckets-1))
}

// lineIndex is the index of the middlegame weight of a rook, queen or
// king (k) on a line with no own pawn, with no pawn at all when open.
func lineIndex(k engine.Kind, open bool) int {
	i := wLines + 4*int(k-engine.Rook)
	if open {
		i += 2
	}
	return i
}

// outpostIndex is the index of the middlegame weight of a knight or
// bishop (k) on a cell no enemy pawn can attack, guarded by an own pawn
// or not.
func outpostIndex(k engine.Kind, guarded bool) int {
	i := wOutpost + 4*int(k-engine.Knight)
	if guarded {
		i += 2
	}
	return i
}

// passKingDist is the number of king distances to a passed pawn the
// weights tell apart; farther counts as the last.
const passKingDist = 8

// passKingIndex is the index of the middlegame weight of a passed pawn
// with a king dist king steps away: its own king, or the enemy's.
func passKingIndex(enemy bool, dist uint8) int {
	i := wPassKing + 2*int(min(dist, passKingDist-1))
	if enemy {
		i += 2 * passKingDist
	}
	return i
}

// The attackers are told apart by group (groupKinds): pawns, knights and
// bishops, rooks, queens, the king. The victims of a threat are pawns,
// knights, bishops, rooks and queens (kinds 1 to victimKinds).
const (
	attackGroups = 5
	victimKinds  = 5
)

// groupKinds are the kinds of each attacker group (a kind twice when alone).
var groupKinds = [attackGroups][2]engine.Kind{{engine.Pawn, engine.Pawn}, {engine.Knight, engine.Bishop}, {engine.Rook, engine.Rook}, {engine.Queen, engine.Queen}, {engine.King, engine.King}}

// threatIndex is the index of the middlegame weight of a piece of kind
// victim attacked by attacker group g, defended or not.
func threatIndex(g int, victim engine.Kind, defended bool) int {
	i := wThreat + ((g*victimKinds+int(victim)-1)*2)*2
	if defended {
		i += 2
	}
	return i
}

// kingTableSize is the number of entries of the king-zone table; more
// attacked cells count as the last.
const kingTableSize = 16

// TermNames name the groups of weights, in order, for tune's --terms.
var TermNames = []string{"material", "mobility", "kingzone", "shield", "progress", "bishops", "tempo", "passed", "guarded", "stacked", "pawnhit", "mobtable", "hanging", "kingtable", "threats", "kinggroups", "passking", "checks", "tropism", "pawnking", "kingweak", "safemob", "lines", "outposts", "isolated", "pushhit", "phalanx", "passfree", "kingkinds", "imbalance", "pairs", "drawn", "cells"}

var termStart = []int{wMaterial, wMobility, wKingZone, wShield, wProgress, wBishops, wTempo, wPassed, wGuarded, wStacked, wPawnHit, wMobTable, wHanging, wKingTable, wThreat, wKingGroup, wPassKing, wCheck, wTropism, wPawnKing, wKingWeak, wSafeMob, wLines, wOutpost, wIsolated, wPushHit, wPhalanx, wPassFree, wKingKinds, wImbalance, wPairs, wDrawn, wPST}

// TermRange is the index range of a named group of weights in a weight
// vector of length n.
func TermRange(name string, n int) (lo, hi int, ok bool) {
	for i, t := range TermNames {
		if t == name {
			if i+1 < len(termStart) {
				return termStart[i], termStart[i+1], true
			}
			return termStart[i], n, true
		}
	}
	return 0, 0, false
}

// weightCount is the length of a variant's weight vector with nc cell
// classes (boardInfo.class).
func weightCount(nc int) int { return wPST + 7*nc*2 }

// pstIndex is the index of the middlegame weight of a piece of colour c
// and kind k on cell.
func (bi *boardInfo) pstIndex(c engine.Color, k engine.Kind, cell int) int {
	return wPST + (int(k)*bi.classes+int(bi.class[c][cell]))*2
}

// defaultWeights is the hand-set evaluation every board starts from:
// material, mobility, king zone and pawn progress, no cell tables.
func defaultWeights(nc int) []int32 {
	w := make([]int32, weightCount(nc))
	for k := range value {
		if engine.Kind(k) == engine.King {
			continue
		}
		w[wMaterial+2*k], w[wMaterial+2*k+1] = value[k], value[k]
		w[wMobility+2*k], w[wMobility+2*k+1] = mobWeight[k], mobWeight[k]
	}
	w[wKingZone], w[wKingZone+1] = -kingZoneHit, -kingZoneHit
	for d := 1; d < len(pawnBonus); d++ {
		// Pawn progress counts fully in the endgame, a third in the middlegame.
		w[wProgress+2*d], w[wProgress+2*d+1] = pawnBonus[d]/3, pawnBonus[d]
	}
	w[wTempo], w[wTempo+1] = tempo, tempo
	for i := range drawnClasses {
		w[wDrawn+i] = 64 // the whole endgame score
	}
	// Threats and checks: half the weights standard chess learned from
	// Stockfish's scores (its file of this change), as the king's safety
	// and a piece's are the same on every board.
	copy(w[wThreat:wKingGroup], handThreats[:])
	copy(w[wCheck:wTropism], handChecks[:])
	// The bishop pair, the king's pawn shield and the pawn-structure terms
	// stay at zero here: hand-set values (docs/ai.md) were not shown
	// stronger by arena; a learned weight file may set them.
	return w
}

// handThreats and handChecks are the hand-set threat and check weights,
// laid out as at wThreat and wCheck.
var (
	handThreats = [2 * attackGroups * victimKinds * 2]int32{
		6, -4, 0, -1, -7, -8, 12, 1, -13, 0, 9, 8, -1, -4, 11, 3, -15, -4, 6, 2, // pawns attacking P, N, B, R, Q
		5, 21, -7, 12, 14, 0, 11, 13, 12, -3, 20, 6, 14, 2, 27, 16, 14, 2, 37, 10, // knights and bishops
		8, 21, -3, 7, 9, 6, 13, 1, 15, 4, 14, 5, -2, 5, 0, -7, 34, 3, 44, 15, // rooks
		5, 3, -3, 11, 6, -9, 0, -5, 13, 3, 0, 14, 6, 1, -2, -6, -5, 0, 5, 0, // queens
		6, 31, 11, 18, -1, 15, -5, 4, 2, 5, 13, -5, 10, 0, 2, -9, 0, 0, 0, 0, // the king
	}
	handChecks = [2 * 4 * 2]int32{-36, -14, -2, -15, -4, -21, -5, -21, -45, -10, -14, -14, -10, -34, -2, -24} // knight, bishop, rook, queen
)

// WeightFile is a variant's tuned evaluation as `topochess tune` writes it.
type WeightFile struct {
	Variant string `json:"variant"`
	// How the weights were obtained, for the record.
	Games     int     `json:"games"`
	Positions int     `json:"positions"`
	K         float64 `json:"k"`
	LossStart float64 `json:"loss_start"`
	LossEnd   float64 `json:"loss_end"`
	// HeldOut are the same losses on positions from games left out of the fit.
	HeldOutStart float64 `json:"held_out_start"`
	HeldOutEnd   float64 `json:"held_out_end"`
	Weights      []int32 `json:"weights"`
}

//go:embed weights
var weightFiles embed.FS

// weightsFor returns the variant's tuned weights, or the default ones.
func weightsFor(v *engine.Variant, nc int) []int32 {
	data, err := weightFiles.ReadFile(path.Join("weights", v.ID+".json"))
	if err != nil {
		return defaultWeights(nc)
	}
	w, err := parseWeights(data, v, nc)
	if err != nil {
		// Only a broken build gets here; the tests load every file.
		panic(err)
	}
	return w
}

func parseWeights(data []byte, v *engine.Variant, nc int) ([]int32, error) {
	var f WeightFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("weights for %s: %w", v.ID, err)
	}
	if f.Variant != v.ID || len(f.Weights) != weightCount(nc) {
		return nil, fmt.Errorf("weights for %s: file is for %q with %d weights, want %d", v.ID, f.Variant, len(f.Weights), weightCount(nc))
	}
	return f.Weights, nil
}

// DefaultWeights is the hand-set weight vector of a variant, where a
// tuning starts.
func DefaultWeights(v *engine.Variant) []int32 { return defaultWeights(infoFor(v).classes) }

// Weights is the weight vector a variant plays with.
func Weights(v *engine.Variant) []int32 { return append([]int32(nil), infoFor(v).w...) }
