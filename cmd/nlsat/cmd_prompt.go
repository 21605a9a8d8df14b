package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/prompt"
	"github.com/nlsat/nlsat/internal/task"
	"github.com/nlsat/nlsat/internal/task/satunsat"
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
	t, stdin, err := detectInput(in, s.In)
	if err != nil {
		return err
	}
	if t.Prompt == nil {
		return usagef("%s holds %s records, which have no prompts", in, t.Name)
	}
	tf, err := prompt.NewTaskFile(o.name, o.out, o.absolute)
	if err != nil {
		return err
	}
	c := prompt.Config{In: in, Split: o.split, Examples: o.example, Fewshot: o.fewshot, Out: o.out,
		Options: prompt.Options{CoT: o.cot}, TaskFile: tf}
	res, err := prompt.Run(t.Prompt, c, stdin, s.Out)
	var oe *prompt.OptionError
	switch {
	case errors.As(err, &oe) && oe.Option == prompt.OptionCoT:
		return usagef("--cot needs sat/unsat records written with --proofs; %s holds %s records", in, t.Name)
	case errors.Is(err, prompt.ErrNoFewshot):
		return usagef("%v: give --fewshot FILE (records of another split) or --example FILE (worked examples)", err)
	case err != nil:
		return err
	}
	if !o.quiet {
		kind := ""
		if t != satunsat.Task {
			kind = t.Name + " "
		}
		fmt.Fprintf(s.Err, "nlsat: wrote %d %sprompt rows to %s and tasks %s\n", res.Rows, kind, o.out, strings.Join(res.Tasks, ", "))
	}
	return nil
}

// detectInput returns the task whose records in holds (task.Detect), and
// the stdin to read them from. Records on stdin are read whole and told
// apart by their first line (task.DetectLine), as a file of them is.
func detectInput(in string, stdin io.Reader) (*task.Task, io.Reader, error) {
	if in != "-" {
		t, err := task.Detect(in)
		return t, stdin, err
	}
	data, err := io.ReadAll(stdin)
	if err != nil {
		return nil, nil, err
	}
	r, err := dataset.NewReader(bytes.NewReader(data), "stdin")
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	var first []byte
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	for len(first) == 0 && sc.Scan() {
		first = bytes.TrimSpace(sc.Bytes())
	}
	t, err := task.DetectLine(first, "stdin")
	return t, bytes.NewReader(data), err
}
