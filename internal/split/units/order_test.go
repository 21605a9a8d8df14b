package units

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nlsat/nlsat/internal/dataset"
)

// TestNearChanceShuffle checks the order of a split's records: a
// permutation of them; in a split of dataset.OrderMinRecords or more, every
// lag's agreement within the audit's tolerance of chance; the plain
// seeded shuffle of before kept whenever it is in the band; and a smaller
// split in that shuffle.
func TestNearChanceShuffle(t *testing.T) {
	tests := []struct {
		n, classes, seeds int
	}{
		{120, 3, 3},
		{600, 3, 10},
		{1800, 3, 4},
		{600, 2, 4},
	}
	redrawn := 0
	for _, tt := range tests {
		for seed := range uint64(tt.seeds) {
			ms := make([]member, tt.n)
			for i := range ms {
				ms[i] = member{ref: lineRef{off: int64(i)}, k: i % tt.classes, class: int8((i + i/tt.classes) % tt.classes)}
			}
			plain := slices.Clone(ms)
			rng := rand.New(rand.NewPCG(seed, 5))
			rng.Shuffle(len(plain), func(a, b int) { plain[a], plain[b] = plain[b], plain[a] })
			got := nearChanceShuffle(seed, 5, slices.Clone(ms), tt.classes)
			sorted := slices.SortedFunc(slices.Values(got), func(a, b member) int { return int(a.ref.off - b.ref.off) })
			if !slices.Equal(sorted, ms) {
				t.Fatalf("n %d, seed %d: not a permutation of the records", tt.n, seed)
			}
			labels := func(ms []member) []int8 {
				y := make([]int8, len(ms))
				for i, m := range ms {
					y[i] = m.class
				}
				return y
			}
			dev, plainDev := dataset.LagDeviation(labels(got), tt.classes), dataset.LagDeviation(labels(plain), tt.classes)
			same := slices.Equal(got, plain)
			switch {
			case tt.n < dataset.OrderMinRecords && !same:
				t.Errorf("n %d, seed %d: a split below %d records was shuffled again", tt.n, seed, dataset.OrderMinRecords)
			case tt.n >= dataset.OrderMinRecords && dev > dataset.OrderTolerance:
				t.Errorf("n %d, seed %d: a lag's agreement lies %.4f from chance", tt.n, seed, dev)
			case plainDev <= dataset.OrderTolerance && !same:
				t.Errorf("n %d, seed %d: the plain shuffle was in the band (%.4f) but not kept", tt.n, seed, plainDev)
			}
			if !same {
				redrawn++
			}
		}
	}
	if redrawn == 0 {
		t.Error("no split needed a second shuffle; the test shows nothing")
	}
	t.Logf("%d splits shuffled again", redrawn)
}
