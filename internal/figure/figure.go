// Package figure draws nlsat's figures with gonum/plot: canvas sizes and
// encoders, a colour-blind-safe palette with one marker per curve, round
// ticks, a shaded band, curves with Wilson bars, and multi-panel layouts.
//
// # Determinism
//
// Every function draws the same bytes for the same input: nothing here
// reads the clock or iterates over a map, and PNG and SVG are written by
// gonum/plot's own encoders.
package figure

import (
	"bytes"
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

// Size is the size of a figure and the resolution of its PNG.
type Size struct {
	W, H vg.Length
	DPI  int
}

// Screen is the 8 by 5 inch, 100 dpi canvas of Encode.
var Screen = Size{W: 8 * vg.Inch, H: 5 * vg.Inch, DPI: 100}

// Print is the resolution of figures meant for a paper: 300 dpi.
const Print = 300

// Formats are the formats EncodeSize writes.
var Formats = []string{"png", "svg"}

// Encode draws onto the Screen canvas with paint and writes it to w as
// "png" or "svg".
func Encode(w io.Writer, format string, paint func(draw.Canvas)) error {
	return EncodeSize(w, format, Screen, paint)
}

// EncodeSize draws onto a canvas of size s with paint and writes it to w
// as "png" (at s.DPI, on white, its resolution recorded in a pHYs chunk so
// that LaTeX and viewers give it its size) or "svg".
func EncodeSize(w io.Writer, format string, s Size, paint func(draw.Canvas)) error {
	var wt io.WriterTo
	switch format {
	case "png":
		c := vgimg.NewWith(vgimg.UseWH(s.W, s.H), vgimg.UseDPI(s.DPI), vgimg.UseBackgroundColor(color.White))
		paint(draw.New(c))
		var b bytes.Buffer
		if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&b); err != nil {
			return err
		}
		data, err := withResolution(b.Bytes(), s.DPI)
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	case "svg":
		c := vgsvg.New(s.W, s.H)
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
// near-white ends, so every curve stands out on white). For a few curves
// that must be told apart, Color is clearer.
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
