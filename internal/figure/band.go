package figure

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// BandColor is the shade of the band of P(sat) that defines the
// phase-change region.
var BandColor = color.NRGBA{0xF3, 0xE3, 0xB5, 0xFF}

// Band shades the strip Lo ≤ y ≤ Hi across the whole width of a plot,
// behind whatever is added after it. It leaves the axes' ranges alone.
type Band struct {
	Lo, Hi float64
	Color  color.Color
}

// Plot implements plot.Plotter.
func (b Band) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	lo, hi := max(trY(b.Lo), c.Min.Y), min(trY(b.Hi), c.Max.Y)
	if hi <= lo {
		return
	}
	fill(&c, b.color(), vg.Rectangle{Min: vg.Point{X: c.Min.X, Y: lo}, Max: vg.Point{X: c.Max.X, Y: hi}})
}

// Thumbnail implements plot.Thumbnailer, for a legend entry.
func (b Band) Thumbnail(c *draw.Canvas) {
	h := (c.Max.Y - c.Min.Y) / 4
	fill(c, b.color(), vg.Rectangle{Min: vg.Point{X: c.Min.X, Y: c.Min.Y + h}, Max: vg.Point{X: c.Max.X, Y: c.Max.Y - h}})
}

func (b Band) color() color.Color {
	if b.Color == nil {
		return BandColor
	}
	return b.Color
}

func fill(c *draw.Canvas, col color.Color, r vg.Rectangle) {
	var p vg.Path
	p.Move(r.Min)
	p.Line(vg.Point{X: r.Max.X, Y: r.Min.Y})
	p.Line(r.Max)
	p.Line(vg.Point{X: r.Min.X, Y: r.Max.Y})
	p.Close()
	c.SetColor(col)
	c.Fill(p)
}

// Segments are straight line segments in data coordinates drawn in one
// style, in the order given; Outline of a heat map's cells uses them.
type Segments struct {
	Lines [][2][2]float64
	Style draw.LineStyle
}

// Plot implements plot.Plotter.
func (s Segments) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, l := range s.Lines {
		pts := []vg.Point{{X: trX(l[0][0]), Y: trY(l[0][1])}, {X: trX(l[1][0]), Y: trY(l[1][1])}}
		c.StrokeLines(s.Style, c.ClipLinesXY(pts)...)
	}
}

// Thumbnail implements plot.Thumbnailer, for a legend entry.
func (s Segments) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(s.Style, c.Min.X, y, c.Max.X, y)
}
