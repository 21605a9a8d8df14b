package solver_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// counting is a backend that counts the problems it is asked, under a
// name of its own (so that its memo entries are its own).
type counting struct {
	solver.Backend
	name  string
	calls map[int]int // by number of sentences
}

func (c *counting) Name() string { return c.name }

func (c *counting) Solve(ctx context.Context, p *solver.Problem) (solver.Result, error) {
	c.calls[len(p.Sentences)]++
	return c.Backend.Solve(ctx, p)
}

// TestNoCoreUpToShapes: NoCoreUpTo gives one answer for an instance and
// its copies with every predicate renamed, and the copies' subsets of
// one and two sentences come to be answered by shape, without a solve.
func TestNoCoreUpToShapes(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(21, 22))
	for i, f := range []fragments.Fragment{fragments.S, fragments.V, fragments.A} {
		for j := range 5 {
			n2 := 2
			if f < fragments.V {
				n2 = 0
			}
			inst, err := fragments.Sample(rng, f, fragments.DefaultParams(), 8+rng.IntN(10), 4, n2)
			if err != nil {
				t.Fatal(err)
			}
			fs := inst.Formulas()
			b := &counting{Backend: native.New(native.Options{}), name: fmt.Sprintf("counting-%d-%d", i, j), calls: map[int]int{}}
			ok, core, err := solver.NoCoreUpTo(ctx, b, &solver.Problem{Sentences: fs}, 2)
			if err != nil {
				t.Fatal(err)
			}
			if b.calls[1]+b.calls[2] == 0 {
				t.Fatalf("%s: the first instance was not solved", f)
			}
			// Each renamed copy takes the first's answer. A subset
			// that a model of another covered was never solved, so
			// its shape may be new to a copy (one answered by shape
			// brings no model to cover others); but a copy solves
			// only subsets no copy solved before, so after at most
			// one copy per subset none is left.
			first := b.calls[1] + b.calls[2]
			subsets := len(fs) * (len(fs) + 1) / 2
			for r := 1; ; r++ {
				b.calls = map[int]int{}
				renamed := renamePredicates(t, fs, fmt.Sprintf("r%d_", r))
				ok2, core2, err := solver.NoCoreUpTo(ctx, b, &solver.Problem{Sentences: renamed}, 2)
				if err != nil {
					t.Fatal(err)
				}
				if ok2 != ok || !slices.Equal(core, core2) {
					t.Fatalf("%s: renamed copy %d answered %v %v, the instance %v %v", f, r, ok2, core2, ok, core)
				}
				if b.calls[1]+b.calls[2] == 0 {
					break
				}
				if r == subsets {
					t.Fatalf("%s: copy %d still solved %v subsets (the first %d)", f, r, b.calls, first)
				}
			}
		}
	}
}

// TestForgetShapes: once the memo forgets its statuses, an instance
// whose subsets it came to answer by shape is solved again as the first
// time, with the same answer.
func TestForgetShapes(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(23, 24))
	inst, err := fragments.Sample(rng, fragments.V, fragments.DefaultParams(), 14, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	p := &solver.Problem{Sentences: inst.Formulas()}
	b := &counting{Backend: native.New(native.Options{}), name: "counting-forget", calls: map[int]int{}}
	solve := func() (bool, []int, int) {
		b.calls = map[int]int{}
		ok, core, err := solver.NoCoreUpTo(ctx, b, p, 2)
		if err != nil {
			t.Fatal(err)
		}
		return ok, core, b.calls[1] + b.calls[2]
	}
	ok, core, first := solve()
	if first == 0 {
		t.Fatal("the instance was not solved")
	}
	// A subset answered by shape brings no model that covers others, so
	// the solves again die out over a few rounds (see
	// TestNoCoreUpToShapes).
	subsets := len(p.Sentences) * (len(p.Sentences) + 1) / 2
	for r := 1; ; r++ {
		if _, _, again := solve(); again == 0 {
			break
		}
		if r == subsets {
			t.Fatal("the memo never answered every subset")
		}
	}
	if solver.ShapesHeld() == 0 {
		t.Fatal("the memo holds no subset")
	}
	solver.ForgetShapes()
	if n := solver.ShapesHeld(); n != 0 {
		t.Errorf("the memo holds %d subsets after ForgetShapes", n)
	}
	ok2, core2, after := solve()
	if after != first || ok2 != ok || !slices.Equal(core2, core) {
		t.Errorf("after forgetting: %d solves, answer %v %v; the first time %d, %v %v", after, ok2, core2, first, ok, core)
	}
}

// renamePredicates returns fs with every predicate p renamed prefix+p.
func renamePredicates(t *testing.T, fs []fol.Formula, prefix string) []fol.Formula {
	var rename func(f fol.Formula) fol.Formula
	rename = func(f fol.Formula) fol.Formula {
		switch g := f.(type) {
		case *fol.Atom:
			return &fol.Atom{Pred: prefix + g.Pred, Args: g.Args}
		case *fol.Not:
			return &fol.Not{F: rename(g.F)}
		case *fol.And:
			var out []fol.Formula
			for _, h := range g.Fs {
				out = append(out, rename(h))
			}
			return &fol.And{Fs: out}
		case *fol.Or:
			var out []fol.Formula
			for _, h := range g.Fs {
				out = append(out, rename(h))
			}
			return &fol.Or{Fs: out}
		case *fol.Implies:
			return &fol.Implies{L: rename(g.L), R: rename(g.R)}
		case *fol.Forall:
			return &fol.Forall{V: g.V, Body: rename(g.Body)}
		case *fol.Exists:
			return &fol.Exists{V: g.V, Body: rename(g.Body)}
		}
		t.Fatalf("unknown node %T", f)
		return nil
	}
	var out []fol.Formula
	for _, f := range fs {
		out = append(out, rename(f))
	}
	return out
}

// BenchmarkNoCoreUpTo asks NoCoreUpTo(2) of A instances of the default
// region's sizes (24 sentences, 8 nouns, 4 verbs), as a split's pilot
// does for its unsat candidates: after the first round every subset's
// shape is in the memo, so this is the cost of the subset walk and the
// lookups.
func BenchmarkNoCoreUpTo(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	var ps []*solver.Problem
	for range 16 {
		inst, err := fragments.Sample(rng, fragments.A, fragments.DefaultParams(), 24, 8, 4)
		if err != nil {
			b.Fatal(err)
		}
		ps = append(ps, &solver.Problem{Sentences: inst.Formulas()})
	}
	be := native.New(native.Options{})
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		if _, _, err := solver.NoCoreUpTo(ctx, be, ps[i%len(ps)], 2); err != nil {
			b.Fatal(err)
		}
	}
}
