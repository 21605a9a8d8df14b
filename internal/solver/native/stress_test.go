package native

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/solver"
)

// vconf draws from the design's adversarial "Vconf" mix (§7.5): V1
// every-every / some-every / every-some, V2 any, V3 any, S3 and W3, which
// concentrates clique conflicts on few verbs.
func (g *gen) vconf() fol.Formula {
	w := g.words(2, g.nouns)
	r := g.words(1, g.verbs)[0]
	subj, psi := ul(g.flip(), w[0], vx), ul(g.flip(), w[1], vy)
	switch g.rng.IntN(7) {
	case 0:
		return every(subj, obj(false, psi, true, r))
	case 1:
		return some(subj, obj(false, psi, true, r))
	case 2:
		return every(subj, obj(true, psi, true, r))
	case 3:
		return every(subj, obj(false, psi, false, r))
	case 4:
		return some(subj, obj(false, psi, false, r))
	case 5:
		return g.sTemplate(2, 1)
	}
	return g.sTemplate(2, 2)
}

// TestStressVconf runs the adversarial mix with lifted and ground pair
// reasoning: both must answer, agree, and stay within the node budget.
// NLSAT_STRESS_N sets the number of instances (default 40).
func TestStressVconf(t *testing.T) {
	n := envInt(t, "NLSAT_STRESS_N", 40)
	if testing.Short() {
		n = 10
	}
	rng := rand.New(rand.NewPCG(8, 9))
	lifted, ground := New(Options{}), New(Options{Ground: true})
	maxNodes, sat := 0.0, 0
	for i := range n {
		g := newGen(rng, 3+rng.IntN(6), 1+rng.IntN(3), false)
		m := len(g.nouns) + rng.IntN(3*len(g.nouns))
		var fs []fol.Formula
		for range m {
			fs = append(fs, g.vconf())
		}
		p := &solver.Problem{Sentences: fs}
		a, err1 := lifted.Solve(context.Background(), p)
		b, err2 := ground.Solve(context.Background(), p)
		if err1 != nil || err2 != nil {
			t.Fatalf("instance %d: %v / %v", i, err1, err2)
		}
		if a.Status == solver.Unknown || a.Status != b.Status {
			t.Errorf("instance %d: lifted %v (%s), ground %v (%s)", i, a.Status, a.Detail, b.Status, b.Detail)
		}
		if a.Status == solver.Sat {
			sat++
		}
		maxNodes = max(maxNodes, a.Stats["nodes"])
	}
	t.Logf("%d instances, %d sat, max search nodes %v", n, sat, maxNodes)
}
