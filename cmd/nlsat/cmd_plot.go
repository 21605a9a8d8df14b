package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/phase"
)

type plotOptions struct {
	in, timing, out string
	fixedN2         int
}

func (o *plotOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.in, "in", "", "points.csv written by nlsat phase-sweep")
	f.StringVar(&o.timing, "timing", "", "timing.csv with the solver times (default: timing.csv beside --in, if present)")
	f.StringVarP(&o.out, "out", "o", "", "output directory for the figures (created if missing)")
	f.IntVar(&o.fixedN2, "fixed-n2", 0, "n2 of the P(sat) and time curves for V, Z, A (default: the middle n2)")
}

func newPlotCmd(s streams) *cobra.Command {
	o := &plotOptions{}
	cmd := &cobra.Command{
		Use:   "plot",
		Short: "Redraw the phase-sweep figures from an existing points.csv",
		Long: `Plot redraws the figures of nlsat phase-sweep (PNG and SVG, each with the
CSV of its numbers) from a points.csv, without solving anything. The
median-time figure needs timing.csv; without it that figure is left out.

` + exitCodesHelp,
		Example: `  nlsat plot --in sweep/S/points.csv --out figs`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runPlot(cmd.Context(), o, s)
		},
	}
	o.addFlags(cmd)
	return cmd
}

func runPlot(_ context.Context, o *plotOptions, s streams) error {
	if o.in == "" || o.out == "" {
		return usagef("--in points.csv and --out DIR are required")
	}
	es, err := readPointsFile(o.in)
	if err != nil {
		return err
	}
	timing := o.timing
	if timing == "" {
		timing = filepath.Join(filepath.Dir(o.in), "timing.csv")
		if _, err := os.Stat(timing); errors.Is(err, fs.ErrNotExist) {
			timing = ""
		}
	}
	if timing != "" {
		if err := readTimingFile(timing, es); err != nil {
			return err
		}
	}
	figs, err := phase.Figures(es, o.fixedN2)
	if err != nil {
		return usagef("%s: %w", o.in, err)
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return fmt.Errorf("cannot create %s: %w", o.out, err)
	}
	if err := phase.WriteFigures(o.out, figs); err != nil {
		return err
	}
	fmt.Fprintf(s.Err, "nlsat: wrote %d figures into %s\n", len(figs), o.out)
	return nil
}

func readPointsFile(name string) ([]phase.Estimate, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, usageError{err}
	}
	defer f.Close()
	es, err := phase.ReadPoints(f)
	if err != nil {
		return nil, usagef("%s: %w", name, err)
	}
	return es, nil
}

func readTimingFile(name string, es []phase.Estimate) error {
	f, err := os.Open(name)
	if err != nil {
		return usageError{err}
	}
	defer f.Close()
	if _, err := phase.ReadTiming(f, es); err != nil {
		return usagef("%s: %w", name, err)
	}
	return nil
}
