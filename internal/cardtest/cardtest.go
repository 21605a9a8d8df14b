// Package cardtest checks, for tests, that data files match the
// features a dataset card declares, as HuggingFace datasets and an
// independent Parquet reader read them, and reads built trees.
package cardtest

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
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
	// List is a list feature (datasets' List, written "list:") of the
	// struct of these fields; ListOf one of a scalar dtype.
	List   []Feature `yaml:"-"`
	ListOf string    `yaml:"-"`
}

// UnmarshalYAML reads a feature; "list:" holds either a dtype (a list of
// a scalar) or the fields of a struct (a list of structs).
func (f *Feature) UnmarshalYAML(n *yaml.Node) error {
	type plain Feature
	var raw struct {
		plain `yaml:",inline"`
		List  yaml.Node `yaml:"list"`
	}
	if err := n.Decode(&raw); err != nil {
		return err
	}
	*f = Feature(raw.plain)
	switch raw.List.Kind {
	case 0:
	case yaml.ScalarNode:
		f.ListOf = raw.List.Value
	case yaml.SequenceNode:
		if err := raw.List.Decode(&f.List); err != nil {
			return err
		}
		if f.List == nil {
			f.List = []Feature{}
		}
	default:
		return fmt.Errorf("line %d: feature %s: list: is neither a dtype nor a list of fields", raw.List.Line, f.Name)
	}
	return nil
}

// ArrowType is the Arrow type datasets gives a feature: a ClassLabel is
// stored as int64, a Sequence or a list of a scalar as a list, a struct
// as a struct, a list of a struct as a list of structs.
func (f Feature) ArrowType() string {
	switch {
	case f.Sequence != "":
		return "list<" + f.Sequence + ">"
	case f.ListOf != "":
		return "list<" + f.ListOf + ">"
	case f.List != nil:
		return "list<" + structType(f.List) + ">"
	case f.Struct != nil:
		return structType(f.Struct)
	}
	if s, ok := f.Dtype.(string); ok {
		return s
	}
	return "int64" // class_label
}

// structType is the Arrow type of a struct of fields.
func structType(fields []Feature) string {
	var parts []string
	for _, s := range fields {
		parts = append(parts, s.Name+":"+s.ArrowType())
	}
	return "struct<" + strings.Join(parts, ",") + ">"
}

