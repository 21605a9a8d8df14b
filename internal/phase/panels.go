package phase

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/nlsat/nlsat/internal/binom"
	"github.com/nlsat/nlsat/internal/figure"
)

// PaperFigures builds the multi-panel figures of the paper from the
// points of one or more fragments: one panel per fragment, in the order
// S, W, V, Z, A, labelled (a), (b), …, and a key in the next cell.
//
//	fig2-psat-m                          P(sat) against m (Figure 2)
//	fig4-psat-alpha-beta                 P(sat) against α for S and W, over (α, β) for V, Z, A (Figure 4)
//	fig5-psat-clause-variable-ratio      P(sat) against m/(n1+n2), pooled (Figure 5)
//	fig6-psat-alpha-subject-quantifiers  P(sat) over (α, ∃ share of subject quantifiers) (Figure 6)
//	fig7-psat-m-subject-quantifiers      P(sat) over (m, ∃ share of subject quantifiers) (Figure 7)
//	fig8-psat-quantifier-shares          P(sat) over the ∃ shares of subject and object quantifiers, V, Z, A (Figure 8)
//
// Figures 6 to 8 need the quantifier counts (Estimate.Quant); without
// them they are left out, and so is Figure 8 without V, Z and A.
func PaperFigures(es []Estimate, o FigureOptions) ([]Figure, error) {
	ds := byFragment(es, o.FixedN2)
	if len(ds) == 0 {
		return nil, fmt.Errorf("no points to draw")
	}
	band := o.band()
	var figs []Figure
	for _, build := range []func([]fragData, Band) (Figure, bool, error){fig2, fig4, fig5, fig6, fig7, fig8} {
		fig, ok, err := build(ds, band)
		if err != nil {
			return nil, err
		}
		if ok {
			figs = append(figs, fig)
		}
	}
	return figs, nil
}

// label is the title of panel i: "(a) S", "(c) V, n2 = 5".
func label(i int, d fragData, withN2 bool) string {
	s := fmt.Sprintf("(%c) %s", 'a'+i, d.f)
	if withN2 && d.n2 > 0 {
		s += fmt.Sprintf(", n2 = %d", d.n2)
	}
	return s
}

// panelFigure lays out the panels with their key; tables are prefixed
// with the panel's fragment and joined under one header.
func panelFigure(name, title string, ds []fragData, plots []*plot.Plot, tables [][][]string, key figure.Key) Figure {
	var table [][]string
	for i, t := range tables {
		if i == 0 {
			table = append(table, append([]string{"fragment"}, t[0]...))
		}
		for _, row := range t[1:] {
			table = append(table, append([]string{ds[i].f.String()}, row...))
		}
	}
	// A y label that repeats the one at the start of its row is left out.
	for i, p := range plots {
		if i%3 != 0 && p.Y.Label.Text == plots[i-i%3].Y.Label.Text {
			p.Y.Label.Text = ""
		}
	}
	// A lone panel needs no letter.
	if len(plots) == 1 {
		plots[0].Title.Text = strings.TrimPrefix(plots[0].Title.Text, "(a) ")
	}
	ps := figure.NewPanels(title, plots, key)
	return Figure{Name: name, Table: table, draw: ps.Draw, size: ps.Size()}
}

// bandEntry is the key's entry for the shaded band.
func bandEntry(band Band) figure.Entry {
	return figure.Entry{Text: "band " + band.String() + " of P(sat)", Thumbs: []plot.Thumbnailer{figure.Band{}}}
}

// note is a key's entry of text alone.
func note(s string) figure.Entry { return figure.Entry{Text: s} }

// curveKey says what the shading and bars of curve panels mean.
func curveKey(band Band, entries ...figure.Entry) figure.Key {
	entries = append([]figure.Entry{bandEntry(band), note("bars: Wilson 95% intervals")}, entries...)
	return figure.Key{
		Draw: func(c draw.Canvas) {
			figure.DrawEntries(draw.Crop(c, vg.Points(12), 0, 0, -vg.Points(12)), figure.PanelFonts, entries)
		},
		Width: vg.Points(12) + figure.EntriesWidth(figure.PanelFonts, entries),
	}
}

// n2Note says which curves are drawn.
func n2Note(ds []fragData) []figure.Entry {
	es := []figure.Entry{note("curves: up to four n1, evenly spread")}
	for _, d := range ds {
		if d.n2 > 0 {
			return append(es, note("V, Z, A: at the n2 of the panel's title"))
		}
	}
	return es
}

// fig2 is P(sat) against m per fragment for up to four n1, like the
// paper's Figure 2.
func fig2(ds []fragData, band Band) (Figure, bool, error) {
	var plots []*plot.Plot
	var tables [][][]string
	for i, d := range ds {
		p, t, err := psatPanel(d, true, band, label(i, d, true), figure.PanelFonts)
		if err != nil {
			return Figure{}, false, err
		}
		plots, tables = append(plots, p), append(tables, t)
	}
	return panelFigure("fig2-psat-m", "P(sat) against the number of sentences m", ds, plots, tables, curveKey(band, n2Note(ds)...)), true, nil
}

