package phase

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/nlsat/nlsat/internal/figure"
	"github.com/nlsat/nlsat/internal/fragments"
)

// FigureOptions say how figures are drawn.
type FigureOptions struct {
	// FixedN2 is the n2 of the curves of V, Z and A; when no point has
	// it, the middle n2 of the sweep.
	FixedN2 int
	// Band is shaded behind curves and outlined on heat maps; the zero
	// value means PaperBand.
	Band Band
}

func (o FigureOptions) band() Band {
	if o.Band == (Band{}) {
		return PaperBand()
	}
	return o.Band
}

// maxCurves is the most curves a plot draws: more cannot be told apart
// once their error bars overlap.
const maxCurves = 4

// single is the size of a figure of one plot.
var single = figure.Size{W: 5.2 * vg.Inch, H: 3.2 * vg.Inch, DPI: figure.Print}

// fragData is the points of one fragment and the curves drawn of them.
type fragData struct {
	f      fragments.Fragment
	all    []Estimate // every point
	curves []Estimate // the points at n2 (every point for S and W)
	n2     int        // 0 for S and W
}

// byFragment splits es by fragment, in the order S, W, V, Z, A.
func byFragment(es []Estimate, fixedN2 int) []fragData {
	var ds []fragData
	for _, f := range fragments.All() {
		d := fragData{f: f, all: slices.DeleteFunc(slices.Clone(es), func(e Estimate) bool { return e.Fragment != f })}
		if len(d.all) == 0 {
			continue
		}
		d.curves = d.all
		if f.HasVerbs() {
			d.n2 = pickN2(d.all, fixedN2)
			d.curves = slices.DeleteFunc(slices.Clone(d.all), func(e Estimate) bool { return e.N2 != d.n2 })
		}
		ds = append(ds, d)
	}
	return ds
}

