package native

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// TestNodeBudgetOne decides a sample of V, Z and A instances of 8-16 nouns
// and 2-16 verbs (200 of each, 400 with NLSAT_FULL=1; a few of 15-16
// nouns take the one-shot encoding 20 s or more) three ways: by default,
// with the node budget at 1 (so the one-shot encoding, or the unbounded
// lazy search behind it, decides whatever the lazy search does not at
// once), and by the explicit search with the node budget at 1 (the
// one-shot encoding forced). Every answer must be Sat or Unsat, never an
// error or Unknown, and the three must agree.
func TestNodeBudgetOne(t *testing.T) {
	if testing.Short() {
		t.Skip("decides each instance by the one-shot encoding")
	}
	ways := []struct {
		name string
		b    *Backend
	}{
		{"default", New(Options{})},
		{"budget 1", New(Options{MaxNodes: 1})},
		{"one-shot forced", New(Options{Explicit: true, MaxNodes: 1})},
	}
	count := 200
	if os.Getenv("NLSAT_FULL") == "1" {
		count = 400
	}
	rng := rand.New(rand.NewPCG(27, 4))
	for _, f := range []fragments.Fragment{fragments.V, fragments.Z, fragments.A} {
		counts := map[string]int{}
		for i := range count {
			n1, n2 := 8+rng.IntN(9), 2+rng.IntN(15)
			in, err := fragments.Sample(rng, f, fragments.DefaultParams(), n1*(2+rng.IntN(3)), n1, n2)
			if err != nil {
				t.Fatal(err)
			}
			p := &solver.Problem{Sentences: in.Formulas()}
			var want solver.Status
			for wi, w := range ways {
				r, err := w.b.Solve(context.Background(), p)
				switch {
				case err != nil:
					t.Fatalf("%s instance %d (n1 %d, n2 %d), %s: %v", f, i, n1, n2, w.name, err)
				case r.Status != solver.Sat && r.Status != solver.Unsat:
					t.Fatalf("%s instance %d (n1 %d, n2 %d), %s: %v (%v %s)", f, i, n1, n2, w.name, r.Status, r.Reason, r.Detail)
				case wi == 0:
					want = r.Status
				case r.Status != want:
					t.Fatalf("%s instance %d (n1 %d, n2 %d): %s says %v, the default %v", f, i, n1, n2, w.name, r.Status, want)
				}
				if wi == 0 && r.Stats["nodes"] <= 1 {
					break // the lazy search is done at its first node: no budget matters
				}
				if r.Stats["one_shot"] == 1 {
					counts[w.name+" one-shot"]++
				}
				if r.Stats["unbounded"] == 1 {
					counts[w.name+" unbounded"]++
				}
			}
			counts[want.String()]++
		}
		t.Logf("%s: %v", f, counts)
		if counts["budget 1 one-shot"] == 0 {
			t.Errorf("%s: no instance reached the one-shot encoding", f)
		}
	}
}
