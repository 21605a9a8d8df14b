package phase

import "github.com/nlsat/nlsat/internal/fragments"

// HardM returns the number of sentences at which about half of the
// instances of f with n1 nouns and n2 verbs are satisfiable: a least-squares
// fit of the crossing points of P(sat) = 0.5 (crossings.csv) of the default
// sweep of every fragment (200 instances per point, n1 3–8 and n2 3–8 for V,
// Z, A; n1 6–16 for S, W; the sampler's default parameters; native labels).
// Outside the swept sizes it extrapolates; region files measured by a phase
// sweep supersede it.
func HardM(f fragments.Fragment, n1, n2 int) int {
	c := hardFit[f]
	return max(1, int(c[0]*float64(n1)+c[1]*float64(n2)+c[2]+0.5))
}

// hardFit holds, per fragment, the coefficients of n1 and n2 and the
// intercept of the fitted crossing m (FitHardM; scripts/regions.sh
// measures and prints them). The largest deviation of a measured crossing
// from the fit is 0.8 (S), 1.0 (W), 1.2 (V), 1.7 (Z) and 2.2 (A)
// sentences.
var hardFit = map[fragments.Fragment][3]float64{
	fragments.S: {1.176, 0, 1.658},
	fragments.W: {1.549, 0, 0.321},
	fragments.V: {2.767, 0.107, 0.585},
	fragments.Z: {3.627, 0.228, -0.922},
	fragments.A: {4.917, 0.580, -1.867},
}
