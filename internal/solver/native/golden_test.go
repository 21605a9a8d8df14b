package native

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/solver"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestGoldenDecisions pins the normal form and the answer of 40 generated
// instances (seed 11, 8 per fragment) in testdata/decisions.golden. The
// answers are cross-checked on every run: a Sat by its checked model (in
// Solve), an Unsat by brute force finding no model of up to 3 elements.
func TestGoldenDecisions(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	b := New(Options{})
	var out strings.Builder
	for i := range 40 {
		frag := i % 5
		g := newGen(rng, 2+rng.IntN(3), 1+rng.IntN(2), i%5 == 4)
		fs := g.instance(frag, 3+rng.IntN(4))
		n, err := normalize[p1](fs)
		if err != nil {
			t.Fatal(err)
		}
		res, err := b.Solve(context.Background(), &solver.Problem{Sentences: fs})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := bruteModel(fs, 3, 16); ok && res.Status == solver.Unsat {
			t.Errorf("instance %d: unsat, but brute force finds a model", i)
		}
		fmt.Fprintf(&out, "# instance %d, fragment %c: %v\n", i, "SWVZA"[frag], res.Status)
		for _, it := range n.items() {
			fmt.Fprintf(&out, "%s\n", it)
		}
	}
	path := filepath.Join("testdata", "decisions.golden")
	if *update {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got := out.String(); got != string(want) {
		t.Errorf("decisions differ from %s; run go test -update and review the diff", path)
	}
}
