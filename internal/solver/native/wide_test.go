package native

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/sat"
	"github.com/nlsat/nlsat/internal/solver"
)

// TestWideMonadicAgrees decides S and W instances of at most 64 nouns both
// by the type search's monadic path and by wideMonadic, which must agree;
// a sat answer's model is checked by wideMonadic itself, an unsat answer's
// core must be unsatisfiable for the usual path.
func TestWideMonadicAgrees(t *testing.T) {
	b := New(Options{})
	var s sat.Solver
	rng := rand.New(rand.NewPCG(27, 1))
	counts := map[solver.Status]int{}
	for i := range 300 {
		f := []fragments.Fragment{fragments.S, fragments.W}[i%2]
		n1 := 3 + rng.IntN(20)
		in, err := fragments.Sample(rng, f, fragments.DefaultParams(), n1+rng.IntN(2*n1), n1, 0)
		if err != nil {
			t.Fatal(err)
		}
		p := &solver.Problem{Sentences: in.Formulas()}
		want, err := b.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		got, ok, err := wideMonadic(context.Background(), &s, p)
		if !ok || err != nil {
			t.Fatalf("instance %d: wideMonadic: ok %v, %v", i, ok, err)
		}
		if got.Status != want.Status {
			t.Fatalf("instance %d: wideMonadic says %v, the type search %v\n%s", i, got.Status, want.Status, in.Text())
		}
		counts[got.Status]++
		if got.Status == solver.Unsat {
			checkUnsatCore(t, b, p, got.Core)
		}
	}
	if counts[solver.Sat] < 30 || counts[solver.Unsat] < 30 {
		t.Errorf("only %v: the sample does not exercise both answers", counts)
	}
}

// checkUnsatCore checks that the sentences core of p are unsatisfiable.
func checkUnsatCore(t *testing.T, b *Backend, p *solver.Problem, core []int) {
	t.Helper()
	var fs []fol.Formula
	for _, i := range core {
		fs = append(fs, p.Sentences[i])
	}
	r, err := b.Solve(context.Background(), &solver.Problem{Sentences: fs})
	if err != nil || r.Status != solver.Unsat {
		t.Fatalf("the core %v is not unsat: %v %v", core, r.Status, err)
	}
}

// TestWideNouns decides S instances over all 189 built-in nouns and W
// instances over 300 nouns of a vocabulary: past the 64 nouns of a noun
// pattern, every one is decided (a sat answer with a checked model, an
// unsat one with a core of few nouns the type search confirms).
func TestWideNouns(t *testing.T) {
	var nouns []fragments.Noun
	for i := range 300 {
		nouns = append(nouns, fragments.Noun{Word: "thing" + string(rune('a'+i/26%26)) + string(rune('a'+i%26)) + "x"[:i/676], Article: "a"})
	}
	big, err := fragments.NewLexicon(nouns, fragments.Verbs()[:2])
	if err != nil {
		t.Fatal(err)
	}
	b := New(Options{})
	rng := rand.New(rand.NewPCG(27, 2))
	counts := map[solver.Status]int{}
	for i := range 40 {
		f, n1, p := fragments.S, 189, fragments.DefaultParams()
		if i%2 == 1 {
			f, n1, p = fragments.W, 300, fragments.DefaultSampler().WithLexicon(big)
		}
		in, err := fragments.Sample(rng, f, p, n1+rng.IntN(n1), n1, 0)
		if err != nil {
			t.Fatal(err)
		}
		fs := in.Formulas()
		if sig, _ := fol.SignatureOf(fs...); len(sig) <= 64 {
			t.Fatalf("instance %d has only %d nouns", i, len(sig))
		}
		r, err := b.Solve(context.Background(), &solver.Problem{Sentences: fs})
		switch {
		case err != nil:
			t.Fatalf("instance %d (%s, %d nouns): %v", i, f, n1, err)
		case r.Status == solver.Unsat:
			checkUnsatCore(t, b, &solver.Problem{Sentences: fs}, r.Core)
		case r.Status != solver.Sat:
			t.Fatalf("instance %d: %v (%v)", i, r.Status, r.Reason)
		}
		counts[r.Status]++
	}
	t.Logf("%v", counts)
}
