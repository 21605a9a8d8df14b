package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/distract"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/pipeline"
	"github.com/nlsat/nlsat/internal/solver"
)

type distractOptions struct {
	out   string
	k     int
	mode  *enumFlag
	seed  uint64
	solve *solverOptions
}

func newDistractCmd(s streams) *cobra.Command {
	o := &distractOptions{mode: newEnum("fresh", "fresh", "implied"), solve: newSolverOptions("native", false)}
	cmd := &cobra.Command{
		Use:   "distract [file.jsonl]",
		Short: "Add sentences that provably keep each labelled instance's label",
		Long: `Distract reads labelled records (stdin if no file or "-"), such as a split
that nlsat split wrote, and adds --count sentences to each instance that do
not change its label, so that a model's robustness to irrelevant sentences
can be measured on the same instances:

  fresh     sentences over nouns and verbs the instance does not use, which
            are satisfiable on their own; the union keeps the label (a
            product of models shows it for sat instances)
  implied   sentences over the instance's own words that its sentences
            entail (each refuted together with its negation)

The added sentences are placed at seeded positions among the others. Each
new instance is decided afresh and its label must equal the input's, which
must equal the solver's: any difference is an error. The output record
keeps the input's id, seed and fragment, lists the added sentences'
positions in distractors and the mode in distractor_mode, and carries a new
certificate (a checked model size, or a certified MUS) and difficulty; m,
n1, n2, alpha and beta are those of the new instance. So the output of a
balanced split stays balanced, and it joins the input by id. An instance
for which --count distractors cannot be found is left out and counted;
the labels left out are reported, since they unbalance the output. The
output is the same for any -j.

` + exitCodesHelp,
		Example: `  nlsat split --fragment V --out nlsat-V
  nlsat distract nlsat-V/data/test.jsonl --count 3 --out test.distract3.jsonl
  nlsat distract nlsat-V/data/test.jsonl --count 2 --mode implied --out test.implied2.jsonl`,
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
	recs, err := readLabelled(in, s.In)
	if err != nil {
		return err
	}
	for _, r := range recs {
		if len(r.rec.Distractors) > 0 {
			return usagef("%s: record %s already has distractors", r.where, r.rec.ID)
		}
	}
	newBackend, err := o.solve.backendFactory()
	if err != nil {
		return err
	}
	out, err := dataset.CreateAtomic(o.out, s.Out)
	if err != nil {
		return usageError{err}
	}
	defer out.Abort()
	enc := dataset.NewEncoder(out)
	prog := newProgress(s.Err, "distract", len(recs), o.solve.quiet)
	var written, missing [2]int
	reasons := map[string]int{}
	err = pipeline.Run(ctx, pipeline.Config[solver.Backend, distracted]{
		Workers: o.solve.jobs, Limit: len(recs),
		New: newBackend, Close: solver.Close,
		Do: func(ctx context.Context, b solver.Backend, i int) (distracted, error) {
			d, err := distractOne(ctx, b, recs[i], o.k, mode, o.seed, i)
			if err != nil {
				return d, fmt.Errorf("%s: record %s: %w", recs[i].where, recs[i].rec.ID, err)
			}
			return d, nil
		},
		Emit: func(i int, d distracted) (bool, error) {
			label := recs[i].old
			if d.rec == nil {
				prog.add(solver.Unknown, true)
				missing[label]++
				reasons[d.reason]++
				return false, nil
			}
			prog.add(dataset.StatusOf(label), true)
			written[label]++
			return false, enc.Encode(d.rec)
		},
	})
	if err := commitRun(ctx, prog, out, err); err != nil {
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

// distractOne adds k distractors to record pr, record i of the input, and
// decides the result.
func distractOne(ctx context.Context, b solver.Backend, pr pairInput, k int, mode distract.Mode, seed uint64, i int) (distracted, error) {
	in := pr.rec
	inst := fragments.Instance{Fragment: pr.frag, Nouns: in.Nouns, Verbs: in.Verbs, Sentences: pr.sents}
	rng := rand.New(rand.NewPCG(seed^distract.Stream, uint64(i)))
	res, err := distract.Add(ctx, rng, b, inst, k, mode, fragments.DefaultParams())
	switch {
	case errors.Is(err, distract.ErrNoDistractor) || errors.Is(err, solver.ErrUndecided):
		return distracted{reason: err.Error()}, nil
	case err != nil:
		return distracted{}, err
	}
	if got := dataset.LabelOf(res.Status); got != pr.old {
		return distracted{}, fmt.Errorf("labelled %s, but %s decides %s", dataset.LabelText(pr.old), b.Name(), dataset.LabelText(got))
	}
	v, err := solver.Decide(ctx, b, res.Instance.Formulas(), solver.DecideOptions{MUS: true})
	if err != nil {
		return distracted{}, err
	}
	if got := dataset.LabelOf(v.Status); got != pr.old {
		return distracted{}, fmt.Errorf("with distractors %s decides %s, not %s", b.Name(), dataset.LabelText(got), dataset.LabelText(pr.old))
	}
	r := dataset.NewRecord(res.Instance, v, b.Name())
	r.ID, r.Seed, r.Fragment = in.ID, in.Seed, in.Fragment
	r.Distractors, r.DistractorMode = res.Added, mode.String()
	return distracted{rec: r}, nil
}
