//go:build cgo && !noz3

package z3

/*
#include "nlz3.h"
*/
import "C"

import (
	"context"
	"sync"
	"time"

	"github.com/nlsat/nlsat/internal/solver"
)

// retryInterrupt is how often the watchdog repeats Z3_interrupt while a
// check it has already interrupted keeps running: an interrupt that lands
// before Z3 has installed its handler for the check would otherwise be lost.
const retryInterrupt = 50 * time.Millisecond

// watchdog interrupts a running Z3 check when the deadline passes or the
// context is canceled. It calls Z3_interrupt only between enter and exit,
// so it never interrupts an idle context (in Z3 4.8.12 an idle interrupt
// leaves a cancel flag set that can make the next check answer sat
// wrongly).
type watchdog struct {
	c       C.Z3_context
	mu      sync.Mutex
	running bool
	fired   solver.Reason // Timeout or Canceled once the watchdog has fired
	called  bool          // whether Z3_interrupt was called
	done    chan struct{}
	wg      sync.WaitGroup
}

// startWatchdog starts watching ctx and the deadline d from now.
func startWatchdog(ctx context.Context, c C.Z3_context, d time.Duration) *watchdog {
	w := &watchdog{c: c, done: make(chan struct{})}
	w.wg.Add(1)
	go w.run(ctx, d)
	return w
}

func (w *watchdog) run(ctx context.Context, d time.Duration) {
	defer w.wg.Done()
	timer := time.NewTimer(d)
	defer timer.Stop()
	var why solver.Reason
	select {
	case <-w.done:
		return
	case <-ctx.Done():
		why = solver.Canceled
	case <-timer.C:
		why = solver.Timeout
	}
	tick := time.NewTicker(retryInterrupt)
	defer tick.Stop()
	for {
		w.mu.Lock()
		if w.fired == solver.NoReason {
			w.fired = why
		}
		if w.running {
			C.Z3_interrupt(w.c)
			w.called = true
		}
		w.mu.Unlock()
		select {
		case <-w.done:
			return
		case <-tick.C:
		}
	}
}

// enter marks the start of a check. It returns false, and the check must
// not start, when the watchdog has already fired.
func (w *watchdog) enter() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fired != solver.NoReason {
		return false
	}
	w.running = true
	return true
}

// exit marks the end of a check: from now on the watchdog never touches
// the context.
func (w *watchdog) exit() {
	w.mu.Lock()
	w.running = false
	w.mu.Unlock()
}

// reason returns why the watchdog has fired, or NoReason.
func (w *watchdog) reason() solver.Reason {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.fired
}

// stop ends the watchdog. It reports why it fired (NoReason if it did
// not) and whether it interrupted the context.
func (w *watchdog) stop() (solver.Reason, bool) {
	close(w.done)
	w.wg.Wait()
	return w.fired, w.called
}
