package solver_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// TestUnsatPair compares Decide's pair with brute force over every pair
// (and single sentence) of random phase-region instances of every
// fragment, repeated words included: a pair exactly when brute force finds
// an unsatisfiable subset of at most two sentences, and then one that is
// itself unsatisfiable and minimal.
func TestUnsatPair(t *testing.T) {
	ctx := context.Background()
	b := native.New(native.Options{})
	unsat := func(fs []fol.Formula) bool {
		v, err := solver.Decide(ctx, b, fs, solver.DecideOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return v.Status == solver.Unsat
	}
	rng := rand.New(rand.NewPCG(11, 12))
	found := map[bool]int{}
	n := 60
	if testing.Short() {
		n = 15
	}
	for _, f := range fragments.All() {
		for i := range n {
			p := fragments.DefaultParams()
			p.Distinct = i%4 != 0
			n1, n2 := 3+rng.IntN(3), 0
			if f >= fragments.V {
				n2 = 2 + rng.IntN(2)
			}
			inst, err := fragments.Sample(rng, f, p, 4+rng.IntN(10), n1, n2)
			if err != nil {
				t.Fatal(err)
			}
			fs := inst.Formulas()
			v, err := solver.Decide(ctx, b, fs, solver.DecideOptions{MUS: true})
			if err != nil {
				t.Fatal(err)
			}
			if v.Status != solver.Unsat {
				if v.Pair != nil {
					t.Errorf("%s: sat instance with pair %v", f, v.Pair)
				}
				continue
			}
			want := false
			for a := range fs {
				for c := a; c < len(fs) && !want; c++ {
					want = unsat([]fol.Formula{fs[a], fs[c]})
				}
			}
			found[want]++
			if (v.Pair != nil) != want {
				t.Fatalf("%s %q: pair %v, brute force finds one: %v", f, inst.Text(), v.Pair, want)
			}
			if v.Pair == nil {
				continue
			}
			sub := make([]fol.Formula, 0, 2)
			for _, j := range v.Pair {
				sub = append(sub, fs[j])
			}
			if len(v.Pair) > 2 || !slices.IsSorted(v.Pair) || !unsat(sub) {
				t.Fatalf("%s: pair %v is not an unsatisfiable pair", f, v.Pair)
			}
			if len(sub) == 2 && (unsat(sub[:1]) || unsat(sub[1:])) {
				t.Fatalf("%s: pair %v is not minimal", f, v.Pair)
			}
		}
	}
	if found[true] == 0 || found[false] == 0 {
		t.Errorf("unsat instances with and without a pair: %v; the test does not exercise both", found)
	}
	t.Logf("unsat instances with a pair: %d, without: %d", found[true], found[false])
}

// TestNoCoreSkipsDisconnected checks, on random instances of V, that
// NoCoreUpTo never solves a subset whose sentences fall into groups that
// share no predicate, and still answers as brute force does (TestUnsatPair
// checks the answers).
func TestNoCoreSkipsDisconnected(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	rec := &recordingBackend{Backend: native.New(native.Options{})}
	for range 40 {
		inst, err := fragments.Sample(rng, fragments.V, fragments.DefaultParams(), 12, 6, 4)
		if err != nil {
			t.Fatal(err)
		}
		rec.problems = nil
		if _, _, err := solver.NoCoreUpTo(context.Background(), rec, &solver.Problem{Sentences: inst.Formulas()}, 2); err != nil {
			t.Fatal(err)
		}
		for _, p := range rec.problems {
			if len(p) != 2 {
				continue
			}
			a, _ := fol.SignatureOf(p[0])
			b, _ := fol.SignatureOf(p[1])
			shared := false
			for name := range a {
				if _, ok := b[name]; ok {
					shared = true
				}
			}
			if !shared {
				t.Fatalf("solved %s with %s, which share no predicate", fol.String(p[0]), fol.String(p[1]))
			}
		}
	}
}

// recordingBackend keeps the problems it solves.
type recordingBackend struct {
	solver.Backend
	problems [][]fol.Formula
}

func (r *recordingBackend) Solve(ctx context.Context, p *solver.Problem) (solver.Result, error) {
	r.problems = append(r.problems, p.Sentences)
	return r.Backend.Solve(ctx, p)
}