// ParquetMatches checks that the Parquet file's columns are the
// card's features, in order, with the Arrow types the features declare.
func ParquetMatches(t testing.TB, name, features string) {
	t.Helper()
	fs := Features(t, features)
	pf := openParquet(t, name)
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

// openParquet opens the Parquet file name for the rest of the test.
func openParquet(t testing.TB, name string) *parquet.File {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	pf, err := parquet.OpenFile(f, info.Size())
	if err != nil {
		t.Fatal(err)
	}
	return pf
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

// HFMetadataMatches checks that a Parquet file describes itself as the
// card does: its key/value metadata holds, under "huggingface", the
// features HuggingFace datasets reads when it loads the file without the
// card, and they are the card's, in order (ClassLabels with the card's
// class names, Values, lists, structs). It returns them as JSON.
func HFMetadataMatches(t testing.TB, name, features string) []byte {
	t.Helper()
	pf := openParquet(t, name)
	v, ok := pf.Lookup("huggingface")
	if !ok {
		t.Fatalf("%s: no huggingface key/value metadata", name)
	}
	CheckHFMetadata(t, name, []byte(v), features)
	return []byte(v)
}

// CheckHFMetadata checks the value of a Parquet file's huggingface
// metadata against the card's features (see HFMetadataMatches).
func CheckHFMetadata(t testing.TB, name string, meta []byte, features string) {
	t.Helper()
	var got struct {
		Info struct {
			Features json.RawMessage `json:"features"`
		} `json:"info"`
	}
	if err := json.Unmarshal(meta, &got); err != nil {
		t.Fatalf("%s: huggingface metadata: %v", name, err)
	}
	fs := Features(t, features)
	want := map[string]any{}
	var names []string
	for _, f := range fs {
		want[f.Name] = f.hfFeature()
		names = append(names, f.Name)
	}
	if order := ObjectKeys(t, got.Info.Features); !reflect.DeepEqual(order, names) {
		t.Errorf("%s: the huggingface metadata's features are %v, the card's %v", name, order, names)
	}
	var gotFeatures map[string]any
	if err := json.Unmarshal(got.Info.Features, &gotFeatures); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if !reflect.DeepEqual(gotFeatures[n], want[n]) {
			t.Errorf("%s: the huggingface metadata declares %s as %v, the card as %v", name, n, gotFeatures[n], want[n])
		}
	}
}

// HyparquetHFMetadata returns the value of the huggingface key/value
// metadata in the schema line SameRowsHyparquet returns, as hyparquet
// read it.
func HyparquetHFMetadata(t testing.TB, header []byte) []byte {
	t.Helper()
	var h struct {
		KV []struct{ Key, Value string } `json:"key_value_metadata"`
	}
	if err := json.Unmarshal(header, &h); err != nil {
		t.Fatal(err)
	}
	for _, kv := range h.KV {
		if kv.Key == "huggingface" {
			return []byte(kv.Value)
		}
	}
	t.Fatalf("hyparquet reads no huggingface key/value metadata: %s", header)
	return nil
}

// ObjectKeys returns the top-level keys of a JSON object in order.
func ObjectKeys(t testing.TB, obj []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// hfFeature is the feature as datasets serialises it,
// decoded from JSON: a Value or a ClassLabel as an object with its
// "_type", a struct as an object of its fields, a list as a one-element
// array of its element's feature.
func (f Feature) hfFeature() any {
	value := func(dtype string) any { return map[string]any{"dtype": dtype, "_type": "Value"} }
	switch {
	case f.Sequence != "":
		return []any{value(f.Sequence)}
	case f.ListOf != "":
		return []any{value(f.ListOf)}
	case f.List != nil:
		return []any{structFeature(f.List)}
	case f.Struct != nil:
		return structFeature(f.Struct)
	}
	if s, ok := f.Dtype.(string); ok {
		return value(s)
	}
	// class_label: names: {'0': a, '1': b, ...}
	cl, _ := f.Dtype.(map[string]any)["class_label"].(map[string]any)
	byID, _ := cl["names"].(map[string]any)
	names := make([]any, len(byID))
	for id, n := range byID {
		var i int
		fmt.Sscan(id, &i)
		if i >= 0 && i < len(names) {
			names[i] = n
		}
	}
	return map[string]any{"names": names, "_type": "ClassLabel"}
}

func structFeature(fields []Feature) map[string]any {
	out := map[string]any{}
	for _, g := range fields {
		out[g.Name] = g.hfFeature()
	}
	return out
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

// CheckInfo fails t with every problem InfoProblems finds in a card.
func CheckInfo(t testing.TB, card []byte) {
	t.Helper()
	for _, p := range InfoProblems(card) {
		t.Error(p)
	}
}

// InfoProblems checks the dataset_info of a card's YAML front matter:
// every configuration's features use "list:" for lists, never
// "sequence:" (a card mixing the two reads differently in different
// datasets versions), and no split has num_bytes nor a configuration
// dataset_size, which datasets takes for the size of the data in
// Arrow's memory layout, not of the files.
func InfoProblems(card []byte) []string {
	rest, ok := bytes.CutPrefix(card, []byte("---\n"))
	front, _, found := bytes.Cut(rest, []byte("\n---\n"))
	if !ok || !found {
		return []string{"the card has no YAML front matter"}
	}
	var fm struct {
		Info []struct {
			Name     string           `yaml:"config_name"`
			Features []Feature        `yaml:"features"`
			Splits   []map[string]any `yaml:"splits"`
			Rest     map[string]any   `yaml:",inline"`
		} `yaml:"dataset_info"`
	}
	if err := yaml.Unmarshal(front, &fm); err != nil {
		return []string{err.Error()}
	}
	if len(fm.Info) == 0 {
		return []string{"the card has no dataset_info"}
	}
	var out []string
	for _, c := range fm.Info {
		if len(c.Features) == 0 {
			out = append(out, fmt.Sprintf("configuration %s declares no features", c.Name))
		}
		for _, f := range c.Features {
			if name := sequenceIn(f); name != "" {
				out = append(out, fmt.Sprintf("configuration %s: feature %s is written sequence:, not list:", c.Name, name))
			}
		}
		for _, s := range c.Splits {
			if _, ok := s["num_bytes"]; ok {
				out = append(out, fmt.Sprintf("configuration %s: split %v has num_bytes", c.Name, s["name"]))
			}
			if _, ok := s["num_examples"]; !ok {
				out = append(out, fmt.Sprintf("configuration %s: split %v has no num_examples", c.Name, s["name"]))
			}
		}
		if _, ok := c.Rest["dataset_size"]; ok {
			out = append(out, fmt.Sprintf("configuration %s has dataset_size", c.Name))
		}
	}
	return out
}

// sequenceIn returns the name of the first feature within f (f
// included) written "sequence:", or "".
func sequenceIn(f Feature) string {
	if f.Sequence != "" {
		return f.Name
	}
	for _, g := range append(f.Struct, f.List...) {
		if name := sequenceIn(g); name != "" {
			return f.Name + "." + name
		}
	}
	return ""
}

// hyparquetScript is, from a package directory of internal, the script that prints a Parquet file as hyparquet
// (pure JavaScript, independent of the Go writer) reads it; .ci/run
// installs hyparquet beside it.
const hyparquetScript = "../../scripts/hyparquet/read.mjs"

// readWithHyparquet returns the schema line and the rows of a Parquet
// file as hyparquet reads them. Without node or hyparquet the test is
// skipped, except in CI (CI set), where they must be there.
func readWithHyparquet(t testing.TB, name string) (header []byte, rows [][]byte) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(filepath.Dir(hyparquetScript), "node_modules", "hyparquet", "package.json"))
	}
	if err != nil {
		msg := "the independent Parquet reader needs node and hyparquet (npm ci --prefix scripts/hyparquet): " + err.Error()
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	out, err := exec.Command(node, hyparquetScript, name).Output()
	if err != nil {
		t.Fatalf("hyparquet on %s: %v", name, err)
	}
	lines := bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n"))
	return lines[0], lines[1:]
}

// jsonValue decodes a JSON text, each number as its exact value in
// lowest terms (so that 0 and 0.0, which JavaScript writes alike, are
// equal, and no integer loses digits).
func jsonValue(t testing.TB, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%v: %.200s", err, b)
	}
	return exactNumbers(t, v)
}

