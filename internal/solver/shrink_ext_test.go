package solver_test

import (
	"context"
	"errors"
	"testing"

	"github.com/nlsat/nlsat/internal/ground"
	"github.com/nlsat/nlsat/internal/sat"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
	"github.com/nlsat/nlsat/internal/solver/solvertest"
)

// TestShrinkPastBudget decides two A instances of many nouns whose
// search for a model of 4 elements runs past the budget of grounding
// every sentence. One has such a model, which only the second search
// (grounding sentences as a candidate model violates them) finds within
// its budget; the other has none, which neither search shows within its
// budget, so Shrink removes elements from the decider's model instead.
// Each takes seconds; without the budgets the first search took 77 s and
// 107 s.
func TestShrinkPastBudget(t *testing.T) {
	if testing.Short() || raceDetector {
		t.Skip("seconds of search, ten times that under the race detector")
	}
	tests := []struct {
		file string
		four bool // the instance has a model of 4 elements
	}{
		{"testdata/a64-model4.txt", true},
		{"testdata/a32-no-model4.txt", false},
	}
	for _, tc := range tests {
		fs := solvertest.ReadSentences(t, tc.file)
		c, err := ground.Compile(fs)
		if err != nil {
			t.Fatal(err)
		}
		var s sat.Solver
		s.Options.MaxConflicts = solver.GroundBudget
		if m, err := c.Model(&s, 4); !errors.Is(err, ground.ErrStopped) {
			t.Fatalf("%s: grounding every sentence decided size 4 within its budget (a model: %v, %v), so this test no longer reaches the second search",
				tc.file, m != nil, err)
		}
		v, err := solver.Decide(context.Background(), native.New(native.Options{}), fs, solver.DecideOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if v.Status != solver.Sat {
			t.Fatalf("%s: %v, want sat", tc.file, v.Status)
		}
		// Decide checks the model it returns.
		if got := v.Model.Size == 4; got != tc.four || v.Model.Size < 4 {
			t.Errorf("%s: a model of %d elements, want 4: %v", tc.file, v.Model.Size, tc.four)
		}
	}
}
