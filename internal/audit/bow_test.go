package audit

import (
	"context"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nlsat/nlsat/internal/learn"
)

// TestBowDesignInPlace: the n-gram design made of train's own grams must
// score and fit bit for bit as the one built beside them, at every
// vocabulary size (from every gram to few), and leave the items without
// grams.
func TestBowDesignInPlace(t *testing.T) {
	dir := writeWords(t, filepath.Join(t.TempDir(), "w"), 2, [3]int{400, 50, 50}, true, true)
	for _, minCount := range []int{1, 5, 60} {
		splits, gr, err := load(context.Background(), newWordTask([]string{"no", "yes"}, true), dir, math.MaxInt)
		if err != nil {
			t.Fatal(err)
		}
		train := splits[0].fitItems()
		index, _ := gr.vocabulary(minCount, nil)
		want := bowDesign(train, index)
		got := bowDesignInPlace(train, index)
		for i := range train {
			if len(train[i].gramKeys()) != 0 || len(train[i].gramCounts()) != 0 {
				t.Fatalf("min count %d: item %d keeps its grams", minCount, i)
			}
		}
		rng := rand.New(rand.NewPCG(3, uint64(minCount)))
		m := &learn.Sparse{B: rng.NormFloat64(), W: make([]float64, len(index))}
		for j := range m.W {
			m.W[j] = rng.NormFloat64()
		}
		for i := range train {
			if a, b := m.Score(got, i), m.Score(want, i); a != b {
				t.Fatalf("min count %d: row %d scores %v, beside the grams %v", minCount, i, a, b)
			}
		}
		y := labelsOf(train)
		s := learn.Settings{Lambda: 1e-3, Iterations: 40}
		a, b := learn.FitSparse(got, y, s), learn.FitSparse(want, y, s)
		if a.B != b.B || a.Iterations != b.Iterations || !slices.Equal(a.W, b.W) {
			t.Fatalf("min count %d: the fits differ", minCount)
		}
	}
}
