package phase

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/nlsat/nlsat/internal/figure"
	"github.com/nlsat/nlsat/internal/fragments"
)

// Figures builds the figures of every fragment in es: P(sat) against α
// with one curve per n1 and Wilson error bars, the median solver time
// against α (when es carry times), and for V, Z and A a heat map of P(sat)
// over (α, β). Curves of V, Z and A are drawn at one n2: fixedN2 if it
// occurs in es, otherwise the middle n2 of the sweep.
func Figures(es []Estimate, fixedN2 int) ([]Figure, error) {
	var figs []Figure
	for _, f := range fragments.All() {
		fe := slices.DeleteFunc(slices.Clone(es), func(e Estimate) bool { return e.Fragment != f })
		if len(fe) == 0 {
			continue
		}
		relational := f >= fragments.V
		curves := fe
		n2 := 0
		if relational {
			n2 = pickN2(fe, fixedN2)
			curves = slices.DeleteFunc(slices.Clone(fe), func(e Estimate) bool { return e.N2 != n2 })
		}
		fig, err := psatFigure(f, curves, n2)
		if err != nil {
			return nil, err
		}
		figs = append(figs, fig)
		if allTimed(fe) {
			if fig, err = timeFigure(f, curves, n2); err != nil {
				return nil, err
			}
			figs = append(figs, fig)
		}
		if relational {
			figs = append(figs, heatFigure(f, fe))
		}
	}
	if len(figs) == 0 {
		return nil, fmt.Errorf("no points to draw")
	}
	return figs, nil
}

func pickN2(es []Estimate, want int) int {
	var n2s []int
	for _, e := range es {
		if !slices.Contains(n2s, e.N2) {
			n2s = append(n2s, e.N2)
		}
	}
	if slices.Contains(n2s, want) {
		return want
	}
	slices.Sort(n2s)
	return n2s[(len(n2s)-1)/2]
}

func allTimed(es []Estimate) bool {
	for _, e := range es {
		if !e.Timed {
			return false
		}
	}
	return true
}

// byN1 groups estimates by n1, in increasing n1 and then m.
func byN1(es []Estimate) (n1s []int, groups map[int][]Estimate) {
	groups = map[int][]Estimate{}
	for _, e := range es {
		if _, ok := groups[e.N1]; !ok {
			n1s = append(n1s, e.N1)
		}
		groups[e.N1] = append(groups[e.N1], e)
	}
	slices.Sort(n1s)
	for _, g := range groups {
		slices.SortFunc(g, func(a, b Estimate) int { return a.M - b.M })
	}
	return n1s, groups
}

func suffix(f fragments.Fragment, n2 int) string {
	if n2 == 0 {
		return ""
	}
	return fmt.Sprintf(", n2 = %d", n2)
}

func itoa(i int) string { return strconv.Itoa(i) }

// psatFigure draws P(sat) against α, one curve per n1, with the band.
func psatFigure(f fragments.Fragment, es []Estimate, n2 int) (Figure, error) {
	p := figure.NewPlot(fmt.Sprintf("P(sat) in fragment %s%s (Wilson 95%% intervals)", f, suffix(f, n2)), "α = m / n1", "P(sat)")
	p.Y.Min, p.Y.Max = 0, 1
	p.Legend.Top = true
	table := [][]string{{"n1", "n2", "m", "alpha", "p_sat", "ci_lo", "ci_hi"}}
	n1s, groups := byN1(es)
	for i, n1 := range n1s {
		var pts []figure.CurvePoint
		for _, e := range groups[n1] {
			if math.IsNaN(e.P) {
				continue
			}
			pts = append(pts, figure.CurvePoint{X: e.Alpha(), Y: e.P, Lo: e.CI.Lo, Hi: e.CI.Hi})
			table = append(table, []string{itoa(n1), itoa(e.N2), itoa(e.M), f4(e.Alpha()), f4(e.P), f4(e.CI.Lo), f4(e.CI.Hi)})
		}
		if len(pts) == 0 {
			continue
		}
		if err := figure.AddCurve(p, pts, true, figure.CurveColor(i, len(n1s)), "n1 = "+itoa(n1)); err != nil {
			return Figure{}, err
		}
	}
	return Figure{Name: "psat-alpha-" + f.String(), Table: table, draw: p.Draw}, nil
}

// timeFigure draws the median solver time against α, one curve per n1.
func timeFigure(f fragments.Fragment, es []Estimate, n2 int) (Figure, error) {
	p := figure.NewPlot(fmt.Sprintf("Median solver time in fragment %s%s", f, suffix(f, n2)), "α = m / n1", "median time (ms)")
	p.Y.Min = 0
	p.Legend.Top, p.Legend.Left = true, true
	table := [][]string{{"n1", "n2", "m", "alpha", "median_ms", "p90_ms"}}
	n1s, groups := byN1(es)
	for i, n1 := range n1s {
		var pts []figure.CurvePoint
		for _, e := range groups[n1] {
			t := float64(e.MedianTime.Microseconds()) / 1000
			pts = append(pts, figure.CurvePoint{X: e.Alpha(), Y: t, Lo: t, Hi: t})
			table = append(table, []string{itoa(n1), itoa(e.N2), itoa(e.M), f4(e.Alpha()), ms(e.MedianTime), ms(e.P90Time)})
		}
		if err := figure.AddCurve(p, pts, false, figure.CurveColor(i, len(n1s)), "n1 = "+itoa(n1)); err != nil {
			return Figure{}, err
		}
	}
	return Figure{Name: "time-alpha-" + f.String(), Table: table, draw: p.Draw}, nil
}
