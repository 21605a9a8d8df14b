package phase

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/inputerr"
)

// Loaded is a sweep read back from its files, for drawing.
type Loaded struct {
	Estimates []Estimate
	// Nested says the sweep has one subdirectory per fragment.
	Nested bool
	// Band is the band of its region.json (PaperBand when absent).
	Band Band
	// Missing names the files that some figures need and that were
	// absent: timing.csv (time figures), quantifiers.csv (Figures 6–8).
	Missing []string
}

// LoadSweep reads the files of a sweep: path is a points.csv, a
// directory holding one (a sweep of one fragment), or a directory with a
// subdirectory per fragment holding one (nlsat phase-sweep --fragment
// all). Beside each points.csv it reads timing.csv and quantifiers.csv
// when present, and the band from region.json. Errors are input errors.
func LoadSweep(path string) (*Loaded, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, inputerr.Errorf("%v", err)
	}
	l := &Loaded{Band: PaperBand()}
	if !st.IsDir() {
		return l, l.load(filepath.Dir(path), filepath.Base(path))
	}
	if _, err := os.Stat(filepath.Join(path, "points.csv")); err == nil {
		return l, l.load(path, "points.csv")
	}
	for _, f := range fragments.All() {
		dir := filepath.Join(path, f.String())
		if _, err := os.Stat(filepath.Join(dir, "points.csv")); err == nil {
			l.Nested = true
			if err := l.load(dir, "points.csv"); err != nil {
				return nil, err
			}
		}
	}
	if !l.Nested {
		return nil, inputerr.Errorf("%s: no points.csv in it or in a subdirectory S, W, V, Z or A", path)
	}
	return l, nil
}

// load reads dir/points and the files beside it.
func (l *Loaded) load(dir, points string) error {
	var es []Estimate
	err := readFile(filepath.Join(dir, points), true, func(r io.Reader) (err error) {
		es, err = ReadPoints(r)
		return err
	})
	if err != nil {
		return err
	}
	optional := []struct {
		name string
		read func(io.Reader) error
	}{
		{"timing.csv", func(r io.Reader) error { _, err := ReadTiming(r, es); return err }},
		{"quantifiers.csv", func(r io.Reader) error { _, err := ReadQuantifiers(r, es); return err }},
		{"region.json", func(r io.Reader) error {
			var reg struct{ Band Band }
			if err := json.NewDecoder(r).Decode(&reg); err != nil {
				return fmt.Errorf("not a region file: %w", err)
			}
			if reg.Band != (Band{}) {
				l.Band = reg.Band
			}
			return nil
		}},
	}
	for _, o := range optional {
		name := filepath.Join(dir, o.name)
		err := readFile(name, false, o.read)
		if errors.Is(err, fs.ErrNotExist) && o.name != "region.json" {
			l.Missing = append(l.Missing, name)
		} else if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return err
		}
	}
	l.Estimates = append(l.Estimates, es...)
	return nil
}

// readFile opens name and hands it to read; errors name the file and are
// input errors, but a missing optional file is fs.ErrNotExist as is.
func readFile(name string, required bool, read func(io.Reader) error) error {
	f, err := os.Open(name)
	if errors.Is(err, fs.ErrNotExist) && !required {
		return err
	}
	if err != nil {
		return inputerr.Errorf("%v", err)
	}
	defer f.Close()
	if err := read(f); err != nil {
		return inputerr.Errorf("%s: %w", name, err)
	}
	return nil
}

// Redraw writes every figure of the loaded sweep into out, laid out as
// the sweep's own: each fragment's figures (Figures) in out/FRAGMENT when
// the sweep is nested, in out otherwise, and the paper's multi-panel
// figures (PaperFigures) in out. It returns the number of figures.
func Redraw(l *Loaded, out string, fixedN2 int) (int, error) {
	o := FigureOptions{FixedN2: fixedN2, Band: l.Band}
	n := 0
	for _, f := range fragments.All() {
		var es []Estimate
		for _, e := range l.Estimates {
			if e.Fragment == f {
				es = append(es, e)
			}
		}
		if len(es) == 0 {
			continue
		}
		dir := out
		if l.Nested {
			dir = filepath.Join(out, f.String())
		}
		figs, err := Figures(es, o)
		if err == nil {
			err = writeFiguresInto(dir, figs)
		}
		if err != nil {
			return n, err
		}
		n += len(figs)
	}
	figs, err := PaperFigures(l.Estimates, o)
	if err == nil {
		err = writeFiguresInto(out, figs)
	}
	return n + len(figs), err
}

func writeFiguresInto(dir string, figs []Figure) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return inputerr.Errorf("cannot create %s: %w", dir, err)
	}
	return WriteFigures(dir, figs)
}

// WritePaperFigures reads back the sweep written into dir and adds its
// multi-panel figures (PaperFigures) there; Run and Merge call it last.
func WritePaperFigures(dir string, fixedN2 int) error {
	l, err := LoadSweep(dir)
	if err != nil {
		return err
	}
	figs, err := PaperFigures(l.Estimates, FigureOptions{FixedN2: fixedN2, Band: l.Band})
	if err != nil {
		return err
	}
	return WriteFigures(dir, figs)
}
