package native

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// tailSet returns the n slowest of 1000 sampled A instances (seed 7),
// timed best-of-3 so that preemption does not pick them.
func tailSet(t testing.TB, n int) [][]fol.Formula {
	rng := rand.New(rand.NewPCG(7, uint64(fragments.A)))
	b := New(Options{})
	type timed struct {
		d  time.Duration
		fs []fol.Formula
	}
	var all []timed
	for range 1000 {
		fs := sampleAt(t, rng, fragments.A, true).Formulas()
		best := time.Hour
		for range 3 {
			start := time.Now()
			if _, err := b.Solve(context.Background(), &solver.Problem{Sentences: fs}); err != nil {
				t.Fatal(err)
			}
			best = min(best, time.Since(start))
		}
		all = append(all, timed{best, fs})
	}
	slices.SortFunc(all, func(a, b timed) int { return int(b.d - a.d) })
	var out [][]fol.Formula
	for _, x := range all[:n] {
		out = append(out, x.fs)
	}
	return out
}

func TestTailReport(t *testing.T) {
	if os.Getenv("NLSAT_TAIL") == "" {
		t.Skip("set NLSAT_TAIL=1")
	}
	b := New(Options{})
	for _, fs := range tailSet(t, 10) {
		start := time.Now()
		res, _ := b.Solve(context.Background(), &solver.Problem{Sentences: fs})
		t.Logf("%v %v %v", time.Since(start), res.Status, res.Stats)
	}
}

// BenchmarkTailA solves the 10 slowest of 1000 sampled A instances.
func BenchmarkTailA(b *testing.B) {
	set := tailSet(b, 10)
	nb := New(Options{})
	i := 0
	for b.Loop() {
		if _, err := nb.Solve(context.Background(), &solver.Problem{Sentences: set[i%len(set)]}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
