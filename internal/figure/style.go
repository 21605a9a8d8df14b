package figure

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// okabeIto is the colour-blind-safe palette of Okabe and Ito (2008), in
// an order that keeps neighbours far apart, without its yellow (too pale
// on white).
var okabeIto = []color.NRGBA{
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0x00, 0x00, 0x00, 0xFF}, // black
}

// glyphs are the markers of curves 0, 1, …: filled shapes first, so that
// curves differ in shape as well as in colour (and survive grey print).
var glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.CrossGlyph{},
	draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{},
}

// Color returns the colour of curve i (cycling after seven).
func Color(i int) color.Color { return okabeIto[i%len(okabeIto)] }

// Glyph returns the marker of curve i (cycling after seven).
func Glyph(i int) draw.GlyphDrawer { return glyphs[i%len(glyphs)] }

// Grey is the colour of context drawn behind the data: the grid, the
// band, points that a curve summarises.
var Grey = color.Gray{Y: 0xB0}

// Fonts are the sizes of a plot's text in points.
type Fonts struct{ Title, Label, Tick, Legend vg.Length }

// PanelFonts suit one panel of several in a figure 7 inches wide;
// SingleFonts a figure of its own, 5 to 6 inches wide. Both are the sizes
// in print.
var (
	PanelFonts  = Fonts{Title: 9, Label: 8, Tick: 7, Legend: 6.5}
	SingleFonts = Fonts{Title: 10, Label: 9, Tick: 8, Legend: 7.5}
)

// NewPanel returns a plot with a title, axis labels, the given fonts,
// round ticks on both axes (Ticks) and a light grid at the major ticks.
func NewPanel(title, x, y string, f Fonts) *plot.Plot {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, x, y
	p.Title.TextStyle.Font.Size = f.Title
	p.Title.Padding = vg.Points(3)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = f.Label
		a.Tick.Label.Font.Size = f.Tick
		a.Tick.Marker = Ticks{}
		a.Padding = vg.Points(2)
	}
	p.Legend.TextStyle.Font.Size = f.Legend
	p.Legend.ThumbnailWidth = vg.Points(13)
	p.Legend.Padding = vg.Points(1)
	g := plotter.NewGrid()
	g.Vertical.Color, g.Horizontal.Color = color.Gray{Y: 0xE4}, color.Gray{Y: 0xE4}
	g.Vertical.Width, g.Horizontal.Width = vg.Points(0.4), vg.Points(0.4)
	p.Add(g)
	return p
}

// The widths of curves: lines of 0.9 points, markers of radius 1.7.
const (
	lineW  = 0.9
	radius = 1.7
)

// Series is how one curve is drawn.
type Series struct {
	Name  string
	Color color.Color
	Glyph draw.GlyphDrawer
	// Bars draws each point's interval [Lo, Hi] as an error bar.
	Bars bool
	// Line joins the points; without it they are a scatter.
	Line bool
	// Radius is the marker's radius (default 1.7 points).
	Radius vg.Length
	// Legend adds the series to the plot's legend.
	Legend bool
}

// Thumb returns the legend thumbnail of s: its line and marker.
func (s Series) Thumb() plot.Thumbnailer {
	return thumbs{s}
}

type thumbs struct{ s Series }

func (t thumbs) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	if t.s.Line {
		c.StrokeLine2(draw.LineStyle{Color: t.s.Color, Width: lineW}, c.Min.X, y, c.Max.X, y)
	}
	r := t.s.Radius
	if r == 0 {
		r = radius
	}
	c.DrawGlyph(draw.GlyphStyle{Color: t.s.Color, Shape: t.s.Glyph, Radius: r}, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: y})
}

// PadX widens the x range of p by share of its span on each side, so
// that markers at the ends are not cut by the frame.
func PadX(p *plot.Plot, share float64) {
	d := (p.X.Max - p.X.Min) * share
	p.X.Min, p.X.Max = p.X.Min-d, p.X.Max+d
}

// AddSeries adds a curve drawn as s says.
func AddSeries(p *plot.Plot, curve []CurvePoint, s Series) error {
	pts := errPoints(curve)
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return err
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: s.Color, Shape: s.Glyph, Radius: s.Radius}
	if s.Radius == 0 {
		sc.Radius = radius
	}
	thumbs := []plot.Thumbnailer{sc}
	if s.Line {
		l, err := plotter.NewLine(pts)
		if err != nil {
			return err
		}
		l.Color, l.Width = s.Color, lineW
		p.Add(l)
		thumbs = append([]plot.Thumbnailer{l}, thumbs...)
	}
	if s.Bars {
		eb, err := plotter.NewYErrorBars(pts)
		if err != nil {
			return err
		}
		eb.Color, eb.Width, eb.CapWidth = s.Color, lineW*0.75, vg.Points(2.4)
		p.Add(eb)
	}
	p.Add(sc)
	if s.Legend {
		p.Legend.Add(s.Name, thumbs...)
	}
	return nil
}
