package z3

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/solver"
)

// solveCase is a hand-made problem with its known answer.
type solveCase struct {
	name    string
	fs      []fol.Formula
	want    solver.Status
	core    []int // for unsat: the only minimal unsatisfiable subset, which any core contains
	minSize int   // for sat: no model is smaller
}

var solveCases = []solveCase{
	{
		// Every scholar is a poet. Every poet loves some musician. Some
		// scholar does not love any musician. The scholar of sentence 3 is a
		// poet (1), so loves some musician (2): contradiction. Dropping any
		// one sentence leaves a satisfiable set, so the core is all three.
		name: "scholar-poet-musician",
		fs: []fol.Formula{
			all("x", imp(u("scholar", "x"), u("poet", "x"))),
			all("x", imp(u("poet", "x"), ex("y", and(u("musician", "y"), b("love", "x", "y"))))),
			ex("x", and(u("scholar", "x"), all("y", imp(u("musician", "y"), not(b("love", "x", "y")))))),
		},
		want: solver.Unsat, core: []int{0, 1, 2},
	},
	{
		// As above, but the third sentence is "Some musician does not love
		// any scholar": one musician and nothing else is a model.
		name: "scholar-poet-musician-sat",
		fs: []fol.Formula{
			all("x", imp(u("scholar", "x"), u("poet", "x"))),
			all("x", imp(u("poet", "x"), ex("y", and(u("musician", "y"), b("love", "x", "y"))))),
			ex("x", and(u("musician", "x"), all("y", imp(u("scholar", "y"), not(b("love", "x", "y")))))),
		},
		want: solver.Sat, minSize: 1,
	},
	{
		// Some p is a q. Some p is not a q. One element cannot be both.
		name: "needs-two-elements",
		fs:   []fol.Formula{ex("x", and(u("p", "x"), u("q", "x"))), ex("x", and(u("p", "x"), not(u("q", "x"))))},
		want: solver.Sat, minSize: 2,
	},
	{
		// S: Every p is a q. Every q is an o. Some p is not an o. Some o is
		// a p. The first three chain to a contradiction; the fourth holds
		// in any model of the first two with a p, so it is in no minimal
		// core.
		name: "S-chain",
		fs: []fol.Formula{
			all("x", imp(u("p", "x"), u("q", "x"))),
			all("x", imp(u("q", "x"), u("o", "x"))),
			ex("x", and(u("p", "x"), not(u("o", "x")))),
			ex("x", and(u("o", "x"), u("p", "x"))),
		},
		want: solver.Unsat, core: []int{0, 1, 2},
	},
	{
		// S: No non-p is a q. Some q is not a p. The witness of 2 is a
		// non-p and a q, which 1 forbids.
		name: "S-subject-negation",
		fs: []fol.Formula{
			all("x", imp(not(u("p", "x")), not(u("q", "x")))),
			ex("x", and(u("q", "x"), not(u("p", "x")))),
		},
		want: solver.Unsat, core: []int{0, 1},
	},
	{
		// W: Every o who is a p is a q. Some o who is a p is not a q. Some
		// non-o is a q. The first two contradict; the third is satisfiable
		// beside either.
		name: "W-relative",
		fs: []fol.Formula{
			all("x", imp(and(u("o", "x"), u("p", "x")), u("q", "x"))),
			ex("x", and(u("o", "x"), u("p", "x"), not(u("q", "x")))),
			ex("x", and(not(u("o", "x")), u("q", "x"))),
		},
		want: solver.Unsat, core: []int{0, 1},
	},
	{
		// V: Every p r's every q. Some p does not r every q. Direct
		// negations of each other once a p exists, which 2 provides.
		name: "V-every-every",
		fs: []fol.Formula{
			all("x", imp(u("p", "x"), all("y", imp(u("q", "y"), b("r", "x", "y"))))),
			ex("x", and(u("p", "x"), ex("y", and(u("q", "y"), not(b("r", "x", "y")))))),
		},
		want: solver.Unsat, core: []int{0, 1},
	},
	{
		// V: Some p is not a q. Every p r's some q. No q is a p. The p
		// needs a q, which cannot be itself: two elements.
		name: "V-sat-two-elements",
		fs: []fol.Formula{
			ex("x", and(u("p", "x"), not(u("q", "x")))),
			all("x", imp(u("p", "x"), ex("y", and(u("q", "y"), b("r", "x", "y"))))),
			all("x", imp(u("q", "x"), not(u("p", "x")))),
		},
		want: solver.Sat, minSize: 2,
	},
	{
		// Z: Every o who r's some p is a q. Some o who r's some p is not a
		// q. Contradiction between the two.
		name: "Z-relative-verb",
		fs: []fol.Formula{
			all("x", imp(and(u("o", "x"), ex("y", and(u("p", "y"), b("r", "x", "y")))), u("q", "x"))),
			ex("x", and(u("o", "x"), ex("y", and(u("p", "y"), b("r", "x", "y"))), not(u("q", "x")))),
		},
		want: solver.Unsat, core: []int{0, 1},
	},
	{
		// Z: Every o who does not r any p is a q. Some o is not a q. No q
		// is a p. Satisfiable: one element that is an o, a p, not a q, and
		// r's itself (so it r's some p and 1 does not apply).
		name: "Z-sat",
		fs: []fol.Formula{
			all("x", imp(and(u("o", "x"), all("y", imp(u("p", "y"), not(b("r", "x", "y"))))), u("q", "x"))),
			ex("x", and(u("o", "x"), not(u("q", "x")))),
			all("x", imp(u("q", "x"), not(u("p", "x")))),
		},
		want: solver.Sat, minSize: 1,
	},
	{
		// A: Every o r's every p who s's him. Some o does not r some p who
		// s's him. Direct contradiction.
		name: "A-anaphora",
		fs: []fol.Formula{
			all("x", imp(u("o", "x"), all("y", imp(and(u("p", "y"), b("s", "y", "x")), b("r", "x", "y"))))),
			ex("x", and(u("o", "x"), ex("y", and(u("p", "y"), b("s", "y", "x"), not(b("r", "x", "y")))))),
		},
		want: solver.Unsat, core: []int{0, 1},
	},
	{
		// A: Every o r's some p who s's him. Some o is an o. No p is an o.
		// Satisfiable with an o and a p that s's him and whom he r's; the
		// p cannot be the o, so two elements.
		name: "A-sat",
		fs: []fol.Formula{
			all("x", imp(u("o", "x"), ex("y", and(u("p", "y"), b("s", "y", "x"), b("r", "x", "y"))))),
			ex("x", and(u("o", "x"), u("o", "x"))),
			all("x", imp(u("p", "x"), not(u("o", "x")))),
		},
		want: solver.Sat, minSize: 2,
	},
	{
		// The empty set is satisfiable in any one-element structure.
		name: "empty", want: solver.Sat, minSize: 1,
	},
	{
		// A tautology that leaves U unconstrained still gets a model.
		name: "tautology",
		fs:   []fol.Formula{all("x", or(u("p", "x"), not(u("p", "x"))))},
		want: solver.Sat, minSize: 1,
	},
	{
		// One contradictory sentence is its own core.
		name: "self-contradiction",
		fs:   []fol.Formula{ex("x", and(u("p", "x"), not(u("p", "x"))))},
		want: solver.Unsat, core: []int{0},
	},
	{
		// ∃x∀x ¬p(x) means ∀x ¬p(x): the inner quantifier shadows the
		// outer, and with ∃x p(x) it is unsat.
		name: "shadowing",
		fs:   []fol.Formula{ex("x", all("x", not(u("p", "x")))), ex("x", u("p", "x"))},
		want: solver.Unsat, core: []int{0, 1},
	},
	{
		// p is unary in other cases on the same Backend and binary here,
		// which is fine across instances. p is reflexive and some pair is
		// unrelated: two elements.
		name: "reused-name",
		fs:   []fol.Formula{all("x", b("p", "x", "x")), ex("x", ex("y", not(b("p", "x", "y"))))},
		want: solver.Sat, minSize: 2,
	},
}

