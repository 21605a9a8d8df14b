//go:build cgo && !noz3

package z3

import (
	"context"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/solver"
)

// TestWatchdogAlone switches Z3's own timer off so that only the watchdog
// can stop the hard problem, as when Z3's timer overruns.
func TestWatchdogAlone(t *testing.T) {
	be := newBackend(t, unlimited)
	be.noZ3Timer, be.oneAttempt = true, true
	old := be.z
	start := time.Now()
	res, err := be.Solve(context.Background(), &solver.Problem{Sentences: hardProblem(), Timeout: 700 * time.Millisecond})
	took := time.Since(start)
	if err != nil {
		t.Fatalf("Solve: %v", err)
	}
	if res.Status != solver.Unknown || res.Reason != solver.Timeout {
		t.Errorf("got %v/%v, want unknown/timeout", res.Status, res.Reason)
	}
	if took > 700*time.Millisecond+time.Second {
		t.Errorf("took %v, want under the timeout plus a second", took)
	}
	if be.z == old {
		t.Errorf("the interrupted context was kept, want a fresh one")
	}
	checkUsable(t, be)
}