// fig4 is P(sat) against α for S and W and over (α, β) for V, Z and A,
// like the paper's Figure 4.
func fig4(ds []fragData, band Band) (Figure, bool, error) {
	var plots []*plot.Plot
	var tables [][][]string
	heat := false
	for i, d := range ds {
		if !d.f.HasVerbs() {
			p, t, err := psatPanel(d, false, band, label(i, d, false), figure.PanelFonts)
			if err != nil {
				return Figure{}, false, err
			}
			plots, tables = append(plots, p), append(tables, t)
			continue
		}
		g := alphaBetaGrid(d)
		heat = true
		plots = append(plots, heatPanel(g, band, label(i, d, false), "α = m / n1", "β = m / n2", figure.PanelFonts))
		tables = append(tables, g.table("alpha", "beta"))
	}
	key := curveKey(band)
	if heat {
		key = heatKey(band, figure.PanelFonts, bandEntry(band))
	}
	return panelFigure("fig4-psat-alpha-beta", "P(sat) against α = m/n1 and β = m/n2", ds, plots, mixTables(tables), key), true, nil
}

// mixTables gives tables of different headers one header: the longest
// (the heat maps'), with curve rows padded.
func mixTables(ts [][][]string) [][][]string {
	width := 0
	for _, t := range ts {
		width = max(width, len(t[0]))
	}
	out := make([][][]string, len(ts))
	for i, t := range ts {
		if len(t[0]) == width {
			out[i] = t
			continue
		}
		for _, row := range t {
			out[i] = append(out[i], append(row, make([]string, width-len(row))...))
		}
	}
	return out
}

// fig5 is P(sat) against m/(n1+n2), pooled over the points in bins of
// that ratio, over every point as a grey dot, like the paper's Figure 5.
func fig5(ds []fragData, band Band) (Figure, bool, error) {
	var plots []*plot.Plot
	var tables [][][]string
	for i, d := range ds {
		p, t, err := ratioPanel(d, band, label(i, d, false))
		if err != nil {
			return Figure{}, false, err
		}
		plots, tables = append(plots, p), append(tables, t)
	}
	dot := figure.Series{Color: figure.Grey, Glyph: figure.Glyph(0), Radius: 0.9}
	key := curveKey(band, figure.Entry{Text: "one point (m, n1, n2)", Thumbs: []plot.Thumbnailer{dot.Thumb()}},
		figure.Entry{Text: "points pooled in bins", Thumbs: []plot.Thumbnailer{pooledSeries.Thumb()}})
	return panelFigure("fig5-psat-clause-variable-ratio", "P(sat) against the clause–variable ratio m/(n1+n2)", ds, plots, tables, key), true, nil
}

// clauseRatio is m/(n1+n2), the paper's clause–variable ratio.
// pooledSeries draws the pooled curve of fig5.
var pooledSeries = figure.Series{Color: figure.Color(0), Glyph: figure.Glyph(0), Bars: true, Line: true}

func clauseRatio(e Estimate) float64 { return float64(e.M) / float64(e.N1+e.N2) }

// ratioPanel draws one panel of fig5.
func ratioPanel(d fragData, band Band, title string) (*plot.Plot, [][]string, error) {
	p := figure.NewPanel(title, "m / (n1 + n2)", "P(sat)", figure.PanelFonts)
	p.Add(figure.Band{Lo: band.Lo, Hi: band.Hi})
	p.Y.Min, p.Y.Max = -0.03, 1.03 // a margin, so that no marker touches the frame
	p.Y.Tick.Marker = figure.Ticks{N: 7}
	lo, hi := math.Inf(1), math.Inf(-1)
	var dots []figure.CurvePoint
	for _, e := range d.all {
		lo, hi = min(lo, clauseRatio(e)), max(hi, clauseRatio(e))
		if !math.IsNaN(e.P) {
			dots = append(dots, figure.CurvePoint{X: clauseRatio(e), Y: e.P, Lo: e.P, Hi: e.P})
		}
	}
	b := niceBins(lo, hi, 16, false)
	sat, dec, sum := make([]int, b.n), make([]int, b.n), make([]float64, b.n)
	for _, e := range d.all {
		c := b.cell(clauseRatio(e))
		sat[c], dec[c], sum[c] = sat[c]+e.Sat, dec[c]+e.Decided(), sum[c]+clauseRatio(e)*float64(e.Decided())
	}
	table := [][]string{{"ratio_lo", "ratio_hi", "ratio_mean", "decided", "sat", "p_sat", "ci_lo", "ci_hi"}}
	var pooled []figure.CurvePoint
	for c := range b.n {
		if dec[c] == 0 {
			continue
		}
		x, y, ci := sum[c]/float64(dec[c]), float64(sat[c])/float64(dec[c]), binom.Wilson(sat[c], dec[c], Confidence)
		pooled = append(pooled, figure.CurvePoint{X: x, Y: y, Lo: ci.Lo, Hi: ci.Hi})
		table = append(table, []string{f4(b.edge(c)), f4(b.edge(c + 1)), f4(x), itoa(dec[c]), itoa(sat[c]), f4(y), f4(ci.Lo), f4(ci.Hi)})
	}
	err := figure.AddSeries(p, dots, figure.Series{Color: figure.Grey, Glyph: figure.Glyph(0), Radius: 0.9})
	if err == nil {
		err = figure.AddSeries(p, pooled, pooledSeries)
	}
	figure.PadX(p, 0.02)
	return p, table, err
}
