package solver

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// ErrUndecided is wrapped by MinimalCore's error when a backend answered
// Unknown on a subset, so that the caller can tell an incomplete solver
// from a bug.
var ErrUndecided = errors.New("undecided")

// MinimalCore shrinks core (all sentences when nil) to a minimal
// unsatisfiable subset of p by deletion: each sentence is dropped if the
// rest is still Unsat. It then certifies the result: the subset itself is
// Unsat, and the subset minus any one sentence is Sat with a model that
// CheckModel accepts. Any Unknown answer, or a failed certification, is an
// error: a MUS is never built on an unknown.
func MinimalCore(ctx context.Context, b Backend, p *Problem, core []int) (mus []int, err error) {
	if core == nil {
		for i := range p.Sentences {
			core = append(core, i)
		}
	}
	mus = slices.Clone(core)
	slices.Sort(mus)
	for i := 0; i < len(mus); {
		rest := slices.Delete(slices.Clone(mus), i, i+1)
		st, err := solveSubset(ctx, b, p, rest)
		if err != nil {
			return nil, err
		}
		if st == Unsat {
			mus = rest
		} else {
			i++
		}
	}
	if err := certifyCore(ctx, b, p, mus); err != nil {
		return nil, err
	}
	return mus, nil
}

// certifyCore checks that mus is Unsat and that each mus minus one
// sentence is Sat with a checked model.
func certifyCore(ctx context.Context, b Backend, p *Problem, mus []int) error {
	if st, err := solveSubset(ctx, b, p, mus); err != nil {
		return err
	} else if st != Unsat {
		return fmt.Errorf("core %v is %v, not unsat", mus, st)
	}
	for i := range mus {
		rest := slices.Delete(slices.Clone(mus), i, i+1)
		st, err := solveSubset(ctx, b, p, rest)
		if err != nil {
			return err
		}
		if st != Sat {
			return fmt.Errorf("core %v is not minimal: without sentence %d it is %v", mus, mus[i]+1, st)
		}
	}
	return nil
}

// solveSubset decides the sentences of p at indices idx. A Sat answer's
// model is re-checked with CheckModel; Unknown is an error.
func solveSubset(ctx context.Context, b Backend, p *Problem, idx []int) (Status, error) {
	sub := &Problem{Timeout: p.Timeout}
	for _, i := range idx {
		sub.Sentences = append(sub.Sentences, p.Sentences[i])
	}
	res, err := b.Solve(ctx, sub)
	if err != nil {
		return Unknown, fmt.Errorf("minimal core: %s: %w", b.Name(), err)
	}
	switch res.Status {
	case Unknown:
		return Unknown, fmt.Errorf("minimal core: %s answered unknown (%v) on sentences %v: %w", b.Name(), res.Reason, plusOne(idx), ErrUndecided)
	case Sat:
		if err := CheckModel(sub, res.Model); err != nil {
			return Unknown, fmt.Errorf("minimal core: %s model for sentences %v: %w", b.Name(), plusOne(idx), err)
		}
	}
	return res.Status, nil
}

func plusOne(idx []int) []int {
	out := make([]int, len(idx))
	for i, v := range idx {
		out[i] = v + 1
	}
	return out
}
