package split

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
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
		{kept: true, rec: rec, exact: [32]byte{4}, hard: true, easy: true},
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
			back.renamed != c.renamed || back.capped != c.capped || back.hard != c.hard || back.easy != c.easy || back.reason != c.reason || (back.rec == nil) != (c.rec == nil) {
			t.Fatalf("%s: read %+v, written %s, read back %+v", data, c, again, back)
		}
	})
}

// TestCandidateLineRoundTrip: every field of a candidate that the merge
// reads comes back from its line as it was written, whatever else is
// set. The merge reads nothing else of a shard's candidate, so a field
// left out of the line would silently change what it decides (as easy,
// under --min-core, once did).
func TestCandidateLineRoundTrip(t *testing.T) {
	rec := func() *dataset.Record {
		return &dataset.Record{Sentences: []string{"Every artist is a baker.", "No baker is an artist."}, Label: dataset.LabelUnsat}
	}
	tests := []struct {
		name string
		c    candidate
	}{
		{"decided", candidate{rec: rec(), exact: [32]byte{1}, renamed: [32]byte{2}}},
		{"kept, every flag", candidate{rec: rec(), exact: [32]byte{1}, renamed: [32]byte{2}, capped: true, hard: true, easy: true, kept: true}},
		{"easy", candidate{rec: rec(), exact: [32]byte{3}, easy: true}},
		{"hard", candidate{rec: rec(), exact: [32]byte{3}, hard: true}},
		{"undecided", candidate{reason: "timeout", exact: [32]byte{5}}},
		{"thinned", candidate{thinned: true, label: dataset.LabelUnsat}},
		{"thinned, counted as none", candidate{thinned: true, label: dataset.LabelAbsent}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := json.Marshal(tt.c)
			if err != nil {
				t.Fatal(err)
			}
			var back candidate
			if err := json.Unmarshal(data, &back); err != nil {
				t.Fatal(err)
			}
			wantRec, _ := json.Marshal(tt.c.rec)
			gotRec, _ := json.Marshal(back.rec)
			want, got := tt.c, back
			want.rec, got.rec = nil, nil
			if !reflect.DeepEqual(got, want) || !bytes.Equal(gotRec, wantRec) {
				t.Errorf("%s\nread back as %+v (record %s)\nwant %+v (record %s)", data, got, gotRec, want, wantRec)
			}
		})
	}
}

// TestPilotLineKeepsSurface: a shard stores a pilot candidate's record
// as surfaceRecord trims it; read back from its line, it has the surface
// and label of the whole record, for every fragment, both labels, with
// and without a contradictory pair.
func TestPilotLineKeepsSurface(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, f := range fragments.All() {
		for i := range 40 {
			n2 := 3
			if f <= fragments.W {
				n2 = 0
			}
			inst, err := fragments.Sample(rng, f, fragments.DefaultParams(), 6+rng.IntN(6), 4, n2)
			if err != nil {
				t.Fatal(err)
			}
			v := solver.Verdict{Status: solver.Sat, Model: &fol.Structure{Size: 2}}
			if i%2 == 0 {
				v = solver.Verdict{Status: solver.Unsat, MUS: []int{0, 1, 2}}
				if i%4 == 0 {
					v.Pair = []int{0, 2}
				}
			}
			r := dataset.NewRecord(inst, v, "nlsat-native-1")
			data, err := json.Marshal(candidate{rec: surfaceRecord(r), kept: true})
			if err != nil {
				t.Fatal(err)
			}
			var back candidate
			if err := json.Unmarshal(data, &back); err != nil {
				t.Fatal(err)
			}
			if back.rec.Label != r.Label || !reflect.DeepEqual(back.surface(f), surfaceOf(f, r)) {
				t.Fatalf("%s record %d: the pilot line %s reads back with another surface or label", f, i, data)
			}
		}
	}
}
