package z3

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/solver"
)

// unlimited lets the wall clock or the context, not the resource limit,
// stop the hard problem.
var unlimited = Options{RLimit: math.MaxUint32}

func TestCancel(t *testing.T) {
	be := newBackend(t, unlimited)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	res, err := be.Solve(ctx, &solver.Problem{Sentences: hardProblem(), Timeout: time.Minute})
	took := time.Since(start)
	if err != nil {
		t.Fatalf("Solve: %v", err)
	}
	if res.Status != solver.Unknown || res.Reason != solver.Canceled {
		t.Errorf("got %v/%v, want unknown/canceled", res.Status, res.Reason)
	}
	if took > 1500*time.Millisecond {
		t.Errorf("cancel took %v to take effect, want well under a second", took-300*time.Millisecond)
	}
	checkUsable(t, be)
}

func TestCanceledBeforeSolve(t *testing.T) {
	be := newBackend(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := be.Solve(ctx, &solver.Problem{Sentences: solveCases[0].fs})
	if err != nil || res.Status != solver.Unknown || res.Reason != solver.Canceled {
		t.Errorf("got %v/%v err %v, want unknown/canceled", res.Status, res.Reason, err)
	}
}

func TestTimeout(t *testing.T) {
	be := newBackend(t, unlimited)
	for _, d := range []time.Duration{500 * time.Millisecond, 1500 * time.Millisecond} {
		start := time.Now()
		res, err := be.Solve(context.Background(), &solver.Problem{Sentences: hardProblem(), Timeout: d})
		took := time.Since(start)
		if err != nil {
			t.Fatalf("Solve: %v", err)
		}
		if res.Status != solver.Unknown || res.Reason != solver.Timeout {
			t.Errorf("%v: got %v/%v (%q), want unknown/timeout", d, res.Status, res.Reason, res.Detail)
		}
		if took < d || took > d+time.Second {
			t.Errorf("%v: took %v, want between the timeout and a second more", d, took)
		}
		checkUsable(t, be)
	}
}

func TestResourceLimit(t *testing.T) {
	be := newBackend(t, Options{RLimit: 300_000, Timeout: time.Minute})
	res, err := be.Solve(context.Background(), &solver.Problem{Sentences: hardProblem()})
	if err != nil {
		t.Fatalf("Solve: %v", err)
	}
	if res.Status != solver.Unknown || res.Reason != solver.ResourceLimit {
		t.Errorf("got %v/%v (%q), want unknown/resource-limit", res.Status, res.Reason, res.Detail)
	}
	if n := res.Stats["rlimit-count"]; n < 300_000 || n > 600_000 {
		t.Errorf("rlimit-count: got %v, want about the limit 300000", n)
	}
	// The limit is per Solve, not per context: small problems still pass.
	checkUsable(t, be)
	checkUsable(t, be)
}

// checkUsable checks that be still answers the scholar problem correctly.
func checkUsable(t *testing.T, be *Backend) {
	t.Helper()
	tc := solveCases[0]
	res := solve(t, be, tc.fs...)
	if res.Status != tc.want || len(res.Core) != 3 {
		t.Errorf("after a limit: got %v core %v, want %v core %v", res.Status, res.Core, tc.want, tc.core)
	}
}

// TestConcurrent runs several Backends side by side and shares one between
// goroutines; run it with -race.
func TestConcurrent(t *testing.T) {
	shared := newBackend(t, Options{})
	var wg sync.WaitGroup
	for w := range 4 {
		be := shared
		if w%2 == 0 {
			be = newBackend(t, Options{Seed: uint32(w)})
		}
		wg.Go(func() {
			for _, tc := range solveCases {
				res, err := be.Solve(context.Background(), &solver.Problem{Sentences: tc.fs, Timeout: 20 * time.Second})
				if err != nil || res.Status != tc.want {
					t.Errorf("worker %d, %s: got %v err %v, want %v", w, tc.name, res.Status, err, tc.want)
				}
			}
		})
	}
	// One worker is interrupted mid-solve while the others run.
	wg.Go(func() {
		be := shared
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		res, err := be.Solve(ctx, &solver.Problem{Sentences: hardProblem(), Timeout: time.Minute})
		if err != nil || res.Status != solver.Unknown {
			t.Errorf("interrupted worker: got %v err %v, want unknown", res.Status, err)
		}
	})
	wg.Wait()
}

// TestSeedDeterminism checks that the resource count, and so every
// answer cut by the resource limit, repeats exactly for a given seed, and
// that Z3 does use the seed (it accepts unknown parameter names silently,
// so a misspelt one would go unnoticed).
func TestSeedDeterminism(t *testing.T) {
	count := func(seed uint32) float64 {
		be := newBackend(t, Options{Seed: seed})
		rng := rand.New(rand.NewPCG(2026, 11))
		total := 0.0
		for range 40 {
			total += solve(t, be, randProblem(rng)...).Stats["rlimit-count"]
		}
		return total
	}
	a, b, c := count(0), count(5), count(0)
	if a != c {
		t.Errorf("rlimit-count with seed 0: got %v and %v, want equal", a, c)
	}
	if a == b {
		t.Errorf("rlimit-count with seeds 0 and 5: both %v, want the seed to matter", a)
	}
}
