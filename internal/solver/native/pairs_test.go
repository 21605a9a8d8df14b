package native

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
)

// TestPairTables checks the table answers of compatible and witnessOK
// against 2-SAT (pairSAT) on random keys of sampled V, Z and A instances
// with one to three verbs, where the tables are used.
func TestPairTables(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 7))
	var ty typer[p1]
	asked := [2]int{}
	for i := range 60 {
		f := []fragments.Fragment{fragments.V, fragments.Z, fragments.A}[i%3]
		n1, n2 := 3+rng.IntN(10), 1+rng.IntN(3)
		if f == fragments.A {
			n2 = 2 + rng.IntN(2)
		}
		in, err := fragments.Sample(rng, f, fragments.DefaultParams(), 2*n1+rng.IntN(2*n1), n1, n2)
		if err != nil {
			t.Fatal(err)
		}
		n, err := normalize[p1](in.Formulas())
		if err != nil {
			t.Fatal(err)
		}
		initLazyTyper(&ty, context.Background(), n, 1000)
		if !ty.tables.ok {
			t.Fatalf("%d verbs: no tables", ty.nverbs)
		}
		randKey := func() *kinfo[p1] {
			c := rng.IntN(len(n.csrc)+1) - 1
			return ty.info(key[p1]{p1{rng.Uint64() & (1<<ty.nn - 1)}, c})
		}
		for range 300 {
			a, b := randKey(), randKey()
			if got, want := ty.compatible(a, b), ty.pairSAT(a, b, nil); got != want {
				t.Fatalf("compatible(%v, %v) = %v, 2-SAT says %v", a.k, b.k, got, want)
			}
			if ty.compatible(a, b) {
				asked[1]++
			} else {
				asked[0]++
			}
			for _, j := range a.reqs {
				want := n.qs[j].y.applies(b.k) && ty.pairSAT(a, b, n.qs[j].e)
				if got := ty.witnessOK(j, a, b); got != want {
					t.Fatalf("witnessOK(%d, %v, %v) = %v, 2-SAT says %v", j, a.k, b.k, got, want)
				}
			}
		}
	}
	if asked[0] < 500 || asked[1] < 500 {
		t.Errorf("only %d incompatible and %d compatible pairs", asked[0], asked[1])
	}
}
