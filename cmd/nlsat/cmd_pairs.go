package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/pairs"
	"github.com/nlsat/nlsat/internal/solver"
)

type pairsOptions struct {
	out    string
	solver *solverOptions
	vocab  vocabFlag
}

func newPairsCmd(s streams) *cobra.Command {
	o := &pairsOptions{solver: newSolverOptions("native", false)}
	cmd := &cobra.Command{
		Use:   "pairs [file.jsonl]",
		Short: "Write minimal pairs: one-sentence edits that flip each instance's label",
		Long:  pairsHelp + exitCodesHelp,
		Example: `  nlsat generate --fragment A --count 100 --out a.jsonl
  nlsat pairs a.jsonl --out a.pairs.jsonl`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in := "-"
			if len(args) == 1 {
				in = args[0]
			}
			return runPairs(cmd.Context(), o, in, s)
		},
	}
	cmd.Flags().StringVarP(&o.out, "out", "o", "-", "output JSONL file (- for stdout); written atomically")
	o.solver.addFlags(cmd)
	o.solver.records.addFlags(cmd)
	o.solver.records.base.Row = pairs.Row
	o.vocab.addFlag(cmd)
	return cmd
}

func runPairs(ctx context.Context, o *pairsOptions, in string, s streams) error {
	recs, err := o.vocab.read(ctx, in, s.In, dataset.ReadLabelled)
	if err != nil {
		return err
	}
	st := pairs.NewStats()
	solverName, err := mapRecords(ctx, o.solver, s, "pairs", len(recs), o.out,
		func(ctx context.Context, b solver.Backend, i int) (pairs.Result, error) {
			r, err := pairs.Find(ctx, b, recs[i].Lexicon, recs[i].Sents, recs[i].Frag)
			if err != nil {
				return r, fmt.Errorf("%s: record %s: %w", recs[i].Where, recs[i].Rec.ID, err)
			}
			return r, nil
		},
		func(w io.Writer, solverName string) func(int, pairs.Result) (solver.Status, error) {
			enc := pairs.NewEncoder(w)
			return func(i int, r pairs.Result) (solver.Status, error) {
				return r.Original.Status, emitPair(enc, recs[i], r, solverName, st)
			}
		})
	if err != nil {
		return err
	}
	if !o.solver.quiet {
		st.Report(s.Err, solverName)
	}
	return nil
}

// emitPair counts r and writes its twins when it has a flipping edit.
func emitPair(enc *pairs.Encoder, in dataset.Parsed, r pairs.Result, solverName string, st *pairs.Stats) error {
	if r.Original.Status == solver.Unknown {
		st.Add(in.Frag, r, true)
		return nil
	}
	if got := dataset.LabelOf(r.Original.Status); got != in.Old {
		return usagef("%s: record %s is labelled %s, but %s decides %s", in.Where, in.Rec.ID,
			dataset.LabelText(in.Old), solverName, dataset.LabelText(got))
	}
	st.Add(in.Frag, r, false)
	if !r.Found {
		return nil
	}
	twins := pairs.Twins(in.Rec, in.Sents, r, solverName)
	for i := range twins {
		if err := enc.Encode(&twins[i]); err != nil {
			return err
		}
	}
	return nil
}
