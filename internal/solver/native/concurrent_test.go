package native

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// TestConcurrentSolve runs one Backend from several goroutines at once
// (each Solve takes its own pooled workspace) and checks that every answer,
// model included, equals the one a serial run gives.
func TestConcurrentSolve(t *testing.T) {
	n := 20
	if testing.Short() {
		n = 5
	}
	var set [][]fol.Formula
	for _, f := range fragments.All() {
		rng := rand.New(rand.NewPCG(5, uint64(f)))
		for range n {
			set = append(set, sampleAt(t, rng, f, true).Formulas())
		}
	}
	b := New(Options{})
	want := make([]string, len(set))
	for i, fs := range set {
		res, err := b.Solve(context.Background(), &solver.Problem{Sentences: fs})
		if err != nil {
			t.Fatal(err)
		}
		want[i] = digest(res)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4*len(set))
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range set {
				i := (k + w*7) % len(set)
				res, err := b.Solve(context.Background(), &solver.Problem{Sentences: set[i]})
				if err != nil || digest(res) != want[i] {
					errs <- "instance differs under concurrency"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
