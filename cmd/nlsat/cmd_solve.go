package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

type solveOptions struct {
	file   string
	solver *solverOptions
}

func newSolveCmd(s streams) *cobra.Command {
	o := &solveOptions{solver: newSolverOptions("native", false)}
	cmd := &cobra.Command{
		Use:   "solve [sentence...]",
		Short: "Say whether some English sentences can all be true, and why",
		Long: `Solve reads sentences of the five fragments (arguments, --file, or stdin,
one per line) and says whether they are satisfiable. If they are, it
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
	cmd.Flags().StringVarP(&o.file, "file", "f", "", "read sentences from this file, one per line (default: arguments, else stdin)")
	o.solver.addFlags(cmd)
	cmd.Flags().MarkHidden("jobs")
	return cmd
}

func runSolve(ctx context.Context, o *solveOptions, args []string, s streams) error {
	lines, err := readSentences(args, o.file, s.In)
	if err != nil {
		return err
	}
	sents, err := parseSentences(lines, nil)
	if err != nil {
		return err
	}
	newBackend, err := o.solver.backendFactory()
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
		describeWorld(s.Out, v.Model)
	case solver.Unsat:
		fmt.Fprintln(s.Out, "unsatisfiable: these sentences cannot all be true together;")
		fmt.Fprintf(s.Out, "already these %d cannot (drop any one and the rest can):\n", len(v.MUS))
		for _, i := range v.MUS {
			fmt.Fprintf(s.Out, "  %d. %s\n", i+1, sents[i].English())
		}
	default:
		return fmt.Errorf("%s could not decide the sentences (%s %s)", b.Name(), v.Reason, v.Detail)
	}
	return nil
}

// describeWorld writes a model in English: who is what, and who does what
// to whom. Predicates false everywhere are not mentioned.
func describeWorld(w io.Writer, m *fol.Structure) {
	noun := func(p string) string {
		if n, ok := fragments.LookupNoun(p); ok {
			return n.Article + " " + p
		}
		return p
	}
	verb := func(r string) string {
		if v, ok := fragments.LookupVerb(r); ok {
			return v.Third
		}
		return r
	}
	fmt.Fprintf(w, "A world with %d individual%s:\n", m.Size, map[bool]string{true: "", false: "s"}[m.Size == 1])
	for a := 0; a < m.Size; a++ {
		var is []string
		for _, p := range sortedKeys(m.Unary) {
			if m.Unary[p][a] {
				is = append(is, noun(p))
			}
		}
		var does []string
		for _, r := range sortedKeys(m.Binary) {
			var objs []string
			for b := 0; b < m.Size; b++ {
				if m.Binary[r][a][b] {
					objs = append(objs, fmt.Sprintf("#%d", b+1))
				}
			}
			if len(objs) > 0 {
				does = append(does, verb(r)+" "+andList(objs))
			}
		}
		line := fmt.Sprintf("  #%d is ", a+1)
		if len(is) == 0 {
			line += "none of the things named"
		} else {
			line += andList(is)
		}
		if len(does) > 0 {
			line += "; " + strings.Join(does, "; ")
		}
		fmt.Fprintln(w, line+".")
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func andList(xs []string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}
