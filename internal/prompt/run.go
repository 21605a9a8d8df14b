package prompt

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/inputerr"
)

// Config is a prompt run over sat/unsat records: the records In (a file,
// or "-" for stdin), the worked example (the first record of Example;
// "" for Figure1), the chain-of-thought targets, and the output file
// Out with its tasks.
type Config struct {
	In, Example, Out string
	// Fewshot names the records of lm-eval's few-shot demonstrations
	// (a file or a dataset directory); "" for the validation or train
	// split beside In (see fewshotSource), or else the worked example.
	Fewshot  string
	CoT      bool
	TaskFile TaskFile
}

var errStop = errors.New("stop")

// Run renders the records of c.In into prompt rows and writes them with
// their task files (WriteFiles); it returns the rows written and the
// task files' names. Errors about the inputs are *inputerr.Errors
// naming the file and line.
func Run(c Config, stdin io.Reader, stdout io.Writer) (int, []string, error) {
	ex := Figure1
	if c.Example != "" {
		var err error
		if ex, err = readExample(c.Example, stdin); err != nil {
			return 0, nil, err
		}
	}
	var rows []Row
	scored := map[string]bool{}
	err := dataset.EachRecord(c.In, stdin, func(r *dataset.Record, where string) error {
		if SameInstance(ex, r) {
			return inputerr.Errorf("%s: record %s is the worked example %s; give another with --example", where, r.ID, ex.ID)
		}
		row, err := NewRow(r, ex)
		if c.CoT && err == nil {
			cot, e := CoT(r)
			row.TargetCoT, err = &cot, e
		}
		if err != nil {
			return &inputerr.Error{Err: fmt.Errorf("%s: %w", where, err)}
		}
		rows = append(rows, row)
		scored[instanceKey(r.Sentences)] = true
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	tf := c.TaskFile
	tf.Source, tf.Rows, tf.ExampleID, tf.CoT = filepath.Base(c.In), len(rows), ex.ID, c.CoT
	if c.In != "-" {
		tf.Gold = tf.Path(c.In)
	}
	fewshot, err := c.fewshotRows(ex, scored, &tf, stdin)
	if err != nil {
		return 0, nil, err
	}
	files, err := WriteFiles(c.Out, stdout, rows, fewshot, tf)
	return len(rows), files, err
}

// fewshotRows renders the few-shot source's records (fewshotSource)
// into prompt rows as the prompted ones, leaving out the worked example
// and any record with the sentences of a scored one (by instanceKey),
// and names their split in tf; without a source, the worked example
// alone is the train split.
func (c Config) fewshotRows(ex Example, scored map[string]bool, tf *TaskFile, stdin io.Reader) ([]Row, error) {
	file, split, err := fewshotSource(c.In, "", c.Fewshot)
	if err != nil {
		return nil, &inputerr.Error{Err: err}
	}
	var rows []Row
	if file == "" {
		r := &dataset.Record{ID: ex.ID, Sentences: ex.Sentences, Label: ex.Label}
		row, err := NewRow(r, ex)
		if err != nil {
			return nil, err
		}
		if c.CoT {
			row.TargetCoT = new(string) // no proof comes with the example
		}
		tf.FewshotSplit, tf.FewshotSource = FewshotTrain, "the worked example "+ex.ID+" alone"
		return append(rows, row), nil
	}
	err = dataset.EachRecord(file, stdin, func(r *dataset.Record, where string) error {
		if SameInstance(ex, r) || scored[instanceKey(r.Sentences)] {
			return nil
		}
		row, err := NewRow(r, ex)
		if err != nil {
			return &inputerr.Error{Err: fmt.Errorf("few-shot records: %s: %w", where, err)}
		}
		if c.CoT {
			cot, err := CoT(r)
			if err != nil {
				return &inputerr.Error{Err: fmt.Errorf("few-shot records: %s: %w", where, err)}
			}
			row.TargetCoT = &cot
		}
		rows = append(rows, row)
		return nil
	})
	if err != nil {
		return nil, err
	}
	tf.FewshotSplit, tf.FewshotSource = split, tf.Path(file)
	return rows, nil
}

// readExample takes the first record of a file as the worked example.
func readExample(name string, stdin io.Reader) (Example, error) {
	var ex Example
	err := dataset.EachRecord(name, stdin, func(r *dataset.Record, where string) error {
		var err error
		if ex, err = ExampleFrom(r); err != nil {
			return &inputerr.Error{Err: fmt.Errorf("%s: %w", where, err)}
		}
		return errStop
	})
	if errors.Is(err, errStop) {
		err = nil
	}
	return ex, err
}

// instanceKey identifies an instance by its set of sentences.
func instanceKey(sentences []string) string { return strings.Join(sortedSet(sentences), "\n") }
