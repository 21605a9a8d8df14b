// Package pipeline runs per-instance work on several workers and hands the
// results back in index order, so that output never depends on the number
// of workers.
//
// # Determinism
//
// Work item i is identified by its index alone; Run delivers results to
// Emit strictly in increasing index order. Whatever Workers is, Emit sees
// the same sequence, provided Do's result depends only on i.
package pipeline

import (
	"context"
	"errors"
	"runtime"
	"sync"
)

// Config describes one run. W is a worker's private state (for example a
// solver context); R is a result.
type Config[W, R any] struct {
	// Workers is the number of goroutines; 0 or less means all cores.
	Workers int
	// Limit is the number of indices to process; negative means no limit
	// (Emit then ends the run by returning stop).
	Limit int
	// New creates one worker's state; Close releases it (Close may be nil).
	New   func() (W, error)
	Close func(W)
	// Do computes the result for index i.
	Do func(ctx context.Context, w W, i int) (R, error)
	// Emit receives results in index order; it returns stop to end the run.
	Emit func(i int, r R) (stop bool, err error)
}

type item[R any] struct {
	i   int
	r   R
	err error
}

// errStopped marks a run that Emit ended; it is not reported to callers.
var errStopped = errors.New("stopped")

// Run processes indices 0, 1, … until Limit is reached, Emit asks to stop,
// an error occurs or ctx is canceled. It returns the first error (Do's,
// Emit's, New's or ctx.Err()), and only once every call of Do has
// returned.
func Run[W, R any](ctx context.Context, cfg Config[W, R]) error {
	n := cfg.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)

	window := make(chan struct{}, 4*n) // bounds results held out of order
	indices := make(chan int)
	results := make(chan item[R], 4*n)
	go feed(ctx, cfg.Limit, window, indices)

	var wg sync.WaitGroup
	for range n {
		w, err := cfg.New()
		if err != nil {
			cancel(err)
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if cfg.Close != nil {
				defer cfg.Close(w)
			}
			for i := range indices {
				r, err := cfg.Do(ctx, w, i)
				results <- item[R]{i, r, err}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	collect(ctx, cancel, cfg.Emit, window, results)
	if err := context.Cause(ctx); err != nil && !errors.Is(err, errStopped) {
		return err
	}
	return nil
}

func feed(ctx context.Context, limit int, window chan struct{}, indices chan<- int) {
	defer close(indices)
	for i := 0; limit < 0 || i < limit; i++ {
		select {
		case window <- struct{}{}:
		case <-ctx.Done():
			return
		}
		select {
		case indices <- i:
		case <-ctx.Done():
			return
		}
	}
}

// collect reorders results and emits them; after a stop or an error it
// keeps draining so that workers can finish and close their state.
func collect[R any](ctx context.Context, cancel context.CancelCauseFunc,
	emit func(int, R) (bool, error), window chan struct{}, results <-chan item[R]) {
	pending := map[int]item[R]{}
	next := 0
	for it := range results {
		if ctx.Err() != nil {
			continue
		}
		pending[it.i] = it
		for {
			cur, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			<-window
			if cur.err != nil {
				cancel(cur.err)
				break
			}
			stop, err := emit(cur.i, cur.r)
			if err != nil {
				cancel(err)
				break
			}
			if stop {
				cancel(errStopped)
				break
			}
		}
	}
}

// Apart runs f in a goroutine of its own and returns its result, or
// ctx's error as soon as ctx ends, without waiting for f. It is for a
// long computation that does not look at ctx, such as a model's fit, so
// that a command asked to stop does not wait for it. f must not change
// anything its caller reads: after an interrupt it may still be running
// when Apart has returned, and its result is dropped.
func Apart[T any](ctx context.Context, f func() T) (T, error) {
	if err := ctx.Err(); err != nil {
		var zero T
		return zero, err
	}
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v, nil
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}
