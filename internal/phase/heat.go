package phase

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/nlsat/nlsat/internal/fragments"
)

// heatGrid pools the estimates into cells of width w in α and β; a cell's
// P(sat) is its total sat over its total decided (NaN when empty).
type heatGrid struct {
	a0, b0     float64
	wa, wb     float64 // cell widths in α and β
	cols, rows int
	sat, dec   []int
}

func (g *heatGrid) Dims() (int, int) { return g.cols, g.rows }
func (g *heatGrid) X(c int) float64  { return g.a0 + (float64(c)+0.5)*g.wa }
func (g *heatGrid) Y(r int) float64  { return g.b0 + (float64(r)+0.5)*g.wb }
func (g *heatGrid) Z(c, r int) float64 {
	i := r*g.cols + c
	if g.dec[i] == 0 {
		return math.NaN()
	}
	return float64(g.sat[i]) / float64(g.dec[i])
}
func (g *heatGrid) Min() float64 { return 0 }
func (g *heatGrid) Max() float64 { return 1 }

// newHeatGrid chooses cell widths (multiples of 0.25 giving at most about
// 16 cells a side) and pools es into them.
func newHeatGrid(es []Estimate) *heatGrid {
	amin, amax, bmin, bmax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, e := range es {
		amin, amax = min(amin, e.Alpha()), max(amax, e.Alpha())
		bmin, bmax = min(bmin, e.Beta()), max(bmax, e.Beta())
	}
	width := func(span float64) float64 { return max(0.25, math.Ceil(span/16/0.25)*0.25) }
	g := &heatGrid{wa: width(amax - amin), wb: width(bmax - bmin)}
	g.a0, g.b0 = math.Floor(amin/g.wa)*g.wa, math.Floor(bmin/g.wb)*g.wb
	g.cols = int(math.Floor((amax-g.a0)/g.wa)) + 1
	g.rows = int(math.Floor((bmax-g.b0)/g.wb)) + 1
	g.sat, g.dec = make([]int, g.cols*g.rows), make([]int, g.cols*g.rows)
	for _, e := range es {
		c, r := cell(e.Alpha(), g.a0, g.wa), cell(e.Beta(), g.b0, g.wb)
		g.sat[r*g.cols+c] += e.Sat
		g.dec[r*g.cols+c] += e.Decided()
	}
	return g
}

func cell(v, v0, w float64) int { return int(math.Floor((v - v0) / w)) }

// table lists the non-empty cells.
func (g *heatGrid) table() [][]string {
	t := [][]string{{"alpha_lo", "alpha_hi", "beta_lo", "beta_hi", "decided", "sat", "p_sat"}}
	for r := range g.rows {
		for c := range g.cols {
			if i := r*g.cols + c; g.dec[i] > 0 {
				a, b := g.a0+float64(c)*g.wa, g.b0+float64(r)*g.wb
				t = append(t, []string{f4(a), f4(a + g.wa), f4(b), f4(b + g.wb), itoa(g.dec[i]), itoa(g.sat[i]), f4(g.Z(c, r))})
			}
		}
	}
	return t
}

// heatFigure draws P(sat) over (α, β) for a relational fragment with a
// colour bar beside it, like the paper's Figures 2 and 4.
func heatFigure(f fragments.Fragment, es []Estimate) Figure {
	g := newHeatGrid(es)
	pal := moreland.SmoothBlueRed()
	pal.SetMin(0)
	pal.SetMax(1)
	hm := plotter.NewHeatMap(g, pal.Palette(100))
	hm.NaN = color.Transparent
	p := plot.New()
	p.Title.Text = fmt.Sprintf("P(sat) in fragment %s over (α, β), cells of %g × %g", f, g.wa, g.wb)
	p.X.Label.Text, p.Y.Label.Text = "α = m / n1", "β = m / n2"
	p.Add(hm)

	bar := plot.New()
	bar.Title.Text = "P(sat)"
	cb := &plotter.ColorBar{ColorMap: pal, Vertical: true}
	bar.Add(cb)
	bar.HideX()
	bar.Y.Padding = 0
	const barW = 0.9 * vg.Inch
	drawBoth := func(c draw.Canvas) {
		w := c.Max.X - c.Min.X
		p.Draw(draw.Crop(c, 0, -barW-0.2*vg.Inch, 0, 0))
		bar.Draw(draw.Crop(c, w-barW, 0, 0.45*vg.Inch, -0.1*vg.Inch))
	}
	return Figure{Name: "heatmap-" + f.String(), Table: g.table(), draw: drawBoth}
}
