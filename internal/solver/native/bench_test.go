package native

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// BenchmarkNative solves a fixed set of 50 sampled instances per fragment
// (seed 7, sizes as in sampleAt); ns/op is per instance.
func BenchmarkNative(b *testing.B) {
	for _, f := range fragments.All() {
		rng := rand.New(rand.NewPCG(7, uint64(f)))
		var set [][]fol.Formula
		for range 50 {
			set = append(set, sampleAt(b, rng, f, true).Formulas())
		}
		benchSolve(b, f.String(), set)
	}
}

// benchSolve runs a sub-benchmark that solves the instances of set in
// turn with one backend; ns/op is per instance.
func benchSolve(b *testing.B, name string, set [][]fol.Formula) {
	nb := New(Options{})
	b.Run(name, func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, err := nb.Solve(context.Background(), &solver.Problem{Sentences: set[i%len(set)]}); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}

// sampleAt draws an instance near the phase change at the paper's sizes:
// S, W with n1 in 6..16 and m in 1.2..2·n1; V, Z, A with n1, n2 in 3..8
// and m in 2..3·n1. distinct=false allows repeated words in a sentence.
func sampleAt(t testing.TB, rng *rand.Rand, f fragments.Fragment, distinct bool) fragments.Instance {
	var m, n1, n2 int
	if f == fragments.S || f == fragments.W {
		n1 = 6 + rng.IntN(11)
		m = int(float64(n1) * (1.2 + 0.8*rng.Float64()))
	} else {
		n1, n2 = 3+rng.IntN(6), 3+rng.IntN(6)
		m = int(float64(n1) * (2 + rng.Float64()))
	}
	params := fragments.DefaultParams()
	params.Distinct = distinct
	in, err := fragments.Sample(rng, f, params, m, n1, n2)
	if err != nil {
		t.Fatalf("sample %s m=%d n1=%d n2=%d: %v", f, m, n1, n2, err)
	}
	return in
}
