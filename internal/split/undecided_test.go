package split

import (
	"context"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/solvertest"
)

// TestUndecided checks that a candidate a complete backend leaves
// undecided stops the build, naming the instance, while an incomplete
// backend's is counted (as undecided) and skipped.
func TestUndecided(t *testing.T) {
	for _, complete := range []bool{true, false} {
		p := smallPlan(t, fragments.S, 20, 0, 0, 0, 0)
		p.Balance = Balance{Mode: BalanceStrata}
		p.Pools[0].Splits = p.Pools[0].Splits[:1]
		o := testOptions(t.TempDir(), 1)
		o.NewBackend = func() (solver.Backend, error) { return solvertest.GiveUp(complete), nil }
		_, err := Run(context.Background(), p, o)
		switch {
		case complete && (err == nil || !strings.Contains(err.Error(), "instance 3:") || !strings.Contains(err.Error(), "undecided")):
			t.Errorf("complete backend: got %v, want an error naming the instance", err)
		case !complete && (err == nil || !strings.Contains(err.Error(), "undecided")):
			// Every candidate undecided: the strata cannot fill, and the
			// error counts them.
			t.Errorf("incomplete backend: got %v, want the draw limit's report of undecided candidates", err)
		}
	}
}
