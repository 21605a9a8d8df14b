package prompt

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/inputerr"
)

// Config is a prompt run over sat/unsat records: the records In (a file,
// or "-" for stdin), the worked example (the first record of Example;
// "" for Figure1), the chain-of-thought targets, and the output file
// Out with its tasks.
type Config struct {
	In, Example, Out string
	CoT              bool
	TaskFile         TaskFile
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
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	tf := c.TaskFile
	tf.Source, tf.Rows, tf.ExampleID, tf.CoT = filepath.Base(c.In), len(rows), ex.ID, c.CoT
	files, err := WriteFiles(c.Out, stdout, rows, tf)
	return len(rows), files, err
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
