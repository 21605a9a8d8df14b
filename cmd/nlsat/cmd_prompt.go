package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/prompt"
)

type promptOptions struct {
	out      string
	example  string
	name     string
	absolute bool
	quiet    bool
	cot      bool
}

func (o *promptOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVarP(&o.out, "out", "o", "", "output JSONL file (required); the task YAML files are written beside it; all written atomically")
	f.StringVar(&o.example, "example", "", "take the worked example of the True/False prompt from the first record of this file (default: the paper's Figure 1, unsatisfiable)")
	f.StringVar(&o.name, "name", "", "task tag; tasks are TAG_satunsat, TAG_truefalse and the same with _gen (default: nlsat_ and the output file's name)")
	f.BoolVar(&o.absolute, "absolute-paths", false, "write the JSONL's absolute path into data_files, so lm_eval can run from any directory")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no summary on stderr")
	f.BoolVar(&o.cot, "cot", false, prompt.CoTUsage)
	cmd.MarkFlagRequired("out")
}

func newPromptCmd(s streams) *cobra.Command {
	o := &promptOptions{}
	cmd := &cobra.Command{
		Use:   "prompt FILE --out OUT.jsonl",
		Short: "Render records into the paper's zero-shot prompts, with lm-eval tasks",
		Long:  prompt.About + exitCodesHelp,
		Example: `  nlsat prompt nlsat-S/data/test.jsonl --out test.jsonl
  lm_eval --model hf --model_args pretrained=gpt2 --include_path . --tasks nlsat_test --log_samples --output_path results
  nlsat prompt nlsat-S/data/test.jsonl --example nlsat-S/data/validation.jsonl --name nlsat_s_test --out s-test.jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPrompt(o, args[0], s)
		},
	}
	o.addFlags(cmd)
	return cmd
}

var errStop = errors.New("stop")

func runPrompt(o *promptOptions, in string, s streams) error {
	if o.out == "" || o.out == "-" {
		return usagef("--out must name a file: the task files are written beside it")
	}
	if o.example == "-" && in == "-" {
		return usagef("records and --example cannot both come from stdin")
	}
	ex := prompt.Figure1
	if o.example != "" {
		var err error
		if ex, err = readExample(o.example, s); err != nil {
			return err
		}
	}
	var rows []prompt.Row
	err := dataset.EachRecord(in, s.In, func(r *dataset.Record, where string) error {
		if prompt.SameInstance(ex, r) {
			return usagef("%s: record %s is the worked example %s; give another with --example", where, r.ID, ex.ID)
		}
		row, err := prompt.NewRow(r, ex)
		if o.cot && err == nil {
			cot, e := prompt.CoT(r)
			row.TargetCoT, err = &cot, e
		}
		if err != nil {
			return usageError{fmt.Errorf("%s: %w", where, err)}
		}
		rows = append(rows, row)
		return nil
	})
	if err != nil {
		return err
	}
	tag := o.name
	if tag == "" {
		tag = prompt.TaskTag(strings.TrimSuffix(filepath.Base(o.out), filepath.Ext(o.out)))
	}
	tf := prompt.TaskFile{Tag: tag, DataFiles: filepath.Base(o.out), Source: filepath.Base(in), Rows: len(rows), ExampleID: ex.ID, CoT: o.cot}
	if o.absolute {
		abs, err := filepath.Abs(o.out)
		if err != nil {
			return err
		}
		tf.DataFiles = abs
	}
	files, err := prompt.WriteFiles(o.out, s.Out, rows, tf)
	if err != nil {
		return err
	}
	if !o.quiet {
		fmt.Fprintf(s.Err, "nlsat: wrote %d prompt rows to %s and tasks %s\n", len(rows), o.out, strings.Join(files, ", "))
	}
	return nil
}

// readExample takes the first record of a file as the worked example.
func readExample(name string, s streams) (prompt.Example, error) {
	var ex prompt.Example
	err := dataset.EachRecord(name, s.In, func(r *dataset.Record, where string) error {
		var err error
		if ex, err = prompt.ExampleFrom(r); err != nil {
			return usageError{fmt.Errorf("%s: %w", where, err)}
		}
		return errStop
	})
	if errors.Is(err, errStop) {
		err = nil
	}
	return ex, err
}
