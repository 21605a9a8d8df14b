package phase

import (
	"context"
	"fmt"
	"time"

	"github.com/nlsat/nlsat/internal/solver"
)

// Estimate samples point p of the configuration with b and returns its
// final estimate: Samples instances, or in adaptive mode batches that
// double the count while the verdict straddles an edge of the band,
// until Budget is spent. onSample (optional) is told of every instance
// decided. The counts depend only on the configuration and p.
func (c *Config) Estimate(ctx context.Context, b solver.Backend, p Point, onSample func(solver.Status)) (Estimate, error) {
	budget := max(c.Budget, c.Samples)
	e := Estimate{Fragment: c.Fragment, Point: p}
	for {
		batch := c.Samples
		if e.N > 0 {
			batch = min(e.N, budget-e.N) // double the count
		}
		for s, end := e.N, e.N+batch; s < end; s++ {
			st, err := c.sample(ctx, b, &e, s)
			if err != nil {
				return e, err
			}
			if onSample != nil {
				onSample(st)
			}
		}
		e.finish(c.Band)
		if e.final(budget) {
			return e, nil
		}
	}
}

// sample decides sample s of e's point, counts it and returns its status.
func (c *Config) sample(ctx context.Context, b solver.Backend, e *Estimate, s int) (solver.Status, error) {
	inst, err := Draw(c.Fragment, c.Params, c.Seed, e.Point, s)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	fs := inst.Formulas()
	v, err := solver.Decide(ctx, b, fs, solver.DecideOptions{})
	if err != nil {
		return 0, fmt.Errorf("m=%d n1=%d n2=%d sample %d: %w", e.M, e.N1, e.N2, s, err)
	}
	e.N++
	switch v.Status {
	case solver.Sat:
		e.Sat++
	case solver.Unsat:
		e.Unsat++
	default:
		e.Unknown++
	}
	e.times = append(e.times, time.Since(start))
	subj, obj := quantBins(fs)
	e.addQuant(subj, obj, v.Status)
	return v.Status, nil
}

// final reports whether a finished estimate needs no further batch.
func (e *Estimate) final(budget int) bool { return e.Verdict != Straddles || e.N >= budget }
