// Package figure draws nlsat's figures with gonum/plot: one canvas size,
// one palette for curves, curves with Wilson bars, PNG and SVG output.
package figure

import (
	"fmt"
	"image/color"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Figure sizes: 8 by 5 inches at 100 dots per inch.
const (
	figW = 8 * vg.Inch
	figH = 5 * vg.Inch
	dpi  = 100
)

// Encode draws onto an 8 by 5 inch canvas (100 dpi for PNG) with paint
// and writes it to w as "png" or "svg".
func Encode(w io.Writer, format string, paint func(draw.Canvas)) error {
	var wt io.WriterTo
	switch format {
	case "png":
		c := vgimg.NewWith(vgimg.UseWH(figW, figH), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))
		paint(draw.New(c))
		wt = vgimg.PngCanvas{Canvas: c}
	case "svg":
		c := vgsvg.New(figW, figH)
		paint(draw.New(c))
		wt = c
	default:
		return fmt.Errorf("unknown figure format %q: allowed values are png, svg", format)
	}
	_, err := wt.WriteTo(w)
	return err
}

// CurveColor returns the colour of curve i of k, from dark purple through
// blue and green to ochre (Kindlmann's map without its near-black and
// near-white ends, so every curve stands out on white).
func CurveColor(i, k int) color.Color {
	cm := moreland.Kindlmann()
	cm.SetMin(0)
	cm.SetMax(1)
	v := 0.15
	if k > 1 {
		v += 0.65 * float64(i) / float64(k-1)
	}
	c, err := cm.At(v)
	if err != nil {
		return color.Black
	}
	return c
}

// errPoints are points with asymmetric vertical error bars.
type errPoints []CurvePoint

// CurvePoint is a point of a curve with its interval [Lo, Hi].
type CurvePoint struct{ X, Y, Lo, Hi float64 }

func (e errPoints) Len() int                    { return len(e) }
func (e errPoints) XY(i int) (float64, float64) { return e[i].X, e[i].Y }
func (e errPoints) YError(i int) (float64, float64) {
	return e[i].Y - e[i].Lo, e[i].Hi - e[i].Y
}

// NewPlot returns a plot with a title, axis labels and a grid.
func NewPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Add(plotter.NewGrid())
	return p
}

// AddCurve adds a line with points, optional error bars and a legend
// entry.
func AddCurve(p *plot.Plot, curve []CurvePoint, bars bool, c color.Color, name string) error {
	pts := errPoints(curve)
	lp, sp, err := plotter.NewLinePoints(pts)
	if err != nil {
		return err
	}
	lp.Color, sp.Color, sp.Radius = c, c, vg.Points(2)
	p.Add(lp, sp)
	if bars {
		eb, err := plotter.NewYErrorBars(pts)
		if err != nil {
			return err
		}
		eb.Color = c
		p.Add(eb)
	}
	p.Legend.Add(name, lp, sp)
	return nil
}
