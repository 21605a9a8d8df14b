package main

import (
	"encoding/json"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/eval"
)

type evalOptions struct {
	cfg     eval.Config
	answers *enumFlag
	json    bool
}

func (o *evalOptions) addFlags(cmd *cobra.Command) {
	f, c := cmd.Flags(), &o.cfg
	f.StringVar(&c.Gold, "gold", "", "gold records: a JSONL file or a dataset directory (its data/*.jsonl)")
	f.StringVar(&c.Pred, "pred", "", "predictions, JSONL, or lm_eval's --log_samples file samples_TASK_DATE.jsonl (- for stdin)")
	f.StringVar(&c.Field, "field", "", "read each prediction's free-text answer from this key only (default: label, label_text, then "+strings.Join(eval.TextFields, ", ")+")")
	o.answers = newEnum(string(eval.AnswersAny), eval.AnswerSets()...)
	f.Var(o.answers, "answers", "answer words searched for in free text: both prompts', or only those of prompt (a) or (b)")
	f.StringVar(&c.Filter, "filter", "", "lm_eval samples: read the answers after this filter of the task (strict-match, flexible-extract) instead of the raw generations")
	f.IntVar(&c.MBinWidth, "m-bin", 5, "width of the bins of the number of sentences m (1..w, w+1..2w, ...)")
	f.BoolVar(&c.AllowMissing, "allow-missing", false, "score gold records that have a prediction and count the others, instead of failing")
	f.BoolVar(&o.json, "json", false, "print one JSON object (fixed key order, every key present) instead of tables")
	f.StringVar(&c.Plot, "plot", "", "also draw accuracy against n per fragment into this .png or .svg file")
	f.StringVar(&c.PerRecord, "per-record", "", "also write, per scored record, its answer, how it was read and whether it is right (JSONL) into this file")
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
key --field names). Or they are the samples_TASK_DATE.jsonl that lm_eval
--log_samples writes for the tasks of nlsat prompt, as they are: the doc's
id names the gold record; a generation is read from resps (or, with
--filter, from the filter's filtered_resps), a multiple-choice answer is
the choice of highest log-likelihood.

Free text is read as a person would: the first of "satisfiable", "sat",
"consistent", "True" and their opposites decides (--answers narrows the
words to one prompt's), whole words only, flipped by a negation before it
in its clause ("not satisfiable", "cannot all be true"); "True or False"
is no answer. Answers without such a word are unparseable: counted as
wrong, listed, and left out of the accuracy over parseable answers.

Ids carry the digest of the configuration that built the data, and a
prediction that carries the instance's text (a "text" key, lm_eval's doc)
has it compared with gold's: predictions made for another seed or other
flags are refused. So are a prediction for an id that is not gold, a
duplicate id and a gold record without a prediction (exit 2, naming the
file and line); --allow-missing scores the predicted records.

` + exitCodesHelp,
		Example: `  nlsat eval --gold nlsat-S/data/test.jsonl --pred preds.jsonl
  nlsat eval --gold nlsat-S/data/test.jsonl --pred results/gpt2/samples_nlsat_test_satunsat_gen_2025-06-01T12-00-00.jsonl --per-record errors.jsonl
  nlsat eval --gold nlsat-S/data/test.jsonl --pred gpt4.jsonl --field response --plot fig3.png
  nlsat eval --gold nlsat-S --pred preds.jsonl --allow-missing --json > scores.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runEval(o, s)
		},
	}
	o.addFlags(cmd)
	return cmd
}

// runEval scores and prints the report; eval.Run's errors about the input
// are dataset.InputErrors, so exit 2.
func runEval(o *evalOptions, s streams) error {
	o.cfg.Answers = eval.AnswerSet(o.answers.value)
	rep, err := eval.Run(o.cfg, s.In)
	if err != nil {
		return err
	}
	if !o.json {
		return eval.WriteText(s.Out, rep)
	}
	enc := json.NewEncoder(s.Out)
	enc.SetEscapeHTML(false)
	return enc.Encode(rep)
}
