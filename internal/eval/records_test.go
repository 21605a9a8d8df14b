package eval

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/entailrec"
)

func TestRecordSchema(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	test, _ := os.ReadFile("testdata/entail/data/test.jsonl")
	sat, _ := os.ReadFile("testdata/lmeval/gold.jsonl")
	tests := []struct{ path, want string }{
		{"testdata/entail", entailrec.Schema},
		{"testdata/entail/data/test.jsonl", entailrec.Schema},
		{"testdata/lmeval/gold.jsonl", dataset.SchemaVersion},
		{"testdata/small", dataset.SchemaVersion},
		// The manifest wins over the records' keys.
		{write("m/data/test.jsonl", string(test)), entailrec.Schema},
		{write("n/data/test.jsonl", string(sat)), dataset.SchemaVersion},
	}
	write("n/manifest.json", `{"record_schema": "nlsat-record/3"}`)
	write("m/manifest.json", `{"schema": "nlsat-manifest/1"}`)
	for _, tt := range tests {
		if got, err := RecordSchema(tt.path); err != nil || got != tt.want {
			t.Errorf("%s: got %q, %v; want %q", tt.path, got, err, tt.want)
		}
	}
	write("p/manifest.json", `{"record_schema": "nlsat-entail/1"}`)
	write("p/data/test.jsonl", string(sat))
	if got, _ := RecordSchema(filepath.Join(dir, "p")); got != entailrec.Schema {
		t.Errorf("a manifest saying entailment: got %q", got)
	}
}
