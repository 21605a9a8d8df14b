package dataset

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// pairLike is a row type that embeds Record, as the pairs' records do.
type pairLike struct {
	Record
	PairID string `json:"pair_id" parquet:"pair_id"`
}

// ownLabels is a row type with label columns of its own, as the
// entailment records have.
type ownLabels struct {
	Text   string `json:"text" parquet:"text"`
	Label  int    `json:"label" parquet:"label"`
	Binary int    `json:"label_binary" parquet:"label_binary"`
}

func (ownLabels) ClassLabels() ClassLabels {
	return ClassLabels{"label": {"a", "b", "c"}, "label_binary": {"yes", "no"}}
}

// hfFeatures reads the features of a Parquet file's HuggingFace metadata,
// as datasets does: the key "huggingface", a JSON object
// {"info": {"features": {...}}}; and the names of its features in order.
func hfFeatures(t *testing.T, data []byte) (features map[string]any, order []string, root string) {
	t.Helper()
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	v, ok := f.Lookup(HFMetadataKey)
	if !ok {
		t.Fatal("the file has no huggingface key/value metadata")
	}
	var meta struct {
		Info struct {
			Features json.RawMessage `json:"features"`
		} `json:"info"`
	}
	if err := json.Unmarshal([]byte(v), &meta); err != nil {
		t.Fatalf("the huggingface metadata is not JSON: %v\n%s", err, v)
	}
	if err := json.Unmarshal(meta.Info.Features, &features); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(meta.Info.Features))
	dec.Token()
	for dec.More() {
		k, _ := dec.Token()
		order = append(order, k.(string))
		var skip json.RawMessage
		dec.Decode(&skip)
	}
	var cols []string
	for _, c := range f.Schema().Fields() {
		cols = append(cols, c.Name())
		// The label columns are optional, so that their Arrow fields are
		// nullable as the features' are; every other column is required.
		feature, _ := features[c.Name()].(map[string]any)
		if _, isLabel := feature["names"]; isLabel == c.Required() {
			t.Errorf("column %s: required %v, but it is a ClassLabel: %v", c.Name(), c.Required(), isLabel)
		}
	}
	if !slices.Equal(order, cols) {
		t.Errorf("features %v, want one per column in order: %v", order, cols)
	}
	return features, order, f.Schema().Name()
}

// TestParquetHFMetadata writes Parquet files of every row type and
// reads back the HuggingFace schema metadata that datasets loads a
// Parquet file's features from: the label columns are ClassLabels with
// their class names, the other columns Values, lists and structs.
func TestParquetHFMetadata(t *testing.T) {
	recs := randomRecords(rand.New(rand.NewPCG(3, 4)), 5)
	full := encodeAll(t, recs, false)
	value := func(dtype string) any { return map[string]any{"dtype": dtype, "_type": "Value"} }
	classes := func(names ...any) any { return map[string]any{"names": names, "_type": "ClassLabel"} }
	sat := classes("unsat", "sat")
	tests := []struct {
		name  string
		o     Output
		lines []byte
		want  map[string]any // features checked, by name
		n     int            // how many features
		root  string         // the schema's name, the row type's
	}{
		{"record", Output{Format: Parquet}, full, map[string]any{
			"label": sat, "id": value("string"), "m": value("int64"), "alpha": value("float64"), "beta": value("float64"),
			"sentences":   []any{value("string")},
			"certificate": map[string]any{"model_size": value("int64"), "mus": []any{value("int64")}},
		}, 21, "Record"},
		{"minimal", Output{Format: Parquet, Minimal: true}, full, map[string]any{"text": value("string"), "label": sat}, 2, "MinimalRecord"},
		{"proofs", Output{Format: Parquet, Row: ProofRow}, full, map[string]any{
			"label": sat,
			"difficulty": map[string]any{"mus_size": value("int64"), "model_size": value("int64"), "search_nodes": value("int64"),
				"unsat_pair": []any{value("int64")}, "proof_depth": value("int64")},
			"proof": []any{map[string]any{"premises": []any{value("int64")}, "rule": value("string"), "sentence": value("int64"),
				"formula": value("string"), "english": value("string")}},
		}, 22, ""},
		{"embedded record", Output{Format: Parquet, Row: reflect.TypeFor[pairLike]()}, full, map[string]any{
			"label": sat, "pair_id": value("string")}, 22, "pairLike"},
		{"own labels", Output{Format: Parquet, Row: reflect.TypeFor[ownLabels]()},
			[]byte(`{"text":"x","label":2,"label_binary":1}` + "\n" + `{"text":"y","label":0,"label_binary":0}` + "\n"),
			map[string]any{"text": value("string"), "label": classes("a", "b", "c"), "label_binary": classes("yes", "no")}, 3, "ownLabels"},
	}
	for _, tt := range tests {
		data := writeAll(t, tt.lines, tt.o, 1<<20)
		features, order, root := hfFeatures(t, data)
		if len(order) != tt.n {
			t.Errorf("%s: %d features, want %d: %v", tt.name, len(order), tt.n, order)
		}
		if root != tt.root {
			t.Errorf("%s: the schema is named %q, want %q", tt.name, root, tt.root)
		}
		for name, want := range tt.want {
			if got := features[name]; !reflect.DeepEqual(got, want) {
				t.Errorf("%s: feature %s is %v, want %v", tt.name, name, got, want)
			}
		}
	}
}
