package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/generate"
	"github.com/nlsat/nlsat/internal/pipeline"
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
}

func newCrosscheckCmd(s streams) *cobra.Command {
	o := &crosscheckOptions{
		z3mode: newEnum("full", "full", "plain"),
	}
	cmd := &cobra.Command{
		Use:   "crosscheck",
		Short: "Decide instances with both the native procedure and Z3, and compare",
		Long: `Crosscheck decides every instance with nlsat's native procedure and with Z3
and prints, per fragment, how often they agree, how many instances each left
undecided, and the speed of each measured in the same run. Instances are
drawn as generate draws them (--count per fragment), or read from a JSONL
file with --in. Every sat answer's model is checked by fol's evaluator.

Any disagreement is printed in full (sentences, both answers, certificates)
and makes crosscheck exit with status 1. For speed figures use -j 1.

` + exitCodesHelp,
		Example: `  nlsat crosscheck --fragments S,W,V,Z,A --count 500 --timeout 1s
  nlsat crosscheck --in data/test.jsonl -j 2`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runCrosscheck(cmd.Context(), o, s)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.fragments, "fragments", "S,W,V,Z,A", "comma-separated fragments to draw from")
	f.StringVar(&o.in, "in", "", "read instances from this JSONL file instead of drawing them")
	f.Var(o.z3mode, "z3", "full: nlsat's z3 backend (quantified check, then a finite-model search, then other seeds); plain: one quantified check, Z3 as the paper used it")
	f.IntVarP(&o.count, "count", "n", 200, "instances per fragment")
	f.Var(&o.m, "m", "sentences per instance, number or range (default: the hard region)")
	f.Var(&o.n1, "n1", "nouns per instance, number or range (default 6-16 for S, W; 3-8 for V, Z, A)")
	f.Var(&o.n2, "n2", "verbs per instance, number or range (default 0 for S, W; 3-8 for V, Z, A)")
	f.Uint64Var(&o.seed, "seed", 1, "master seed")
	f.BoolVar(&o.repeats, "allow-repeats", false, "allow the same word twice in one sentence")
	f.DurationVar(&o.solver.timeout, "timeout", time.Second, "wall-clock limit per instance for z3")
	f.IntVarP(&o.solver.jobs, "jobs", "j", 0, "parallel workers (0 = all cores)")
	f.BoolVarP(&o.solver.quiet, "quiet", "q", false, "no progress on stderr")
	return cmd
}

// ccInstance is one instance to compare.
type ccInstance struct {
	frag  fragments.Fragment
	label string // where it came from
	sents []fragments.Sentence
}

type ccResult struct {
	inst ccInstance
	r    [2]solver.Verdict
	t    [2]time.Duration
	errs [2]error
}

func runCrosscheck(ctx context.Context, o *crosscheckOptions, s streams) error {
	if !z3.Available() {
		return usagef("crosscheck needs Z3: this nlsat was built without it (install libz3-dev and rebuild with make)")
	}
	insts, err := o.instances(s)
	if err != nil {
		return err
	}
	// Each backend decides every instance in a pass of its own, so that
	// its throughput is measured as a labelling run would see it (one
	// solver's caches, not two taking turns); the answers are compared
	// afterwards, instance by instance.
	results := make([]ccResult, len(insts))
	for i := range results {
		results[i].inst = insts[i]
	}
	names := []string{"native", "z3"}
	newBackend := [2]func() (solver.Backend, error){
		func() (solver.Backend, error) { return native.New(native.Options{}), nil },
		func() (solver.Backend, error) {
			return z3.New(z3.Options{Timeout: o.solver.timeout, Plain: o.z3mode.value == "plain"})
		},
	}
	for k := range 2 {
		prog := newProgress(s.Err, "crosscheck "+names[k], len(insts), o.solver.quiet)
		err = pipeline.Run(ctx, pipeline.Config[solver.Backend, ccResult]{
			Workers: o.solver.jobs, Limit: len(insts),
			New:   newBackend[k],
			Close: solver.Close,
			Do: func(ctx context.Context, b solver.Backend, i int) (ccResult, error) {
				var res ccResult
				start := time.Now()
				res.r[k], res.errs[k] = solver.Decide(ctx, b, fragments.Formulas(insts[i].sents), solver.DecideOptions{})
				res.t[k] = time.Since(start)
				if ctx.Err() != nil {
					return res, ctx.Err()
				}
				return res, nil
			},
			Emit: func(i int, r ccResult) (bool, error) {
				results[i].r[k], results[i].errs[k], results[i].t[k] = r.r[k], r.errs[k], r.t[k]
				prog.add(r.r[k].Status, true)
				return false, nil
			},
		})
		prog.finish()
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			return err
		}
	}
	tab := newCCTable()
	var disagreements int
	for _, r := range results {
		if tab.add(r) {
			disagreements++
			reportDisagreement(ctx, s.Out, r, newBackend)
		}
	}
	tab.print(s.Out, z3.Version()+" ("+o.z3mode.value+")")
	if disagreements > 0 {
		return fmt.Errorf("%d disagreements between native and z3 (printed above)", disagreements)
	}
	return nil
}

