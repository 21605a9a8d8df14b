package phase

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/mat"
)

// Crossing is where P(sat) falls through 0.5 along m at fixed (n1, n2),
// by linear interpolation between the last point at or above 0.5 and the
// next point below it.
type Crossing struct {
	Fragment string
	N1, N2   int
	M        float64 // the interpolated number of sentences
}

// Alpha returns M/n1.
func (c Crossing) Alpha() float64 { return c.M / float64(c.N1) }

// Beta returns M/n2, or 0 when n2 is 0.
func (c Crossing) Beta() float64 {
	if c.N2 == 0 {
		return 0
	}
	return c.M / float64(c.N2)
}

// Crossings returns the first crossing of every (fragment, n1, n2) curve
// in es that has one, in order of fragment, n1 and n2.
func Crossings(es []Estimate) []Crossing {
	curves := map[[3]int][]Estimate{}
	var keys [][3]int
	for _, e := range es {
		k := [3]int{int(e.Fragment), e.N1, e.N2}
		if _, ok := curves[k]; !ok {
			keys = append(keys, k)
		}
		curves[k] = append(curves[k], e)
	}
	slices.SortFunc(keys, func(a, b [3]int) int { return slices.Compare(a[:], b[:]) })
	var cs []Crossing
	for _, k := range keys {
		c := curves[k]
		slices.SortFunc(c, func(a, b Estimate) int { return a.M - b.M })
		for i := 1; i < len(c); i++ {
			a, b := c[i-1], c[i]
			if math.IsNaN(a.P) || math.IsNaN(b.P) || !(a.P >= 0.5 && b.P < 0.5) {
				continue
			}
			m := float64(a.M) + (a.P-0.5)/(a.P-b.P)*float64(b.M-a.M)
			cs = append(cs, Crossing{Fragment: a.Fragment.String(), N1: k[1], N2: k[2], M: m})
			break
		}
	}
	return cs
}

// CrossingSummary is the median crossing of a set of curves.
type CrossingSummary struct{ Alpha, Beta, M float64 }

// SummarizeCrossings returns the medians of α, β and m over cs.
func SummarizeCrossings(cs []Crossing) CrossingSummary {
	var a, b, m []float64
	for _, c := range cs {
		a, b, m = append(a, c.Alpha()), append(b, c.Beta()), append(m, c.M)
	}
	return CrossingSummary{median(a), median(b), median(m)}
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	xs = slices.Clone(xs)
	slices.Sort(xs)
	n := len(xs)
	return (xs[(n-1)/2] + xs[n/2]) / 2
}

// WriteCrossings writes the crossings as CSV.
func WriteCrossings(w io.Writer, cs []Crossing) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"fragment", "n1", "n2", "m", "alpha", "beta"})
	for _, c := range cs {
		cw.Write([]string{c.Fragment, strconv.Itoa(c.N1), strconv.Itoa(c.N2), f4(c.M), f4(c.Alpha()), f4(c.Beta())})
	}
	cw.Flush()
	return cw.Error()
}

// ReadCrossings reads crossings written by WriteCrossings.
func ReadCrossings(r io.Reader) ([]Crossing, error) {
	rows, err := readCSV(r, []string{"fragment", "n1", "n2", "m", "alpha", "beta"})
	if err != nil {
		return nil, err
	}
	var out []Crossing
	for i, row := range rows {
		n1, e1 := strconv.Atoi(row[1])
		n2, e2 := strconv.Atoi(row[2])
		m, e3 := strconv.ParseFloat(row[3], 64)
		if e1 != nil || e2 != nil || e3 != nil {
			return nil, fmt.Errorf("crossing %d: %q is not a crossing", i+1, row)
		}
		out = append(out, Crossing{Fragment: row[0], N1: n1, N2: n2, M: m})
	}
	return out, nil
}

// FitHardM fits the crossings of one fragment with m = a·n1 + b·n2 + c by
// least squares (b = 0 when no crossing has verbs), the form of HardM,
// and returns (a, b, c) with the largest deviation of a crossing from the
// fit.
func FitHardM(cs []Crossing) (coef [3]float64, maxDev float64, err error) {
	verbs := slices.ContainsFunc(cs, func(c Crossing) bool { return c.N2 > 0 })
	cols := 2
	if verbs {
		cols = 3
	}
	if len(cs) < cols {
		return coef, 0, fmt.Errorf("%d crossings cannot fit %d coefficients", len(cs), cols)
	}
	x := mat.NewDense(len(cs), cols, nil)
	y := mat.NewVecDense(len(cs), nil)
	for i, c := range cs {
		x.Set(i, 0, float64(c.N1))
		if verbs {
			x.Set(i, 1, float64(c.N2))
		}
		x.Set(i, cols-1, 1)
		y.SetVec(i, c.M)
	}
	var beta mat.VecDense
	if err := beta.SolveVec(x, y); err != nil {
		return coef, 0, err
	}
	coef[0], coef[2] = beta.AtVec(0), beta.AtVec(cols-1)
	if verbs {
		coef[1] = beta.AtVec(1)
	}
	for _, c := range cs {
		maxDev = max(maxDev, math.Abs(coef[0]*float64(c.N1)+coef[1]*float64(c.N2)+coef[2]-c.M))
	}
	return coef, maxDev, nil
}
