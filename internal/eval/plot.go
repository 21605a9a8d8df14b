package eval

import (
	"fmt"
	"image/color"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

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

// Plot draws accuracy against n = n1 + n2, one curve per fragment with
// Wilson error bars and a dashed line at chance (0.5), like the paper's
// Figure 3, and writes it to w as "png" or "svg". Curves are shifted
// sideways by a few hundredths of n so that their error bars do not hide
// each other.
func Plot(w io.Writer, rep Report, format string) error {
	p, err := accuracyPlot(rep)
	if err != nil {
		return err
	}
	return figure.Encode(w, format, p.Draw)
}

func accuracyPlot(rep Report) (*plot.Plot, error) {
	if len(rep.ByFragmentN) == 0 {
		return nil, fmt.Errorf("no scored records to plot")
	}
	p := plot.New()
	p.Title.Text = "Accuracy against the number of predicates"
	p.X.Label.Text = "n = n1 + n2"
	p.Y.Label.Text = fmt.Sprintf("accuracy (%.0f%% Wilson intervals)", 100*Confidence)
	p.Y.Min, p.Y.Max = 0, 1
	p.Add(plotter.NewGrid())
	var frags []string
	curves := map[string][]figure.CurvePoint{}
	for _, r := range rep.ByFragmentN {
		if _, ok := curves[r.Fragment]; !ok {
			frags = append(frags, r.Fragment)
		}
		curves[r.Fragment] = append(curves[r.Fragment], figure.CurvePoint{X: float64(r.N), Y: r.Accuracy, Lo: r.CILow, Hi: r.CIHigh})
	}
	for i, f := range frags {
		pts := curves[f]
		shift := 0.06 * (float64(i) - float64(len(frags)-1)/2)
		for j := range pts {
			pts[j].X += shift
		}
		if err := figure.AddCurve(p, pts, true, figure.CurveColor(i, len(frags)), f); err != nil {
			return nil, err
		}
	}
	chance := plotter.NewFunction(func(float64) float64 { return 0.5 })
	chance.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	chance.Color = color.Gray{Y: 120}
	p.Add(chance)
	p.Legend.Add("chance", chance)
	// Half a step of n on each side keeps the outer error bars clear of
	// the axes; the legend sits bottom right, where accuracy rarely goes.
	p.X.Min, p.X.Max = p.X.Min-0.5, p.X.Max+0.5
	p.Legend.Top, p.Legend.Left = false, false
	return p, nil
}
