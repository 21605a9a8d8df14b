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
		{kept: true, rec: rec, exact: [32]byte{5}, resample: true},
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
		if c.resample && c.rec == nil {
			t.Fatalf("%s read as a candidate to sample again without a record", data)
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
			back.renamed != c.renamed || back.capped != c.capped || back.hard != c.hard || back.easy != c.easy || back.reason != c.reason || back.resample != c.resample || (back.rec == nil) != (c.rec == nil) {
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
		{"to sample again", candidate{rec: func() *dataset.Record {
			// Without its instance, as the line holds it.
			r := &dataset.Record{Fragment: "V", N1: 4, N2: 2, Label: dataset.LabelSat}
			r.Normalize()
			return r
		}(), exact: [32]byte{6}, kept: true, resample: true}},
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

// TestResampledLine: a shard writes a candidate of the set without its
// instance, and the merge, drawing the instance again from the plan and
// the index, reads back the whole record, byte for byte, for every
// fragment, both labels, the zero-shot pool's sizes and a pool drawn
// without held-out templates; a record whose fragment or sizes the plan
// would not draw at that index is refused.
func TestResampledLine(t *testing.T) {
	var plans []*Plan
	for _, f := range fragments.All() {
		plans = append(plans, smallPlan(t, f, 40, 10, 10, 0, 10))
	}
	held := smallPlan(t, fragments.V, 40, 10, 10, 0, 0)
	held.Holdout = Holdout{Kind: HoldoutTemplates, HeldPairs: [][2]string{{"V1", "V2"}, {"V3", "V5"}}}
	held.Pools[0].Templates = "train"
	plans = append(plans, held)
	for _, p := range plans {
		f := p.PoolFrag(0)
		b, err := newBuilder(p, testOptions(t.TempDir(), 1), newState(p), true)
		if err != nil {
			t.Fatal(err)
		}
		for k := range p.Pools {
			for i := range 12 {
				inst, err := b.sample(k, i)
				if err != nil {
					t.Fatal(err)
				}
				v := solver.Verdict{Status: solver.Sat, Model: &fol.Structure{Size: 3}}
				if i%2 == 0 {
					v = solver.Verdict{Status: solver.Unsat, MUS: []int{0, 2}, Pair: []int{0, 2}}
				}
				r := dataset.NewRecord(inst, v, "nlsat-native-1")
				r.Seed = dataset.SeedString(p.Seed, k*PoolStride+i)
				data, err := json.Marshal(candidate{rec: r, kept: true, exact: [32]byte{7}, resample: true})
				if err != nil {
					t.Fatal(err)
				}
				if bytes.Contains(data, []byte(r.Sentences[0])) || bytes.Contains(data, []byte(r.Formulas[0])) {
					t.Fatalf("%s pool %d candidate %d: the line holds the instance: %s", f, k, i, data)
				}
				var back candidate
				if err := json.Unmarshal(data, &back); err != nil {
					t.Fatal(err)
				}
				if !back.resample || !back.kept || back.exact != [32]byte{7} {
					t.Fatalf("%s: read back as %+v", data, back)
				}
				if err := b.resample(k, i, back.rec); err != nil {
					t.Fatal(err)
				}
				r.Normalize()
				back.rec.Normalize()
				want, _ := json.Marshal(r)
				got, _ := json.Marshal(back.rec)
				if !bytes.Equal(got, want) {
					t.Fatalf("%s pool %d candidate %d: resampled as\n%s\nwant\n%s", f, k, i, got, want)
				}
				wrong := *back.rec
				wrong.N1++
				if err := b.resample(k, i, &wrong); err == nil {
					t.Fatalf("%s pool %d candidate %d: a record of %d nouns taken for one of %d", f, k, i, wrong.N1, r.N1)
				}
			}
		}
	}
}
