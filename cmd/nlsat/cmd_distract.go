package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/distract"
	"github.com/nlsat/nlsat/internal/solver"
)

type distractOptions struct {
	out   string
	k     int
	mode  *enumFlag
	seed  uint64
	solve *solverOptions
	vocab vocabFlag
}

func newDistractCmd(s streams) *cobra.Command {
	o := &distractOptions{mode: newEnum("fresh", "fresh", "implied"), solve: newSolverOptions("native", false)}
	cmd := &cobra.Command{
		Use:   "distract [file.jsonl]",
		Short: "Add sentences that provably keep each labelled instance's label",
		Long:  distractHelp + exitCodesHelp,
		Example: `  nlsat split --fragment S --train 200 --validation 40 --test 40 --out nlsat-S
  nlsat distract nlsat-S/data/test.jsonl --count 3 --out test.distract3.jsonl
  nlsat distract nlsat-S/data/test.jsonl --count 2 --mode implied --out test.implied2.jsonl`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in := "-"
			if len(args) == 1 {
				in = args[0]
			}
			return runDistract(cmd.Context(), o, in, s)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.out, "out", "o", "-", "output JSONL file (- for stdout); written atomically")
	f.IntVar(&o.k, "count", 2, "sentences to add to each instance")
	f.Var(o.mode, "mode", "fresh: over words the instance does not use; implied: over its own words, entailed by its sentences")
	f.Uint64Var(&o.seed, "seed", 1, "seed of the distractors' choice and positions; record i uses (seed, i) alone")
	o.solve.addFlags(cmd)
	o.solve.records.addFlags(cmd)
	o.vocab.addFlag(cmd)
	return cmd
}

// distracted is one input record's outcome.
type distracted struct {
	rec    *dataset.Record // nil when no distractors were found
	reason string
}

func runDistract(ctx context.Context, o *distractOptions, in string, s streams) error {
	if o.k < 1 {
		return usagef("--count must be at least 1, got %d", o.k)
	}
	mode, err := distract.ParseMode(o.mode.value)
	if err != nil {
		return usageError{err}
	}
	recs, err := o.vocab.read(ctx, in, s.In, dataset.ReadLabelled)
	if err != nil {
		return err
	}
	for _, r := range recs {
		if len(r.Rec.Distractors) > 0 {
			return usagef("%s: record %s already has distractors", r.Where, r.Rec.ID)
		}
	}
	var written, missing [2]int
	reasons := map[string]int{}
	_, err = mapRecords(ctx, o.solve, s, "distract", len(recs), o.out,
		func(ctx context.Context, b solver.Backend, i int) (distracted, error) {
			r, reason, err := distract.Record(ctx, b, recs[i], o.k, mode, o.seed, i)
			if err != nil {
				return distracted{}, fmt.Errorf("%s: record %s: %w", recs[i].Where, recs[i].Rec.ID, err)
			}
			return distracted{r, reason}, nil
		},
		func(w io.Writer, _ string) func(int, distracted) (solver.Status, error) {
			enc := dataset.NewEncoder(w)
			return func(i int, d distracted) (solver.Status, error) {
				label := recs[i].Old
				if d.rec == nil {
					missing[label]++
					reasons[d.reason]++
					return solver.Unknown, nil
				}
				written[label]++
				return dataset.StatusOf(label), enc.Encode(d.rec)
			}
		})
	if err != nil {
		return err
	}
	if !o.solve.quiet {
		fmt.Fprintf(s.Err, "nlsat: wrote %d records with %d %s distractors each (%d sat, %d unsat)\n",
			written[0]+written[1], o.k, mode, written[dataset.LabelSat], written[dataset.LabelUnsat])
	}
	if n := missing[0] + missing[1]; n > 0 {
		fmt.Fprintf(s.Err, "nlsat: left out %d records without %d %s distractors (%d sat, %d unsat; %v); the output is not balanced as the input was\n",
			n, o.k, mode, missing[dataset.LabelSat], missing[dataset.LabelUnsat], reasons)
	}
	return nil
}
