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

// pilot returns the task that draws p's candidates: t itself, or, when t
// is Piloted, the task fitted to its pilot.
func pilot(ctx context.Context, t Task, p *Plan, o Options) (Task, error) {
	pt, ok := t.(Piloted)
	if !ok {
		return t, nil
	}
	n := p.Pilot
	if n == 0 {
		return t, nil
	}
	if o.Log != nil {
		o.Log("drawing a pilot of %d %ss to fit the balance model", n, t.Unit())
	}
	draw, _, _ := t.Streams()
	var units [][]Record
	err := pipeline.Run(ctx, pipeline.Config[solver.Backend, []Record]{
		Workers: o.Workers, Limit: n, New: o.NewBackend, Close: solver.Close,
		Do: func(ctx context.Context, b solver.Backend, i int) ([]Record, error) {
			recs, _, err := drawUnit(ctx, t, b, p, draw^pilotStream, i)
			switch {
			case errors.Is(err, ErrNoUnit):
				return nil, nil
			case err != nil:
				return nil, fmt.Errorf("pilot %s %d: %w", t.Unit(), i, err)
			}
			return recs, nil
		},
		Emit: func(i int, recs []Record) (bool, error) {
			if recs != nil {
				units = append(units, recs)
			}
			if o.PilotProgress != nil {
				o.PilotProgress(i+1, n)
			}
			return false, nil
		},
	})
	if err != nil {
		return nil, err
	}
	// The fit does not look at ctx: it runs apart, so that an interrupt
	// stops the build at once.
	type fitted struct {
		t   Task
		err error
	}
	f, err := pipeline.Apart(ctx, func() fitted {
		t, err := pt.Fit(units)
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
