package phase

import (
	"context"
	"errors"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// TestRunStartsFromDone interrupts a sweep of two fragments in its second
// and resumes it: Started must count what the first run finished, so that
// it and the instances the second run decides make the whole sweep.
func TestRunStartsFromDone(t *testing.T) {
	var plans []Plan
	total := 0
	for _, f := range []fragments.Fragment{fragments.S, fragments.W} {
		pts := points(t, f, Grid{N1: Range{6, 6}, M: &Range{4, 12}, MStep: 2})
		plans = append(plans, Plan{Fragment: f.String(), Points: pts, Samples: 10, Band: PaperBand(), Seed: 1,
			Sampler: fragments.DefaultSampler(), Solver: "native", SolverName: "native"})
		total += len(pts) * 10
	}
	opt := func(progress func(solver.Status), started func(int)) RunOptions {
		return RunOptions{Workers: 1, NewBackend: func() (solver.Backend, error) { return native.New(native.Options{}), nil },
			Progress: progress, Started: started, Version: "test"}
	}
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	decided := 0
	err := Run(ctx, dir, plans, opt(func(solver.Status) {
		if decided++; decided == total*3/4 {
			cancel()
		}
	}, nil))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: got %v, want it cancelled", err)
	}
	started, added := -1, 0
	if err := Run(context.Background(), dir, plans, opt(func(solver.Status) { added++ }, func(n int) { started = n })); err != nil {
		t.Fatal(err)
	}
	if started < total/2 || started+added != total {
		t.Errorf("resumed at %d and decided %d more; want at least %d done before, %d in all", started, added, total/2, total)
	}
}
