package figure

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Panels is a figure of several plots in a grid, filled row by row,
// under a title, with an optional key in the cell after the last plot.
// Each plot's own title is drawn by Panels, on one line across its row,
// so that titles line up whatever the plots' tick labels.
type Panels struct {
	Title string
	// Plots are drawn without their titles (NewPanels moves them out).
	Plots  []*plot.Plot
	titles []string
	// Key, when its Draw is set, draws into the cell after the last plot.
	Key Key
}

// Key is a figure's key: how to draw it, and the width it needs.
type Key struct {
	Draw  func(c draw.Canvas)
	Width vg.Length
}

// NewPanels returns the panels of plots under title, taking each plot's
// title out to draw it in line with the others of its row.
func NewPanels(title string, plots []*plot.Plot, key Key) Panels {
	ps := Panels{Title: title, Plots: plots, Key: key}
	for _, p := range plots {
		ps.titles = append(ps.titles, p.Title.Text)
		p.Title.Text = ""
	}
	return ps
}

// Panel sizes, at the size of print: three cells make a figure 7 inches
// wide (a page's text width), each 2.35 by 2.1 inches; a key without a
// free cell gets a strip 1.45 inches wide on the right; the title takes
// 0.28 inches.
const (
	cellW  = 2.35 * vg.Inch
	cellH  = 2.1 * vg.Inch
	stripW = 1.45 * vg.Inch
	titleH = 0.28 * vg.Inch
	// panelTitleH is the room above each panel for its title.
	panelTitleH = 13
)

// grid returns the rows and columns of the plots (at most three
// columns), and whether the key needs a strip of its own because the
// last row has no free cell.
func (ps Panels) grid() (rows, cols int, strip bool) {
	n := len(ps.Plots)
	cols = min(max(n, 1), 3)
	rows = (n + cols - 1) / cols
	return rows, cols, ps.Key.Draw != nil && n%cols == 0
}

// titleStyle is the style of a figure's title.
func titleStyle() text.Style {
	return text.Style{Color: color.Black, Font: font.From(plot.DefaultFont, 10.5), XAlign: draw.XCenter,
		YAlign: draw.YTop, Handler: plot.DefaultTextHandler}
}

// stripWidth is the width of the key's strip: stripW, or what the key
// needs if that is more.
func (ps Panels) stripWidth() vg.Length {
	return max(stripW, ps.Key.Width+vg.Points(8))
}

// Size returns the canvas size that gives every cell the same room, and
// the key and the title the room they need: a figure of one panel is
// widened for them rather than cutting them off.
func (ps Panels) Size() Size {
	rows, cols, strip := ps.grid()
	s := Size{W: vg.Length(cols) * cellW, H: vg.Length(rows)*cellH + titleH, DPI: Print}
	if strip {
		s.W += ps.stripWidth()
	}
	s.W = max(s.W, titleStyle().Width(ps.Title)+0.3*vg.Inch)
	return s
}

// EntriesWidth is the width DrawEntries needs for entries in fonts f.
func EntriesWidth(f Fonts, entries []Entry) vg.Length {
	sty := text.Style{Font: font.From(plot.DefaultFont, f.Legend), Handler: plot.DefaultTextHandler}
	var w vg.Length
	for _, e := range entries {
		w = max(w, sty.Width(e.Text))
	}
	// The thumbnail, the legend's padding either side of it and a margin.
	return w + vg.Points(14) + 3*vg.Points(2) + vg.Points(4)
}

// Draw draws the title, the plots with their data areas aligned and
// their titles in line, and the key.
func (ps Panels) Draw(c draw.Canvas) {
	sty := titleStyle()
	c.FillText(sty, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: c.Max.Y - vg.Points(4)}, ps.Title)
	rows, cols, strip := ps.grid()
	body := draw.Crop(c, 0, 0, 0, -titleH)
	sw := ps.stripWidth()
	if strip {
		body = draw.Crop(body, 0, -sw, 0, 0)
	}
	cells := make([][]*plot.Plot, rows)
	for r := range cells {
		cells[r] = make([]*plot.Plot, cols)
	}
	for i, p := range ps.Plots {
		cells[i/cols][i%cols] = p
	}
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(10), PadY: vg.Points(8) + panelTitleH,
		PadTop: panelTitleH, PadLeft: vg.Points(3), PadRight: vg.Points(6), PadBottom: vg.Points(3)}
	canvases := plot.Align(cells, tiles, body)
	for i, p := range ps.Plots {
		cv := canvases[i/cols][i%cols]
		p.Draw(cv)
		if i < len(ps.titles) {
			dc := p.DataCanvas(cv)
			top := tiles.At(body, i%cols, i/cols).Max.Y
			sty.Font.Size = PanelFonts.Title
			c.FillText(sty, vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: top + panelTitleH - vg.Points(2)}, ps.titles[i])
		}
	}
	switch n := len(ps.Plots); {
	case ps.Key.Draw == nil:
	case strip:
		key := draw.Crop(c, c.Max.X-c.Min.X-sw, 0, 0, -titleH-panelTitleH)
		ps.Key.Draw(draw.Crop(key, 0, 0, key.Max.Y-key.Min.Y-cellH+panelTitleH, 0))
	default:
		ps.Key.Draw(tiles.At(body, n%cols, n/cols))
	}
}

// Entry is one line of a key: a thumbnail and its text.
type Entry struct {
	Text   string
	Thumbs []plot.Thumbnailer
}

// DrawEntries draws entries as a legend in the top left of c.
func DrawEntries(c draw.Canvas, f Fonts, entries []Entry) {
	l := plot.NewLegend()
	l.Top, l.Left = true, true
	l.TextStyle.Font.Size = f.Legend
	l.ThumbnailWidth = vg.Points(14)
	l.Padding = vg.Points(2)
	for _, e := range entries {
		l.Add(e.Text, e.Thumbs...)
	}
	l.Draw(c)
}

// ColorBar returns a plot of a vertical colour bar for cm with the given
// label, round ticks, and a short line across it at each mark.
func ColorBar(cm palette.ColorMap, label string, marks []float64, f Fonts) *plot.Plot {
	p := plot.New()
	p.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true, Colors: 200})
	p.HideX()
	p.Y.Padding = 0
	p.Y.Label.Text = label
	p.Y.Label.TextStyle.Font.Size = f.Label
	p.Y.Tick.Label.Font.Size = f.Tick
	p.Y.Tick.Marker = Ticks{N: 6}
	var lines [][2][2]float64
	for _, m := range marks {
		lines = append(lines, [2][2]float64{{0, m}, {1, m}})
	}
	p.Add(Segments{Lines: lines, Style: draw.LineStyle{Color: color.Black, Width: vg.Points(1)}})
	return p
}
