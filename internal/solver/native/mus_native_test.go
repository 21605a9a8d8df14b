package native

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/solver"
)

// TestMinimalCoreNative runs solver.MinimalCore over the native backend:
// the clique-conflict example is its own MUS, and on random unsat
// instances every MUS is certified by MinimalCore and has no small model.
func TestMinimalCoreNative(t *testing.T) {
	b := New(Options{})
	clique := []fol.Formula{
		every(ul(true, "p0", vx), obj(false, ul(false, "p2", vy), false, "r2")),
		some(fol.Conj(ul(false, "p2", vx), ul(false, "p0", vx)), ul(false, "p1", vx)),
		some(ul(true, "p0", vx), obj(false, ul(false, "p1", vy), true, "r2")),
		every(ul(true, "p1", vx), ul(true, "p3", vx)), // not needed
	}
	mus, err := solver.MinimalCore(context.Background(), b, &solver.Problem{Sentences: clique}, nil)
	if err != nil || !slices.Equal(mus, []int{0, 1, 2}) {
		t.Errorf("clique example: got %v, %v; want [0 1 2]", mus, err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	done := 0
	for i := 0; done < 25 && i < 500; i++ {
		g := newGen(rng, 2+rng.IntN(2), 1+rng.IntN(2), false)
		p := &solver.Problem{Sentences: g.instance(i%5, 4+rng.IntN(6))}
		res, err := b.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != solver.Unsat {
			continue
		}
		done++
		mus, err := solver.MinimalCore(context.Background(), b, p, res.Core)
		if err != nil {
			t.Errorf("instance %d: %v", i, err)
			continue
		}
		var sub []fol.Formula
		for _, j := range mus {
			sub = append(sub, p.Sentences[j])
		}
		if _, ok := bruteModel(sub, 3, 16); ok {
			t.Errorf("instance %d: MUS %v has a model", i, mus)
		}
	}
}
