package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/parquet-go/parquet-go"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/entailrec"
)

// manifestFile is the manifest nlsat split writes beside a dataset's data
// directory; only its record_schema is read here.
const manifestFile = "manifest.json"

// RecordSchema returns the record schema of a records file or dataset
// directory: the record_schema of the dataset's manifest.json when there
// is one (beside path, a directory, or beside the data directory that
// holds path), else that of the first record, which is entailrec.Schema
// when it has the keys "premises" and "hypothesis" and
// dataset.SchemaVersion otherwise. Package prompt tells entailment data
// from sat/unsat data by it.
func RecordSchema(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	manifest := filepath.Join(path, manifestFile)
	if !fi.IsDir() {
		manifest = ""
		if dir := filepath.Dir(path); filepath.Base(dir) == "data" {
			manifest = filepath.Join(filepath.Dir(dir), manifestFile)
		}
	}
	if b, err := os.ReadFile(manifest); manifest != "" && err == nil {
		var m struct {
			RecordSchema string `json:"record_schema"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			return "", fmt.Errorf("%s: %w", manifest, err)
		}
		if m.RecordSchema != "" {
			return m.RecordSchema, nil
		}
	}
	file := path
	if fi.IsDir() {
		files, err := splitFiles(path)
		if err != nil {
			return "", err
		}
		file = files[0]
	}
	if isParquet(file) {
		return parquetSchema(file)
	}
	f, err := dataset.OpenFile(file)
	if err != nil {
		return "", err
	}
	defer f.Close()
	schema := dataset.SchemaVersion
	err = EachLine(f, file, func(b []byte, _ string) error {
		schema = LineSchema(b)
		return errStop
	})
	if errors.Is(err, errStop) {
		err = nil
	}
	return schema, err
}

var errStop = errors.New("stop")

// LineSchema returns the record schema of one JSONL line by its keys:
// entailrec.Schema when it has "premises" and "hypothesis", else
// dataset.SchemaVersion.
func LineSchema(b []byte) string {
	var keys map[string]json.RawMessage
	if json.Unmarshal(b, &keys) == nil && keys["premises"] != nil && keys["hypothesis"] != nil {
		return entailrec.Schema
	}
	return dataset.SchemaVersion
}

func isParquet(name string) bool {
	f, _ := dataset.FormatOf(name)
	return f == dataset.Parquet
}

// parquetSchema tells an entailment Parquet file by its columns.
func parquetSchema(name string) (string, error) {
	pf, closer, err := openParquet(name)
	if err != nil {
		return "", err
	}
	defer closer()
	if _, ok := pf.Schema().Lookup("hypothesis"); ok {
		return entailrec.Schema, nil
	}
	return dataset.SchemaVersion, nil
}

func openParquet(name string) (*parquet.File, func(), error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: not a Parquet file: %w", name, err)
	}
	return pf, func() { f.Close() }, nil
}

// SplitFile returns the file of the named split of a dataset directory
// (DIR/data/NAME.jsonl, or .jsonl.gz, .jsonl.zst, .parquet; or DIR/NAME.*
// without a data directory), or an error listing the splits there are.
func SplitFile(dir, split string) (string, error) {
	files, err := splitFiles(dir)
	if err != nil {
		return "", err
	}
	var names []string
	for _, f := range files {
		name := dataset.TrimExt(filepath.Base(f))
		if name == split {
			return f, nil
		}
		names = append(names, name)
	}
	return "", fmt.Errorf("%s: no split %q (it has %v)", dir, split, names)
}

// EachEntail reads entailment records (schema entailrec.Schema) from
// a file of any format package dataset writes, or stdin for "-" (JSONL,
// gzip or zstd), and calls fn on each with "file:line". Every record must
// pass entailrec.Record.Validate; a file without records is an error.
// (Package dataset reads only sat/unsat records; this reader serves
// packages eval and prompt until package entail has its own.)
func EachEntail(name string, stdin io.Reader, fn func(r *entailrec.Record, where string) error) error {
	display, r, closer, err := openEntail(name, stdin)
	if err != nil {
		return err
	}
	defer closer()
	n := 0
	err = EachLine(r, display, func(b []byte, where string) error {
		var rec entailrec.Record
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rec); err != nil {
			return fmt.Errorf("%s: not an entailment record: %w", where, err)
		}
		if err := rec.Validate(); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		n++
		return fn(&rec, where)
	})
	if err == nil && n == 0 {
		err = fmt.Errorf("%s: no records", display)
	}
	return err
}

// openEntail opens a file of entailment records as JSONL lines.
func openEntail(name string, stdin io.Reader) (string, io.Reader, func(), error) {
	if name == "-" {
		r, err := dataset.NewReader(stdin, "stdin")
		if err != nil {
			return "", nil, nil, err
		}
		return "stdin", r, func() { r.Close() }, nil
	}
	if !isParquet(name) {
		r, err := dataset.OpenFile(name)
		if err != nil {
			return "", nil, nil, fmt.Errorf("cannot read records: %w", err)
		}
		return name, r, func() { r.Close() }, nil
	}
	pf, closer, err := openParquet(name)
	if err != nil {
		return "", nil, nil, err
	}
	defer closer()
	var buf bytes.Buffer
	enc := entailrec.NewEncoder(&buf)
	rd := parquet.NewGenericReader[entailrec.Record](pf)
	rows := make([]entailrec.Record, 64)
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

// InputSchema is RecordSchema of a file, directory or stdin ("-"). Stdin
// is read whole to look at its first record; rest gives back all of it
// (for a file, rest is stdin as it was).
func InputSchema(name string, stdin io.Reader) (schema string, rest io.Reader, err error) {
	if name != "-" {
		schema, err = RecordSchema(name)
		return schema, stdin, err
	}
	data, err := io.ReadAll(stdin)
	if err != nil {
		return "", nil, err
	}
	rest, schema = bytes.NewReader(data), dataset.SchemaVersion
	r, err := dataset.NewReader(bytes.NewReader(data), "stdin")
	if err != nil {
		return schema, rest, err
	}
	defer r.Close()
	err = EachLine(r, "stdin", func(b []byte, _ string) error {
		schema = LineSchema(b)
		return errStop
	})
	if errors.Is(err, errStop) {
		err = nil
	}
	return schema, rest, err
}
