package units

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/pipeline"
	"github.com/nlsat/nlsat/internal/solver"
)

// Piloted is a task whose draws depend on a model fitted to a pilot:
// units drawn before the build's candidates, from a stream of their own,
// as the task draws them without the model. The pilot is a function of
// the plan alone, so every run of a build, every resumption and every
// shard fits the same model; a merge draws nothing and needs none.
type Piloted interface {
	Task
	// PilotUnits is the number of units the pilot of a build of the given
	// number of units draws (0 for none); NewPlan records it in the plan.
	PilotUnits(units int) int
	// Fit returns the task that draws the build's candidates with the
	// model fitted to the pilot's units, each the records Draw returned,
	// in the pilot's order.
	Fit(pilot [][]Record) (Task, error)
}

// pilotStream is xored, with the task's draw stream, into the seed of a
// pilot unit's draw, so the pilot and the candidates draw apart.
const pilotStream = 0x70696c6f74756e74 // "pilotunt"

// drawer fits the task that draws a build's candidates once, on the
// first candidate drawn: a build or shard that finds its work done draws
// no pilot either.
type drawer struct {
	task Task
	plan *Plan
	opt  Options
	once sync.Once
	t    Task
	err  error
}

// get returns the task that draws the candidates; ctx is the first
// caller's, whose cancellation stops the pilot and the build with it.
func (d *drawer) get(ctx context.Context) (Task, error) {
	d.once.Do(func() { d.t, d.err = pilot(ctx, d.task, d.plan, d.opt) })
	return d.t, d.err
}

// Refiner is a Piloted task with a residual stage. A model fitted to
// the pilot, which was drawn without it, finds what tells the classes
// apart there; once the draws match on that model, another direction can
// still tell them apart, and only a model fitted to matched draws finds
// it. So the task fitted to the pilot draws a second pilot of as many
// units (from a stream of its own) the way it draws the build's
// candidates, and Refine returns the task fitted to that as well.
// NewPlan records the second pilot's size (Plan.Residual).
type Refiner interface {
	Piloted
	Refine(residual [][]Record) (Task, error)
}

// residualStream is xored, with the task's draw stream, into the seed of
// a residual pilot unit's draw.
const residualStream = 0x726573696470696c // "residpil"

// pilot returns the task that draws p's candidates: t itself, or, when t
// is Piloted, the task fitted to its pilot (and, with a residual stage,
// to its residual pilot as well).
func pilot(ctx context.Context, t Task, p *Plan, o Options) (Task, error) {
	pt, ok := t.(Piloted)
	if !ok || p.Pilot == 0 {
		return t, nil
	}
	draw, _, _ := t.Streams()
	if o.Log != nil {
		o.Log("drawing a pilot of %d %ss to fit the balance model", p.Pilot, t.Unit())
	}
	units, err := drawPilot(ctx, t, p, o, "pilot", draw^pilotStream, p.Pilot)
	if err != nil {
		return nil, err
	}
	fitted, err := fitApart(ctx, func() (Task, error) { return pt.Fit(units) })
	if err != nil || p.Residual == 0 {
		return fitted, err
	}
	rf, ok := fitted.(Refiner)
	if !ok {
		return nil, fmt.Errorf("the plan asks for a residual pilot, but the %s task fitted to its pilot has no residual stage", t.Name())
	}
	if o.Log != nil {
		o.Log("drawing a residual pilot of %d %ss, matched by that model, to fit its residual stage", p.Residual, t.Unit())
	}
	units, err = drawPilot(ctx, fitted, p, o, "residual pilot", draw^pilotStream^residualStream, p.Residual)
	if err != nil {
		return nil, err
	}
	return fitApart(ctx, func() (Task, error) { return rf.Refine(units) })
}

// drawPilot draws the n units of a pilot with t from stream, in order;
// a unit that cannot be drawn (ErrNoUnit) is left out.
func drawPilot(ctx context.Context, t Task, p *Plan, o Options, stage string, stream uint64, n int) ([][]Record, error) {
	var units [][]Record
	err := pipeline.Run(ctx, pipeline.Config[solver.Backend, []Record]{
		Workers: o.Workers, Limit: n, New: o.NewBackend, Close: solver.Close,
		Do: func(ctx context.Context, b solver.Backend, i int) ([]Record, error) {
			recs, _, err := drawUnit(ctx, t, b, p, stream, i)
			switch {
			case errors.Is(err, ErrNoUnit):
				return nil, nil
			case err != nil:
				return nil, fmt.Errorf("%s %s %d: %w", stage, t.Unit(), i, err)
			}
			return recs, nil
		},
		Emit: func(i int, recs []Record) (bool, error) {
			if recs != nil {
				units = append(units, recs)
			}
			if o.PilotProgress != nil {
				o.PilotProgress(stage, i+1, n)
			}
			return false, nil
		},
	})
	return units, err
}

// fitApart runs a fit apart from ctx: the fit does not look at it, and an
// interrupt stops the build at once.
func fitApart(ctx context.Context, fit func() (Task, error)) (Task, error) {
	type fitted struct {
		t   Task
		err error
	}
	f, err := pipeline.Apart(ctx, func() fitted {
		t, err := fit()
		return fitted{t, err}
	})
	if err != nil {
		return nil, err
	}
	return f.t, f.err
}

// drawUnit draws unit i for stratum i mod len(Strata) from (seed ⊕
// stream, i) alone: a point of the stratum, then the task's draw there.
func drawUnit(ctx context.Context, t Task, b solver.Backend, p *Plan, stream uint64, i int) ([]Record, fragments.Instance, error) {
	s := i % len(p.Strata)
	rng := rand.New(rand.NewPCG(p.Seed^stream, uint64(i)))
	pts := p.Strata[s].Points
	pt := pts[rng.IntN(len(pts))]
	return t.Draw(ctx, b, p.StratumFragment(s), p.Params(), p.Lexicon(), pt, rng, dataset.SeedString(p.Seed, i))
}
