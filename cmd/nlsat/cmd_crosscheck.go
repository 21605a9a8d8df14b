package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/cli"
	"github.com/nlsat/nlsat/internal/crosscheck"
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/generate"
	"github.com/nlsat/nlsat/internal/progress"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
	"github.com/nlsat/nlsat/internal/solver/z3"
)

type crosscheckOptions struct {
	fragments string
	in        string
	z3mode    *enumFlag
	count     int
	m, n1, n2 intRange
	seed      uint64
	repeats   bool
	solver    solverOptions // timeout, jobs and quiet
	vocab     vocabFlag
}

func newCrosscheckCmd(s streams) *cobra.Command {
	o := &crosscheckOptions{
		z3mode: newEnum("full", "full", "plain"),
	}
	cmd := &cobra.Command{
		Use:   "crosscheck [FILE]",
		Short: "Decide instances with both the native procedure and Z3, and compare",
		Long: `Crosscheck decides every instance with nlsat's native procedure and with Z3
and prints, per fragment, how often they agree, how many instances each left
undecided, and the speed of each measured in the same run. Instances are
drawn as generate draws them (--count per fragment of --fragment), or read
from a JSONL file (FILE; - for stdin). Every sat answer's model is checked
by fol's evaluator.

Any disagreement is printed in full (sentences, both answers, certificates)
and makes crosscheck exit with status 1. For speed figures use -j 1.

` + exitCodesHelp,
		Example: `  nlsat crosscheck --fragment S,W,V,Z,A --count 20 --timeout 1s
  nlsat crosscheck nlsat-S/data/test.jsonl -j 2`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.in = args[0]
			}
			return runCrosscheck(cmd.Context(), o, s)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.fragments, "fragment", "all", "fragments to draw from: all, or a comma-separated list such as S,W")
	f.StringVar(&o.fragments, "fragments", "all", "")
	cli.Deprecate(f, "fragments", "use --fragment")
	f.StringVar(&o.in, "in", "", "")
	cli.Deprecate(f, "in", "give the file as an argument: nlsat crosscheck FILE")
	cmd.RegisterFlagCompletionFunc("fragment", cobra.FixedCompletions(append(fragments.Names(), "all"), cobra.ShellCompDirectiveNoFileComp))
	f.Var(o.z3mode, "z3", "full: nlsat's z3 backend (quantified check, then a finite-model search, then other seeds); plain: one quantified check, Z3 as the paper used it")
	f.IntVarP(&o.count, "count", "n", 200, "instances per fragment")
	f.Var(&o.m, "m", "sentences per instance, number or range (default: the hard region)")
	f.Var(&o.n1, "n1", "nouns per instance, number or range (default 6-16 for S, W; 3-8 for V, Z, A)")
	f.Var(&o.n2, "n2", "verbs per instance, number or range (default 0 for S, W; 3-8 for V, Z, A)")
	f.Uint64Var(&o.seed, "seed", 1, "master seed")
	f.BoolVar(&o.repeats, "allow-repeats", false, "allow the same word twice in one sentence")
	f.DurationVar(&o.solver.timeout, "timeout", defaultTimeout, "wall-clock limit per instance for z3")
	f.IntVarP(&o.solver.jobs, "jobs", "j", 0, "parallel workers (0 = all cores)")
	f.BoolVarP(&o.solver.quiet, "quiet", "q", false, "no progress on stderr")
	o.vocab.addFlag(cmd)
	return cmd
}

func runCrosscheck(ctx context.Context, o *crosscheckOptions, s streams) error {
	if !z3.Available() {
		return usagef("crosscheck needs Z3: this nlsat was built without it (install libz3-dev and rebuild with make)")
	}
	insts, err := o.instances(ctx, s)
	if err != nil {
		return err
	}
	cc := crosscheck.Options{Names: [2]string{"native", "z3"}, Workers: o.solver.jobs,
		NewBackend: [2]func() (solver.Backend, error){
			func() (solver.Backend, error) { return native.New(native.Options{}), nil },
			func() (solver.Backend, error) {
				return z3.New(z3.Options{Timeout: o.solver.timeout, Plain: o.z3mode.value == "plain"})
			},
		}}
	var prog *progress.Bar
	cc.Progress = func(k int, st solver.Status) {
		if prog == nil || prog.What() != "crosscheck "+cc.Names[k] {
			if prog != nil {
				prog.Finish()
			}
			prog = progress.New(s.Err, "crosscheck "+cc.Names[k], len(insts), o.solver.quiet)
		}
		prog.Add(int(st), true)
	}
	results, err := crosscheck.Run(ctx, insts, cc)
	if prog != nil {
		prog.Finish()
	}
	if err != nil {
		return err
	}
	tab := crosscheck.NewTable(cc.Names)
	var disagreements int
	for _, r := range results {
		if tab.Add(r) {
			disagreements++
			crosscheck.Report(ctx, s.Out, r, cc)
		}
	}
	tab.Print(s.Out, z3.Version()+" ("+o.z3mode.value+")")
	if disagreements > 0 {
		return fmt.Errorf("%d disagreements between native and z3 (printed above)", disagreements)
	}
	return nil
}

func (o *crosscheckOptions) instances(ctx context.Context, s streams) ([]crosscheck.Instance, error) {
	lx, err := o.vocab.lexicon()
	if err != nil {
		return nil, err
	}
	if o.in != "" {
		recs, err := dataset.ReadParsed(ctx, o.in, s.In, lx)
		return crosscheck.FromRecords(o.in, recs), err
	}
	var out []crosscheck.Instance
	names := o.fragments
	if names == "all" {
		names = strings.Join(fragments.Names(), ",")
	}
	for _, name := range strings.Split(names, ",") {
		frag, err := fragments.ParseFragment(strings.TrimSpace(name))
		if err != nil {
			return nil, usagef("--fragment: %v", err)
		}
		sampler := fragments.DefaultSampler()
		sampler.Distinct = !o.repeats
		plan, err := generate.NewPlan(generate.Options{
			Fragment:    frag,
			FragmentSet: true,
			Sampler:     sampler,
			Vocabulary:  lx,
			M:           o.m.ptr(),
			N1:          o.n1.ptr(),
			N2:          o.n2.ptr(),
			Seed:        o.seed,
			Count:       o.count,
			Solver:      "both",
		})
		if err != nil {
			return nil, usageError{err}
		}
		for i := range o.count {
			inst, err := plan.Draw(i)
			if err != nil {
				return nil, err
			}
			out = append(out, crosscheck.Instance{Frag: frag, Label: fmt.Sprintf("%s seed %d:%d", frag, o.seed, i), Sents: inst.Sentences})
		}
	}
	return out, nil
}
