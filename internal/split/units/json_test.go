package units

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestJSONRoundTrip: a split and a stratum's counts are written under the
// task's noun, and read back as they were, whatever the noun.
func TestJSONRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		noun       string
		split      Split
		counts     StratumCounts
		wantSplit  string
		wantCounts string
	}{
		{"triple", Split{Name: "train", File: "data/train.jsonl", Size: 6, Units: []int{1, 1}, noun: "triple"},
			StratumCounts{Key: "m=8 n1=6 n2=0", Candidates: 3, Accepted: 2, NoUnit: 1, noun: "triple"},
			`{"name":"train","file":"data/train.jsonl","size":6,"triples":[1,1]}`,
			`{"key":"m=8 n1=6 n2=0","candidates":3,"accepted":2,"no_triple":1,"duplicates_exact":0,"duplicates_renaming":0,"after_full":0,"canon_fallbacks":0}`},
		{"couple", Split{Name: "test", File: "data/test.jsonl", Size: 4, Units: []int{2}, noun: "couple"},
			StratumCounts{Fragment: "S", Key: "k", DuplicatesExact: 4, AfterFull: 5, CanonFallbacks: 6, noun: "couple"},
			`{"name":"test","file":"data/test.jsonl","size":4,"couples":[2]}`,
			`{"fragment":"S","key":"k","candidates":0,"accepted":0,"no_couple":0,"duplicates_exact":4,"duplicates_renaming":0,"after_full":5,"canon_fallbacks":6}`},
	} {
		b, err := json.Marshal(tc.split)
		if err != nil || string(b) != tc.wantSplit {
			t.Errorf("%s: split = %s, %v; want %s", tc.noun, b, err, tc.wantSplit)
		}
		var sp Split
		if err := json.Unmarshal(b, &sp); err != nil || !reflect.DeepEqual(sp, tc.split) {
			t.Errorf("%s: split read back as %+v, %v", tc.noun, sp, err)
		}
		b, err = json.Marshal(tc.counts)
		if err != nil || string(b) != tc.wantCounts {
			t.Errorf("%s: counts = %s, %v; want %s", tc.noun, b, err, tc.wantCounts)
		}
		var ct StratumCounts
		if err := json.Unmarshal(b, &ct); err != nil || !reflect.DeepEqual(ct, tc.counts) {
			t.Errorf("%s: counts read back as %+v, %v", tc.noun, ct, err)
		}
	}
}

// FuzzJSON: whatever a split or counts line reads as, it writes back to
// a line that reads as the same.
func FuzzJSON(f *testing.F) {
	f.Add([]byte(`{"name":"train","file":"data/train.jsonl","size":6,"triples":[1,1]}`))
	f.Add([]byte(`{"fragment":"S","key":"k","candidates":1,"no_couple":2}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var sp Split
		if json.Unmarshal(b, &sp) == nil && sp.noun != "" {
			out, err := json.Marshal(sp)
			var again Split
			if err != nil || json.Unmarshal(out, &again) != nil || !reflect.DeepEqual(again, sp) {
				t.Errorf("split %s: wrote %s (%v), read back %+v", b, out, err, again)
			}
		}
		var ct StratumCounts
		if json.Unmarshal(b, &ct) == nil && ct.noun != "" {
			out, err := json.Marshal(ct)
			var again StratumCounts
			if err != nil || json.Unmarshal(out, &again) != nil || !reflect.DeepEqual(again, ct) {
				t.Errorf("counts %s: wrote %s (%v), read back %+v", b, out, err, again)
			}
		}
	})
}
