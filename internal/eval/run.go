package eval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nlsat/nlsat/internal/atomicfile"
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/inputerr"
	"github.com/nlsat/nlsat/internal/proof"
	"github.com/nlsat/nlsat/internal/solver"
)

// Config is one evaluation: where the gold records and predictions are,
// how to read and score them, and what to write besides the report.
type Config struct {
	Gold string
	Pred string // "-" for stdin
	PredOptions
	Options
	// PerRecord, if set, is a JSONL file for every scored record's answer
	// and how it was read (WritePerRecord).
	PerRecord string
	// Plot, if set, is a .png or .svg file for the figure of Plot.
	Plot string
	// Chains checks the chain of thought in every free-text answer
	// (Report.Chains, and the per-record file's "chain"), reading the sentences with
	// Lexicon (the built-in vocabulary when nil).
	Chains  bool
	Lexicon *fragments.Lexicon
	// NewBackend makes one worker's decider for the steps of the chains,
	// and Workers is the number of workers (0: all cores); the report
	// does not depend on it.
	NewBackend func() (solver.Backend, error)
	Workers    int
}

// Run reads the gold records of t and the predictions, scores them, and
// writes the per-record file and the plot, each atomically. Every error
// about the configuration, the inputs or the outputs is a
// *inputerr.Error; the chains are checked under ctx, whose end stops Run
// with its error.
func Run(ctx context.Context, t Task, c Config, stdin io.Reader) (Report, error) {
	spec := t.Spec()
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(c.Plot)), ".")
	binned := slices.ContainsFunc(spec.Breakdowns, func(b Breakdown) bool { return b.Binned })
	switch {
	case c.Plot != "" && spec.Plot == "":
		return Report{}, inputerr.Errorf("--plot: the %s task's report has no figure", spec.Name)
	case c.Plot != "" && !slices.Contains(PlotFormats(), format):
		return Report{}, inputerr.Errorf("--plot %s: the file must end in .png or .svg", c.Plot)
	case c.PerRecord == "-":
		return Report{}, inputerr.Errorf("--per-record must name a file, not stdout, which has the report")
	case c.Chains && !spec.Chains:
		return Report{}, inputerr.Errorf("--chains: the %s task's answers are no chains of thought", spec.Name)
	case c.Chains && c.Filter != "":
		return Report{}, inputerr.Errorf("--chains reads the raw generations, not --filter %s's", c.Filter)
	case binned && c.MBinWidth <= 0:
		return Report{}, inputerr.Errorf("--m-bin must be positive, not %d", c.MBinWidth)
	}
	gold, preds, err := load(t, c, stdin)
	if err != nil {
		return Report{}, &inputerr.Error{Err: err}
	}
	opts := c.Options
	if b := spec.Binary; b != nil && b.Samples != "" {
		base := filepath.Base(c.Pred)
		opts.Binary = opts.Binary || strings.HasPrefix(base, "samples_") && (strings.Contains(base, b.Samples+"_") || strings.Contains(base, b.Samples+"."))
	}
	rep, err := Evaluate(t, gold, preds, opts)
	var me *MissingError
	if errors.As(err, &me) {
		err = fmt.Errorf("%w; --allow-missing scores the others", err)
	}
	if err != nil {
		return rep, &inputerr.Error{Err: err}
	}
	var chains map[string]*proof.ChainResult
	if c.Chains {
		if c.Lexicon == nil {
			c.Lexicon = fragments.Default()
		}
		if rep.Chains, chains, err = scoreChains(ctx, c, gold, preds); err != nil {
			return rep, err
		}
	}
	if c.PerRecord != "" {
		if err := writeAtomic(c.PerRecord, func(w io.Writer) error { return writePerRecord(w, gold, preds, rep.binary, chains) }); err != nil {
			return rep, err
		}
	}
	if c.Plot != "" {
		return rep, PlotFile(c.Plot, rep, format)
	}
	return rep, nil
}

func load(t Task, c Config, stdin io.Reader) ([]Gold, []Prediction, error) {
	gold, err := ReadGold(c.Gold, t)
	if err != nil {
		return nil, nil, err
	}
	name, r := "stdin", stdin
	if c.Pred != "-" {
		f, err := dataset.OpenFile(c.Pred)
		if err != nil {
			return nil, nil, fmt.Errorf("cannot read predictions: %w", err)
		}
		defer f.Close()
		name, r = c.Pred, f
	}
	preds, err := ReadPredictions(r, name, t, c.PredOptions)
	return gold, preds, err
}

// WritePerRecord writes a line for every gold record that has a
// prediction, in gold order: the record's id, split and Gold.Info; its
// gold label and the answer's (their binary labels when binary, as when
// a report scores the answers as binary; Unparseable for an answer that
// names no label); whether the answer is right; and the prediction's
// Source, Answer, Phrase (as "reading") and Where.
func WritePerRecord(w io.Writer, gold []Gold, preds []Prediction, binary bool) error {
	return writePerRecord(w, gold, preds, binary, nil)
}

// writePerRecord is WritePerRecord with each record's chain result, if
// any, under "chain".
func writePerRecord(w io.Writer, gold []Gold, preds []Prediction, binary bool, chains map[string]*proof.ChainResult) error {
	byID := make(map[string]*Prediction, len(preds))
	for k := range preds {
		byID[preds[k].ID] = &preds[k]
	}
	for k := range gold {
		g := &gold[k]
		p, ok := byID[g.ID]
		if !ok {
			continue
		}
		want, got := g.Label, p.Label
		if binary {
			want, got = g.binary, p.Binary
		}
		var o object
		o.add("id", g.ID)
		o.add("split", g.Split)
		if g.Info != nil {
			o.inline(g.Info)
		}
		o.add("gold", want)
		o.add("predicted", got)
		o.add("correct", want == got)
		o.add("source", p.Source)
		o.add("answer", p.Answer)
		o.add("reading", p.Phrase)
		o.add("where", p.Where)
		if c := chains[g.ID]; c != nil {
			o.add("chain", c)
		}
		line, err := o.bytes()
		if err != nil {
			return err
		}
		if _, err := w.Write(append(line, '\n')); err != nil {
			return err
		}
	}
	return nil
}

// writeAtomic writes the file name with write, all or nothing; write's
// errors name the file, and one creating it is a *inputerr.Error.
func writeAtomic(name string, write func(w io.Writer) error) error {
	f, err := atomicfile.Create(name, io.Discard)
	if err != nil {
		return &inputerr.Error{Err: err}
	}
	defer f.Abort()
	if err := write(f); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return f.Commit()
}
