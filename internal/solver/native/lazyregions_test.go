package native

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/nlsat/nlsat/internal/sat"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/solvertest"
)

// TestRegionLoop decides A instances of many nouns and few verbs, with
// the region loop as the default path takes it (after regionNodes nodes of
// the depth-first search) and from the start. The regions files are ones
// the depth-first search alone did not decide in 20 s; the restarts files
// are ones it decides. Every answer must agree, sat models are checked by
// Solve, unsat cores must be unsat. The unsat regions file took 3,222
// rounds before the loop's solver had a key per existential and the
// nogoods learnt (about 700 since): a ceiling on the rounds holds that.
func TestRegionLoop(t *testing.T) {
	tests := []struct {
		file      string
		want      solver.Status
		regions   bool    // the default path reaches the region loop
		maxRounds float64 // 0: any
	}{
		{"testdata/a48-regions-sat.txt", solver.Sat, true, 0},
		{"testdata/a64-regions-sat.txt", solver.Sat, true, 0},
		{"testdata/a32-regions-unsat.txt", solver.Unsat, true, 1500},
		{"testdata/a64-restarts-unsat.txt", solver.Unsat, false, 0},
		{"testdata/a64-restarts-unsat2.txt", solver.Unsat, false, 0},
		{"testdata/a48-restarts-sat.txt", solver.Sat, false, 0},
	}
	for _, tc := range tests {
		if testing.Short() && tc.maxRounds > 0 {
			continue // about 15 s
		}
		p := &solver.Problem{Sentences: solvertest.ReadSentences(t, tc.file)}
		for _, first := range []bool{false, true} {
			b := New(Options{regionsFirst: first})
			res, err := b.Solve(context.Background(), p)
			if err != nil || res.Status != tc.want {
				t.Fatalf("%s (regions first %v): %v %v, want %v", tc.file, first, res.Status, err, tc.want)
			}
			rounds := res.Stats["region_rounds"]
			if (first || tc.regions) != (rounds > 0) {
				t.Errorf("%s (regions first %v): %v rounds of the region loop, %v nodes", tc.file, first, rounds, res.Stats["nodes"])
			}
			if tc.maxRounds > 0 && rounds > tc.maxRounds {
				t.Errorf("%s (regions first %v): %v rounds of the region loop, want at most %v", tc.file, first, rounds, tc.maxRounds)
			}
			t.Logf("%s (regions first %v): %v rounds", tc.file, first, rounds)
			if res.Status == solver.Unsat {
				checkCore(t, tc.file, New(Options{}), p, res.Core)
			}
		}
	}
}

// stopAfter is a context whose Err reports Canceled from its n-th call
// on, so that a test can stop a search at a point of its choice.
type stopAfter struct {
	context.Context
	n atomic.Int64
}

func (c *stopAfter) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestRegionLoopStops stops the region loop at points spread over its
// run (the context's checks of a whole run counted first): the answer is
// Unknown (Canceled), never an error or a guess.
func TestRegionLoopStops(t *testing.T) {
	p := &solver.Problem{Sentences: solvertest.ReadSentences(t, "testdata/a48-regions-sat.txt")}
	b := New(Options{regionsFirst: true})
	const many = 1 << 40
	ctx := &stopAfter{Context: context.Background()}
	ctx.n.Store(many)
	if res, err := b.Solve(ctx, p); err != nil || res.Status != solver.Sat {
		t.Fatalf("whole run: %v %v", res.Status, err)
	}
	checks := many - ctx.n.Load()
	if checks < 100 {
		t.Fatalf("a whole run checks the context %d times", checks)
	}
	for _, n := range []int64{1, checks / 10, checks / 2, checks * 9 / 10, checks - 1} {
		ctx := &stopAfter{Context: context.Background()}
		ctx.n.Store(n)
		res, err := b.Solve(ctx, p)
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Fatalf("stopped after %d of %d checks: %v", n, checks, err)
		}
		if res.Status != solver.Unknown || res.Reason != solver.Canceled {
			t.Errorf("stopped after %d of %d checks: %v (%v), want unknown (canceled)", n, checks, res.Status, res.Reason)
		}
	}
}

// TestShrinkCore checks shrinkCore on small queries: what it keeps of a
// failing set of assumptions still fails, and none of the assumptions
// with branch depths it keeps can be dropped.
func TestShrinkCore(t *testing.T) {
	// Variable 0 is a noun x; 1..4 are activations: 1 (x), 2 (¬x), 3 (¬x),
	// 4 (x); only 4 has no branch depth.
	clauses := [][]sat.Lit{
		{sat.Neg(1), sat.Pos(0)},
		{sat.Neg(2), sat.Neg(0)},
		{sat.Neg(3), sat.Neg(0)},
		{sat.Neg(4), sat.Pos(0)},
	}
	tests := []struct {
		name string
		asm  []int
	}{
		{"two with depths", []int{1, 2}},
		{"a third to drop", []int{1, 2, 3}},
		{"one without depth first", []int{4, 1, 2, 3}},
		{"without depth last", []int{2, 3, 1, 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := &lazy[p1]{s: &sat.Solver{}}
			l.s.AddVars(5)
			l.vlev = []lset{nil, single(1), single(2), single(3), nil}
			for _, c := range clauses {
				l.s.AddClause(c...)
			}
			var asm []sat.Lit
			for _, v := range tc.asm {
				asm = append(asm, sat.Pos(v))
			}
			if ok, _ := l.solve(asm); ok {
				t.Fatal("the query should fail")
			}
			first := append([]sat.Lit(nil), asm...) // a failing set, not yet a core
			core, err := l.shrinkCore(first)
			if err != nil {
				t.Fatal(err)
			}
			if ok, _ := l.solve(core); ok {
				t.Fatalf("shrunk core %v does not fail", core)
			}
			for _, lit := range core {
				if !slices.Contains(first, lit) {
					t.Errorf("core %v has %v, not in the set %v", core, lit, first)
				}
			}
			for i := range core {
				if l.vlev[core[i].Var()].top() == 0 {
					continue
				}
				rest := append(append([]sat.Lit(nil), core[:i]...), core[i+1:]...)
				if ok, _ := l.solve(rest); !ok {
					t.Errorf("core %v: %v can be dropped", core, core[i])
				}
			}
		})
	}
}