func (o *crosscheckOptions) instances(s streams) ([]ccInstance, error) {
	if o.in != "" {
		recs, err := readRecords(o.in, s.In)
		if err != nil {
			return nil, err
		}
		var out []ccInstance
		for i, pr := range recs {
			f := fragments.S
			for _, st := range pr.sents {
				f = max(f, st.Fragment())
			}
			out = append(out, ccInstance{frag: f, label: fmt.Sprintf("%s:%d (%s)", o.in, i+1, pr.rec.ID), sents: pr.sents})
		}
		return out, nil
	}
	var out []ccInstance
	for _, name := range strings.Split(o.fragments, ",") {
		frag, err := fragments.ParseFragment(strings.TrimSpace(name))
		if err != nil {
			return nil, usagef("--fragments: %v", err)
		}
		sampler := fragments.DefaultSampler()
		sampler.Distinct = !o.repeats
		plan, err := generate.NewPlan(generate.Options{Fragment: frag, FragmentSet: true, Sampler: sampler,
			M: o.m.ptr(), N1: o.n1.ptr(), N2: o.n2.ptr(), Seed: o.seed, Count: o.count, Solver: "both"})
		if err != nil {
			return nil, usageError{err}
		}
		for i := range o.count {
			inst, err := plan.Draw(i)
			if err != nil {
				return nil, err
			}
			out = append(out, ccInstance{frag: frag, label: fmt.Sprintf("%s seed %d:%d", frag, o.seed, i), sents: inst.Sentences})
		}
	}
	return out, nil
}

// reportDisagreement prints a disagreement in full: the sentences, both
// answers and their certificates; an unsat answer is decided again to
// show its certified minimal unsatisfiable subset, or why it has none.
func reportDisagreement(ctx context.Context, w io.Writer, r ccResult, newBackend [2]func() (solver.Backend, error)) {
	fmt.Fprintf(w, "DISAGREEMENT on %s\n", r.inst.label)
	for i, st := range r.inst.sents {
		fmt.Fprintf(w, "  %2d. %s   %s\n", i+1, st.English(), fol.String(st.Formula()))
	}
	for k, name := range []string{"native", "z3"} {
		res := r.r[k]
		fmt.Fprintf(w, "  %s: %s", name, res.Status)
		if r.errs[k] != nil {
			fmt.Fprintf(w, " (error: %v)", r.errs[k])
		}
		if res.Model != nil {
			fmt.Fprintf(w, ", checked model of %d elements", res.Model.Size)
		}
		if res.Status == solver.Unsat {
			fmt.Fprintf(w, ", %s", certifiedCore(ctx, newBackend[k], r.inst.sents))
		}
		fmt.Fprintln(w)
	}
}

// certifiedCore decides sents again, with a MUS, and describes the MUS
// or the error that stopped its certification.
func certifiedCore(ctx context.Context, newBackend func() (solver.Backend, error), sents []fragments.Sentence) string {
	b, err := newBackend()
	if err != nil {
		return err.Error()
	}
	defer solver.Close(b)
	v, err := solver.Decide(ctx, b, fragments.Formulas(sents), solver.DecideOptions{MUS: true})
	switch {
	case err != nil:
		return "no certified core: " + err.Error()
	case v.Status != solver.Unsat:
		return "decided " + v.Status.String() + " when asked again"
	}
	return fmt.Sprintf("certified minimal unsatisfiable subset %v", plusOne(v.MUS))
}

// plusOne numbers sentence indices from 1, as the listings do.
func plusOne(idx []int) []int {
	out := make([]int, len(idx))
	for i, v := range idx {
		out[i] = v + 1
	}
	return out
}

// ccTable accumulates the per-fragment comparison.
type ccTable struct {
	rows map[fragments.Fragment]*ccRow
}

type ccRow struct {
	n, agree, disagree int
	status             [2][3]int
	times              [2][]time.Duration
}

func newCCTable() *ccTable { return &ccTable{rows: map[fragments.Fragment]*ccRow{}} }

// add records r and reports whether it is a disagreement (contradictory
// answers, or an error from either backend, such as a model that fails
// its check).
func (t *ccTable) add(r ccResult) bool {
	row := t.rows[r.inst.frag]
	if row == nil {
		row = &ccRow{}
		t.rows[r.inst.frag] = row
	}
	row.n++
	for k := range 2 {
		row.status[k][r.r[k].Status]++
		row.times[k] = append(row.times[k], r.t[k])
	}
	a, b := r.r[0].Status, r.r[1].Status
	bad := r.errs[0] != nil || r.errs[1] != nil || (a != solver.Unknown && b != solver.Unknown && a != b)
	switch {
	case bad:
		row.disagree++
	case a == b:
		row.agree++
	}
	return bad
}

func (t *ccTable) print(w io.Writer, z3version string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "fragment\tinstances\tagree\tdisagree\tnative sat/unsat/unknown\tz3 sat/unsat/unknown\tnative p50/p99/max\tz3 p50/p99/max\tz3÷native (mean)\t\n")
	for _, f := range fragments.All() {
		row := t.rows[f]
		if row == nil {
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%.0f×\t\n", f, row.n, row.agree, row.disagree,
			counts3(row.status[0]), counts3(row.status[1]), quantiles(row.times[0]), quantiles(row.times[1]),
			float64(mean(row.times[1]))/float64(max(mean(row.times[0]), 1)))
	}
	tw.Flush()
	fmt.Fprintf(w, "z3 %s; times are wall clock per instance, including model checking; each backend decides all instances in a pass of its own\n", z3version)
}

func counts3(c [3]int) string {
	return fmt.Sprintf("%d/%d/%d", c[solver.Sat], c[solver.Unsat], c[solver.Unknown])
}

func mean(ds []time.Duration) time.Duration {
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return sum / time.Duration(max(len(ds), 1))
}

func quantiles(ds []time.Duration) string {
	s := slices.Clone(ds)
	slices.Sort(s)
	q := func(p float64) time.Duration { return s[min(len(s)-1, int(p*float64(len(s))))] }
	r := func(d time.Duration) string { return d.Round(time.Microsecond).String() }
	return r(q(0.5)) + "/" + r(q(0.99)) + "/" + r(s[len(s)-1])
}
