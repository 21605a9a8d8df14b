package phase

import (
	"math"

	"gonum.org/v1/plot"

	"github.com/nlsat/nlsat/internal/figure"
)

// Axis labels of the quantifier views: the existential share #∃/(#∃+#∀)
// of the subject (object) quantifiers. The paper's "quantifier ratio" is
// #∃/#∀, which is infinite when a set has no universal; the share orders
// sets the same way and stays in [0, 1]. (The figures' font has no ∃.)
const (
	subjLabel = "existential share (subject)"
	objLabel  = "existential share (object)"
)

// quantView is one of the heat maps of Figures 6 to 8: where a cell of a
// point goes in x and y, or ok false to leave it out.
type quantView struct {
	name, title, x, y string
	xs                func(e Estimate) float64 // x of a point's cells, nil for the subject share
	integer           bool                     // x counts whole things
	cell              func(e Estimate, c QuantCell) (x, y float64, ok bool)
	verbsOnly         bool
}

var quantViews = []quantView{
	{name: "fig6-psat-alpha-subject-quantifiers", title: "P(sat) over α = m/n1 and the existential share of subject quantifiers",
		x: "α = m / n1", y: subjLabel, xs: Estimate.Alpha,
		cell: func(e Estimate, c QuantCell) (float64, float64, bool) { return e.Alpha(), binMid(c.Subj), true }},
	{name: "fig7-psat-m-subject-quantifiers", title: "P(sat) over m and the existential share of subject quantifiers",
		x: "m (sentences)", y: subjLabel, integer: true, xs: func(e Estimate) float64 { return float64(e.M) },
		cell: func(e Estimate, c QuantCell) (float64, float64, bool) { return float64(e.M), binMid(c.Subj), true }},
	{name: "fig8-psat-quantifier-shares", title: "P(sat) over the existential shares of subject and object quantifiers",
		x: subjLabel, y: objLabel, verbsOnly: true,
		cell: func(_ Estimate, c QuantCell) (float64, float64, bool) {
			return binMid(c.Subj), binMid(c.Obj), c.Obj >= 0
		}},
}

func binMid(b int) float64 { return (float64(b) + 0.5) / QuantBins }

func fig6(ds []fragData, band Band) (Figure, bool, error) {
	return quantFigure(quantViews[0], ds, band)
}
func fig7(ds []fragData, band Band) (Figure, bool, error) {
	return quantFigure(quantViews[1], ds, band)
}
func fig8(ds []fragData, band Band) (Figure, bool, error) {
	return quantFigure(quantViews[2], ds, band)
}

// quantFigure draws view v for every fragment of ds that has quantifier
// counts (and verbs, if v needs them); ok is false when none has.
func quantFigure(v quantView, ds []fragData, band Band) (Figure, bool, error) {
	var used []fragData
	var plots []*plot.Plot
	var tables [][][]string
	for _, d := range ds {
		if v.verbsOnly && !d.f.HasVerbs() || !hasQuant(d.all) {
			continue
		}
		g := quantGrid(v, d)
		plots = append(plots, heatPanel(g, band, label(len(used), d, false), v.x, v.y, figure.PanelFonts))
		tables = append(tables, g.table("x", "y"))
		used = append(used, d)
	}
	if len(used) == 0 {
		return Figure{}, false, nil
	}
	return panelFigure(v.name, v.title, used, plots, tables, heatKey(band, figure.PanelFonts)), true, nil
}

func hasQuant(es []Estimate) bool {
	for _, e := range es {
		if len(e.Quant) > 0 {
			return true
		}
	}
	return false
}

// quantGrid pools the quantifier cells of d's points into the view's
// heat-map cells.
func quantGrid(v quantView, d fragData) *heatGrid {
	var ts []tally
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, e := range d.all {
		if v.xs != nil {
			lo, hi = min(lo, v.xs(e)), max(hi, v.xs(e))
		}
		for _, c := range e.Quant {
			if x, y, ok := v.cell(e, c); ok {
				ts = append(ts, tally{x: x, y: y, sat: c.Sat, dec: c.Decided()})
			}
		}
	}
	x := shareBins
	if v.xs != nil {
		x = niceBins(lo, hi, 16, v.integer)
	}
	return newHeatGrid(x, shareBins, ts)
}
