// Package rating implements the Glicko-2 rating system (Mark Glickman,
// "Example of the Glicko-2 system", 2013) for players' per-variant ratings.
//
// Rating periods: Glicko-2 is defined over rating periods in which each
// player plays several games. Chat games end one at a time at any hour, so
// topochess treats every rated game as a rating period of its own and
// updates both players as soon as it ends. Glickman's paper allows this
// (a period may hold a single game); the price is that volatility moves a
// little more per game than with long periods, which τ = 0.5 keeps small.
// Inactivity does not widen the deviation here: nothing runs between games.
package rating

import "math"

// Rating is a player's rating on the Glicko scale.
type Rating struct {
	R     float64 // rating, 1500 for a new player
	RD    float64 // rating deviation, 350 for a new player
	Sigma float64 // volatility, 0.06 for a new player
}

// Tau constrains the change of volatility; Glickman suggests 0.3–1.2.
const Tau = 0.5

// scale converts between the Glicko and Glicko-2 scales (173.7178 = 400/ln 10).
const scale = 173.7178

// convergence is the tolerance of the volatility iteration (paper: 0.000001).
const convergence = 1e-6

// New is the rating of a player who has not played.
func New() Rating { return Rating{R: 1500, RD: 350, Sigma: 0.06} }

// Provisional reports whether the rating is still too uncertain to rank
// (an RD above 110 spans more than ±220 points at 95 %).
func (r Rating) Provisional() bool { return r.RD > 110 }

// Outcome is one game of a rating period against an opponent rated before
// the period: Score is 1 for a win, 0.5 for a draw, 0 for a loss.
type Outcome struct {
	Opponent Rating
	Score    float64
}

func g(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

func expected(mu, muJ, phiJ float64) float64 {
	return 1 / (1 + math.Exp(-g(phiJ)*(mu-muJ)))
}

// Update returns the rating after a rating period with these games, with
// system constant tau. A period without games only widens the deviation
// (step 6 of the paper).
func (r Rating) Update(games []Outcome, tau float64) Rating {
	// Step 2: to the Glicko-2 scale.
	mu, phi, sigma := (r.R-1500)/scale, r.RD/scale, r.Sigma
	if len(games) == 0 {
		return Rating{R: r.R, RD: math.Sqrt(phi*phi+sigma*sigma) * scale, Sigma: sigma}
	}
	// Steps 3 and 4: estimated variance v and improvement delta.
	var vInv, sum float64
	for _, o := range games {
		muJ, phiJ := (o.Opponent.R-1500)/scale, o.Opponent.RD/scale
		gj, e := g(phiJ), expected(mu, muJ, phiJ)
		vInv += gj * gj * e * (1 - e)
		sum += gj * (o.Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	// Step 5: the new volatility by the Illinois algorithm.
	sigma = newVolatility(delta, phi, v, sigma, tau)
	// Steps 6 and 7: new deviation and rating.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phi = 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu += phi * phi * sum
	// Step 8: back to the Glicko scale.
	return Rating{R: mu*scale + 1500, RD: phi * scale, Sigma: sigma}
}

func newVolatility(delta, phi, v, sigma, tau float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 && k < 1000 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > convergence && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}

// Game rates one game as a rating period of its own for both players:
// scoreA is A's score (1, 0.5 or 0). Both use the other's rating from
// before the game.
func Game(a, b Rating, scoreA float64) (Rating, Rating) {
	return a.Update([]Outcome{{Opponent: b, Score: scoreA}}, Tau),
		b.Update([]Outcome{{Opponent: a, Score: 1 - scoreA}}, Tau)
}
