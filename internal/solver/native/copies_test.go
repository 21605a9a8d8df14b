package native

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/solver"
)

// TestThreeCopies checks the proof's model construction, the fallback of
// the compact builder, on the type sets of random satisfiable V, Z, A
// instances: toStructure checks every model against the formulas.
func TestThreeCopies(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	checked := 0
	for i := range 60 {
		g := newGen(rng, 2+rng.IntN(4), 1+rng.IntN(3), i%3 == 0)
		p := &solver.Problem{Sentences: g.instance(2+i%3, 3+rng.IntN(8))}
		n, err := normalize[p1](p.Sentences)
		if err != nil {
			t.Fatal(err)
		}
		if len(n.cs)+len(n.qs) == 0 {
			continue
		}
		ty := newTyper(context.Background(), n, 1000, 2000)
		ts, err := ty.search(nil, ty.mono0)
		if err != nil || ts == nil {
			continue
		}
		m, err := ty.threeCopies(ts)
		if err == nil {
			_, err = toStructure(p, n, m)
		}
		if err != nil {
			t.Errorf("instance %d: %v", i, err)
		}
		checked++
	}
	if checked < 20 {
		t.Errorf("only %d satisfiable instances checked", checked)
	}
}
