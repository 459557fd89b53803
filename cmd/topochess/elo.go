package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// cmdElo rates players from the game lines of arena -v: one maximum-
// likelihood fit of a logistic Elo model over all games together (a draw
// is half a win), with engines playing at a set UCI_Elo as fixed anchors,
// and 95 % intervals by profile likelihood, also with the likelihood
// scaled to the spread the results show (docs/ai.md, "Measured ratings").
func cmdElo(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("elo", stderr)
	if err := fs.Parse(args); err != nil {
		return parseError(fs, stdout, stderr, err)
	}
	if fs.NArg() == 0 {
		return flagError(stderr, "elo", errors.New("name at least one file of arena -v output"))
	}
	var games []eloGame
	for _, name := range fs.Args() {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "elo: %v\n", err)
			return 1
		}
		gs, err := readEloGames(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "elo: %s: %v\n", name, err)
			return 1
		}
		games = append(games, gs...)
	}
	rows, err := fitElo(games)
	if err != nil {
		fmt.Fprintf(stderr, "elo: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%d games\n", len(games))
	for _, r := range rows {
		iv := "anchor"
		if !r.fixed {
			iv = fmt.Sprintf("95%% %s to %s", eloBound(r.lo), eloBound(r.hi))
		}
		sp := ""
		if r.spread > 0 {
			sp = fmt.Sprintf("by spread %s to %s", eloBound(r.slo), eloBound(r.shi))
		}
		est := fmt.Sprintf("%5.0f", r.elo)
		// A player who lost (or won) every game has no finite estimate:
		// the fit ran into the end of its range.
		switch {
		case math.IsInf(r.lo, -1) && r.elo < eloMin+100:
			est = "below " + eloBound(r.hi)
		case math.IsInf(r.hi, 1) && r.elo > eloMax-100:
			est = "above " + eloBound(r.lo)
		}
		fmt.Fprintf(stdout, "%-20s Elo %5s  %-18s  %-25s games %3d  %s\n", r.name, est, iv, sp, r.games, r.record)
	}
	return 0
}

func eloBound(x float64) string {
	if math.IsInf(x, 0) {
		if x < 0 {
			return "-inf"
		}
		return "+inf"
	}
	return fmt.Sprintf("%.0f", x)
}

// eloGame is one game: white's and black's names and white's score.
type eloGame struct {
	white, black string
	score        float64
}

var (
	eloGameLine = regexp.MustCompile(`^game \d+: (.+?) \(White\) vs (.+?) \(Black\): (1-0|0-1|1/2-1/2)`)
	eloAnchor   = regexp.MustCompile(`UCI_Elo=(\d+)`)
	eloOption   = regexp.MustCompile(`UCI_LimitStrength=(true|false)`)
)

// readEloGames reads the game lines of one arena -v output. An outside
// engine's players are anchored at the UCI_Elo named in the file (in the
// match's budget line or in a "###" note before the games, as a script
// running several matches into one file writes); a player is named
// "Name@Elo" then.
func readEloGames(r io.Reader) ([]eloGame, error) {
	type pending struct {
		g      eloGame
		anchor int // index into anchors, -1: the first one after
	}
	var lines []pending
	var anchors []string
	cur := -1
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := eloAnchor.FindStringSubmatch(line); m != nil {
			if o := eloOption.FindStringSubmatch(line); o != nil && o[1] == "false" {
				return nil, errors.New("UCI_LimitStrength=false: UCI_Elo does not apply")
			}
			anchors = append(anchors, m[1])
			if strings.HasPrefix(line, "###") {
				cur = len(anchors) - 1
			}
			continue
		}
		if strings.HasPrefix(line, "###") {
			cur = -1
			continue
		}
		m := eloGameLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		s := 0.5
		switch m[3] {
		case "1-0":
			s = 1
		case "0-1":
			s = 0
		}
		lines = append(lines, pending{eloGame{m[1], m[2], s}, cur})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	out := make([]eloGame, 0, len(lines))
	for _, p := range lines {
		a := ""
		switch {
		case p.anchor >= 0:
			a = anchors[p.anchor]
		case len(anchors) > 0:
			a = anchors[0]
		}
		p.g.white, p.g.black = anchoredName(p.g.white, a), anchoredName(p.g.black, a)
		out = append(out, p.g)
	}
	return out, nil
}

// anchoredName marks an outside engine (anything but a topochess level)
// with the strength it played at.
func anchoredName(name, anchor string) string {
	if anchor == "" || strings.HasPrefix(name, "level ") {
		return name
	}
	return name + "@" + anchor
}

// The range a rating is looked for in.
const eloMin, eloMax = -2000, 5000

type eloRow struct {
	name          string
	elo, lo, hi   float64
	games         int
	record        string
	fixed         bool
	fixedStrength float64
	// spread is the ratio of the score's observed spread to the model's
	// (0 when not computed), slo and shi the interval it gives.
	spread, slo, shi float64
}

