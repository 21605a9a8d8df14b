package native

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// TestHistoryIndependence solves the same instances forwards and backwards
// with one backend, the second time after every instance has also been
// solved under a canceled context: each answer (status, core, stats,
// model) must not depend on the problems solved before it, which reuse
// the same workspaces and solvers.
func TestHistoryIndependence(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var set [][]fol.Formula
	for i := range 150 {
		set = append(set, sampleAt(t, rng, fragments.All()[i%5], i%4 != 3).Formulas())
	}
	b := New(Options{})
	digests := make([]string, len(set))
	for i, fs := range set {
		res, err := b.Solve(context.Background(), &solver.Problem{Sentences: fs})
		if err != nil {
			t.Fatal(err)
		}
		digests[i] = digest(res)
	}
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	for i := len(set) - 1; i >= 0; i-- {
		if _, err := b.Solve(canceled, &solver.Problem{Sentences: set[(i+7)%len(set)]}); err != nil {
			t.Fatal(err)
		}
		res, err := b.Solve(context.Background(), &solver.Problem{Sentences: set[i]})
		if err != nil {
			t.Fatal(err)
		}
		if d := digest(res); d != digests[i] {
			t.Errorf("instance %d (%v): forwards %s, backwards %s", i, fragments.All()[i%5], digests[i], d)
		}
	}
}
