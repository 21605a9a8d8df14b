package native

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// TestLazyVsExplicit checks that the lazy search (the default) and the
// explicit one agree on sampled V, Z, A instances at the paper's main and
// generalisation sizes, on the random generator's shapes with repeated
// words, and on the adversarial Vconf mix; Solve checks both answers'
// models, and the lazy search's unsat cores must be unsat.
func TestLazyVsExplicit(t *testing.T) {
	n := envInt(t, "NLSAT_LAZY_N", 150)
	if testing.Short() {
		n = 30
	}
	explicit, lazy := New(Options{Explicit: true}), New(Options{})
	rng := rand.New(rand.NewPCG(13, 14))
	counts := map[string]int{}
	coreSum, mSum := 0, 0
	check := func(tag string, fs []fol.Formula) {
		p := &solver.Problem{Sentences: fs}
		a, err1 := explicit.Solve(context.Background(), p)
		b, err2 := lazy.Solve(context.Background(), p)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v / %v", tag, err1, err2)
		}
		counts[b.Status.String()]++
		if a.Status != b.Status || a.Status == solver.Unknown {
			t.Errorf("%s: explicit %v, lazy %v (%s)", tag, a.Status, b.Status, b.Detail)
		}
		if b.Status == solver.Unsat {
			checkCore(t, tag, explicit, p, b.Core)
			coreSum += len(b.Core)
			mSum += len(fs)
		}
	}
	for i := range n {
		for _, f := range []fragments.Fragment{fragments.V, fragments.Z, fragments.A} {
			check("main", sampleAt(t, rng, f, i%4 != 3).Formulas())
			check("gen", sampleGen(t, rng, f).Formulas())
		}
		g := newGen(rng, 1+rng.IntN(6), 1+rng.IntN(3), i%3 == 0)
		check("rand", g.instance(2+i%3, 2+rng.IntN(14)))
		g = newGen(rng, 3+rng.IntN(6), 1+rng.IntN(3), false)
		var fs []fol.Formula
		for range len(g.nouns) + rng.IntN(3*len(g.nouns)) {
			fs = append(fs, g.vconf())
		}
		check("vconf", fs)
	}
	t.Logf("answers: %v; unsat cores: %d sentences of %d", counts, coreSum, mSum)
}
