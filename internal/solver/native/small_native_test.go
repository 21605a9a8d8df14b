package native

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/solver"
)

// TestNoCoreUpToNative compares solver.NoCoreUpTo over the native backend
// with solving every subset of at most k sentences one by one, on random
// instances of every fragment shape the generator makes.
func TestNoCoreUpToNative(t *testing.T) {
	b := New(Options{})
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 8))
	seen := map[bool]int{}
	for i := range 300 {
		g := newGen(rng, 2+rng.IntN(3), 1+rng.IntN(2), false)
		p := &solver.Problem{Sentences: g.instance(i%5, 4+rng.IntN(7))}
		k := 1 + rng.IntN(4)
		// Brute force: the smallest unsatisfiable subset's size, up to k.
		want := true
		var subsets func(from int, idx []int)
		subsets = func(from int, idx []int) {
			if !want {
				return
			}
			if len(idx) > 0 {
				var sub []fol.Formula
				for _, j := range idx {
					sub = append(sub, p.Sentences[j])
				}
				res, err := b.Solve(ctx, &solver.Problem{Sentences: sub})
				if err != nil {
					t.Fatal(err)
				}
				if res.Status == solver.Unsat {
					want = false
					return
				}
			}
			if len(idx) == k {
				return
			}
			for j := from; j < len(p.Sentences); j++ {
				subsets(j+1, append(idx, j))
			}
		}
		subsets(0, nil)
		got, core, err := solver.NoCoreUpTo(ctx, b, p, k)
		if err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
		if got != want {
			t.Fatalf("instance %d, k=%d: got %v, brute force says %v", i, k, got, want)
		}
		seen[got]++
		if !got {
			if len(core) == 0 || len(core) > k {
				t.Fatalf("instance %d: core %v for k=%d", i, core, k)
			}
			var sub []fol.Formula
			for _, j := range core {
				sub = append(sub, p.Sentences[j])
			}
			if res, _ := b.Solve(ctx, &solver.Problem{Sentences: sub}); res.Status != solver.Unsat {
				t.Fatalf("instance %d: core %v is %v", i, core, res.Status)
			}
		}
	}
	if seen[true] < 20 || seen[false] < 20 {
		t.Fatalf("answers %v: too few of one kind to test both", seen)
	}
}
