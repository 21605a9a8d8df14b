package audit

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestOrder audits label sequences written in several orders: nlsat's
// (blocks of 20, ten of each label in a random order), a plain shuffle,
// and orders that give the label away (blocks whose halves hold one label
// each, planted runs, labels alternating, entailment labels in a cycle).
// Where a file has runs, its position fields may show a leak too: the
// records of a block share their label, so their residues are not
// independent draws.
func TestOrder(t *testing.T) {
	tests := []struct {
		name   string
		labels int
		order  func(rng *rand.Rand, n int) []int8
		leaks  string // leaks every split must show (and no others when empty)
	}{
		{"random blocks", 2, randomBlocks(false), ""},
		{"shuffled", 2, shuffled(2), ""},
		{"shuffled entailment", 3, shuffled(3), ""},
		{"halved blocks", 2, randomBlocks(true), "order:runs"},
		{"planted runs", 2, func(rng *rand.Rand, n int) []int8 {
			y := make([]int8, n)
			for i := 1; i < n; i++ {
				y[i] = y[i-1]
				if rng.Float64() < 0.4 {
					y[i] = 1 - y[i]
				}
			}
			return y
		}, "order:runs"},
		{"alternating", 2, func(_ *rand.Rand, n int) []int8 {
			y := make([]int8, n)
			for i := range y {
				y[i] = int8(i % 2)
			}
			return y
		}, "order:runs,order:position-mod-2,order:position-mod-10,order:position-mod-20,order:position-mod-100," +
			"order:id-number-mod-2,order:id-number-mod-10,order:id-number-mod-20,order:id-number-mod-100"},
		{"entailment cycle", 3, func(_ *rand.Rand, n int) []int8 {
			y := make([]int8, n)
			for i := range y {
				y[i] = int8(i % 3)
			}
			return y
		}, "order:runs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, 6))
			var splits []*split
			for _, n := range []int{6000, 2000, 2000} {
				y := tt.order(rng, n)
				s := &split{name: "s"}
				for i, l := range y {
					s.items = append(s.items, item{label: l, idNum: i})
				}
				splits = append(splits, s)
			}
			for _, os := range orderReport(splits, tt.labels, Options{Confidence: 0.95}) {
				got := strings.Join(os.Verdict.Leaks, ",")
				if tt.leaks == "" && got != "" {
					t.Errorf("leaks %q, want none: %s", got, os.Verdict.Text)
				}
				for _, l := range strings.Split(tt.leaks, ",") {
					if l != "" && !slices.Contains(os.Verdict.Leaks, l) {
						t.Errorf("leaks %q, want %s among them: %s", got, l, os.Verdict.Text)
					}
				}
				if len(os.Lags) != MaxLag {
					t.Errorf("%d lags", len(os.Lags))
				}
			}
		})
	}
}

// randomBlocks writes blocks of 20 with ten of each label, in a random
// order, or (halved) ten of one label then ten of the other.
func randomBlocks(halved bool) func(rng *rand.Rand, n int) []int8 {
	return func(rng *rand.Rand, n int) []int8 {
		var y []int8
		for len(y) < n {
			b := make([]int8, 20)
			for i := range 10 {
				b[i] = 1
			}
			if halved {
				if rng.IntN(2) == 0 {
					slices.Reverse(b)
				}
			} else {
				rng.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
			}
			y = append(y, b...)
		}
		return y[:n]
	}
}

func shuffled(labels int) func(rng *rand.Rand, n int) []int8 {
	return func(rng *rand.Rand, n int) []int8 {
		y := make([]int8, n)
		for i := range y {
			y[i] = int8(i % labels)
		}
		rng.Shuffle(n, func(i, j int) { y[i], y[j] = y[j], y[i] })
		return y
	}
}
