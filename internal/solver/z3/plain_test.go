package z3

import (
	"context"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/solver"
)

// TestPlainIsZ3AsItIs: ∃x p(x) and ∀x(p(x) → ∃y(p(y) ∧ r(x,y))) has a
// one-element model (p and r true), which Z3 4.8.12's quantifier
// instantiation does not find within its budget; the full backend finds it
// by grounding, the plain one (the paper's oracle) must leave it unknown
// rather than guess.
func TestPlainIsZ3AsItIs(t *testing.T) {
	p := &solver.Problem{Sentences: []fol.Formula{
		&fol.Exists{V: "x", Body: fol.Unary("p", "x")},
		&fol.Forall{V: "x", Body: &fol.Implies{L: fol.Unary("p", "x"),
			R: &fol.Exists{V: "y", Body: fol.Conj(fol.Unary("p", "y"), fol.Binary("r", "x", "y"))}}},
	}}
	for _, tt := range []struct {
		plain bool
		want  solver.Status
	}{{false, solver.Sat}, {true, solver.Unknown}} {
		be := newBackend(t, Options{Plain: tt.plain, RLimit: 2_000_000})
		res, err := be.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != tt.want {
			t.Errorf("plain %v: got %v (%v %s), want %v", tt.plain, res.Status, res.Reason, res.Detail, tt.want)
		}
		if tt.plain && res.Stats["attempts"] != 1 {
			t.Errorf("plain made %v attempts, want 1", res.Stats["attempts"])
		}
	}
}
