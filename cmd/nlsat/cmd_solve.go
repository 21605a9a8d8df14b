package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/proof"
	"github.com/nlsat/nlsat/internal/solver"
)

type solveOptions struct {
	file   string
	solver *solverOptions
	vocab  vocabFlag
	json   bool
}

func newSolveCmd(s streams) *cobra.Command {
	o := &solveOptions{solver: newSolverOptions("native", false)}
	cmd := &cobra.Command{
		Use:   "solve [sentence...]",
		Short: "Say whether some English sentences can all be true, and why",
		Long: `Solve reads sentences of the five fragments (arguments, --file, or stdin;
running text such as a record's text, split after each full stop) and says
whether they are satisfiable. If they are, it
describes a small world in which every sentence is true; if not, it lists a
minimal set of the sentences that cannot all be true together (removing any
one of them makes the rest satisfiable) and a checked proof, step by step,
that they cannot (or says that none was found within the step budget).
With --json it prints {"status", "mus", "proof", "no_proof"} instead.

` + exitCodesHelp + `
An instance the solver cannot decide is reported and exits with status 1.`,
		Example: `  nlsat solve "Every scholar is a poet." "Every poet loves some musician." \
      "Some scholar does not love any musician."`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSolve(cmd.Context(), o, args, s)
		},
	}
	cmd.Flags().StringVarP(&o.file, "file", "f", "", "read sentences from this file, running text (default: arguments, else stdin)")
	o.solver.addFlags(cmd)
	cmd.Flags().MarkHidden("jobs")
	o.vocab.addFlag(cmd)
	cmd.Flags().BoolVar(&o.json, "json", false, "print the answer, the minimal subset and the proof as one JSON object")
	return cmd
}

func runSolve(ctx context.Context, o *solveOptions, args []string, s streams) error {
	lines, err := fragments.ReadInput(args, o.file, s.In)
	if err != nil {
		return usageError{err}
	}
	lx, err := o.vocab.words()
	if err != nil {
		return err
	}
	sents, err := lx.ParseInput(lines, nil)
	if err != nil {
		return usageError{err}
	}
	newBackend, _, err := o.solver.backends()
	if err != nil {
		return err
	}
	b, err := newBackend()
	if err != nil {
		return err
	}
	defer solver.Close(b)
	v, err := solver.Decide(ctx, b, fragments.Formulas(sents), solver.DecideOptions{MUS: true})
	if err != nil {
		return err
	}
	if v.Status != solver.Sat && v.Status != solver.Unsat {
		return fmt.Errorf("%s could not decide the sentences (%s %s)", b.Name(), v.Reason, v.Detail)
	}
	out := struct {
		Status  string       `json:"status"`
		MUS     []int        `json:"mus"`
		Proof   *proof.Proof `json:"proof"`
		NoProof string       `json:"no_proof"`
	}{Status: v.Status.String(), MUS: []int{}}
	if v.Status == solver.Unsat {
		p, err := proof.Find(ctx, b, lx, sents, v.MUS, proof.DefaultBudget)
		switch {
		case errors.Is(err, proof.ErrNoProof):
			out.NoProof = err.Error()
		case err != nil:
			return err
		default:
			out.Proof = &p
		}
		for _, i := range v.MUS {
			out.MUS = append(out.MUS, i+1)
		}
	}
	if o.json {
		return json.NewEncoder(s.Out).Encode(out)
	}
	if v.Status == solver.Sat {
		fmt.Fprintln(s.Out, "satisfiable: these sentences can all be true together.")
		fragments.DescribeModel(s.Out, v.Model)
		return nil
	}
	fmt.Fprintln(s.Out, "unsatisfiable: these sentences cannot all be true together;")
	fmt.Fprintf(s.Out, "already these %d cannot (drop any one and the rest can):\n", len(v.MUS))
	for _, i := range v.MUS {
		fmt.Fprintf(s.Out, "  %d. %s\n", i+1, lx.English(sents[i]))
	}
	if out.Proof == nil {
		fmt.Fprintf(s.Out, "No step-by-step proof: %s.\n", out.NoProof)
		return nil
	}
	fmt.Fprintln(s.Out, "Why, step by step:")
	return proof.Fprint(s.Out, *out.Proof)
}
