package main

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/cli"
	"github.com/nlsat/nlsat/internal/phase"
)

type plotOptions struct {
	in, timing, out string
	fixedN2         int
	quiet           bool
}

func (o *plotOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.in, "in", "", "")
	cli.Deprecate(f, "in", "give the sweep as an argument: nlsat plot SWEEP --out DIR")
	f.StringVar(&o.timing, "timing", "", "timing.csv with the solver times (default: timing.csv beside each points.csv, if present)")
	f.StringVarP(&o.out, "out", "o", "", "output directory for the figures (created if missing)")
	f.IntVar(&o.fixedN2, "fixed-n2", 0, "n2 of the P(sat) and time curves for V, Z, A (default: the middle n2)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no summary on stderr")
	cmd.MarkFlagRequired("out")
}

func newPlotCmd(s streams) *cobra.Command {
	o := &plotOptions{}
	cmd := &cobra.Command{
		Use:   "plot SWEEP --out DIR",
		Short: "Redraw the phase-sweep figures from its files",
		Long: `Plot redraws the figures of nlsat phase-sweep (PNG at 300 dpi and SVG, each
with the CSV of its numbers) from the sweep's files (SWEEP: a phase-sweep
output directory, or one points.csv), without solving
anything, laid out as the sweep writes them: each fragment's figures in
its subdirectory, and the multi-panel figures of the paper (fig2 … fig8)
at the top. The median-time figures need timing.csv, Figures 6 to 8 need
quantifiers.csv; without them those figures are left out.

` + exitCodesHelp,
		Example: `  nlsat plot sweep --out figs              # every fragment of a sweep
  nlsat plot sweep/S/points.csv --out figs-s`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.in = args[0]
			}
			return runPlot(cmd.Context(), o, s)
		},
	}
	o.addFlags(cmd)
	return cmd
}

func runPlot(_ context.Context, o *plotOptions, s streams) error {
	if o.in == "" {
		return usagef("give the sweep to plot: nlsat plot SWEEP_DIR|points.csv --out DIR")
	}
	l, err := phase.LoadSweep(o.in)
	if err != nil {
		return err
	}
	if o.timing != "" {
		f, err := os.Open(o.timing)
		if err != nil {
			return usageError{err}
		}
		_, err = phase.ReadTiming(f, l.Estimates)
		f.Close()
		if err != nil {
			return usagef("%s: %w", o.timing, err)
		}
	}
	for _, m := range l.Missing {
		if !o.quiet {
			fmt.Fprintf(s.Err, "nlsat: no %s; figures that need it are left out\n", m)
		}
	}
	n, err := phase.Redraw(l, o.out, o.fixedN2)
	if err != nil {
		return err
	}
	if !o.quiet {
		fmt.Fprintf(s.Err, "nlsat: wrote %d figures into %s\n", n, o.out)
	}
	return nil
}
