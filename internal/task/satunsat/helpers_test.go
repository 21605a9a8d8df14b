package satunsat

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/audit"
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/dataset/datasettest"
)

// toySplits draws train, validation and test with the given numbers of
// sat/unsat pairs, each pair in one stratum (n1 5 or 6, m 8 or 12), so
// every split is balanced per stratum. leak, when set, edits each sat
// record after it is drawn.
func toySplits(seed uint64, pairs [3]int, leak func(rng *rand.Rand, r *dataset.Record)) [3][]*dataset.Record {
	rng := rand.New(rand.NewPCG(seed, 0))
	var out [3][]*dataset.Record
	for s, n := range pairs {
		for i := range n {
			n1, m := 5+rng.IntN(2), 8+4*rng.IntN(2)
			for _, label := range []int{1, 0} {
				r := datasettest.Record(rng, fmt.Sprintf("%s-%05d", audit.Splits[s], 2*i+1-label), label, n1, m)
				if label == 1 && leak != nil {
					leak(rng, r)
				}
				r.Text = strings.Join(r.Sentences, " ")
				r.Normalize()
				out[s] = append(out[s], r)
			}
		}
	}
	return out
}

// writeDataset writes splits into dir/data and returns dir.
func writeDataset(t *testing.T, dir string, splits [3][]*dataset.Record) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	for s, recs := range splits {
		var b strings.Builder
		enc := dataset.NewEncoder(&b)
		for _, r := range recs {
			if err := enc.Encode(r); err != nil {
				t.Fatal(err)
			}
		}
		writeFile(t, filepath.Join(dir, "data", audit.Splits[s]+".jsonl"), b.String())
	}
	return dir
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
