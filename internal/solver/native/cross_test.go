package native

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/nlsat/nlsat/internal/solver"
)

// TestBruteForce checks native against exhaustive model search on tiny
// signatures: a model found by brute force means native must say Sat; a
// native Sat is certified by its checked model. The sizes searched (1..3
// elements within 18 bits of atoms) cover the models of most small satisfiable
// instances, so native Unsat answers are tested where brute force finds a
// small model. The lazy search's region loop, run from the start, is
// held to the same.
func TestBruteForce(t *testing.T) {
	n := envInt(t, "NLSAT_BRUTE_N", 100)
	if testing.Short() {
		n = 30
	}
	rng := rand.New(rand.NewPCG(1, 2))
	backends := []struct {
		name string
		b    *Backend
	}{{"native", New(Options{})}, {"region loop", New(Options{regionsFirst: true})}}
	counts := map[string]int{}
	for i := range n {
		frag := i % 5
		g := newGen(rng, 1+rng.IntN(3), 1+rng.IntN(2), i%3 == 0)
		fs := g.instance(frag, 2+rng.IntN(5))
		_, found := bruteModel(fs, 3, 18)
		for _, be := range backends {
			res, err := be.b.Solve(context.Background(), &solver.Problem{Sentences: fs})
			if err != nil {
				t.Fatalf("instance %d (%s): %v", i, be.name, err)
			}
			counts[be.name+" "+res.Status.String()]++
			if found && res.Status != solver.Sat {
				t.Errorf("instance %d (%v): brute force found a model, %s says %v", i, fs, be.name, res.Status)
			}
			if res.Status == solver.Unsat {
				checkCore(t, "random", be.b, &solver.Problem{Sentences: fs}, res.Core)
			}
			if res.Status == solver.Unknown {
				t.Errorf("instance %d: %s unknown: %s", i, be.name, res.Detail)
			}
		}
	}
	t.Logf("answers: %v", counts)
}

// TestLiftedVsGround checks that the lifted closure (the default), the
// ground 2-SAT mode and the fallback after the closure cap give the same
// answers on random V, Z, A instances
// of medium size; both answers' models are checked by Solve.
func TestLiftedVsGround(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 30
	}
	rng := rand.New(rand.NewPCG(3, 4))
	lifted, ground := New(Options{}), New(Options{Ground: true})
	capped := New(Options{MaxClosure: 4}) // the cap triggers: ground fallback
	counts := map[string]int{}
	for i := range n {
		frag := 2 + i%3
		g := newGen(rng, 3+rng.IntN(4), 1+rng.IntN(3), i%4 == 0)
		fs := g.instance(frag, 4+rng.IntN(12))
		p := &solver.Problem{Sentences: fs}
		a, err1 := lifted.Solve(context.Background(), p)
		b, err2 := ground.Solve(context.Background(), p)
		c, err3 := capped.Solve(context.Background(), p)
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("instance %d: %v / %v / %v", i, err1, err2, err3)
		}
		counts[a.Status.String()]++
		if a.Status != b.Status || a.Status != c.Status || a.Status == solver.Unknown {
			t.Errorf("instance %d: lifted %v, ground %v, capped %v", i, a.Status, b.Status, c.Status)
		}
	}
	t.Logf("answers: %v", counts)
}

// envInt reads a test size from the environment, or returns def.
func envInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return n
}
