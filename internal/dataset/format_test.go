package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/nlsat/nlsat/internal/inputerr"
)

// randomRecords returns n records with every field set from rng, lists
// of every length from empty up.
func randomRecords(rng *rand.Rand, n int) []*Record {
	words := []string{"artist", "baker", "<cook>", "düsseldorfer", "a \"quoted\" word", "x&y"}
	pick := func(k int) []string {
		out := make([]string, k)
		for i := range out {
			out[i] = words[rng.IntN(len(words))]
		}
		return out
	}
	ints := func(k int) []int {
		out := make([]int, k)
		for i := range out {
			out[i] = rng.IntN(30)
		}
		return out
	}
	var out []*Record
	for i := range n {
		m := 1 + rng.IntN(20)
		r := &Record{ID: fmt.Sprintf("A-train-%06d", i), Fragment: "SWVZA"[rng.IntN(5):][:1], Label: rng.IntN(3) - 1,
			Sentences: pick(m), N1: 1 + rng.IntN(9), N2: rng.IntN(9), Nouns: pick(rng.IntN(6)), Verbs: pick(rng.IntN(6)),
			Templates: pick(m), Formulas: pick(m), Solver: "nlsat-native-1", Seed: SeedString(rng.Uint64(), i),
			Certificate: Certificate{ModelSize: rng.IntN(9), MUS: ints(rng.IntN(4))},
			Difficulty:  Difficulty{SearchNodes: rng.IntN(1 << 40), UnsatPair: ints(rng.IntN(3))},
			Distractors: ints(rng.IntN(3)), DistractorMode: []string{"", "fresh", "implied"}[rng.IntN(3)]}
		r.Text = strings.Join(r.Sentences, " ")
		out = append(out, r)
	}
	return out
}

