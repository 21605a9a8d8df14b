package phase

import (
	"fmt"
	"math"

	"github.com/nlsat/nlsat/internal/fragments"
)

// Point is one grid point: m sentences over n1 nouns and n2 verbs.
type Point struct {
	M  int `json:"m"`
	N1 int `json:"n1"`
	N2 int `json:"n2"`
}

// Key is the point as a stratum's key names it: "m=M n1=N1 n2=N2".
func (p Point) Key() string { return fmt.Sprintf("m=%d n1=%d n2=%d", p.M, p.N1, p.N2) }

// Alpha returns m/n1.
func (p Point) Alpha() float64 { return ratio(p.M, p.N1) }

// Beta returns m/n2, or 0 when n2 is 0.
func (p Point) Beta() float64 { return ratio(p.M, p.N2) }

func ratio(m, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(m) / float64(n)
}

// Range is an inclusive integer range.
type Range struct{ Lo, Hi int }

// Ratios is a range of ratios lo, lo+step, …, up to hi.
type Ratios struct{ Lo, Hi, Step float64 }

// values returns the ratios of r, computed by index so that no rounding
// error accumulates.
func (r Ratios) values() []float64 {
	var vs []float64
	for i := 0; ; i++ {
		v := r.Lo + float64(i)*r.Step
		if v > r.Hi+1e-9 || r.Step <= 0 && i > 0 {
			return vs
		}
		vs = append(vs, v)
	}
}

// Grid describes the points of a sweep over one fragment. Exactly one of
// M, Alpha and Beta gives the numbers of sentences: M directly (every
// MStep-th value), Alpha as m = round(α·n1), Beta as m = round(β·n2).
type Grid struct {
	N1, N2 Range
	M      *Range
	MStep  int
	// N1Step and N2Step sweep every k-th n1 and n2 of their ranges (0
	// or 1: every one).
	N1Step, N2Step int
	Alpha          *Ratios
	Beta           *Ratios
}

// DefaultGrid returns the paper's ranges for fragment f (S, W: n1 6..16;
// V, Z, A: n1, n2 3..8) with an α range wide enough for P(sat) to fall
// from near 1 to near 0 at every size.
func DefaultGrid(f fragments.Fragment) Grid {
	switch f {
	case fragments.S, fragments.W:
		return Grid{N1: Range{6, 16}, Alpha: &Ratios{0.4, 3.0, 0.2}}
	case fragments.V:
		return Grid{N1: Range{3, 8}, N2: Range{3, 8}, Alpha: &Ratios{0.5, 7.0, 0.5}}
	case fragments.Z:
		return Grid{N1: Range{3, 8}, N2: Range{3, 8}, Alpha: &Ratios{0.5, 8.0, 0.5}}
	}
	return Grid{N1: Range{3, 8}, N2: Range{3, 8}, Alpha: &Ratios{0.5, 10.0, 0.5}}
}

// Points enumerates the grid in order of n1, then n2, then m. Points that
// the sampler cannot draw (too few distinct sentences) are left out and
// returned separately.
func (g Grid) Points(f fragments.Fragment, p fragments.Params) (pts, skipped []Point, err error) {
	if n := btoi(g.M != nil) + btoi(g.Alpha != nil) + btoi(g.Beta != nil); n != 1 {
		return nil, nil, fmt.Errorf("give exactly one of m, alpha and beta, got %d", n)
	}
	for n1 := g.N1.Lo; n1 <= g.N1.Hi; n1 += max(1, g.N1Step) {
		for n2 := g.N2.Lo; n2 <= g.N2.Hi; n2 += max(1, g.N2Step) {
			for _, m := range g.ms(n1, n2) {
				pt := Point{M: m, N1: n1, N2: n2}
				if fragments.Validate(f, p, m, n1, n2) != nil {
					skipped = append(skipped, pt)
					continue
				}
				pts = append(pts, pt)
			}
		}
	}
	return pts, skipped, nil
}

// ms returns the distinct numbers of sentences at (n1, n2), increasing.
func (g Grid) ms(n1, n2 int) []int {
	var ms []int
	add := func(m int) {
		if m >= 1 && (len(ms) == 0 || m > ms[len(ms)-1]) {
			ms = append(ms, m)
		}
	}
	switch {
	case g.M != nil:
		for m := g.M.Lo; m <= g.M.Hi; m += max(1, g.MStep) {
			add(m)
		}
	case g.Alpha != nil:
		for _, a := range g.Alpha.values() {
			add(int(math.Round(a * float64(n1))))
		}
	default:
		for _, b := range g.Beta.values() {
			add(int(math.Round(b * float64(n2))))
		}
	}
	return ms
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
