package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

type labelOptions struct {
	out          string
	allowUnknown bool
	solver       *solverOptions
	vocab        vocabFlag
}

func newLabelCmd(s streams) *cobra.Command {
	o := &labelOptions{solver: newSolverOptions("native", false)}
	cmd := &cobra.Command{
		Use:   "label [file.jsonl]",
		Short: "Label (or re-label) the instances of a JSONL file",
		Long: `Label reads records (one JSON object per line; stdin if no file or "-"),
parses the English of every sentence strictly, decides each instance and
writes the records back, in input order, with label, label_text, solver,
certificate, templates and formulas recomputed from the English. It can so
audit files it did not write: it reports how many input labels it changed.

A record needs "sentences" (or "text", split after each full stop). An
instance the solver cannot decide is written with label -1, and label exits
with status 1 unless --allow-unknown is given.

` + exitCodesHelp,
		Example: `  nlsat label nlsat-S/data/test.jsonl --out test.relabelled.jsonl
  nlsat label --solver both -j 2 other-tool.jsonl --out audited.jsonl`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in := "-"
			if len(args) == 1 {
				in = args[0]
			}
			return runLabel(cmd.Context(), o, in, s)
		},
	}
	cmd.Flags().StringVarP(&o.out, "out", "o", "-", "output JSONL file (- for stdout); written atomically")
	cmd.Flags().BoolVar(&o.allowUnknown, "allow-unknown", false, "exit 0 even if some instances stay undecided (they are written with label -1)")
	o.solver.addFlags(cmd)
	o.solver.records.addFlags(cmd)
	o.vocab.addFlag(cmd)
	return cmd
}

func runLabel(ctx context.Context, o *labelOptions, in string, s streams) error {
	recs, err := o.vocab.read(ctx, in, s.In, dataset.ReadParsed)
	if err != nil {
		return err
	}
	var counts [3]int
	changed := 0
	solverName, err := mapRecords(ctx, o.solver, s, "label", len(recs), o.out,
		func(ctx context.Context, b solver.Backend, i int) (solver.Verdict, error) {
			v, err := solver.Decide(ctx, b, fragments.Formulas(recs[i].Sents), solver.DecideOptions{MUS: true})
			if err != nil {
				name := recs[i].Rec.ID
				if name == "" {
					name = recs[i].Where // file:line
				}
				return v, fmt.Errorf("record %d (%s): %w", i+1, name, err)
			}
			return v, nil
		},
		func(w io.Writer, solverName string) func(int, solver.Verdict) (solver.Status, error) {
			enc := dataset.NewEncoder(w)
			return func(i int, v solver.Verdict) (solver.Status, error) {
				counts[v.Status]++
				pr := &recs[i]
				pr.Relabel(i, v, solverName)
				if pr.Old != dataset.LabelAbsent && pr.Old != pr.Rec.Label && v.Status != solver.Unknown {
					changed++
				}
				return v.Status, enc.Encode(pr.Rec)
			}
		})
	if err != nil {
		return err
	}
	if !o.solver.quiet {
		fmt.Fprintf(s.Err, "nlsat: labelled %d records with %s: %d sat, %d unsat, %d undecided; %d input labels changed\n",
			len(recs), solverName, counts[solver.Sat], counts[solver.Unsat], counts[solver.Unknown], changed)
	}
	if counts[solver.Unknown] > 0 && !o.allowUnknown {
		return fmt.Errorf("%d instances stayed undecided (written with label -1); pass --allow-unknown to accept that", counts[solver.Unknown])
	}
	return nil
}
