package split

import (
	"encoding/json"
	"testing"

	"github.com/nlsat/nlsat/internal/dataset"
)

// FuzzCandidateLine: a candidate as a shard writes it reads back as the
// same candidate, thinned, kept or neither; any other line is read or
// refused without a panic, and one read is written back the same way.
func FuzzCandidateLine(f *testing.F) {
	rec := &dataset.Record{Sentences: []string{"Every artist is a baker."}, Label: dataset.LabelSat}
	for _, c := range []candidate{
		{thinned: true, label: dataset.LabelSat},
		{thinned: true, label: dataset.LabelAbsent},
		{kept: true, rec: rec, exact: [32]byte{1}, renamed: [32]byte{2}, capped: true},
		{reason: "timeout", exact: [32]byte{3}},
	} {
		data, err := json.Marshal(c)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"thinned":false,"label":1}`))
	f.Add([]byte(`{"thinned":true,"label":7}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var c candidate
		if json.Unmarshal(data, &c) != nil {
			return
		}
		if c.thinned && (c.rec != nil || c.kept || c.label < dataset.LabelAbsent || c.label > dataset.LabelSat) {
			t.Fatalf("%s read as a thinned candidate with more: %+v", data, c)
		}
		again, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var back candidate
		if err := json.Unmarshal(again, &back); err != nil {
			t.Fatalf("%s, written back as %s, does not read: %v", data, again, err)
		}
		if back.thinned != c.thinned || back.kept != c.kept || back.label != c.label || back.exact != c.exact ||
			back.renamed != c.renamed || back.capped != c.capped || back.hard != c.hard || back.reason != c.reason || (back.rec == nil) != (c.rec == nil) {
			t.Fatalf("%s: read %+v, written %s, read back %+v", data, c, again, back)
		}
	})
}
