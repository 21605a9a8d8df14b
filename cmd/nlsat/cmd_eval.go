package main

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/eval"
)

type evalOptions struct {
	gold, pred, field, plot string
	answers                 *enumFlag
	mBin                    int
	allowMissing, json      bool
}

func (o *evalOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.gold, "gold", "", "gold records: a JSONL file or a dataset directory (its data/*.jsonl)")
	f.StringVar(&o.pred, "pred", "", "predictions, JSONL (- for stdin)")
	f.StringVar(&o.field, "field", "", "read each prediction's free-text answer from this key only (default: label, label_text, then "+strings.Join(eval.TextFields, ", ")+")")
	o.answers = newEnum(string(eval.AnswersAny), eval.AnswerSets()...)
	f.Var(o.answers, "answers", "answer words searched for in free text: both prompts', or only those of prompt (a) or (b)")
	f.IntVar(&o.mBin, "m-bin", 5, "width of the bins of the number of sentences m (1..w, w+1..2w, ...)")
	f.BoolVar(&o.allowMissing, "allow-missing", false, "score gold records that have a prediction and count the others, instead of failing")
	f.BoolVar(&o.json, "json", false, "print one JSON object (fixed key order, every key present) instead of tables")
	f.StringVar(&o.plot, "plot", "", "also draw accuracy against n per fragment into this .png or .svg file")
	cmd.MarkFlagRequired("gold")
	cmd.MarkFlagRequired("pred")
}

func newEvalCmd(s streams) *cobra.Command {
	o := &evalOptions{}
	cmd := &cobra.Command{
		Use:   "eval --gold DIR|FILE --pred FILE",
		Short: "Score predictions against gold records, per fragment, n, m, label and difficulty",
		Long: `Eval scores a predictions file against gold records and prints the accuracy
overall, per split file (when --gold is a directory), per fragment, per
n = n1 + n2, per bin of m, per gold label, per size of the minimal
unsatisfiable subset (unsat gold) and of the checked model (sat gold), per
fragment and n (the paper's Figure 3) and per split file and fragment, each
with its count and a 95% Wilson interval. When the gold records carry the
pair_id and pair_role keys of nlsat pairs, it also prints the share of
minimal pairs whose twins are both predicted right, and the share whose
prediction changes between the twins.

Predictions are JSONL objects with an "id" and one answer: "label" (1 sat,
0 unsat), else "label_text" ("sat" or "unsat"), else free text from a
language model in "prediction", "response", "output" or "answer" (or the
key --field names). Free text is read as a person would: the first of
"satisfiable", "sat", "consistent", "True" and their opposites decides
(--answers narrows the words to one prompt's), whole words only, flipped
by a negation before it in its clause ("not satisfiable", "cannot all be
true"); "True or False" is no answer. Answers without such a word are
unparseable: they count as wrong, and the tables also give the accuracy
over the parseable answers.

A prediction for an id that is not gold, a duplicate id and a gold record
without a prediction are errors (exit 2) naming the file and line;
--allow-missing scores the predicted records and counts the others.

` + exitCodesHelp,
		Example: `  nlsat eval --gold out/dataset --pred preds.jsonl
  nlsat eval --gold out/dataset/data/test.jsonl --pred gpt4.jsonl --field response --plot fig3.png
  nlsat eval --gold out/dataset --pred test-preds.jsonl --allow-missing --json > scores.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runEval(o, s)
		},
	}
	o.addFlags(cmd)
	return cmd
}

func runEval(o *evalOptions, s streams) error {
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(o.plot)), ".")
	if o.plot != "" && !slices.Contains(eval.PlotFormats(), format) {
		return usagef("--plot %s: the file must end in .png or .svg", o.plot)
	}
	if o.mBin <= 0 {
		return usagef("--m-bin must be positive, not %d", o.mBin)
	}
	rep, err := scorePredictions(o, s.In)
	if err != nil {
		return err
	}
	if o.plot != "" {
		if err := eval.PlotFile(o.plot, rep, format); err != nil {
			return err
		}
	}
	if !o.json {
		return eval.WriteText(s.Out, rep)
	}
	enc := json.NewEncoder(s.Out)
	enc.SetEscapeHTML(false)
	return enc.Encode(rep)
}

// scorePredictions reads both files and scores them; every error is about
// the input, so a usage error.
func scorePredictions(o *evalOptions, stdin io.Reader) (eval.Report, error) {
	gold, err := eval.ReadGold(o.gold)
	if err != nil {
		return eval.Report{}, usageError{err}
	}
	display, r := "stdin", stdin
	if o.pred != "-" {
		f, err := os.Open(o.pred)
		if err != nil {
			return eval.Report{}, usagef("cannot read predictions: %w", err)
		}
		defer f.Close()
		display, r = o.pred, f
	}
	preds, err := eval.ReadPredictions(r, display, eval.PredOptions{Field: o.field, Answers: eval.AnswerSet(o.answers.value)})
	if err != nil {
		return eval.Report{}, usageError{err}
	}
	rep, err := eval.Evaluate(gold, preds, eval.Options{MBinWidth: o.mBin, AllowMissing: o.allowMissing})
	var me *eval.MissingError
	if errors.As(err, &me) {
		return rep, usagef("%w; --allow-missing scores the others", err)
	}
	if err != nil {
		return rep, usageError{err}
	}
	return rep, nil
}
