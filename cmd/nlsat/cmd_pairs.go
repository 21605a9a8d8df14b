package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/pairs"
	"github.com/nlsat/nlsat/internal/pipeline"
	"github.com/nlsat/nlsat/internal/solver"
)

type pairsOptions struct {
	out    string
	solver *solverOptions
}

func newPairsCmd(s streams) *cobra.Command {
	o := &pairsOptions{solver: newSolverOptions("native", false)}
	cmd := &cobra.Command{
		Use:   "pairs [file.jsonl]",
		Short: "Write minimal pairs: one-sentence edits that flip each instance's label",
		Long: `Pairs reads labelled records (stdin if no file or "-"), and for each instance
looks for the smallest edit of one sentence that flips its label. Edits are
tried in a fixed order: by sentence, then by kind, then by role:

  negation            add or drop one "non-", "not" or "does not"
                      (a noun polarity the template leaves free; A's "who
                      does not s him")
  quantifier          swap one quantifier: Every <-> Some (No <-> Some ... not
                      where the predicate is negated); the object's or
                      relative clause's every <-> some (any <-> every under
                      "does not")
  predicate-negation  Every <-> No; "r's" <-> "does not r" in the main clause
                      or Z's relative clause (with the determiner that keeps
                      the quantifier)

An edited sentence must parse back to itself, stay in the instance's
fragment and not repeat another sentence. Each edited instance is decided
afresh; the first whose label is the opposite is taken. Both twins are
written with certified labels (sat: the size of a checked model; unsat: a
certified minimal unsatisfiable subset), the original first, in input
order; the output is the same for any -j. Instances without a flipping
edit are counted on stderr, with the pairs per edit kind and the share of
instances per fragment that have one. An input label that the solver
contradicts is an error.

Records (schema ` + pairs.SchemaVersion + `): the instance record's fields (` + dataset.SchemaVersion + `),
then pair_id (the input id, shared by both twins), pair_role ("original" or
"edited") and edit {"sentence": 0-based index, "kind", "role", "from", "to"},
which is {"sentence": -1, "kind": "", "role": "", "from": "", "to": ""} in
the original. The edited twin's id is the input id + "` + pairs.EditedSuffix + `".

` + exitCodesHelp,
		Example: `  nlsat generate --fragment A --count 500 --out a.jsonl
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
	return cmd
}

// pairInput is a labelled input record with its sentences and fragment.
type pairInput struct {
	parsedRecord
	frag fragments.Fragment
}

// readLabelled reads records as label does and also requires a label:
// a record with label -1 (or none) is a usage error naming its line.
func readLabelled(in string, stdin io.Reader) ([]pairInput, error) {
	prs, err := readRecords(in, stdin)
	if err != nil {
		return nil, err
	}
	out := make([]pairInput, 0, len(prs))
	for _, pr := range prs {
		rec := pr.rec
		if pr.old != dataset.LabelSat && pr.old != dataset.LabelUnsat {
			return nil, usagef("%s: record %q is not labelled (label %d); label it first with nlsat label", pr.where, rec.ID, pr.old)
		}
		pi := pairInput{parsedRecord: pr, frag: fragments.S}
		for _, st := range pr.sents {
			pi.frag = max(pi.frag, st.Fragment())
		}
		if rec.Fragment != "" {
			pi.frag, _ = fragments.ParseFragment(rec.Fragment) // parseRecord checked it
		}
		rec.Fragment = pi.frag.String()
		if rec.ID == "" {
			rec.ID = fmt.Sprintf("%06d", len(out))
		}
		out = append(out, pi)
	}
	return out, nil
}

func runPairs(ctx context.Context, o *pairsOptions, in string, s streams) error {
	recs, err := readLabelled(in, s.In)
	if err != nil {
		return err
	}
	newBackend, err := o.solver.backendFactory()
	if err != nil {
		return err
	}
	out, err := dataset.CreateAtomic(o.out, s.Out)
	if err != nil {
		return usageError{err}
	}
	defer out.Abort()
	enc := pairs.NewEncoder(out)
	prog := newProgress(s.Err, "pairs", len(recs), o.solver.quiet)
	st := newPairStats()
	solverName := ""
	err = pipeline.Run(ctx, pipeline.Config[solver.Backend, pairs.Result]{
		Workers: o.solver.jobs, Limit: len(recs),
		New: func() (solver.Backend, error) {
			b, err := newBackend()
			if err == nil {
				solverName = b.Name()
			}
			return b, err
		},
		Close: solver.Close,
		Do: func(ctx context.Context, b solver.Backend, i int) (pairs.Result, error) {
			r, err := pairs.Find(ctx, b, fragments.Default(), recs[i].sents, recs[i].frag)
			if err != nil {
				return r, fmt.Errorf("%s: record %s: %w", recs[i].where, recs[i].rec.ID, err)
			}
			return r, nil
		},
		Emit: func(i int, r pairs.Result) (bool, error) {
			prog.add(r.Original.Status, true)
			return false, emitPair(enc, recs[i], r, solverName, st)
		},
	})
	if err := commitRun(ctx, prog, out, err); err != nil {
		return err
	}
	if !o.solver.quiet {
		st.report(s.Err, solverName)
	}
	return nil
}

// emitPair counts r and writes its twins when it has a flipping edit.
func emitPair(enc *pairs.Encoder, in pairInput, r pairs.Result, solverName string, st *pairStats) error {
	if r.Original.Status == solver.Unknown {
		st.undecided++
		return nil
	}
	if got := dataset.LabelOf(r.Original.Status); got != in.old {
		return usagef("%s: record %s is labelled %s, but %s decides %s", in.where, in.rec.ID,
			dataset.LabelText(in.old), solverName, dataset.LabelText(got))
	}
	st.add(in.frag, r)
	if !r.Found {
		return nil
	}
	twins := pairs.Twins(in.rec, in.sents, r, solverName)
	for i := range twins {
		if err := enc.Encode(&twins[i]); err != nil {
			return err
		}
	}
	return nil
}

// pairStats counts instances per fragment and pairs per edit kind.
type pairStats struct {
	instances, found map[fragments.Fragment]int
	kinds            map[pairs.Kind]int
	undecided        int
	edits            int // edited instances undecided by the backend
}

func newPairStats() *pairStats {
	return &pairStats{instances: map[fragments.Fragment]int{}, found: map[fragments.Fragment]int{}, kinds: map[pairs.Kind]int{}}
}

func (p *pairStats) add(f fragments.Fragment, r pairs.Result) {
	p.instances[f]++
	p.edits += r.Undecided
	if r.Found {
		p.found[f]++
		p.kinds[r.Edit.Kind]++
	}
}

func (p *pairStats) report(w io.Writer, solverName string) {
	n, found := 0, 0
	var per []string
	for _, f := range fragments.All() {
		if c := p.instances[f]; c > 0 {
			n, found = n+c, found+p.found[f]
			per = append(per, fmt.Sprintf("%s %d/%d (%.1f%%)", f, p.found[f], c, 100*float64(p.found[f])/float64(c)))
		}
	}
	fmt.Fprintf(w, "nlsat: wrote %d pairs (%d records) from %d instances with %s; %d without a flipping edit, %d undecided\n",
		found, 2*found, n+p.undecided, solverName, n-found, p.undecided)
	var ks []string
	for _, k := range pairs.Kinds() {
		ks = append(ks, fmt.Sprintf("%s %d", k, p.kinds[k]))
	}
	fmt.Fprintf(w, "nlsat: pairs by edit kind: %s\n", strings.Join(ks, ", "))
	if len(per) > 0 {
		fmt.Fprintf(w, "nlsat: instances with a flipping edit: %s\n", strings.Join(per, ", "))
	}
	if p.edits > 0 {
		fmt.Fprintf(w, "nlsat: %d edited instances stayed undecided and were passed over\n", p.edits)
	}
}
