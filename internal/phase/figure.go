package phase

import (
	"encoding/csv"
	"io"
	"path/filepath"

	"github.com/nlsat/nlsat/internal/figure"
	"gonum.org/v1/plot/vg/draw"
)

// Figure is one drawn figure with the table of numbers behind it.
type Figure struct {
	// Name is the file name without extension, such as "psat-alpha-S".
	Name string
	// Table is the CSV behind the figure, header first.
	Table [][]string
	draw  func(c draw.Canvas)
}

// Encode draws the figure as "png" or "svg" onto w.
func (f Figure) Encode(w io.Writer, format string) error { return figure.Encode(w, format, f.draw) }

// WriteFigures writes NAME.png, NAME.svg and NAME.csv for every figure
// into dir, each atomically.
func WriteFigures(dir string, figs []Figure) error {
	for _, f := range figs {
		for _, format := range []string{"png", "svg"} {
			err := WriteFile(filepath.Join(dir, f.Name+"."+format), func(w io.Writer) error { return f.Encode(w, format) })
			if err != nil {
				return err
			}
		}
		err := WriteFile(filepath.Join(dir, f.Name+".csv"), func(w io.Writer) error {
			cw := csv.NewWriter(w)
			cw.WriteAll(f.Table)
			return cw.Error()
		})
		if err != nil {
			return err
		}
	}
	return nil
}