// fitElo fits the free players' ratings; anchored players keep theirs.
func fitElo(games []eloGame) ([]eloRow, error) {
	idx := map[string]int{}
	var rows []eloRow
	for _, g := range games {
		for _, n := range []string{g.white, g.black} {
			if _, ok := idx[n]; ok {
				continue
			}
			idx[n] = len(rows)
			r := eloRow{name: n, elo: 1500}
			if at := strings.LastIndex(n, "@"); at >= 0 {
				if v, err := strconv.Atoi(n[at+1:]); err == nil {
					r.fixed, r.elo, r.fixedStrength = true, float64(v), float64(v)
				}
			}
			rows = append(rows, r)
		}
	}
	anyFixed := false
	for _, r := range rows {
		anyFixed = anyFixed || r.fixed
	}
	if !anyFixed {
		return nil, errors.New("no anchored player (an outside engine with UCI_Elo): ratings would float")
	}
	type ig struct {
		w, b int
		s    float64
	}
	gs := make([]ig, len(games))
	for i, g := range games {
		gs[i] = ig{idx[g.white], idx[g.black], g.score}
	}
	// expected is white's expected score in g at the ratings R.
	expected := func(R []float64, g ig) float64 {
		return 1 / (1 + math.Pow(10, (R[g.b]-R[g.w])/400))
	}
	ll := func(R []float64) float64 {
		t := 0.0
		for _, g := range gs {
			e := expected(R, g)
			e = min(max(e, 1e-12), 1-1e-12)
			t += g.s*math.Log(e) + (1-g.s)*math.Log(1-e)
		}
		return t
	}
	// Coordinate ascent: the log-likelihood is concave in each rating.
	fit := func(R []float64, hold int) []float64 {
		R = append([]float64(nil), R...)
		for range 30 {
			for p := range rows {
				if rows[p].fixed || p == hold {
					continue
				}
				lo, hi := float64(eloMin), float64(eloMax)
				for range 50 {
					m1, m2 := lo+(hi-lo)/3, hi-(hi-lo)/3
					R[p] = m1
					f1 := ll(R)
					R[p] = m2
					f2 := ll(R)
					if f1 < f2 {
						lo = m1
					} else {
						hi = m2
					}
				}
				R[p] = (lo + hi) / 2
			}
		}
		return R
	}
	R := make([]float64, len(rows))
	for i, r := range rows {
		R[i] = r.elo
	}
	R = fit(R, -1)
	best := ll(R)
	for p := range rows {
		rows[p].elo = R[p]
		if rows[p].fixed {
			continue
		}
		// The interval's ends: where the likelihood, maximised over the
		// others with this rating held, drops by 1.92 (chi-square, 1 df)
		// times drop.
		bound := func(dir, drop float64) float64 {
			// Out to the end of the range: a player who lost every game
			// sits at its bottom, and its upper bound may lie far above.
			in, out := R[p], float64(eloMax)
			if dir < 0 {
				out = eloMin
			}
			Q := append([]float64(nil), R...)
			Q[p] = out
			if best-ll(fit(Q, p)) <= 1.92*drop {
				return math.Inf(int(dir))
			}
			for range 16 {
				mid := (in + out) / 2
				Q := append([]float64(nil), R...)
				Q[p] = mid
				if best-ll(fit(Q, p)) > 1.92*drop {
					out = mid
				} else {
					in = mid
				}
			}
			return out
		}
		rows[p].lo, rows[p].hi = bound(-1, 1), bound(1, 1)
		// The likelihood above treats every game as a win or a loss
		// with the expected score's chance, so it takes the spread of a
		// score around its expectation to be e(1-e); a draw lies nearer
		// the expectation than a win or a loss would. The spread
		// interval scales the drop by the spread this player's games
		// actually show, the ratio of the squared differences between
		// score and expectation to their sum of e(1-e) (a quasi-
		// likelihood): for one match against an anchor it comes close to
		// the interval of arena's result line. Only for a finite estimate.
		if !math.IsInf(rows[p].lo, 0) && !math.IsInf(rows[p].hi, 0) {
			var obs, model float64
			for _, g := range gs {
				if g.w != p && g.b != p {
					continue
				}
				e := expected(R, g)
				obs += (g.s - e) * (g.s - e)
				model += e * (1 - e)
			}
			rows[p].spread = obs / model
			rows[p].slo, rows[p].shi = bound(-1, rows[p].spread), bound(1, rows[p].spread)
		}
	}
	for p := range rows {
		rec := map[string]*[3]int{}
		var opp []string
		for _, g := range games {
			var o string
			var s float64
			switch rows[p].name {
			case g.white:
				o, s = g.black, g.score
			case g.black:
				o, s = g.white, 1-g.score
			default:
				continue
			}
			rows[p].games++
			if rec[o] == nil {
				rec[o] = &[3]int{}
				opp = append(opp, o)
			}
			switch s {
			case 1:
				rec[o][0]++
			case 0.5:
				rec[o][1]++
			default:
				rec[o][2]++
			}
		}
		var parts []string
		for _, o := range opp {
			parts = append(parts, fmt.Sprintf("%s: +%d =%d -%d", o, rec[o][0], rec[o][1], rec[o][2]))
		}
		rows[p].record = strings.Join(parts, "; ")
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].fixed != rows[j].fixed && !rows[i].fixed })
	return rows, nil
}
