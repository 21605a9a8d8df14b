package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/nlsat/nlsat/internal/dataset"
)

// eachRecord reads a JSONL file of records (stdin for "-") and calls fn on
// each in order, with "file:line" for messages. Every record must pass
// Record.Validate; a bad or missing file, a line that is not a record and
// an invalid record are usage errors naming the file and line.
func eachRecord(name string, stdin io.Reader, fn func(r *dataset.Record, where string) error) error {
	display, r := "stdin", stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return usageError{fmt.Errorf("cannot read records: %w", err)}
		}
		defer f.Close()
		display, r = name, f
	}
	dec := dataset.NewDecoder(r, display)
	n := 0
	for {
		rec, err := dec.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return usageError{err}
		}
		where := fmt.Sprintf("%s:%d", display, dec.Line())
		if err := rec.Validate(); err != nil {
			return usageError{fmt.Errorf("%s: %w", where, err)}
		}
		if err := fn(rec, where); err != nil {
			return err
		}
		n++
	}
	if n == 0 {
		return usagef("%s: no records", display)
	}
	return nil
}
