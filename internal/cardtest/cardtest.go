// Package cardtest checks, for tests, that data files match the
// features a dataset card declares, as HuggingFace datasets reads them.
package cardtest

import (
	"os"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"gopkg.in/yaml.v3"
)

// Feature is a feature of the card's YAML, as datasets reads it.
type Feature struct {
	Name     string    `yaml:"name"`
	Dtype    any       `yaml:"dtype"`
	Sequence string    `yaml:"sequence"`
	Struct   []Feature `yaml:"struct"`
}

// ArrowType is the Arrow type datasets gives a feature: a ClassLabel is
// stored as int64, a Sequence of a scalar as a list, a struct as a
// struct.
func (f Feature) ArrowType() string {
	switch {
	case f.Sequence != "":
		return "list<" + f.Sequence + ">"
	case f.Struct != nil:
		var parts []string
		for _, s := range f.Struct {
			parts = append(parts, s.Name+":"+s.ArrowType())
		}
		return "struct<" + strings.Join(parts, ",") + ">"
	}
	if s, ok := f.Dtype.(string); ok {
		return s
	}
	return "int64" // class_label
}

// ParquetMatches checks that the Parquet file's columns are the
// card's features, in order, with the Arrow types the features declare.
func ParquetMatches(t testing.TB, name, features string) {
	t.Helper()
	fs := Features(t, features)
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, _ := f.Stat()
	pf, err := parquet.OpenFile(f, info.Size())
	if err != nil {
		t.Fatal(err)
	}
	cols := pf.Schema().Fields()
	if len(cols) != len(fs) {
		t.Fatalf("%s: %d columns, the card declares %d features", name, len(cols), len(fs))
	}
	for i, c := range cols {
		want := fs[i].ArrowType()
		if got := arrowType(c); c.Name() != fs[i].Name || got != want {
			t.Errorf("%s: column %d is %s %s, the card declares %s %s", name, i, c.Name(), got, fs[i].Name, want)
		}
	}
}

// arrowType is the Arrow type a reader gives a Parquet column of ours.
func arrowType(n parquet.Node) string {
	if lt := n.Type().LogicalType(); lt != nil && strings.HasPrefix(lt.String(), "LIST") {
		return "list<" + arrowType(n.Fields()[0].Fields()[0]) + ">"
	}
	if !n.Leaf() {
		var parts []string
		for _, f := range n.Fields() {
			parts = append(parts, f.Name()+":"+arrowType(f))
		}
		return "struct<" + strings.Join(parts, ",") + ">"
	}
	switch n.Type().Kind() {
	case parquet.ByteArray:
		return "string"
	case parquet.Int64:
		return "int64"
	case parquet.Double:
		return "float64"
	}
	return n.Type().String()
}

// Features parses the features of a card's YAML form (the text under
// "features:").
func Features(t testing.TB, features string) []Feature {
	t.Helper()
	var fs struct {
		Features []Feature `yaml:"features"`
	}
	if err := yaml.Unmarshal([]byte(features), &fs); err != nil {
		t.Fatal(err)
	}
	return fs.Features
}
