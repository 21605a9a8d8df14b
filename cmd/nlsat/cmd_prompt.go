package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/entailrec"
	"github.com/nlsat/nlsat/internal/eval"
	"github.com/nlsat/nlsat/internal/prompt"
)

type promptOptions struct {
	out      string
	example  string
	name     string
	absolute bool
	quiet    bool
	cot      bool
	split    string
	fewshot  string
}

func (o *promptOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVarP(&o.out, "out", "o", "", "output JSONL file (required); the task YAML files are written beside it; all written atomically")
	f.StringVar(&o.example, "example", "", "take the worked example of the True/False prompt from the first record of this file (default: the paper's Figure 1, unsatisfiable)")
	f.StringVar(&o.name, "name", "", "task tag; tasks are TAG_satunsat, TAG_truefalse and the same with _gen (default: nlsat_ and the output file's name)")
	f.BoolVar(&o.absolute, "absolute-paths", false, "write the JSONL's absolute path into data_files, so lm_eval can run from any directory")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no summary on stderr")
	f.BoolVar(&o.cot, "cot", false, cotUsage)
	f.StringVar(&o.split, "split", "test", promptSplitUsage)
	f.StringVar(&o.fewshot, "fewshot", "", "records (a file, or a dataset directory) whose prompts the task files declare as lm-eval's few-shot split, which --num_fewshot K draws its demonstrations from (default: the validation split of FILE's dataset, or its train split; else the worked examples alone)")
	cmd.MarkFlagRequired("out")
}

func newPromptCmd(s streams) *cobra.Command {
	o := &promptOptions{}
	cmd := &cobra.Command{
		Use:   "prompt [FILE|DIR] --out OUT.jsonl",
		Short: "Render records into the paper's zero-shot prompts, with lm-eval tasks",
		Long:  promptHelp + promptEntailHelp + exitCodesHelp,
		Example: `  nlsat prompt nlsat-S/data/test.jsonl --out test.jsonl
  lm_eval --model hf --model_args pretrained=gpt2 --include_path . --tasks nlsat_test --log_samples --output_path results
  nlsat prompt nlsat-S/data/test.jsonl --example nlsat-S/data/validation.jsonl --name nlsat_s_test --out s-test.jsonl
  nlsat generate --task entailment --fragment V --count 30 --out v-entail.jsonl
  nlsat generate --task entailment --fragment V --count 30 --seed 2 --out v-shots.jsonl
  nlsat prompt v-entail.jsonl --fewshot v-shots.jsonl --out v-entail-prompts.jsonl`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in := "-" // stdin, as label and stats read it
			if len(args) == 1 {
				in = args[0]
			}
			return runPrompt(o, in, s)
		},
	}
	o.addFlags(cmd)
	return cmd
}

func runPrompt(o *promptOptions, in string, s streams) error {
	if o.out == "" || o.out == "-" {
		return usagef("--out must name a file: the task files are written beside it")
	}
	if o.example == "-" && in == "-" {
		return usagef("records and --example cannot both come from stdin")
	}
	if o.fewshot == "-" {
		return usagef("--fewshot must name a file (or a dataset directory), not stdin")
	}
	schema, rest, err := eval.InputSchema(in, s.In)
	if rest != nil {
		s.In = rest
	}
	if err == nil && schema == entailrec.Schema {
		return runPromptEntail(o, in, s)
	}
	tf, err := prompt.NewTaskFile(o.name, o.out, o.absolute)
	if err != nil {
		return err
	}
	n, files, err := prompt.Run(prompt.Config{In: in, Example: o.example, Fewshot: o.fewshot, Out: o.out, CoT: o.cot, TaskFile: tf}, s.In, s.Out)
	if err == nil && !o.quiet {
		fmt.Fprintf(s.Err, "nlsat: wrote %d prompt rows to %s and tasks %s\n", n, o.out, strings.Join(files, ", "))
	}
	return err
}

// runPromptEntail writes the entailment prompts of a file or dataset
// directory of entailment records.
func runPromptEntail(o *promptOptions, in string, s streams) error {
	if o.cot {
		return usagef("--cot needs sat/unsat records written with --proofs; %s holds entailment records", in)
	}
	tf, err := prompt.NewTaskFile(o.name, o.out, o.absolute)
	if err != nil {
		return err
	}
	res, err := prompt.RunEntail(prompt.EntailConfig{In: in, Split: o.split, Examples: o.example, Fewshot: o.fewshot, Out: o.out, TaskFile: tf}, s.In, s.Out)
	if errors.Is(err, prompt.ErrNoFewshot) {
		return usagef("%v: give --fewshot FILE (records of another split) or --example FILE (worked examples)", err)
	}
	if err == nil && !o.quiet {
		fmt.Fprintf(s.Err, "nlsat: wrote %d entailment prompt rows to %s and tasks %s\n", res.Rows, o.out, strings.Join(res.Tasks, ", "))
	}
	return err
}
