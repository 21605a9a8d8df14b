package split

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/cardtest"
)

// checkIndependentReader reads a Parquet split file with hyparquet and
// compares every row with the record of its JSONL twin, the file's
// schema with the column types the card declares, and its huggingface
// metadata with the card's features.
func checkIndependentReader(t *testing.T, parquetFile, jsonlTwin string) {
	t.Helper()
	header := cardtest.SameRowsHyparquet(t, parquetFile, jsonlTwin)
	cardtest.CheckHFMetadata(t, parquetFile+" (hyparquet)", cardtest.HyparquetHFMetadata(t, header), features)
	var meta struct {
		Schema []struct{ Name, Type, Logical, Repetition string }
	}
	if err := json.Unmarshal(header, &meta); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range meta.Schema[1:] {
		got = append(got, e.Name+" "+e.Type+" "+e.Logical)
		if e.Name == "label" {
			got[len(got)-1] += " " + e.Repetition
		}
	}
	// The card's features as Parquet: ClassLabel (optional, for the
	// huggingface metadata) and int64 as INT64,
	// Sequence as LIST, the certificate as a group.
	for _, want := range []string{"label INT64 INTEGER OPTIONAL", "sentences  LIST", "certificate  ", "model_size INT64 INTEGER", "mus  LIST", "alpha DOUBLE ", "text BYTE_ARRAY STRING"} {
		if !strings.Contains(strings.Join(got, "\n")+"\n", want+"\n") {
			t.Errorf("%s: schema as hyparquet reads it has no %q:\n%s", parquetFile, want, strings.Join(got, "\n"))
		}
	}
}
