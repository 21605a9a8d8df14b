package main

import (
	"context"
	"encoding/json"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/eval"
	"github.com/nlsat/nlsat/internal/inputerr"
	"github.com/nlsat/nlsat/internal/task"
	"github.com/nlsat/nlsat/internal/task/satunsat"
)

type evalOptions struct {
	cfg     eval.Config
	answers *enumFlag
	json    bool
	vocab   vocabFlag
	solver  *solverOptions
}

func (o *evalOptions) addFlags(cmd *cobra.Command) {
	f, c := cmd.Flags(), &o.cfg
	f.StringVar(&c.Gold, "gold", "", "gold records: a JSONL file or a dataset directory (its data/*.jsonl)")
	f.StringVar(&c.Pred, "pred", "", "predictions, JSONL, or lm_eval's --log_samples file samples_TASK_DATE.jsonl (- for stdin)")
	f.StringVar(&c.Field, "field", "", "read each prediction's free-text answer from this key only (default: label, label_text, then "+strings.Join(eval.TextFields, ", ")+")")
	o.answers = newEnum(string(satunsat.AnswersAny), satunsat.AnswerSets()...)
	f.Var(o.answers, "answers", "answer words searched for in free text: both prompts', or only those of prompt (a) or (b)")
	f.StringVar(&c.Filter, "filter", "", "lm_eval samples: read the answers after this filter of the task (strict-match, flexible-extract) instead of the raw generations")
	f.IntVar(&c.MBinWidth, "m-bin", 5, "width of the bins of the number of sentences m (1..w, w+1..2w, ...)")
	f.BoolVar(&c.AllowMissing, "allow-missing", false, "score gold records that have a prediction and count the others, instead of failing")
	f.BoolVar(&o.json, "json", false, "print one JSON object (fixed key order, every key present) instead of tables")
	f.StringVar(&c.Plot, "plot", "", "also draw accuracy against n per fragment into this .png or .svg file")
	f.BoolVar(&c.Chains, "chains", false, chainsUsage)
	o.vocab.addFlag(cmd)
	o.solver.addFlags(cmd)
	f.StringVar(&c.PerRecord, "per-record", "", "also write, per scored record, its answer, how it was read and whether it is right (JSONL) into this file")
	cmd.MarkFlagRequired("gold")
	cmd.MarkFlagRequired("pred")
}

func newEvalCmd(s streams) *cobra.Command {
	o := &evalOptions{solver: newSolverOptions("native", false)}
	cmd := &cobra.Command{
		Use:   "eval --gold DIR|FILE --pred FILE",
		Short: "Score predictions against gold records, per fragment, n, m, label and difficulty",
		Long:  evalHelp + evalEntailHelp + exitCodesHelp,
		Example: `  nlsat eval --gold nlsat-S/data/test.jsonl --pred preds.jsonl
  nlsat eval --gold nlsat-S/data/test.jsonl --pred results/gpt2/samples_nlsat_test_satunsat_gen_2025-06-01T12-00-00.jsonl --per-record errors.jsonl
  nlsat eval --gold nlsat-S/data/test.jsonl --pred gpt4.jsonl --field response --plot fig3.png
  nlsat eval --gold nlsat-S --pred preds.jsonl --allow-missing --json > scores.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runEval(cmd.Context(), o, s)
		},
	}
	o.addFlags(cmd)
	return cmd
}

// runEval scores the gold records with their task's part of eval and
// prints the report; eval.Run's errors about the input are
// inputerr.Errors, so exit 2.
func runEval(ctx context.Context, o *evalOptions, s streams) error {
	o.cfg.Answers = o.answers.value
	lx, err := o.vocab.lexicon()
	if err != nil {
		return err
	}
	o.cfg.Lexicon = lx
	if o.cfg.NewBackend, _, err = o.solver.backends(); err != nil {
		return err
	}
	o.cfg.Workers = o.solver.jobs
	if _, err := os.Stat(o.cfg.Gold); err != nil {
		return inputerr.Errorf("cannot read gold records: %w", err)
	}
	t, err := task.Detect(o.cfg.Gold)
	if err != nil {
		return err
	}
	if t.Eval == nil {
		return inputerr.Errorf("--gold %s: the %s task has no evaluation", o.cfg.Gold, t.Name)
	}
	rep, err := eval.Run(ctx, t.Eval, o.cfg, s.In)
	if err != nil {
		return err
	}
	if !o.json {
		return eval.WriteText(s.Out, rep)
	}
	return encodeJSON(s, rep)
}

func encodeJSON(s streams, v any) error {
	enc := json.NewEncoder(s.Out)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
