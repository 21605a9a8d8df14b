package native

import (
	"context"
	"math/rand/v2"
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

// BenchmarkTailA solves the 10 slowest of 1000 sampled A instances,
// each decided (sat or unsat), and reports the decider's statistics per
// instance beside the time: what TestTailReport, a test that could not
// fail, used to log.
func BenchmarkTailA(b *testing.B) {
	set := tailSet(b, 10)
	nb := New(Options{})
	i := 0
	stats := map[string]float64{}
	for b.Loop() {
		res, err := nb.Solve(context.Background(), &solver.Problem{Sentences: set[i%len(set)]})
		if err != nil {
			b.Fatal(err)
		}
		if res.Status != solver.Sat && res.Status != solver.Unsat {
			b.Fatalf("tail instance %d: %v", i%len(set), res.Status)
		}
		for k, v := range res.Stats {
			stats[k] += v
		}
		i++
	}
	// The decider's own counts per instance, beside the time.
	for k, v := range stats {
		b.ReportMetric(v/float64(i), k+"/op")
	}
}
