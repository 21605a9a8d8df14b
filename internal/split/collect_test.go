package split

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFileOrder checks the permuted blocks of a split file: a
// permutation of its entries, the same for the same keys, every head
// within fileBlock/2 of half sat, every position sat about half the time
// over many files, and the label counts of unequal inputs kept.
func TestFileOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, files = 200, 2000
	satAt := make([]int, n)
	for f := range files {
		es := make([]entry, n)
		for i := range es {
			es[i] = entry{i: i, label: int8(i % 2), key: rng.Uint64()}
		}
		got := fileOrder(slices.Clone(es))
		if len(got) != n {
			t.Fatalf("%d entries out of %d", len(got), n)
		}
		seen := map[int]bool{}
		sat := 0
		for k, e := range got {
			seen[e.i] = true
			sat += int(e.label)
			if d := 2*sat - (k + 1); d > fileBlock || d < -fileBlock {
				t.Fatalf("file %d: head of %d has %d sat", f, k+1, sat)
			}
			satAt[k] += int(e.label)
		}
		if len(seen) != n {
			t.Fatalf("file %d: %d distinct entries out of %d", f, len(seen), n)
		}
		if f == 0 && !slices.Equal(got, fileOrder(slices.Clone(es))) {
			t.Error("two orders of the same entries differ")
		}
	}
	// Each position is sat in about half the files (binomial, sd 22).
	for k, c := range satAt {
		if c < files/2-120 || c > files/2+120 {
			t.Errorf("position %d is sat in %d of %d files", k, c, files)
		}
	}
	// Unequal labels: the extra entries end the file.
	es := []entry{{i: 0, label: 1, key: 5}, {i: 1, label: 1, key: 3}, {i: 2, label: 0, key: 9}}
	got := fileOrder(es)
	if len(got) != 3 || got[2].i != 0 {
		t.Errorf("unequal labels: %+v", got)
	}
}
