package units

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/nlsat/nlsat/internal/dataset"
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
	got := make([][]Record, n)
	workers := o.Workers
	if workers < 1 {
		workers = runtime.NumCPU()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu         sync.Mutex
		next, done int
		firstErr   error
		wg         sync.WaitGroup
	)
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fail := func(err error) {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
				cancel()
			}
			b, err := o.NewBackend()
			if err != nil {
				fail(err)
				return
			}
			defer solver.Close(b)
			for ctx.Err() == nil {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= n {
					return
				}
				s := i % len(p.Strata)
				rng := rand.New(rand.NewPCG(p.Seed^draw^pilotStream, uint64(i)))
				pts := p.Strata[s].Points
				pt := pts[rng.IntN(len(pts))]
				recs, _, err := t.Draw(ctx, b, p.StratumFragment(s), p.Params(), p.Lexicon(), pt, rng, dataset.SeedString(p.Seed, i))
				switch {
				case errors.Is(err, ErrNoUnit):
				case err != nil:
					fail(fmt.Errorf("pilot %s %d: %w", t.Unit(), i, err))
					return
				default:
					got[i] = recs
				}
				mu.Lock()
				done++
				if o.PilotProgress != nil {
					o.PilotProgress(done, n)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var units [][]Record
	for _, u := range got {
		if u != nil {
			units = append(units, u)
		}
	}
	return pt.Fit(units)
}
