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
}

func (o *promptOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVarP(&o.out, "out", "o", "", "output JSONL file (required); the task YAML files are written beside it; all written atomically")
	f.StringVar(&o.example, "example", "", "take the worked example of the True/False prompt from the first record of this file (default: the paper's Figure 1, unsatisfiable)")
	f.StringVar(&o.name, "name", "", "task tag; tasks are TAG_satunsat, TAG_truefalse and the same with _gen (default: nlsat_ and the output file's name)")
	f.BoolVar(&o.absolute, "absolute-paths", false, "write the JSONL's absolute path into data_files, so lm_eval can run from any directory")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no summary on stderr")
	cmd.MarkFlagRequired("out")
}

func newPromptCmd(s streams) *cobra.Command {
	o := &promptOptions{}
	cmd := &cobra.Command{
		Use:   "prompt FILE --out OUT.jsonl",
		Short: "Render records into the paper's zero-shot prompts, with lm-eval tasks",
		Long: `Prompt renders every record of FILE (- for stdin; usually the zero-shot set)
into the two prompts of the paper's Appendix C and writes one JSONL row per
record with both:

  prompt_sat  "Q: Given the following set of sentences, tell me whether they
              are satisfiable or not. Generate satisfiable if they are and
              unsatisfiable if they are not. Set of sentences: <text>" then a
              blank line and "A:"; target_sat is "satisfiable" or
              "unsatisfiable".
  prompt_tf   the same question asking for True or False, first about one
              worked example with its answer, then about <text>; target_tf is
              "True" or "False".

Each row also keeps id, fragment, text, label (1 sat, 0 unsat), label_text,
m, n1, n2 and example_id; every key is in every row with one type, so
HuggingFace datasets loads the file as it is. <text> is the record's
sentences joined by spaces. As in the paper, the second question of the
True/False prompt has no "Q:".

The worked example is the paper's Figure 1 instance ("Every scholar is a
poet. Every poet loves some musician. Some scholar does not love any
musician.", answer False) unless --example names a file whose first record
is used instead (take it from another split). It may not be one of the
evaluated instances (same id, or same sentences in any order): that is an
error.

Beside OUT it writes four lm-evaluation-harness task files, TAG_satunsat,
TAG_truefalse (multiple_choice: the likelier answer after "A: " is the
model's) and TAG_satunsat_gen, TAG_truefalse_gen (generate_until, exact match
of the answer extracted from the generation, as the paper scored its
models), all tagged TAG. data_files is relative to the working directory
lm_eval runs in: run it from OUT's directory (--include_path .), or write
absolute paths with --absolute-paths. nlsat eval --gold FILE scores the
samples_TASK_DATE.jsonl that lm_eval --log_samples writes, as they are.

Every record must be labelled (label -1 is an error naming the line).

` + exitCodesHelp,
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
	tf := prompt.TaskFile{Tag: tag, DataFiles: filepath.Base(o.out), Source: filepath.Base(in), Rows: len(rows), ExampleID: ex.ID}
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
