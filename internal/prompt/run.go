package prompt

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/nlsat/nlsat/internal/eval"
	"github.com/nlsat/nlsat/internal/inputerr"
)

// Config is one prompt run.
type Config struct {
	// In is a file of records ("-" for stdin) or a dataset directory,
	// whose split Split is prompted.
	In    string
	Split string
	// Examples is the file (or dataset directory: its train split) the
	// worked examples come from; "" for the task's own, or, when In is
	// a dataset directory and the task takes them from it
	// (Task.TrainExamples), In's train split.
	Examples string
	// Fewshot names the records of lm-eval's few-shot demonstrations
	// (a file or a dataset directory); "" for In's validation or train
	// split (see fewshotSource), or else the worked examples.
	Fewshot string
	Out     string
	// Options are the choices only some tasks have; a task without one
	// asked for refuses the run with an *OptionError.
	Options  Options
	TaskFile TaskFile // Tag, DataFiles; the rest is filled in
}

// Result says what Run wrote: the number of prompt rows and the names of
// the tasks.
type Result struct {
	Rows  int
	Tasks []string
}

// Run renders the records of c.In, read by t, into prompt rows and
// writes them with the few-shot rows and the task files (WriteFiles).
// Every error about the inputs is a *inputerr.Error naming the file and
// line.
func Run(t Task, c Config, stdin io.Reader, stdout io.Writer) (Result, error) {
	var res Result
	if err := c.Options.check(t.Has()); err != nil {
		return res, &inputerr.Error{Err: err}
	}
	in, dir, examples, err := c.files(t)
	if err != nil {
		return res, &inputerr.Error{Err: err}
	}
	ex, err := t.Examples(examples, stdin, c.Options)
	if err != nil {
		return res, userErr(err)
	}
	var rows []any
	scored := map[string]bool{}
	err = t.Read(in, stdin, func(r Record, where string) error {
		if err := ex.Check(r); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		row, err := ex.Row(r)
		if err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		rows = append(rows, row)
		scored[r.Problem()] = true
		return nil
	})
	if err != nil {
		return res, userErr(err)
	}
	tf := c.TaskFile
	tf.Source, tf.Rows, tf.ExampleID = filepath.Base(in), len(rows), ex.About()
	if in != "-" {
		tf.Gold = tf.Path(in)
	}
	fewshot, err := c.fewshotRows(t, ex, in, dir, scored, &tf, stdin)
	if err != nil {
		return res, err
	}
	res.Rows = len(rows)
	res.Tasks, err = WriteFiles(c.Out, stdout, rows, fewshot, ex.Tasks(tf.Tag), tf)
	return res, err
}

// fewshotRows renders the few-shot source's records (fewshotSource)
// into prompt rows as the prompted ones, leaving out the worked examples
// and the records with a scored one's problem, and names their split in
// tf; without a source, the worked examples' own rows are the train
// split. Without either it is an error: lm-eval would draw
// demonstrations from the scored records.
func (c Config) fewshotRows(t Task, ex Examples, in, dir string, scored map[string]bool, tf *TaskFile, stdin io.Reader) ([]any, error) {
	file, split, err := fewshotSource(in, dir, c.Fewshot)
	if err != nil {
		return nil, &inputerr.Error{Err: err}
	}
	if file == "" {
		rows, source := ex.Rows()
		if len(rows) == 0 {
			return nil, &inputerr.Error{Err: fmt.Errorf("%w beside %s (no validation or train split) and no worked examples", ErrNoFewshot, in)}
		}
		tf.FewshotSplit, tf.FewshotSource = FewshotTrain, source
		return rows, nil
	}
	var rows []any
	err = t.Read(file, stdin, func(r Record, where string) error {
		if ex.Shown(r) || scored[r.Problem()] {
			return nil
		}
		row, err := ex.Row(r)
		if err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		rows = append(rows, row)
		return nil
	})
	if err != nil {
		return nil, &inputerr.Error{Err: fmt.Errorf("few-shot records: %w", err)}
	}
	tf.FewshotSplit, tf.FewshotSource = split, tf.Path(file)
	return rows, nil
}

// files resolves the records file (dir is the dataset directory it
// belongs to, "" for a file given as one) and the worked examples' file.
func (c Config) files(t Task) (in, dir, examples string, err error) {
	in, examples = c.In, c.Examples
	if isDir(in) {
		dir = in
		if in, err = eval.SplitFile(dir, c.Split); err != nil {
			return "", "", "", err
		}
		if examples == "" && t.TrainExamples() {
			examples = dir
		}
	}
	if isDir(examples) {
		if examples, err = eval.SplitFile(examples, FewshotTrain); err != nil {
			return "", "", "", fmt.Errorf("worked examples: %w", err)
		}
	}
	if examples != "" && examples != "-" && sameFile(in, examples) {
		return "", "", "", fmt.Errorf("the worked examples would come from the prompted records %s: take them from the train split", in)
	}
	return in, dir, examples, nil
}

// userErr makes err the user's (an *inputerr.Error) unless it is already.
func userErr(err error) error {
	if ie := (*inputerr.Error)(nil); errors.As(err, &ie) {
		return err
	}
	return &inputerr.Error{Err: err}
}

func isDir(name string) bool {
	fi, err := os.Stat(name)
	return name != "" && name != "-" && err == nil && fi.IsDir()
}

func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}
