package rating

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// The worked example of Glickman's "Example of the Glicko-2 system": a
// 1500/200/0.06 player beats a 1400/30, loses to a 1550/100 and to a
// 1700/300 with τ = 0.5, and ends at 1464.06 / 151.52 / 0.05999.
func TestGlickmanExample(t *testing.T) {
	p := Rating{R: 1500, RD: 200, Sigma: 0.06}
	got := p.Update([]Outcome{
		{Rating{1400, 30, 0.06}, 1},
		{Rating{1550, 100, 0.06}, 0},
		{Rating{1700, 300, 0.06}, 0},
	}, 0.5)
	if !near(got.R, 1464.06, 0.01) || !near(got.RD, 151.52, 0.01) || !near(got.Sigma, 0.05999, 0.00001) {
		t.Errorf("got %.2f / %.2f / %.5f, want 1464.06 / 151.52 / 0.05999", got.R, got.RD, got.Sigma)
	}
}

// Step 6 of the paper for a player who did not compete: φ' = √(φ² + σ²).
func TestNoGames(t *testing.T) {
	p := Rating{R: 1600, RD: 200, Sigma: 0.06}
	got := p.Update(nil, Tau)
	want := math.Sqrt(200*200 + (0.06*scale)*(0.06*scale))
	if got.R != 1600 || !near(got.RD, want, 1e-9) || got.Sigma != 0.06 {
		t.Errorf("got %+v, want RD %.4f", got, want)
	}
}

func TestGame(t *testing.T) {
	cases := []struct {
		name   string
		a, b   Rating
		score  float64
		checkA func(old, new Rating) bool
		checkB func(old, new Rating) bool
	}{
		{"new players, win", New(), New(), 1,
			func(o, n Rating) bool { return n.R > o.R && n.RD < o.RD },
			func(o, n Rating) bool { return n.R < o.R && n.RD < o.RD }},
		{"equal players draw: ratings stay", New(), New(), 0.5,
			func(o, n Rating) bool { return near(n.R, o.R, 1e-9) },
			func(o, n Rating) bool { return near(n.R, o.R, 1e-9) }},
		{"favourite draws: loses points", Rating{1900, 80, 0.06}, Rating{1500, 80, 0.06}, 0.5,
			func(o, n Rating) bool { return n.R < o.R },
			func(o, n Rating) bool { return n.R > o.R }},
		{"upset gains more than expected win", Rating{1400, 80, 0.06}, Rating{1800, 80, 0.06}, 1,
			func(o, n Rating) bool { return n.R-o.R > 20 },
			func(o, n Rating) bool { return o.R-n.R > 20 }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			na, nb := Game(tc.a, tc.b, tc.score)
			if !tc.checkA(tc.a, na) {
				t.Errorf("A: %+v → %+v", tc.a, na)
			}
			if !tc.checkB(tc.b, nb) {
				t.Errorf("B: %+v → %+v", tc.b, nb)
			}
		})
	}
}

// A single game between two new players, by hand from the paper's steps:
// μ = μⱼ = 0, φ = φⱼ = 350/173.7178 = 2.01476; g(φⱼ) = 1/√(1+3φ²/π²) =
// 0.66907; E = 0.5; v = 1/(g²·E(1−E)) = 8.93547; for a win the new
// φ' = 1/√(1/(φ²+σ²)+1/v) = 1.67121 with σ ≈ 0.06 (290.32 on the Glicko
// scale), and μ' = φ'²·g·0.5 = 0.93434, i.e. 1662.31.
func TestGameByHand(t *testing.T) {
	phi := 350 / scale
	gj := 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
	v := 1 / (gj * gj * 0.25)
	w, _ := Game(New(), New(), 1)
	phiStar := math.Sqrt(phi*phi + w.Sigma*w.Sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	if !near(w.RD, phiNew*scale, 1e-6) || !near(w.R, 1500+phiNew*phiNew*gj*0.5*scale, 1e-6) {
		t.Errorf("got %+v, want R %.3f RD %.3f", w, 1500+phiNew*phiNew*gj*0.5*scale, phiNew*scale)
	}
	if !near(w.R, 1662.31, 0.05) || !near(w.RD, 290.32, 0.05) {
		t.Errorf("got %.2f / %.2f, want about 1662.31 / 290.32", w.R, w.RD)
	}
}

// Extreme inputs never produce NaN or infinities.
func TestExtremes(t *testing.T) {
	rs := []Rating{New(), {3000, 30, 0.06}, {100, 350, 0.2}, {1500, 1, 0.001}, {5000, 350, 0.9}}
	for _, a := range rs {
		for _, b := range rs {
			for _, s := range []float64{0, 0.5, 1} {
				na, nb := Game(a, b, s)
				for _, x := range []float64{na.R, na.RD, na.Sigma, nb.R, nb.RD, nb.Sigma} {
					if math.IsNaN(x) || math.IsInf(x, 0) {
						t.Fatalf("%+v vs %+v score %v: %+v %+v", a, b, s, na, nb)
					}
				}
			}
		}
	}
}
