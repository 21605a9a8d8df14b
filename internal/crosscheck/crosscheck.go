// Package crosscheck decides instances with two backends, each in a pass
// of its own so that its speed is measured as a labelling run sees it,
// and compares their answers and speed per fragment.
package crosscheck

import (
	"context"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/pipeline"
	"github.com/nlsat/nlsat/internal/solver"
)

// Instance is one instance to compare.
type Instance struct {
	Frag  fragments.Fragment
	Label string // where it came from
	Sents []fragments.Sentence
}

// FromRecords makes the instances of records read from file; each is of
// the smallest fragment that holds its sentences.
func FromRecords(file string, recs []dataset.Parsed) []Instance {
	var out []Instance
	for i, pr := range recs {
		f := fragments.S
		for _, st := range pr.Sents {
			f = max(f, st.Fragment())
		}
		out = append(out, Instance{Frag: f, Label: fmt.Sprintf("%s:%d (%s)", file, i+1, pr.Rec.ID), Sents: pr.Sents})
	}
	return out
}

// Result is both backends' verdicts on one instance, with their times
// and errors (a model that fails its check, for instance).
type Result struct {
	Inst Instance
	R    [2]solver.Verdict
	T    [2]time.Duration
	Errs [2]error
}

// Options say how to run the comparison.
type Options struct {
	// Names and NewBackend are the two backends.
	Names      [2]string
	NewBackend [2]func() (solver.Backend, error)
	Workers    int
	// Progress (optional) is told of every instance backend k decided.
	Progress func(k int, st solver.Status)
}

// Run decides every instance with each backend, the first backend first,
// and returns the results in instance order.
func Run(ctx context.Context, insts []Instance, o Options) ([]Result, error) {
	results := make([]Result, len(insts))
	for i := range results {
		results[i].Inst = insts[i]
	}
	for k := range 2 {
		err := pipeline.Run(ctx, pipeline.Config[solver.Backend, Result]{
			Workers: o.Workers, Limit: len(insts),
			New:   o.NewBackend[k],
			Close: solver.Close,
			Do: func(ctx context.Context, b solver.Backend, i int) (Result, error) {
				var res Result
				start := time.Now()
				res.R[k], res.Errs[k] = solver.Decide(ctx, b, fragments.Formulas(insts[i].Sents), solver.DecideOptions{})
				res.T[k] = time.Since(start)
				return res, ctx.Err()
			},
			Emit: func(i int, r Result) (bool, error) {
				results[i].R[k], results[i].Errs[k], results[i].T[k] = r.R[k], r.Errs[k], r.T[k]
				if o.Progress != nil {
					o.Progress(k, r.R[k].Status)
				}
				return false, nil
			},
		})
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			return nil, err
		}
	}
	return results, nil
}

// Report prints a disagreement in full: the sentences, both
// answers and their certificates; an unsat answer is decided again to
// show its certified minimal unsatisfiable subset, or why it has none.
func Report(ctx context.Context, w io.Writer, r Result, o Options) {
	fmt.Fprintf(w, "DISAGREEMENT on %s\n", r.Inst.Label)
	for i, st := range r.Inst.Sents {
		fmt.Fprintf(w, "  %2d. %s   %s\n", i+1, st.English(), fol.String(st.Formula()))
	}
	for k, name := range o.Names {
		res := r.R[k]
		fmt.Fprintf(w, "  %s: %s", name, res.Status)
		if r.Errs[k] != nil {
			fmt.Fprintf(w, " (error: %v)", r.Errs[k])
		}
		if res.Model != nil {
			fmt.Fprintf(w, ", checked model of %d elements", res.Model.Size)
		}
		if res.Status == solver.Unsat {
			fmt.Fprintf(w, ", %s", certifiedCore(ctx, o.NewBackend[k], r.Inst.Sents))
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

// Table accumulates the per-fragment comparison.
type Table struct {
	names [2]string
	rows  map[fragments.Fragment]*row
}

type row struct {
	n, agree, disagree int
	status             [2][3]int
	times              [2][]time.Duration
}

// NewTable returns an empty table for the backends named names.
func NewTable(names [2]string) *Table {
	return &Table{names: names, rows: map[fragments.Fragment]*row{}}
}

// Add records r and reports whether it is a disagreement (contradictory
// answers, or an error from either backend, such as a model that fails
// its check).
func (t *Table) Add(r Result) bool {
	rw := t.rows[r.Inst.Frag]
	if rw == nil {
		rw = &row{}
		t.rows[r.Inst.Frag] = rw
	}
	rw.n++
	for k := range 2 {
		rw.status[k][r.R[k].Status]++
		rw.times[k] = append(rw.times[k], r.T[k])
	}
	a, b := r.R[0].Status, r.R[1].Status
	bad := r.Errs[0] != nil || r.Errs[1] != nil || (a != solver.Unknown && b != solver.Unknown && a != b)
	switch {
	case bad:
		rw.disagree++
	case a == b:
		rw.agree++
	}
	return bad
}

// Print writes the table; about describes the second backend.
func (t *Table) Print(w io.Writer, about string) {
	a, b := t.names[0], t.names[1]
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "fragment\tinstances\tagree\tdisagree\t%s sat/unsat/unknown\t%s sat/unsat/unknown\t%s p50/p99/max\t%s p50/p99/max\t%s÷%s (mean)\t\n", a, b, a, b, b, a)
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
	fmt.Fprintf(w, "%s %s; times are wall clock per instance, including model checking; each backend decides all instances in a pass of its own\n", b, about)
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
