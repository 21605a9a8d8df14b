package generate

import (
	"context"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/solvertest"
)

// TestUndecided checks that an instance a complete backend leaves
// undecided fails the item, naming the instance, while an incomplete
// backend's is counted and skipped.
func TestUndecided(t *testing.T) {
	p, err := NewPlan(Options{Fragment: fragments.V, Sampler: fragments.DefaultSampler(), Seed: 9, Count: 1, SolverName: "give-up"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Item(context.Background(), solvertest.GiveUp(true), 3)
	if err == nil || !strings.Contains(err.Error(), "instance 9:3") || !strings.Contains(err.Error(), "undecided") {
		t.Errorf("complete backend: got %v, want an error naming instance 9:3", err)
	}
	it, err := p.Item(context.Background(), solvertest.GiveUp(false), 3)
	if err != nil || it.Record != nil || it.Reason != solver.GaveUp.String() {
		t.Errorf("incomplete backend: got %+v, %v, want a skipped item", it, err)
	}
}
