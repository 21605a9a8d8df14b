package satunsat

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/audit"
)

// TestFragmentVerdicts audits a dataset of two fragments where only W's
// sat records carry an extra sentence: the per-fragment verdicts must
// find the shortcut in W and none in S.
func TestFragmentVerdicts(t *testing.T) {
	splits := toySplits(2, [3]int{1000, 250, 250}, nil)
	rng := rand.New(rand.NewPCG(2, 1))
	for _, recs := range splits {
		for j, r := range recs {
			if j/2%2 == 0 {
				continue // pairs alternate between S and W
			}
			r.Fragment = "W"
			if r.Label == 1 {
				extraSentence(rng, r)
				r.Text = strings.Join(r.Sentences, " ")
				r.Normalize()
			}
		}
	}
	rep, err := audit.Run(context.Background(), Audit, writeDataset(t, t.TempDir(), splits), audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"S": false, "W": true}
	for _, res := range rep.Results {
		if len(res.Fragments) != 2 {
			t.Fatalf("%s: %d fragment results, want 2", res.Split, len(res.Fragments))
		}
		for _, fr := range res.Fragments {
			if fr.Records != 250 || fr.Verdict.Shortcut != want[fr.Fragment] {
				t.Errorf("%s, fragment %s: %d records, verdict %q; want 250 and shortcut %v", res.Split, fr.Fragment, fr.Records, fr.Verdict.Text, want[fr.Fragment])
			}
		}
	}
	if s := rep.Summary(); !strings.Contains(s, "  - fragment W (250 records): surface shortcut") {
		t.Errorf("summary lacks W's verdict:\n%s", s)
	}
}