// exactNumbers replaces the json.Numbers in v by their exact values as
// big.Rat strings.
func exactNumbers(t testing.TB, v any) any {
	switch v := v.(type) {
	case json.Number:
		r, ok := new(big.Rat).SetString(string(v))
		if !ok {
			t.Fatalf("not a number: %s", v)
		}
		return r.RatString()
	case []any:
		for i := range v {
			v[i] = exactNumbers(t, v[i])
		}
	case map[string]any:
		for k := range v {
			v[k] = exactNumbers(t, v[k])
		}
	}
	return v
}

// SameRowsHyparquet reads a Parquet file with hyparquet (an independent
// reader in pure JavaScript; scripts/hyparquet) and compares every row
// with the record of its JSONL twin, as JSON values; it returns the
// schema line hyparquet printed. Without node or hyparquet the test is
// skipped, except in CI (CI set), where they must be there. It must be
// called from a package directory of internal.
func SameRowsHyparquet(t testing.TB, parquetFile, jsonlTwin string) []byte {
	t.Helper()
	header, rows := readWithHyparquet(t, parquetFile)
	twin, err := os.Open(jsonlTwin)
	if err != nil {
		t.Fatal(err)
	}
	defer twin.Close()
	sc := bufio.NewScanner(twin)
	sc.Buffer(nil, 1<<26)
	n := 0
	for ; sc.Scan(); n++ {
		if n >= len(rows) {
			t.Fatalf("%s: hyparquet reads %d rows, the JSONL twin has more", parquetFile, len(rows))
		}
		if got, want := jsonValue(t, rows[n]), jsonValue(t, sc.Bytes()); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: row %d reads as\n%s\nwant\n%s", parquetFile, n+1, rows[n], sc.Bytes())
		}
	}
	if n != len(rows) {
		t.Errorf("%s: hyparquet reads %d rows, the JSONL twin has %d", parquetFile, len(rows), n)
	}
	return header
}

// ReadTree returns every file under dir by its slash path.
func ReadTree(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// EditGzip rewrites the gzip file name (a shard's stream file) with its
// text passed through edit, as someone tampering with it would.
func EditGzip(t testing.TB, name string, edit func(string) string) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	z, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	text, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	w := gzip.NewWriter(&out)
	w.Write([]byte(edit(string(text))))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
