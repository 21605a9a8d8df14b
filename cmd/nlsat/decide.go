package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/solver"
)

// decision is a backend's answer for one instance, with the minimal
// unsatisfiable subset when it is unsat and one was asked for.
type decision struct {
	res solver.Result
	mus []int
}

// decide solves the sentences and, for an unsat answer, shrinks the core
// to a certified minimal unsatisfiable subset. An unsat answer whose MUS
// cannot be certified (a backend answered unknown on a subset) is returned
// as Unknown: no label goes out without its certificate. The backend is
// reset first, so the answer does not depend on earlier instances.
func decide(ctx context.Context, b solver.Backend, fs []fol.Formula, wantMUS bool) (decision, error) {
	if err := solver.Reset(b); err != nil {
		return decision{}, err
	}
	p := &solver.Problem{Sentences: fs}
	res, err := b.Solve(ctx, p)
	if err != nil {
		return decision{}, err
	}
	d := decision{res: res}
	if res.Status == solver.Unsat && wantMUS {
		mus, err := solver.MinimalCore(ctx, b, p, res.Core)
		switch {
		case ctx.Err() != nil:
			return decision{res: solver.Result{Reason: solver.Canceled}}, nil
		case errors.Is(err, solver.ErrUndecided):
			// The unsat answer stands, but a label needs its certificate:
			// the instance counts as undecided.
			return decision{res: solver.Result{Reason: solver.GaveUp, Detail: err.Error()}}, nil
		case err != nil:
			return decision{}, fmt.Errorf("minimal unsatisfiable subset: %w", err)
		}
		d.mus = mus
	}
	return d, nil
}

// applyDecision writes the label and certificate of d into r.
func applyDecision(r *dataset.Record, d decision, solverName string) {
	r.Solver = solverName
	r.Certificate = dataset.Certificate{}
	r.Difficulty = dataset.Difficulty{SearchNodes: int(d.res.Stats["nodes"])}
	switch d.res.Status {
	case solver.Sat:
		r.Label = dataset.LabelSat
		r.Certificate.ModelSize = d.res.Model.Size
	case solver.Unsat:
		r.Label = dataset.LabelUnsat
		r.Certificate.MUS = d.mus
	default:
		r.Label = dataset.LabelAbsent
	}
}
