package phase

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/nlsat/nlsat/internal/figure"
)

// minCell is the fewest decided instances a heat-map cell needs to be
// coloured; emptier cells are left blank rather than shown with an
// estimate too rough to read.
const minCell = 20

// bins cuts an axis into n cells of width w from lo.
type bins struct {
	lo, w float64
	n     int
}

// niceBins covers [vmin, vmax] with at most about maxCells cells of a
// round width; integer axes (counts such as m) get whole widths, and
// cells of width 1 centred on whole numbers.
func niceBins(vmin, vmax float64, maxCells int, integer bool) bins {
	w := figure.Nice(vmax-vmin, maxCells, integer)
	off := 0.0
	if integer && w == 1 {
		off = -0.5
	}
	lo := math.Floor((vmin-off)/w)*w + off
	return bins{lo: lo, w: w, n: int(math.Floor((vmax-lo)/w)) + 1}
}

// shareBins are the bins of an existential share (QuantBins of 0.1).
var shareBins = bins{lo: 0, w: 1.0 / QuantBins, n: QuantBins}

func (b bins) cell(v float64) int { return min(max(int(math.Floor((v-b.lo)/b.w)), 0), b.n-1) }
func (b bins) edge(i int) float64 { return b.lo + float64(i)*b.w }

// tally is the counts at one position of a heat map.
type tally struct {
	x, y     float64
	sat, dec int
}

// heatGrid pools tallies into cells; a cell's P(sat) is its total sat
// over its total decided, NaN when it has fewer than minCell decided.
type heatGrid struct {
	x, y     bins
	sat, dec []int
}

func newHeatGrid(x, y bins, ts []tally) *heatGrid {
	g := &heatGrid{x: x, y: y, sat: make([]int, x.n*y.n), dec: make([]int, x.n*y.n)}
	for _, t := range ts {
		i := y.cell(t.y)*x.n + x.cell(t.x)
		g.sat[i] += t.sat
		g.dec[i] += t.dec
	}
	return g
}

func (g *heatGrid) Dims() (int, int) { return g.x.n, g.y.n }
func (g *heatGrid) X(c int) float64  { return g.x.edge(c) + g.x.w/2 }
func (g *heatGrid) Y(r int) float64  { return g.y.edge(r) + g.y.w/2 }
func (g *heatGrid) Min() float64     { return 0 }
func (g *heatGrid) Max() float64     { return 1 }
func (g *heatGrid) Z(c, r int) float64 {
	i := r*g.x.n + c
	if g.dec[i] < minCell {
		return math.NaN()
	}
	return float64(g.sat[i]) / float64(g.dec[i])
}

// table lists the non-empty cells with their edges and counts.
func (g *heatGrid) table(x, y string) [][]string {
	t := [][]string{{x + "_lo", x + "_hi", y + "_lo", y + "_hi", "decided", "sat", "p_sat"}}
	for r := range g.y.n {
		for c := range g.x.n {
			if i := r*g.x.n + c; g.dec[i] > 0 {
				p := float64(g.sat[i]) / float64(g.dec[i])
				t = append(t, []string{f4(g.x.edge(c)), f4(g.x.edge(c + 1)), f4(g.y.edge(r)), f4(g.y.edge(r + 1)),
					itoa(g.dec[i]), itoa(g.sat[i]), f4(p)})
			}
		}
	}
	return t
}

// outline returns the cell edges that separate the cells whose P(sat)
// lies in b from the others: the contour of the band, at the resolution
// of the cells, in a fixed order.
func (g *heatGrid) outline(b Band) [][2][2]float64 {
	in := func(c, r int) bool {
		if c < 0 || r < 0 || c >= g.x.n || r >= g.y.n {
			return false
		}
		z := g.Z(c, r)
		return !math.IsNaN(z) && b.Contains(z)
	}
	var lines [][2][2]float64
	for r := 0; r <= g.y.n; r++ {
		for c := 0; c <= g.x.n; c++ {
			x, y := g.x.edge(c), g.y.edge(r)
			if in(c, r) != in(c-1, r) && r < g.y.n {
				lines = append(lines, [2][2]float64{{x, y}, {x, g.y.edge(r + 1)}})
			}
			if in(c, r) != in(c, r-1) && c < g.x.n {
				lines = append(lines, [2][2]float64{{x, y}, {g.x.edge(c + 1), y}})
			}
		}
	}
	return lines
}

// heatPalette is the diverging blue–red map of P(sat) on [0, 1]: blue is
// unsat, red sat, the band's middle a light grey.
func heatPalette() palette.ColorMap {
	pal := moreland.SmoothBlueRed()
	pal.SetMin(0)
	pal.SetMax(1)
	return pal
}

// outlineStyle draws the band's contour.
var outlineStyle = draw.LineStyle{Color: color.Black, Width: vg.Points(1.1)}

// heatPanel draws g as a panel: the cells, the band's contour, round
// ticks and a frame around the data.
func heatPanel(g *heatGrid, band Band, title, x, y string, f figure.Fonts) *plot.Plot {
	p := figure.NewPanel(title, x, y, f)
	hm := plotter.NewHeatMap(g, heatPalette().Palette(256))
	hm.NaN = color.Transparent
	p.Add(hm, figure.Segments{Lines: g.outline(band), Style: outlineStyle})
	p.X.Min, p.X.Max = g.x.edge(0), g.x.edge(g.x.n)
	p.Y.Min, p.Y.Max = g.y.edge(0), g.y.edge(g.y.n)
	return p
}

// heatKey draws the key of heat maps: the colour bar with the band
// marked, and under it what the contour and blank cells mean, with any
// extra entries first.
func heatKey(band Band, f figure.Fonts, extra ...figure.Entry) figure.Key {
	entries := append(extra,
		figure.Entry{Text: "contour of the band,", Thumbs: []plot.Thumbnailer{figure.Segments{Style: outlineStyle}}},
		note("P(sat) in "+band.String()),
		note("blank: under "+itoa(minCell)+" decided"))
	return figure.Key{
		Draw: func(c draw.Canvas) {
			bar := figure.ColorBar(heatPalette(), "P(sat)", []float64{band.Lo, band.Hi}, f)
			w, h := c.Max.X-c.Min.X, c.Max.Y-c.Min.Y
			bar.Draw(draw.Crop(c, vg.Points(3), -(w - vg.Points(46)), h*0.42, -vg.Points(6)))
			figure.DrawEntries(draw.Crop(c, vg.Points(3), 0, 0, -(h*0.58+vg.Points(8))), f, entries)
		},
		Width: max(vg.Points(46), vg.Points(3)+figure.EntriesWidth(f, entries)),
	}
}