func TestSolveTable(t *testing.T) {
	be := newBackend(t, Options{})
	for _, tc := range solveCases {
		t.Run(tc.name, func(t *testing.T) {
			res := solve(t, be, tc.fs...)
			checkCase(t, be, tc, res)
		})
	}
}

// checkCase checks a result against its case: status, certificate and,
// for unsat, that the core alone is unsat.
func checkCase(t *testing.T, be *Backend, tc solveCase, res solver.Result) {
	t.Helper()
	if res.Status != tc.want {
		t.Fatalf("status: got %v (%v %q), want %v", res.Status, res.Reason, res.Detail, tc.want)
	}
	if res.Elapsed <= 0 {
		t.Errorf("elapsed: got %v, want > 0", res.Elapsed)
	}
	if _, ok := res.Stats["rlimit-count"]; !ok {
		t.Errorf("stats: got %v, want an rlimit-count", res.Stats)
	}
	switch tc.want {
	case solver.Sat:
		if err := solver.CheckModel(&solver.Problem{Sentences: tc.fs}, res.Model); err != nil {
			t.Errorf("model: %v", err)
		}
		if res.Model.Size < tc.minSize {
			t.Errorf("model size: got %d, want >= %d", res.Model.Size, tc.minSize)
		}
		sig, _ := fol.SignatureOf(tc.fs...)
		for p := range sig {
			_, un := res.Model.Unary[p]
			_, bin := res.Model.Binary[p]
			if !un && !bin {
				t.Errorf("model lacks predicate %s", p)
			}
		}
	case solver.Unsat:
		if !slices.IsSorted(res.Core) || len(slices.Compact(slices.Clone(res.Core))) != len(res.Core) {
			t.Errorf("core %v is not strictly increasing", res.Core)
		}
		for _, i := range tc.core {
			if !slices.Contains(res.Core, i) {
				t.Errorf("core: got %v, want it to contain %v", res.Core, tc.core)
			}
		}
		sub := make([]fol.Formula, len(res.Core))
		for k, i := range res.Core {
			sub[k] = tc.fs[i]
		}
		if r := solve(t, be, sub...); r.Status != solver.Unsat {
			t.Errorf("core %v alone: got %v, want unsat", res.Core, r.Status)
		}
	}
}

