package entail

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/generate"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// benchPlan is the plan of `nlsat generate --task entailment --fragment f
// --seed 1` with the default ranges (the hard region's m).
func benchPlan(tb testing.TB, f fragments.Fragment) *generate.Plan {
	tb.Helper()
	plan, err := generate.NewPlan(generate.Options{Fragment: f, FragmentSet: true, Sampler: fragments.DefaultSampler(),
		Seed: 1, Count: 3, Solver: "native", SolverName: "native"})
	if err != nil {
		tb.Fatal(err)
	}
	return plan
}

// drawTriple is run.go's triple without the records: triple t of plan
// with drawer d.
func drawTriple(tb testing.TB, plan *generate.Plan, d *Drawer, t int) [3]Problem {
	tb.Helper()
	first, err := plan.Draw(t)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(plan.Seed^Stream, uint64(t)))
	b := native.New(native.Options{})
	ps, err := d.Triple(context.Background(), b, rng, first)
	if err != nil {
		tb.Fatalf("triple %d: %v", t, err)
	}
	return ps
}

// BenchmarkTriple draws and certifies a few fixed triples of V and A as
// generate does (seed 1, default ranges); one op is one triple.
func BenchmarkTriple(b *testing.B) {
	for _, f := range []fragments.Fragment{fragments.V, fragments.A} {
		b.Run(f.String(), func(b *testing.B) {
			plan := benchPlan(b, f)
			d := NewDrawer(plan.Frag(), plan.Params())
			for i := 0; b.Loop(); i++ {
				drawTriple(b, plan, d, i%4)
			}
		})
	}
}
