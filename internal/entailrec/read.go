package entailrec

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/parquet-go/parquet-go"

	"github.com/nlsat/nlsat/internal/dataset"
)

// Each reads entailment records from a file of any format package
// dataset writes, or stdin for "-" (JSONL, gzip or zstd), and calls fn on
// each with "file:line". Every record must pass Record.Validate and hold
// no field the schema lacks; a file without records is an error.
func Each(name string, stdin io.Reader, fn func(r *Record, where string) error) error {
	display, r, closer, err := open(name, stdin)
	if err != nil {
		return err
	}
	defer closer()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	line, n := 0, 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		where := fmt.Sprintf("%s:%d", display, line)
		var rec Record
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rec); err != nil {
			return fmt.Errorf("%s: not an entailment record: %w", where, err)
		}
		if err := rec.Validate(); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		n++
		if err := fn(&rec, where); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", display, line+1, err)
	}
	if n == 0 {
		return fmt.Errorf("%s: no records", display)
	}
	return nil
}

// open opens a file of entailment records as JSONL lines.
func open(name string, stdin io.Reader) (string, io.Reader, func(), error) {
	if name == "-" {
		r, err := dataset.NewReader(stdin, "stdin")
		if err != nil {
			return "", nil, nil, err
		}
		return "stdin", r, func() { r.Close() }, nil
	}
	if f, _ := dataset.FormatOf(name); f != dataset.Parquet {
		r, err := dataset.OpenFile(name)
		if err != nil {
			return "", nil, nil, fmt.Errorf("cannot read records: %w", err)
		}
		return name, r, func() { r.Close() }, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return "", nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", nil, nil, err
	}
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		return "", nil, nil, fmt.Errorf("%s: not a Parquet file: %w", name, err)
	}
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	rd := parquet.NewGenericReader[Record](pf)
	rows := make([]Record, 64)
	for {
		n, err := rd.Read(rows)
		for i := range rows[:n] {
			if e := enc.Encode(&rows[i]); e != nil {
				return "", nil, nil, fmt.Errorf("%s: %w", name, e)
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", nil, nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return name, &buf, func() {}, nil
}
