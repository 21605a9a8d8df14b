package entail

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/generate"
	"github.com/nlsat/nlsat/internal/solver"
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

// counting is the native backend counting the problems put to its
// Solve (not those of its own CoreFinder).
type counting struct {
	*native.Backend
	solves int
}

func (c *counting) Solve(ctx context.Context, p *solver.Problem) (solver.Result, error) {
	c.solves++
	return c.Backend.Solve(ctx, p)
}

// drawTriple is run.go's triple without the records: triple t of plan
// with drawer d and backend b.
func drawTriple(tb testing.TB, plan *generate.Plan, d *Drawer, b solver.Backend, t int) [3]Problem {
	tb.Helper()
	first, err := plan.Draw(t)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(plan.Seed^Stream, uint64(t)))
	ps, err := d.Triple(context.Background(), b, rng, first)
	if err != nil {
		tb.Fatalf("triple %d: %v", t, err)
	}
	return ps
}

// BenchmarkTriple draws and certifies a few fixed triples of V and A as
// generate does (seed 1, default ranges), labelling the candidates with
// the labeller and, as the drawer first did, with Decide on each (plain);
// one op is one triple, and solves/op counts the problems the backend
// was given.
func BenchmarkTriple(b *testing.B) {
	for _, f := range []fragments.Fragment{fragments.V, fragments.A} {
		for _, plain := range []bool{false, true} {
			name := f.String() + "/labeller"
			if plain {
				name = f.String() + "/plain"
			}
			b.Run(name, func(b *testing.B) {
				plan := benchPlan(b, f)
				d := NewDrawer(plan.Frag(), plan.Params())
				d.plain = plain
				c := &counting{Backend: native.New(native.Options{})}
				n := 0
				for i := 0; b.Loop(); i++ {
					drawTriple(b, plan, d, c, i%4)
					n++
				}
				b.ReportMetric(float64(c.solves)/float64(n), "solves/op")
			})
		}
	}
}