func TestMalformed(t *testing.T) {
	be := newBackend(t, Options{})
	tests := []struct {
		name string
		fs   []fol.Formula
		want string
	}{
		{"free-variable", []fol.Formula{all("x", b("r", "x", "y"))}, "free variable y"},
		{"open-sentence", []fol.Formula{u("p", "x")}, "free variable x"},
		{"arity-clash", []fol.Formula{ex("x", u("p", "x")), ex("x", b("p", "x", "x"))}, "arities"},
		{"arity-3", []fol.Formula{ex("x", &fol.Atom{Pred: "t", Args: []fol.Var{"x", "x", "x"}})}, "arity 3"},
		{"arity-0", []fol.Formula{&fol.Atom{Pred: "t"}}, "arity 0"},
		{"nil-sentence", []fol.Formula{nil}, "nil"},
		{"nil-subformula", []fol.Formula{ex("x", &fol.Not{})}, "nil"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := be.Solve(context.Background(), &solver.Problem{Sentences: tc.fs})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error: got %v, want one containing %q", err, tc.want)
			}
			if res.Status != solver.Unknown {
				t.Errorf("status: got %v, want unknown", res.Status)
			}
		})
	}
	// The backend is still usable after malformed problems.
	checkCase(t, be, solveCases[0], solve(t, be, solveCases[0].fs...))
}

func TestNameAndClose(t *testing.T) {
	be := newBackend(t, Options{})
	if got := be.Name(); got != "z3-"+Version() || !strings.HasPrefix(got, "z3-4.") {
		t.Errorf("Name: got %q, want z3-%s", got, Version())
	}
	if err := be.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := be.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := be.Solve(context.Background(), &solver.Problem{}); err == nil {
		t.Errorf("Solve after Close: got no error")
	}
}
