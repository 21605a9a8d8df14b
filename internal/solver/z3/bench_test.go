package z3

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/solver"
)

// BenchmarkSolve solves representative problems on one Backend, as a
// worker does.
func BenchmarkSolve(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var random, random20 [][]fol.Formula
	for range 50 {
		random = append(random, randProblem(rng))
		fs := make([]fol.Formula, 20)
		for i := range fs {
			fs[i] = randSentence(rng)
		}
		random20 = append(random20, fs)
	}
	cases := []struct {
		name string
		fss  [][]fol.Formula
	}{
		{"scholar-unsat", [][]fol.Formula{solveCases[0].fs}},
		{"scholar-sat", [][]fol.Formula{solveCases[1].fs}},
		{"A-sat", [][]fol.Formula{solveCases[11].fs}},
		{"random-2to7", random},
		{"random-20", random20},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			be := newBackend(b, Options{})
			i := 0
			for b.Loop() {
				p := &solver.Problem{Sentences: c.fss[i%len(c.fss)]}
				if _, err := be.Solve(context.Background(), p); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
