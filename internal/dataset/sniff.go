package dataset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/parquet-go/parquet-go"
)

// Sniffed is what a file of records, or a dataset directory, says of its
// records before it is read: the record_schema its dataset's manifest
// names ("" without a manifest), and the fields of its first record.
type Sniffed struct {
	Schema string
	Fields map[string]bool
}

// Sniff reads what path says of its records: path is a records file in
// any format (its dataset's manifest, if it lies in DIR/data, is read
// too) or a dataset directory (its manifest and the first of its data
// files).
func Sniff(path string) (Sniffed, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Sniffed{}, err
	}
	var s Sniffed
	manifest, file := "", path
	if fi.IsDir() {
		manifest = filepath.Join(path, "manifest.json")
		if file, err = firstDataFile(path); err != nil {
			return s, err
		}
	} else if dir := filepath.Dir(path); filepath.Base(dir) == "data" {
		manifest = filepath.Join(filepath.Dir(dir), "manifest.json")
	}
	if b, err := os.ReadFile(manifest); manifest != "" && err == nil {
		var m struct {
			RecordSchema string `json:"record_schema"`
		}
		if json.Unmarshal(b, &m) == nil {
			s.Schema = m.RecordSchema
		}
	}
	if file == "" {
		return s, nil
	}
	if fm, _ := FormatOf(file); fm == Parquet {
		s.Fields, err = parquetColumns(file)
		return s, err
	}
	f, err := OpenFile(file)
	if err != nil {
		return s, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	for sc.Scan() {
		if b := bytes.TrimSpace(sc.Bytes()); len(b) > 0 {
			s.Fields = LineFields(b) // nil for no record: the reader will say so
			break
		}
	}
	return s, sc.Err()
}

// LineFields returns the fields of a record's JSON line, nil if the line
// is not a JSON object.
func LineFields(line []byte) map[string]bool {
	var keys map[string]json.RawMessage
	if json.Unmarshal(line, &keys) != nil || keys == nil {
		return nil
	}
	out := make(map[string]bool, len(keys))
	for k := range keys {
		out[k] = true
	}
	return out
}

// firstDataFile is the first records file, by name, of a dataset
// directory (in its data folder if it has one); "" if it has none.
func firstDataFile(dir string) (string, error) {
	if fi, err := os.Stat(filepath.Join(dir, "data")); err == nil && fi.IsDir() {
		dir = filepath.Join(dir, "data")
	}
	all, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		return "", err
	}
	slices.Sort(all)
	for _, f := range all {
		if _, ok := FormatOf(f); ok {
			return f, nil
		}
	}
	return "", nil
}

// parquetColumns returns the top-level columns of a Parquet file.
func parquetColumns(name string) (map[string]bool, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	out := map[string]bool{}
	for _, c := range pf.Schema().Fields() {
		out[c.Name()] = true
	}
	return out, nil
}
