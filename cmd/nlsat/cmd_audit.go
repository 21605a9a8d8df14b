package main

import (
	"context"
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/audit"
	"github.com/nlsat/nlsat/internal/task"
)

type auditOptions struct {
	json       bool
	threshold  float64
	minStratum int
	maxTrain   int
}

func (o *auditOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.BoolVar(&o.json, "json", false, "print the report as one JSON object instead of tables (fixed key order; every key present but fitted_on, there when --max-train cut train, and a split's fragments, there when it holds several)")
	f.Float64Var(&o.threshold, "threshold", 0.55, "accuracy no baseline may be shown to exceed: a shortcut is reported when the lower end of an accuracy's 95% Wilson interval is above it")
	f.IntVar(&o.minStratum, "min-stratum", 200, "records a stratum needs (in the split, or in train for mutual information) to be reported")
	f.IntVar(&o.maxTrain, "max-train", audit.DefaultOptions().MaxTrain, "train records the baselines are fitted to, the first of the file (the counts and the order checks read every record), so that memory stops growing with train")
}

func newAuditCmd(s streams) *cobra.Command {
	o := &auditOptions{}
	cmd := &cobra.Command{
		Use:   "audit DIR",
		Short: "Check a dataset for surface shortcuts with shallow baselines",
		Long: `Audit reads a dataset directory made by nlsat split (DIR/data/train.jsonl,
validation.jsonl and test.jsonl, and generalisation.jsonl and zero-shot.jsonl
when present) and measures whether anything but the logic predicts the
labels. It needs the directory (it trains on train and scores the other
splits), so unlike the commands that read records it takes no stdin.

` + auditHelp + `

` + auditEntailHelp + `

Each split gets a verdict: "no surface shortcut above 55%" when no
predictor's 95% Wilson interval lies above --threshold, or else the
predictors that do, with the features or n-grams that carry most weight.
The output depends only on the files.

` + exitCodesHelp,
		Example: `  nlsat audit nlsat-S
  nlsat audit --json --threshold 0.6 nlsat-S > audit.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("audit needs a dataset directory (DIR, holding data/train.jsonl, validation.jsonl and test.jsonl): it compares splits, so it reads no stdin")
			}
			return cobra.ExactArgs(1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAudit(cmd.Context(), o, args[0], s)
		},
	}
	o.addFlags(cmd)
	return cmd
}

func runAudit(ctx context.Context, o *auditOptions, dir string, s streams) error {
	if o.threshold <= 0 || o.threshold >= 1 {
		return usagef("--threshold must lie strictly between 0 and 1, got %g", o.threshold)
	}
	if o.minStratum < 1 {
		return usagef("--min-stratum must be at least 1, got %d", o.minStratum)
	}
	if o.maxTrain < 1 {
		return usagef("--max-train must be at least 1, got %d", o.maxTrain)
	}
	opts := audit.DefaultOptions()
	opts.Threshold, opts.MinStratum, opts.MaxTrain = o.threshold, o.minStratum, o.maxTrain
	t, err := task.Detect(dir)
	if err != nil {
		return err
	}
	if t.Audit == nil {
		return usagef("%s: the audit cannot read records of task %s", dir, t.Name)
	}
	rep, err := audit.Run(ctx, t.Audit, dir, opts)
	if err != nil {
		return err
	}
	if !o.json {
		return rep.Text(s.Out)
	}
	enc := json.NewEncoder(s.Out)
	enc.SetEscapeHTML(false)
	return enc.Encode(rep)
}
