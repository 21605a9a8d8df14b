package ground

import (
	"errors"
	"fmt"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/sat"
)

// pigeons returns sentences that need n elements: for each i < n some
// element is an own_i, and no element is an own_i and an own_j. Showing
// that n−1 elements cannot do takes the solver hundreds of conflicts at
// n = 12.
func pigeons(n int) []fol.Formula {
	own := func(i int) fol.Formula { return fol.Unary(fmt.Sprintf("own%02d", i), "x") }
	var fs []fol.Formula
	for i := range n {
		fs = append(fs, &fol.Exists{V: "x", Body: own(i)})
		for j := range i {
			fs = append(fs, &fol.Forall{V: "x", Body: &fol.Not{F: fol.Conj(own(i), own(j))}})
		}
	}
	return fs
}

// TestBudget checks what both searches answer within a budget of
// conflicts: the answer when the search ends within it, ErrStopped when
// it does not, and ModelLazily leaves the solver's options as it found
// them.
func TestBudget(t *testing.T) {
	const n = 12
	c, err := Compile(pigeons(n))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		k, budget int
		model     bool // a model is found
		stopped   bool // the budget stops the search
	}{
		{n, 0, true, false},
		{n, 128, true, false},
		{n - 1, 0, false, false},
		{n - 1, 128, false, true},
	}
	for _, tc := range tests {
		for _, search := range []struct {
			name  string
			model func(s *sat.Solver) (*fol.Structure, error)
		}{
			{"Model", func(s *sat.Solver) (*fol.Structure, error) {
				s.Options.MaxConflicts = tc.budget
				return c.Model(s, tc.k)
			}},
			{"ModelLazily", func(s *sat.Solver) (*fol.Structure, error) { return c.ModelLazily(s, tc.k, tc.budget) }},
		} {
			var s sat.Solver
			m, err := search.model(&s)
			if errors.Is(err, ErrStopped) != tc.stopped || (m != nil) != tc.model || err != nil && !tc.stopped {
				t.Errorf("%s, size %d, budget %d: model %v, error %v; want a model %v, stopped %v",
					search.name, tc.k, tc.budget, m != nil, err, tc.model, tc.stopped)
			}
			if search.name == "ModelLazily" && s.Options.MaxConflicts != 0 {
				t.Errorf("ModelLazily left MaxConflicts at %d", s.Options.MaxConflicts)
			}
		}
	}
}
