package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/pipeline"
	"github.com/nlsat/nlsat/internal/solver"
)

type labelOptions struct {
	out          string
	allowUnknown bool
	solver       *solverOptions
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
		Example: `  nlsat label data/test.jsonl --out test.relabelled.jsonl
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
	return cmd
}

// parsedRecord is an input record with its parsed sentences.
type parsedRecord struct {
	rec   *dataset.Record
	sents []fragments.Sentence
	old   int
	where string // file:line
}

func readRecords(in string, stdin io.Reader) ([]parsedRecord, error) {
	name, r := "stdin", stdin
	if in != "-" {
		f, err := os.Open(in)
		if err != nil {
			return nil, usageError{fmt.Errorf("cannot read records: %w", err)}
		}
		defer f.Close()
		name, r = in, f
	}
	dec := dataset.NewDecoder(r, name)
	var out []parsedRecord
	for {
		rec, err := dec.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, usageError{err}
		}
		where := fmt.Sprintf("%s:%d", name, dec.Line())
		pr, err := parseRecord(rec, where)
		if err != nil {
			return nil, usageError{err}
		}
		out = append(out, pr)
	}
	if len(out) == 0 {
		return nil, usagef("%s: no records", name)
	}
	return out, nil
}

func parseRecord(rec *dataset.Record, where string) (parsedRecord, error) {
	if len(rec.Sentences) == 0 {
		rec.Sentences = splitText(rec.Text)
	}
	if len(rec.Sentences) == 0 {
		return parsedRecord{}, fmt.Errorf("%s: record has neither sentences nor text", where)
	}
	pr := parsedRecord{rec: rec, old: rec.Label, where: where}
	if rec.LabelText == "" && rec.Label == 0 {
		pr.old = dataset.LabelAbsent // a record without a label key
	}
	var frag *fragments.Fragment
	if rec.Fragment != "" {
		f, err := fragments.ParseFragment(rec.Fragment)
		if err != nil {
			return parsedRecord{}, fmt.Errorf("%s: %w", where, err)
		}
		frag = &f
	}
	for i, text := range rec.Sentences {
		st, err := fragments.Parse(text)
		if err != nil {
			return parsedRecord{}, fmt.Errorf("%s: sentence %d: %w", where, i+1, err)
		}
		if frag != nil && st.Fragment() > *frag {
			return parsedRecord{}, fmt.Errorf("%s: sentence %d %q is in fragment %s, but the record says %s", where, i+1, text, st.Fragment(), *frag)
		}
		pr.sents = append(pr.sents, st)
	}
	return pr, nil
}

// splitText splits a text into sentences after each full stop.
func splitText(text string) []string {
	var out []string
	for _, part := range strings.SplitAfter(text, ".") {
		if t := strings.TrimSpace(part); t != "" {
			out = append(out, t)
		}
	}
	return out
}

func runLabel(ctx context.Context, o *labelOptions, in string, s streams) error {
	recs, err := readRecords(in, s.In)
	if err != nil {
		return err
	}
	newBackend, err := o.solver.backendFactory()
	if err != nil {
		return err
	}
	out, enc, err := createRecords(o.out, s)
	if err != nil {
		return err
	}
	defer out.Abort()
	prog := newProgress(s.Err, "label", len(recs), o.solver.quiet)
	var counts [3]int
	changed, solverName := 0, ""
	err = pipeline.Run(ctx, pipeline.Config[solver.Backend, solver.Verdict]{
		Workers: o.solver.jobs, Limit: len(recs),
		New: func() (solver.Backend, error) {
			b, err := newBackend()
			if err == nil {
				solverName = b.Name()
			}
			return b, err
		},
		Close: solver.Close,
		Do: func(ctx context.Context, b solver.Backend, i int) (solver.Verdict, error) {
			v, err := solver.Decide(ctx, b, fragments.Formulas(recs[i].sents), solver.DecideOptions{MUS: true})
			if err != nil {
				return v, fmt.Errorf("record %d (%s): %w", i+1, recs[i].rec.ID, err)
			}
			return v, nil
		},
		Emit: func(i int, v solver.Verdict) (bool, error) {
			prog.add(v.Status, true)
			counts[v.Status]++
			pr := recs[i]
			relabel(pr, i, v, solverName)
			if pr.old != dataset.LabelAbsent && pr.old != pr.rec.Label && v.Status != solver.Unknown {
				changed++
			}
			return false, enc.Encode(pr.rec)
		},
	})
	if err := commitRun(ctx, prog, out, err); err != nil {
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

// relabel rewrites the fields label derives from the English; a record
// without an id gets its line position, one without a fragment the
// smallest fragment containing its sentences.
func relabel(pr parsedRecord, i int, v solver.Verdict, solverName string) {
	r := pr.rec
	r.Templates, r.Formulas = nil, nil
	top := fragments.S
	for _, st := range pr.sents {
		r.Templates = append(r.Templates, st.ID())
		r.Formulas = append(r.Formulas, fol.String(st.Formula()))
		top = max(top, st.Fragment())
	}
	if r.ID == "" {
		r.ID = fmt.Sprintf("%06d", i)
	}
	if r.Fragment == "" {
		r.Fragment = top.String()
	}
	if len(r.Nouns) == 0 && len(r.Verbs) == 0 {
		r.Nouns, r.Verbs = wordsOf(pr.sents)
		r.N1, r.N2 = len(r.Nouns), len(r.Verbs)
	}
	if r.Text == "" {
		r.Text = strings.Join(r.Sentences, " ")
	}
	r.SetVerdict(v, solverName)
}

// wordsOf lists the distinct nouns and verbs of sents in order of first use.
func wordsOf(sents []fragments.Sentence) (nouns, verbs []string) {
	seen := map[string]bool{}
	for _, st := range sents {
		for _, n := range st.Nouns() {
			if !seen["n:"+n] {
				seen["n:"+n] = true
				nouns = append(nouns, n)
			}
		}
		for _, v := range st.Verbs() {
			if !seen["v:"+v] {
				seen["v:"+v] = true
				verbs = append(verbs, v)
			}
		}
	}
	return nouns, verbs
}

// createRecords opens an atomic JSONL output (- for stdout) with its
// encoder; a path that cannot be written is a usage error.
func createRecords(name string, s streams) (*dataset.AtomicFile, *dataset.Encoder, error) {
	out, err := dataset.CreateAtomic(name, s.Out)
	if err != nil {
		return nil, nil, usageError{err}
	}
	return out, dataset.NewEncoder(out), nil
}
