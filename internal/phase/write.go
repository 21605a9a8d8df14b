package phase

import (
	"io"
	"path/filepath"
)

// WriteSweep writes the files of one fragment's sweep into dir, each
// atomically: points.csv, points.jsonl, timing.csv, crossings.csv,
// quantifiers.csv, region.json and the fragment's figures (Figures) with
// their CSVs. The figures are drawn from the files just written, read
// back, so that nlsat plot redraws them byte for byte.
func WriteSweep(dir string, es []Estimate, region *Region, fixedN2 int) error {
	files := []struct {
		name  string
		write func(io.Writer) error
	}{
		{"points.csv", func(w io.Writer) error { return WritePoints(w, es) }},
		{"points.jsonl", func(w io.Writer) error { return WritePointsJSONL(w, es) }},
		{"timing.csv", func(w io.Writer) error { return WriteTiming(w, es) }},
		{"crossings.csv", func(w io.Writer) error { return WriteCrossings(w, Crossings(es)) }},
		{"quantifiers.csv", func(w io.Writer) error { return WriteQuantifiers(w, es) }},
		{"region.json", region.Write},
	}
	for _, f := range files {
		if err := WriteFile(filepath.Join(dir, f.name), f.write); err != nil {
			return err
		}
	}
	l := &Loaded{Band: region.Band}
	if err := l.load(dir, "points.csv"); err != nil {
		return err
	}
	figs, err := Figures(l.Estimates, FigureOptions{FixedN2: fixedN2, Band: l.Band})
	if err != nil {
		return err
	}
	return WriteFigures(dir, figs)
}