// Figures builds the figures of every fragment in es, each on a canvas of
// its own: P(sat) against α for up to four values of n1, with Wilson bars
// over the shaded band; the median solver time against α (when es carry
// times); and for V, Z and A a heat map of P(sat) over (α, β) with the
// band's contour. Curves of V, Z and A are drawn at one n2.
func Figures(es []Estimate, o FigureOptions) ([]Figure, error) {
	var figs []Figure
	for _, d := range byFragment(es, o.FixedN2) {
		title := fmt.Sprintf("Fragment %s%s: P(sat) with Wilson 95%% intervals", d.f, n2Suffix(d.n2))
		p, table, err := psatPanel(d, false, o.band(), title, figure.SingleFonts)
		if err != nil {
			return nil, err
		}
		p.Legend.Add("band "+o.band().String(), figure.Band{})
		figs = append(figs, Figure{Name: "psat-alpha-" + d.f.String(), Table: table, draw: margin(p), size: single})
		if allTimed(d.all) {
			fig, err := timeFigure(d)
			if err != nil {
				return nil, err
			}
			figs = append(figs, fig)
		}
		if d.f.HasVerbs() {
			figs = append(figs, heatFigure(d, o.band()))
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

// spread returns at most k of the sorted values vs, evenly spread and
// always including the first and the last.
func spread(vs []int, k int) []int {
	if len(vs) <= k {
		return vs
	}
	out := make([]int, k)
	for i := range k {
		out[i] = vs[int(math.Round(float64(i*(len(vs)-1))/float64(k-1)))]
	}
	return out
}

func n2Suffix(n2 int) string {
	if n2 == 0 {
		return ""
	}
	return fmt.Sprintf(" (n2 = %d)", n2)
}

func itoa(i int) string { return strconv.Itoa(i) }

// margin draws p with a little room at the right and the top, where a
// plot's frame would otherwise touch the canvas edge.
func margin(p *plot.Plot) func(draw.Canvas) {
	return func(c draw.Canvas) { p.Draw(draw.Crop(c, 0, -vg.Points(10), 0, -vg.Points(3))) }
}

// dodge is the shift in x of curve i of k, as a share of the x range:
// curves drawn at the same x keep their error bars apart.
func dodge(i, k int) float64 { return (float64(i) - float64(k-1)/2) * 0.006 }

// psatPanel draws P(sat) against α (or m, with byM) for up to maxCurves
// values of n1, with Wilson bars, over the shaded band, and returns the
// numbers drawn.
func psatPanel(d fragData, byM bool, band Band, title string, f figure.Fonts) (*plot.Plot, [][]string, error) {
	xl := "α = m / n1"
	if byM {
		xl = "m (sentences)"
	}
	p := figure.NewPanel(title, xl, "P(sat)", f)
	p.Add(figure.Band{Lo: band.Lo, Hi: band.Hi})
	p.Y.Min, p.Y.Max = -0.03, 1.03 // a margin, so that no marker touches the frame
	p.Y.Tick.Marker = figure.Ticks{N: 7}
	p.X.Tick.Marker = figure.Ticks{Integer: byM, N: 9}
	p.Legend.Top = true
	table := [][]string{{"n1", "n2", "m", "alpha", "p_sat", "ci_lo", "ci_hi"}}
	n1s, groups := byN1(d.curves)
	n1s = spread(n1s, maxCurves)
	xmin, xmax := xRange(d.curves, byM)
	for i, n1 := range n1s {
		var pts []figure.CurvePoint
		for _, e := range groups[n1] {
			if math.IsNaN(e.P) {
				continue
			}
			x := e.Alpha()
			if byM {
				x = float64(e.M)
			}
			x += dodge(i, len(n1s)) * (xmax - xmin)
			pts = append(pts, figure.CurvePoint{X: x, Y: e.P, Lo: e.CI.Lo, Hi: e.CI.Hi})
			table = append(table, []string{itoa(n1), itoa(e.N2), itoa(e.M), f4(e.Alpha()), f4(e.P), f4(e.CI.Lo), f4(e.CI.Hi)})
		}
		if len(pts) == 0 {
			continue
		}
		s := figure.Series{Name: "n1 = " + itoa(n1), Color: figure.Color(i), Glyph: figure.Glyph(i), Bars: true, Line: true, Legend: true}
		if err := figure.AddSeries(p, pts, s); err != nil {
			return nil, nil, err
		}
	}
	figure.PadX(p, 0.02)
	return p, table, nil
}

// xRange is the range of α (or m) over es.
func xRange(es []Estimate, byM bool) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, e := range es {
		x := e.Alpha()
		if byM {
			x = float64(e.M)
		}
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi
}

// timeFigure draws the median solver time against α for up to maxCurves
// values of n1.
func timeFigure(d fragData) (Figure, error) {
	p := figure.NewPanel(fmt.Sprintf("Fragment %s%s: median solver time", d.f, n2Suffix(d.n2)), "α = m / n1", "median time (ms)", figure.SingleFonts)
	p.Y.Min = 0
	p.X.Tick.Marker = figure.Ticks{N: 9}
	p.Legend.Top, p.Legend.Left = true, true
	table := [][]string{{"n1", "n2", "m", "alpha", "median_ms", "p90_ms"}}
	n1s, groups := byN1(d.curves)
	for i, n1 := range spread(n1s, maxCurves) {
		var pts []figure.CurvePoint
		for _, e := range groups[n1] {
			t := float64(e.MedianTime.Microseconds()) / 1000
			pts = append(pts, figure.CurvePoint{X: e.Alpha(), Y: t, Lo: t, Hi: t})
			table = append(table, []string{itoa(n1), itoa(e.N2), itoa(e.M), f4(e.Alpha()), ms(e.MedianTime), ms(e.P90Time)})
		}
		s := figure.Series{Name: "n1 = " + itoa(n1), Color: figure.Color(i), Glyph: figure.Glyph(i), Line: true, Legend: true}
		if err := figure.AddSeries(p, pts, s); err != nil {
			return Figure{}, err
		}
	}
	figure.PadX(p, 0.02)
	p.Y.Max *= 1.05 // room above the slowest point
	return Figure{Name: "time-alpha-" + d.f.String(), Table: table, draw: margin(p), size: single}, nil
}

// alphaBetaGrid pools every point of d into cells of (α, β).
func alphaBetaGrid(d fragData) *heatGrid {
	ts := make([]tally, len(d.all))
	amin, amax, bmin, bmax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for i, e := range d.all {
		ts[i] = tally{x: e.Alpha(), y: e.Beta(), sat: e.Sat, dec: e.Decided()}
		amin, amax, bmin, bmax = min(amin, e.Alpha()), max(amax, e.Alpha()), min(bmin, e.Beta()), max(bmax, e.Beta())
	}
	return newHeatGrid(niceBins(amin, amax, 20, false), niceBins(bmin, bmax, 20, false), ts)
}

// heatFigure draws P(sat) over (α, β) for a fragment with verbs, with
// the band's contour and the colour bar beside it, like the paper's
// Figure 4.
func heatFigure(d fragData, band Band) Figure {
	g := alphaBetaGrid(d)
	p := heatPanel(g, band, fmt.Sprintf("Fragment %s: P(sat) over (α, β)", d.f), "α = m / n1", "β = m / n2", figure.SingleFonts)
	key := heatKey(band, figure.SingleFonts)
	paint := func(c draw.Canvas) {
		const keyW = 1.4 * vg.Inch
		p.Draw(draw.Crop(c, 0, -keyW, 0, -vg.Points(3)))
		key.Draw(draw.Crop(c, c.Max.X-c.Min.X-keyW+vg.Points(6), 0, vg.Points(24), -vg.Points(20)))
	}
	return Figure{Name: "heatmap-" + d.f.String(), Table: g.table("alpha", "beta"), draw: paint,
		size: figure.Size{W: 6 * vg.Inch, H: 3.6 * vg.Inch, DPI: figure.Print}}
}
