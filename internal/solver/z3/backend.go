//go:build cgo && !noz3

package z3

/*
#include "nlz3.h"
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/solver"
)

// Backend decides problems with one Z3 context that it reuses across
// Solve calls. It is meant to be used by one goroutine at a time (one
// Backend per worker); a mutex serialises calls anyway.
type Backend struct {
	mu   sync.Mutex
	opts Options
	z    *zctx // nil once closed
	// noZ3Timer leaves Z3's own timeout unset so that only the watchdog
	// enforces the wall-clock limit; tests use it to exercise the watchdog.
	noZ3Timer bool
	// oneAttempt gives the first attempt the whole budget, so that tests
	// can rely on a long check being running when the watchdog fires.
	oneAttempt bool
}

// watchdogGrace is how long the watchdog lets Z3's own timer act before
// it interrupts: an answer from Z3's timer leaves the context clean, an
// interrupt costs a new context.
const watchdogGrace = 100 * time.Millisecond

var _ solver.Backend = (*Backend)(nil)

// New makes a Backend with its own Z3 context.
func New(o Options) (*Backend, error) {
	z, err := newZctx()
	if err != nil {
		return nil, err
	}
	return &Backend{opts: o.withDefaults(), z: z}, nil
}

// Close releases the Z3 context. Solve fails on a closed Backend; closing
// twice is harmless.
func (b *Backend) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.z != nil {
		b.z.close()
		b.z = nil
	}
	return nil
}

// Name returns "z3-" followed by the library's version, e.g. "z3-4.8.12".
func (b *Backend) Name() string { return "z3-" + Version() }

// Version returns the version of the linked Z3 library, e.g. "4.8.12".
func Version() string { return versionOnce() }

// Available reports whether Z3 support is built in; here it is.
func Available() bool { return true }

// errClosed is returned by Solve on a closed Backend.
var errClosed = errors.New("z3: backend is closed")

// Solve decides p. A malformed problem (a free variable, an arity clash,
// an arity other than 1 or 2) gives an error, not a label, and so does a
// model that fails its check.
func (b *Backend) Solve(ctx context.Context, p *solver.Problem) (solver.Result, error) {
	start := time.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.z == nil {
		return solver.Result{}, errClosed
	}
	if p == nil {
		return solver.Result{}, fmt.Errorf("z3: nil problem")
	}
	sig, err := checkSignature(p.Sentences)
	if err != nil {
		return solver.Result{}, err
	}
	if ctx.Err() != nil {
		return solver.Result{Reason: solver.Canceled, Elapsed: time.Since(start)}, nil
	}
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = b.opts.Timeout
	}
	res, interrupted, err := b.solveIn(ctx, b.z, p, sig, timeout)
	if interrupted {
		// Z3 4.8.12 may keep a cancel flag from an interrupt; a fresh
		// context is the only state we can vouch for.
		if rerr := b.renew(); rerr != nil && err == nil {
			err = rerr
		}
	}
	res.Elapsed = time.Since(start)
	return res, err
}

// Reset replaces the context with a fresh one. Z3's answers, models and
// cores depend on what its context has seen before (term ids, caches), so
// a caller that needs the same certificates for the same instance however
// instances are spread over workers resets before each instance.
func (b *Backend) Reset() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.z == nil {
		return errClosed
	}
	return b.renew()
}

// renew replaces the context after an interrupt.
func (b *Backend) renew() error {
	b.z.close()
	b.z = nil
	z, err := newZctx()
	if err != nil {
		return fmt.Errorf("z3: replacing an interrupted context: %w", err)
	}
	b.z = z
	return nil
}

// solveIn poses and decides p in z. It reports whether the watchdog
// interrupted z.
func (b *Backend) solveIn(ctx context.Context, z *zctx, p *solver.Problem, sig fol.Signature, timeout time.Duration) (solver.Result, bool, error) {
	t := &translator{z: z, bound: map[fol.Var]int{}}
	defer func() { z.release(t.made) }()
	terms, err := t.sentences(p.Sentences)
	if err != nil {
		return solver.Result{}, false, err
	}
	w := startWatchdog(ctx, z.c, timeout+watchdogGrace)
	j := &job{b: b, z: z, w: w, p: p, sig: sig, terms: terms, deadline: time.Now().Add(timeout)}
	res, err := j.decide()
	_, interrupted := w.stop()
	return res, interrupted, err
}

// millis converts d to Z3's unsigned milliseconds, at least 1.
func millis(d time.Duration) uint32 {
	ms := d.Milliseconds()
	if ms < 1 {
		return 1
	}
	return clampU32(uint64(ms))
}

// clampU32 converts v to uint32, saturating.
func clampU32(v uint64) uint32 {
	if v > math.MaxUint32 {
		return math.MaxUint32
	}
	return uint32(v)
}
