package split

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nlsat/nlsat/internal/dataset"
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
			es[i] = entry{i: i, label: int8(i % 2), key: rng.Uint64(), place: rng.Uint64()}
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

// TestFileOrderSaysNothing checks that in a long file neither a record's
// neighbour nor its position within its block tells its label. Within a
// block of ten records of each label in a random order, two records share
// their label with probability 9/19; across a block's edge, 1/2. Ordering
// a block by the key that also ordered each label's list gave runs of ten
// (agreement near 90% at lag 1, and the block's first half of one label).
func TestFileOrderSaysNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 24000
	es := make([]entry, n)
	for i := range es {
		es[i] = entry{i: i, label: int8(i % 2), key: rng.Uint64(), place: rng.Uint64()}
	}
	got := fileOrder(es)
	for _, lag := range []int{1, 2, 5, 10, 19, 20} {
		same := 0
		for k := lag; k < n; k++ {
			if got[k].label == got[k-lag].label {
				same++
			}
		}
		within := float64(fileBlock-lag) / fileBlock
		want := within*9/19 + (1-within)/2
		if r := float64(same) / float64(n-lag); r < want-0.015 || r > want+0.015 {
			t.Errorf("lag %d: neighbours share their label %.3f of the time, want %.3f", lag, r, want)
		}
	}
	for _, mod := range []int{2, 10, 20, 100} {
		// Each residue's majority label in the file's first half is
		// right about half the time in its second half.
		counts := make([][2]int, mod)
		for k, e := range got[:n/2] {
			counts[k%mod][e.label]++
		}
		right := 0
		for k, e := range got[n/2:] {
			c := counts[(n/2+k)%mod]
			if (c[1] > c[0]) == (e.label == 1) {
				right++
			}
		}
		if r := float64(right) / (n / 2); r > 0.52 {
			t.Errorf("position mod %d: its majority label is right %.3f of the time", mod, r)
		}
	}
	firstHalf := 0
	for k, e := range got {
		if (k%fileBlock < fileBlock/2) == (e.label == 1) {
			firstHalf++
		}
	}
	if r := float64(firstHalf) / n; r < 0.48 || r > 0.52 {
		t.Errorf("the half of its block tells the label %.3f of the time", r)
	}
}

// TestNearChanceOrder checks the order nearChanceOrder gives files of
// several sizes and seeds: every lag's agreement within the audit's
// tolerance of chance in a file of dataset.OrderMinRecords or more, with
// the blocks of fileOrder (each head within fileBlock/2 of half sat, the
// same entries); the first order drawn kept whenever it is in the band;
// and a smaller file in the first order drawn.
func TestNearChanceOrder(t *testing.T) {
	tests := []struct {
		n     int
		seeds int
	}{
		{100, 3},
		{600, 8},
		{3000, 8},
		{15000, 2},
	}
	redrawn := 0
	for _, tt := range tests {
		for seed := range uint64(tt.seeds) {
			rng := rand.New(rand.NewPCG(seed, 7))
			es := make([]entry, tt.n)
			for i := range es {
				es[i] = entry{k: int32(i % 3), i: i, label: int8(i % 2), key: rng.Uint64()}
			}
			first := slices.Clone(es)
			for j := range first {
				first[j].place = orderKey(seed, blockStream, int(first[j].k)*PoolStride+first[j].i)
			}
			plain := fileOrder(first)
			got := nearChanceOrder(seed, slices.Clone(es))
			y := make([]int8, len(got))
			sat, seen := 0, map[[2]int]bool{}
			for k, e := range got {
				y[k] = e.label
				sat += int(e.label)
				seen[[2]int{int(e.k), e.i}] = true
				if d := 2*sat - (k + 1); d > fileBlock || d < -fileBlock {
					t.Fatalf("n %d, seed %d: head of %d has %d sat", tt.n, seed, k+1, sat)
				}
			}
			if len(seen) != tt.n {
				t.Fatalf("n %d, seed %d: %d distinct entries", tt.n, seed, len(seen))
			}
			py := make([]int8, len(plain))
			for k, e := range plain {
				py[k] = e.label
			}
			dev, plainDev := dataset.LagDeviation(y, 2), dataset.LagDeviation(py, 2)
			same := slices.EqualFunc(got, plain, func(a, b entry) bool { return a.k == b.k && a.i == b.i })
			switch {
			case tt.n < dataset.OrderMinRecords && !same:
				t.Errorf("n %d, seed %d: a file below %d records was drawn again", tt.n, seed, dataset.OrderMinRecords)
			case tt.n >= dataset.OrderMinRecords && dev > dataset.OrderTolerance:
				t.Errorf("n %d, seed %d: a lag's agreement lies %.4f from chance", tt.n, seed, dev)
			case plainDev <= dataset.OrderTolerance && !same:
				t.Errorf("n %d, seed %d: the first order was in the band (%.4f) but not kept", tt.n, seed, plainDev)
			}
			if !same {
				redrawn++
			}
		}
	}
	if redrawn == 0 {
		t.Error("no file needed a second order; the test shows nothing")
	}
	t.Logf("%d files drawn again", redrawn)
}
