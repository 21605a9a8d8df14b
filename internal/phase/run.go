package phase

import (
	"context"
	"fmt"
	"time"

	"github.com/nlsat/nlsat/internal/pipeline"
	"github.com/nlsat/nlsat/internal/solver"
)

// task is one instance to solve: sample s of point p.
type task struct{ p, s int }

// outcome is one solved instance.
type outcome struct {
	st      solver.Status
	elapsed time.Duration
}

// Run sweeps the points and returns one estimate per point, in the order
// of cfg.Points. The counts, intervals and verdicts depend only on the
// configuration, never on cfg.Workers; only the times vary.
func Run(ctx context.Context, cfg Config) ([]Estimate, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	budget := max(cfg.Budget, cfg.Samples)
	est := make([]Estimate, len(cfg.Points))
	active := make([]int, len(cfg.Points))
	for i, p := range cfg.Points {
		est[i] = Estimate{Fragment: cfg.Fragment, Point: p}
		active[i] = i
	}
	for len(active) > 0 {
		var tasks []task
		for _, i := range active {
			batch := cfg.Samples
			if est[i].N > 0 {
				batch = min(est[i].N, budget-est[i].N) // double the count
			}
			for s := est[i].N; s < est[i].N+batch; s++ {
				tasks = append(tasks, task{i, s})
			}
		}
		if err := cfg.round(ctx, tasks, est, budget); err != nil {
			return nil, err
		}
		next := active[:0]
		for _, i := range active {
			est[i].finish(cfg.Band)
			if !est[i].final(budget) {
				next = append(next, i)
			}
		}
		active = next
	}
	return est, nil
}

// final reports whether a finished estimate needs no further batch.
func (e *Estimate) final(budget int) bool { return e.Verdict != Straddles || e.N >= budget }

// round solves the tasks on the workers and adds the outcomes to est in
// task order. A point's tasks are contiguous; after its last one, a final
// estimate is handed to c.Final.
func (c *Config) round(ctx context.Context, tasks []task, est []Estimate, budget int) error {
	return pipeline.Run(ctx, pipeline.Config[solver.Backend, outcome]{
		Workers: c.Workers, Limit: len(tasks),
		New: c.NewBackend, Close: c.Close,
		Do: func(ctx context.Context, b solver.Backend, i int) (outcome, error) {
			t := tasks[i]
			p := c.Points[t.p]
			inst, err := Draw(c.Fragment, c.Params, c.Seed, p, t.s)
			if err != nil {
				return outcome{}, err
			}
			start := time.Now()
			v, err := solver.Decide(ctx, b, inst.Formulas(), solver.DecideOptions{})
			if err != nil {
				return outcome{}, fmt.Errorf("m=%d n1=%d n2=%d sample %d: %w", p.M, p.N1, p.N2, t.s, err)
			}
			return outcome{v.Status, time.Since(start)}, nil
		},
		Emit: func(i int, o outcome) (bool, error) {
			e := &est[tasks[i].p]
			e.N++
			switch o.st {
			case solver.Sat:
				e.Sat++
			case solver.Unsat:
				e.Unsat++
			default:
				e.Unknown++
			}
			e.times = append(e.times, o.elapsed)
			if c.Done != nil {
				c.Done(o.st)
			}
			if c.Final != nil && (i+1 == len(tasks) || tasks[i+1].p != tasks[i].p) {
				e.finish(c.Band)
				if e.final(budget) {
					return false, c.Final(*e)
				}
			}
			return false, nil
		},
	})
}
