package eval

import (
	"fmt"
	"io"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/nlsat/nlsat/internal/atomicfile"
	"github.com/nlsat/nlsat/internal/figure"
	"github.com/nlsat/nlsat/internal/inputerr"
)

// PlotFormats lists the formats Plot writes.
func PlotFormats() []string { return []string{"png", "svg"} }

// PlotFile draws the figure into the file name atomically, so that a
// failed plot leaves nothing; a path that cannot be written is an
// InputError.
func PlotFile(name string, rep Report, format string) error {
	f, err := atomicfile.Create(name, io.Discard)
	if err != nil {
		return &inputerr.Error{Err: err}
	}
	defer f.Abort()
	if err := Plot(f, rep, format); err != nil {
		return fmt.Errorf("cannot draw %s: %w", name, err)
	}
	return f.Commit()
}

// Plot draws the accuracy of the rows of the breakdown the report's task
// plots (Spec.Plot) against the number that is their second part, one
// curve per value of their first: for sat/unsat records, accuracy
// against n = n1 + n2, one curve per fragment, with
// Wilson error bars and a dashed line at chance (0.5), like the paper's
// Figure 3, in the print style of the sweep figures (5.2 by 3.2 inches at
// 300 dpi, the colour-blind-safe palette with one marker per curve), and
// writes it to w as "png" or "svg". Curves are shifted sideways by a few
// hundredths of n so that their error bars do not hide each other.
func Plot(w io.Writer, rep Report, format string) error {
	p, err := accuracyPlot(rep)
	if err != nil {
		return err
	}
	return figure.EncodeSize(w, format, PlotSize, func(c draw.Canvas) {
		p.Draw(draw.Crop(c, 0, -vg.Points(10), 0, -vg.Points(3)))
	})
}

// PlotSize is the canvas of Plot: that of the sweep's single figures.
var PlotSize = figure.Size{W: 5.2 * vg.Inch, H: 3.2 * vg.Inch, DPI: figure.Print}

func accuracyPlot(rep Report) (*plot.Plot, error) {
	var rows []Row
	if rep.spec != nil && rep.spec.Plot != "" {
		rows = rep.Section(rep.spec.Plot)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("no scored records to plot")
	}
	p := figure.NewPanel("Accuracy against the number of predicates", "n = n1 + n2",
		fmt.Sprintf("accuracy (%.0f%% Wilson intervals)", 100*Confidence), figure.SingleFonts)
	p.Y.Min, p.Y.Max = -0.03, 1.03 // a margin, so that no marker touches the frame
	p.Y.Tick.Marker = figure.Ticks{N: 7}
	p.X.Tick.Marker = figure.Ticks{Integer: true, N: 9}
	var frags []string
	curves := map[string][]figure.CurvePoint{}
	for _, r := range rows {
		frag := r.Key[0]
		n, err := strconv.ParseFloat(r.Key[1], 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %q is no number to plot", rep.spec.Plot, r.Key[1])
		}
		if _, ok := curves[frag]; !ok {
			frags = append(frags, frag)
		}
		curves[frag] = append(curves[frag], figure.CurvePoint{X: n, Y: r.Accuracy, Lo: r.CILow, Hi: r.CIHigh})
	}
	chance := plotter.NewFunction(func(float64) float64 { return 0.5 })
	chance.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	chance.Color, chance.Width = figure.Grey, vg.Points(0.9)
	p.Add(chance)
	for i, f := range frags {
		pts := curves[f]
		shift := 0.06 * (float64(i) - float64(len(frags)-1)/2)
		for j := range pts {
			pts[j].X += shift
		}
		s := figure.Series{Name: f, Color: figure.Color(i), Glyph: figure.Glyph(i), Bars: true, Line: true, Legend: true}
		if err := figure.AddSeries(p, pts, s); err != nil {
			return nil, err
		}
	}
	p.Legend.Add("chance", chance)
	// Half a step of n on each side keeps the outer error bars clear of
	// the axes; the legend sits bottom right, where accuracy rarely goes.
	p.X.Min, p.X.Max = p.X.Min-0.5, p.X.Max+0.5
	p.Legend.Top, p.Legend.Left = false, false
	return p, nil
}
