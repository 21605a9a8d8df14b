// Package solvertest holds test doubles of solver backends for the tests
// of the packages that label, and a reader of test instances.
package solvertest

import (
	"context"

	"github.com/nlsat/nlsat/internal/solver"
)

// GiveUp returns a backend named "give-up" that answers Unknown (GaveUp,
// "budget") on every problem; complete says whether it claims to decide
// every problem (solver.IsComplete), as the native backend does.
func GiveUp(complete bool) solver.Backend { return giveUp{complete} }

type giveUp struct{ complete bool }

func (g giveUp) Name() string   { return "give-up" }
func (g giveUp) Complete() bool { return g.complete }
func (g giveUp) Solve(context.Context, *solver.Problem) (solver.Result, error) {
	return solver.Result{Reason: solver.GaveUp, Detail: "budget"}, nil
}