// encodeAll returns the JSONL lines of recs, with only their text and
// label if minimal.
func encodeAll(t testing.TB, recs []*Record, minimal bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	for _, r := range recs {
		var err error
		if minimal {
			err = enc.EncodeValue(&MinimalRecord{Text: r.Text, Label: r.Label})
		} else {
			err = enc.Encode(r)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// writeAll writes the JSONL lines in output o, in Write calls of chunk
// bytes.
func writeAll(t testing.TB, lines []byte, o Output, chunk int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, o)
	if err != nil {
		t.Fatal(err)
	}
	for p := lines; len(p) > 0; p = p[min(chunk, len(p)):] {
		if _, err := w.Write(p[:min(chunk, len(p))]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestFormatsRoundTrip is a property: records written in any format and
// layout read back as the JSONL lines of the same records, and the bytes
// written do not depend on how the lines were cut into writes.
func TestFormatsRoundTrip(t *testing.T) {
	for seed := range uint64(5) {
		rng := rand.New(rand.NewPCG(seed, 17))
		recs := randomRecords(rng, 1+rng.IntN(2500))
		for _, f := range Formats() {
			for _, minimal := range []bool{false, true} {
				o := Output{Format: Format(f), Minimal: minimal}
				name := fmt.Sprintf("seed %d %s", seed, o)
				full := encodeAll(t, recs, false)
				data := writeAll(t, full, o, 1<<20)
				if again := writeAll(t, full, o, 1+rng.IntN(5000)); !bytes.Equal(data, again) {
					t.Errorf("%s: other write sizes give other bytes", name)
				}
				r, err := NewReader(bytes.NewReader(data), name)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got, err := io.ReadAll(r)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if want := encodeAll(t, recs, minimal); !bytes.Equal(got, want) {
					t.Errorf("%s: read back %d bytes, want the %d bytes of the JSONL twin", name, len(got), len(want))
				}
			}
		}
	}
}

// TestParquetSchema checks the column types of the Parquet layout against
// what the dataset card declares: ClassLabel and integers as INT64 (the
// label optional, for the HuggingFace metadata: see parquetRowType),
// floats as DOUBLE, sequences as LIST, certificate and difficulty as
// groups.
func TestParquetSchema(t *testing.T) {
	data := writeAll(t, encodeAll(t, randomRecords(rand.New(rand.NewPCG(1, 2)), 3), false), Output{Format: Parquet}, 1<<20)
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, fl := range f.Schema().Fields() {
		got[fl.Name()] = nodeKind(fl)
	}
	want := map[string]string{"id": "string", "fragment": "string", "text": "string", "sentences": "list<string>",
		"label": "optional int64", "label_text": "string", "m": "int64", "n1": "int64", "n2": "int64", "alpha": "double", "beta": "double",
		"nouns": "list<string>", "verbs": "list<string>", "templates": "list<string>", "formulas": "list<string>",
		"solver": "string", "certificate": "struct<model_size:int64,mus:list<int64>>", "seed": "string",
		"difficulty":  "struct<mus_size:int64,model_size:int64,search_nodes:int64,unsat_pair:list<int64>>",
		"distractors": "list<int64>", "distractor_mode": "string"}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("column %s: got %s, want %s", k, got[k], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("got %d columns, want %d", len(got), len(want))
	}
}

// nodeKind describes a Parquet node as an Arrow type would read it.
func nodeKind(n parquet.Node) string {
	if !n.Required() {
		return "optional " + nodeKind(parquet.Required(n))
	}
	if lt := n.Type().LogicalType(); lt != nil && isType[*format.ListType](lt) {
		return "list<" + nodeKind(n.Fields()[0].Fields()[0]) + ">"
	}
	if !n.Leaf() {
		var parts []string
		for _, f := range n.Fields() {
			parts = append(parts, f.Name()+":"+nodeKind(f))
		}
		return "struct<" + strings.Join(parts, ",") + ">"
	}
	switch n.Type().Kind() {
	case parquet.ByteArray:
		if lt := n.Type().LogicalType(); lt != nil && isType[*format.StringType](lt) {
			return "string"
		}
		return "binary"
	case parquet.Int64:
		return "int64"
	case parquet.Double:
		return "double"
	}
	return n.Type().String()
}

// TestReadBadFiles: a corrupt or foreign file is an inputerr.Error naming it.
func TestReadBadFiles(t *testing.T) {
	recs := encodeAll(t, randomRecords(rand.New(rand.NewPCG(3, 4)), 50), false)
	pq := writeAll(t, recs, Output{Format: Parquet}, 1<<20)
	zst := writeAll(t, recs, Output{Format: JSONLZstd}, 1<<20)
	gz := writeAll(t, recs, Output{Format: JSONLGzip}, 1<<20)
	cut := func(b []byte, n int) []byte { return b[:len(b)-n] }
	garbled := bytes.Clone(pq)
	for i := 4; i < len(garbled)/2; i++ {
		garbled[i] ^= 0x5a
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"truncated.parquet", cut(pq, 100)},
		{"garbled.parquet", garbled},
		{"only-magic.parquet", []byte("PAR1")},
		{"truncated.jsonl.zst", cut(zst, 200)},
		{"truncated.jsonl.gz", cut(gz, 200)},
		{"header.jsonl.gz", gz[:5]},
	} {
		name := filepath.Join(t.TempDir(), tc.name)
		if err := os.WriteFile(name, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		err := EachRecord(name, nil, func(*Record, string) error { return nil })
		var ie *inputerr.Error
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), name) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want a one-line inputerr.Error naming the file", tc.name, err)
		}
	}
}

func TestResolveOutput(t *testing.T) {
	for _, tc := range []struct {
		given Output
		name  string
		want  Output
		bad   bool
	}{
		{Output{}, "a.jsonl", Output{Format: JSONL}, false},
		{Output{}, "-", Output{Format: JSONL}, false},
		{Output{Minimal: true}, "a.parquet", Output{Format: Parquet, Minimal: true}, false},
		{Output{Format: JSONLZstd}, "-", Output{Format: JSONLZstd}, false},
		{Output{Format: JSONLGzip}, "out/a.jsonl.gz", Output{Format: JSONLGzip}, false},
		{Output{Format: Parquet}, "a.jsonl", Output{}, true},
		{Output{Format: "csv"}, "-", Output{}, true},
	} {
		got, err := tc.given.For(tc.name)
		if tc.bad {
			if err == nil {
				t.Errorf("%+v: got %v, want an error", tc, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%+v: got %v, %v, want %v", tc, got, err, tc.want)
		}
	}
	if got := WithFormat("data/train.jsonl", Parquet); got != "data/train.parquet" {
		t.Errorf("WithFormat: got %s", got)
	}
}

func isType[T format.LogicalTypeValue](lt *format.LogicalType) bool {
	_, ok := lt.Value.(T)
	return ok
}
