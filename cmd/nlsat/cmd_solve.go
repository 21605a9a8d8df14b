package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

type solveOptions struct {
	file   string
	solver *solverOptions
	vocab  vocabFlag
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
one of them makes the rest satisfiable).

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
	return cmd
}

func runSolve(ctx context.Context, o *solveOptions, args []string, s streams) error {
	lines, err := fragments.ReadInput(args, o.file, s.In)
	if err != nil {
		return usageError{err}
	}
	lx, err := o.vocab.lexicon(true)
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
	switch v.Status {
	case solver.Sat:
		fmt.Fprintln(s.Out, "satisfiable: these sentences can all be true together.")
		fragments.DescribeModel(s.Out, v.Model)
	case solver.Unsat:
		fmt.Fprintln(s.Out, "unsatisfiable: these sentences cannot all be true together;")
		fmt.Fprintf(s.Out, "already these %d cannot (drop any one and the rest can):\n", len(v.MUS))
		for _, i := range v.MUS {
			fmt.Fprintf(s.Out, "  %d. %s\n", i+1, lx.English(sents[i]))
		}
	default:
		return fmt.Errorf("%s could not decide the sentences (%s %s)", b.Name(), v.Reason, v.Detail)
	}
	return nil
}
