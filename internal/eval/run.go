package eval

import (
	"context"
	"encoding/json"
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
	// (Report.Chains, RecordResult.Chain), reading the sentences with
	// Lexicon (the built-in vocabulary when nil).
	Chains  bool
	Lexicon *fragments.Lexicon
	// NewBackend makes one worker's decider for the steps of the chains
	// (the native decider when nil), and Workers is the number of workers
	// (0: all cores); the report does not depend on it.
	NewBackend func() (solver.Backend, error)
	Workers    int
}

// Run reads the gold records and predictions, scores them, and writes the
// per-record file and the plot, each atomically. Every error about the
// configuration, the inputs or the outputs is a *inputerr.Error; the
// chains are checked under ctx, whose end stops Run with its error.
func Run(ctx context.Context, c Config, stdin io.Reader) (Report, error) {
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(c.Plot)), ".")
	if c.Plot != "" && !slices.Contains(PlotFormats(), format) {
		return Report{}, inputerr.Errorf("--plot %s: the file must end in .png or .svg", c.Plot)
	}
	if c.PerRecord == "-" {
		return Report{}, inputerr.Errorf("--per-record must name a file, not stdout, which has the report")
	}
	if c.Chains && c.Filter != "" {
		return Report{}, inputerr.Errorf("--chains reads the raw generations, not --filter %s's", c.Filter)
	}
	if c.MBinWidth <= 0 {
		return Report{}, inputerr.Errorf("--m-bin must be positive, not %d", c.MBinWidth)
	}
	gold, preds, err := load(c, stdin)
	if err != nil {
		return Report{}, &inputerr.Error{Err: err}
	}
	rep, err := Evaluate(gold, preds, c.Options)
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
		if err := writePerRecordFile(c.PerRecord, gold, preds, chains); err != nil {
			return rep, err
		}
	}
	if c.Plot != "" {
		return rep, PlotFile(c.Plot, rep, format)
	}
	return rep, nil
}

func load(c Config, stdin io.Reader) ([]Gold, []Prediction, error) {
	gold, err := ReadGold(c.Gold)
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
	preds, err := ReadPredictions(r, name, c.PredOptions)
	return gold, preds, err
}

// RecordResult is a line of the per-record file: a scored gold record, its
// answer and how it was read. Predicted is Unparseable (-1) when no answer
// word was found; Source, Answer and Reading are Prediction's Source,
// Answer and Phrase.
type RecordResult struct {
	ID        string `json:"id"`
	Split     string `json:"split"`
	Fragment  string `json:"fragment"`
	M         int    `json:"m"`
	N1        int    `json:"n1"`
	N2        int    `json:"n2"`
	Gold      int    `json:"gold"`
	Predicted int    `json:"predicted"`
	Correct   bool   `json:"correct"`
	Source    string `json:"source"`
	Answer    string `json:"answer"`
	Reading   string `json:"reading"`
	Where     string `json:"where"`
	// Chain is, with Config.Chains only, what proof.CheckChain found in
	// the answer.
	Chain *proof.ChainResult `json:"chain,omitempty"`
}

// WritePerRecord writes a RecordResult line for every gold record that has
// a prediction, in gold order.
func WritePerRecord(w io.Writer, gold []Gold, preds []Prediction) error {
	return writePerRecord(w, gold, preds, nil)
}

// writePerRecord is WritePerRecord with each record's chain result, if any.
func writePerRecord(w io.Writer, gold []Gold, preds []Prediction, chains map[string]*proof.ChainResult) error {
	return encodeMatched(w, gold, preds, func(g *Gold) string { return g.ID }, func(p *Prediction) string { return p.ID },
		func(g *Gold, p *Prediction) any {
			return RecordResult{ID: g.ID, Split: g.Split, Fragment: g.Fragment, M: g.M, N1: g.N1, N2: g.N2,
				Gold: g.Label, Predicted: p.Label, Correct: p.Label == g.Label,
				Source: p.Source, Answer: p.Answer, Reading: p.Phrase, Where: p.Where, Chain: chains[g.ID]}
		})
}

// encodeMatched writes line(g, p) as a JSON line, HTML left alone, for
// each gold record g that has a prediction p, in gold order; goldID and
// predID give their records' ids. The sat/unsat and entailment per-record
// files differ only in their lines.
func encodeMatched[G, P any](w io.Writer, gold []G, preds []P, goldID func(*G) string, predID func(*P) string, line func(g *G, p *P) any) error {
	byID := make(map[string]*P, len(preds))
	for k := range preds {
		byID[predID(&preds[k])] = &preds[k]
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for k := range gold {
		p, ok := byID[goldID(&gold[k])]
		if !ok {
			continue
		}
		if err := enc.Encode(line(&gold[k], p)); err != nil {
			return err
		}
	}
	return nil
}

func writePerRecordFile(name string, gold []Gold, preds []Prediction, chains map[string]*proof.ChainResult) error {
	return writeAtomic(name, func(w io.Writer) error { return writePerRecord(w, gold, preds, chains) })
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
