package phase

import (
	"encoding/csv"
	"io"
	"path/filepath"
	"runtime"
	"sync"

	"gonum.org/v1/plot/vg/draw"

	"github.com/nlsat/nlsat/internal/figure"
)

// Figure is one drawn figure with the table of numbers behind it.
type Figure struct {
	// Name is the file name without extension, such as "psat-alpha-S".
	Name string
	// Table is the CSV behind the figure, header first.
	Table [][]string
	draw  func(c draw.Canvas)
	size  figure.Size
}

// Encode draws the figure as "png" or "svg" onto w.
func (f Figure) Encode(w io.Writer, format string) error {
	return figure.EncodeSize(w, format, f.size, f.draw)
}

// WriteFigures writes NAME.png, NAME.svg and NAME.csv for every figure
// into dir, each atomically. Figures are drawn on every CPU at once
// (PNGs at 300 dpi take a while); the files do not depend on the order.
func WriteFigures(dir string, figs []Figure) error {
	errs := make([]error, len(figs))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, f := range figs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			errs[i] = writeFigure(dir, f)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// writeFigure writes the files of one figure.
func writeFigure(dir string, f Figure) error {
	for _, format := range figure.Formats {
		err := WriteFile(filepath.Join(dir, f.Name+"."+format), func(w io.Writer) error { return f.Encode(w, format) })
		if err != nil {
			return err
		}
	}
	return WriteFile(filepath.Join(dir, f.Name+".csv"), func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.WriteAll(f.Table)
		return cw.Error()
	})
}
