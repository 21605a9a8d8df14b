package native

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// TestLazyVsExplicit checks that the lazy search (the default), the lazy
// search's region loop run from the start and the explicit search agree
// on sampled V, Z, A instances at the paper's main and generalisation
// sizes, on the random generator's shapes with repeated words, and on the
// adversarial Vconf mix; Solve checks every answer's model, and the lazy
// searches' unsat cores must be unsat.
func TestLazyVsExplicit(t *testing.T) {
	n := envInt(t, "NLSAT_LAZY_N", 150)
	if testing.Short() {
		n = 30
	}
	explicit, lazy, regions := New(Options{Explicit: true}), New(Options{}), New(Options{regionsFirst: true})
	rng := rand.New(rand.NewPCG(13, 14))
	counts := map[string]int{}
	rounds := map[string]int{} // answers of the region loop after more than one round
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
		c, err := regions.Solve(context.Background(), p)
		if err != nil || c.Status != a.Status {
			t.Errorf("%s: explicit %v, region loop %v (%v)", tag, a.Status, c.Status, err)
		}
		if c.Status == solver.Unsat {
			checkCore(t, tag+" (region loop)", explicit, p, c.Core)
		}
		if c.Stats["region_rounds"] > 1 {
			rounds[c.Status.String()]++
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
	if rounds["sat"] == 0 || rounds["unsat"] == 0 {
		t.Errorf("the region loop answered %v after more than one round: the mix no longer exercises it", rounds)
	}
	t.Logf("answers: %v; unsat cores: %d sentences of %d; answers of the region loop after more than one round: %v", counts, coreSum, mSum, rounds)
}
